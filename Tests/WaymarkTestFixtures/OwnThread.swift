import Foundation
package import Testing

/// A trait that runs each test on a thread of its own instead of the test runner's pool, for
/// the tests that hold their thread for long: waiting for processes (`waitpid`, `usleep`, a
/// pipe), running an event loop, or computing for seconds (a simulated day).
///
/// Swift's concurrency runs tests on a pool of one thread per core, which does not take a
/// thread back from a test until it suspends. Two bridge suites waiting on mosquitto for minutes
/// and power runs computing for seconds, on two cores, left the pool to no one else: a test
/// waiting for one `await` overran its time limit (CI, 2026-11-27). Threads of their own are
/// shared by the kernel's scheduler, so every test gets its turn.
package struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope holds no test body: its tests get their threads one by one.
        guard testCase != nil else { return try await function() }
        let executor = ThreadExecutor()
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Runs each test on a thread of its own (see ``OwnThread``).
    package static var ownThread: Self { OwnThread() }
}

/// A task executor that runs its jobs, in order, on one thread it starts; after ``finish()`` the
/// thread ends and a late job (a task that outlived its test) goes to the global executor.
private final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init() {
        Thread { [self] in run() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        let accepted = !finished
        if accepted {
            jobs.append(job)
            condition.signal()
        }
        condition.unlock()
        if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while let job = next() { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    /// The next job, waiting for one; `nil` once finished with none left.
    private func next() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !finished { condition.wait() }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }
}

import Foundation
import Synchronization
import Testing
import WaymarkTestFixtures

/// The `.ownThread` trait takes a test off the runner's pool: with every pool thread blocked, the
/// test still runs and its awaits still resume.
@Suite struct OwnThreadTests {
    @Test(.ownThread) func aTestOnItsOwnThreadGoesOnWhileEveryPoolThreadIsBlocked() async {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let gate = Gate(width: width), holding = DispatchSemaphore(value: 0)
        for _ in 0..<width {
            Task.detached {
                holding.signal()
                gate.pass()
            }
        }
        // Every pool thread now waits at the gate (this thread is not one of them). A thread
        // outside the pool opens it after 10 s whatever happens, so a failure cannot hang the run.
        for _ in 0..<width { _ = holding.wait(timeout: .now() + 5) }
        Thread {
            Thread.sleep(forTimeInterval: 10)
            gate.open()
        }.start()
        let started = ContinuousClock.now
        // A resumption from another thread: on the pool it would wait for the gate to open.
        let answer = await withCheckedContinuation { continuation in Thread { continuation.resume(returning: 42) }.start() }
        gate.open()
        #expect(answer == 42)
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}

/// A gate `width` threads wait at until it opens, once.
private final class Gate: Sendable {
    private let width: Int
    private let waiting = DispatchSemaphore(value: 0)
    private let opened = Mutex(false)

    init(width: Int) { self.width = width }

    func pass() { waiting.wait() }

    func open() {
        let first = opened.withLock { isOpen in
            defer { isOpen = true }
            return !isOpen
        }
        guard first else { return }
        for _ in 0..<width { waiting.signal() }
    }
}

import Glibc
import Testing
import WaymarkEventLoop
import WaymarkSystem

@Suite(.timeLimit(.minutes(1)))
struct RemoteTests {
    @Test func jobsFromOtherThreadsRunOnTheLoopThreadInOrder() async throws {
        let loop = try EventLoop()
        let remote = loop.remote
        async let finished: Void = runOnOwnThread(loop)
        let loopThread = await remote.onLoop { _ in pthread_self() }

        // From a plain POSIX thread…
        let fromThread: (submitter: pthread_t, runner: pthread_t) = await withCheckedContinuation { done in
            try? DetachedThread.start {
                let submitter = pthread_self()
                remote.execute { _ in done.resume(returning: (submitter, pthread_self())) }
            }
        }
        #expect(pthread_equal(fromThread.runner, loopThread) != 0)
        #expect(pthread_equal(fromThread.submitter, loopThread) == 0)

        // …and from many tasks of the concurrency pool at once.
        let order = Locked<[Int]>([])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<25 {
                        remote.execute { _ in
                            precondition(pthread_equal(pthread_self(), loopThread) != 0)
                            order.mutate { $0.append(task * 100 + index) }
                        }
                    }
                }
            }
        }
        await remote.onLoop { _ in }
        remote.stop()
        try await finished

        let jobs = order.value
        #expect(jobs.count == 100)
        for task in 0..<4 {
            let own = jobs.filter { $0 / 100 == task }
            #expect(own == own.sorted())
        }
    }

    @Test func sigtermReachesTheHandlerAndRunReturns() async throws {
        let loop = try EventLoop()
        let remote = loop.remote
        let received = Locked<[Signal]>([])
        async let finished: Void = runOnOwnThread(loop)
        // handleSignals blocks the signals for the calling thread, so it runs on the loop's
        // thread; the daemon calls it on its main thread before starting any other.
        let loopThread = await remote.onLoop { loop in
            do {
                try loop.handleSignals([.terminate, .interrupt]) { loop, signal in
                    received.mutate { $0.append(signal) }
                    loop.stop()
                }
            } catch {
                preconditionFailure("\(error)")
            }
            return pthread_self()
        }

        #expect(pthread_kill(loopThread, SIGTERM) == 0)
        try await finished
        #expect(received.value == [.terminate])
    }

    @Test func aSignalRaisedByItsHandlerDoesNotHoldTheLoop() async throws {
        let loop = try EventLoop()
        let remote = loop.remote
        let handled = Locked(0)
        async let finished: Void = runOnOwnThread(loop)
        await remote.onLoop { loop in
            do {
                // As a log line written to a broken pipe raised SIGPIPE: handling it raises it again.
                try loop.handleSignals([.user1]) { _, signal in
                    handled.mutate { $0 += 1 }
                    _ = pthread_kill(pthread_self(), signal.rawValue)
                }
            } catch {
                preconditionFailure("\(error)")
            }
            // Pending before the loop waits again, with a timer due at once: no wall-clock race.
            _ = pthread_kill(pthread_self(), SIGUSR1)
            loop.schedule(after: .zero) { loop in loop.stop() }
        }
        try await finished  // the timer still fired
        #expect(handled.value >= 1)
    }

    @Test func aTimerBeyondTheClocksRangeWaitsForeverWithoutTrapping() async throws {
        let loop = try EventLoop()
        let remote = loop.remote
        let fired = Locked(false)
        async let finished: Void = runOnOwnThread(loop)
        await remote.onLoop { loop in
            // The daemon's watchdog from WATCHDOG_USEC=9223372036854775807: half of 292,000 years.
            loop.schedule(after: .microseconds(Int64.max) / 2, repeating: .microseconds(Int64.max) / 2) { _ in fired.mutate { $0 = true } }
            loop.schedule(after: .milliseconds(20)) { loop in loop.stop() }
        }
        try await finished
        #expect(fired.value == false)
    }
}

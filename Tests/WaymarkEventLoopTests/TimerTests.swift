import Testing
import WaymarkEventLoop
import WaymarkSystem

@Suite(.timeLimit(.minutes(1)))
struct TimerTests {
    @Test func timersFireInDeadlineOrderAndCancelledOnesNever() async throws {
        let fired = Locked<[String]>([])
        let loop = try EventLoop()
        let start = loop.now
        loop.schedule(at: start + .milliseconds(30)) { _ in fired.mutate { $0.append("c") } }
        loop.schedule(at: start + .milliseconds(10)) { _ in fired.mutate { $0.append("a") } }
        let cancelled = loop.schedule(at: start + .milliseconds(15)) { _ in fired.mutate { $0.append("x") } }
        loop.schedule(at: start + .milliseconds(20)) { _ in fired.mutate { $0.append("b") } }
        loop.schedule(at: start + .milliseconds(10)) { _ in fired.mutate { $0.append("a2") } }
        loop.schedule(at: start + .milliseconds(40)) { loop in loop.stop() }
        loop.cancel(cancelled)

        try await runOnOwnThread(loop)
        #expect(fired.value == ["a", "a2", "b", "c"])
    }

    @Test func aRepeatingTimerFiresUntilItCancelsItself() async throws {
        let ticks = Locked<[MonotonicInstant]>([])
        let loop = try EventLoop()
        let timer = Locked<TimerID?>(nil)
        let start = loop.now
        let id = loop.schedule(after: .milliseconds(5), repeating: .milliseconds(5)) { loop in
            ticks.mutate { $0.append(loop.now) }
            if ticks.value.count == 3, let id = timer.value { loop.cancel(id) }
        }
        timer.mutate { $0 = id }
        loop.schedule(after: .milliseconds(100)) { loop in loop.stop() }

        try await runOnOwnThread(loop)
        let instants = ticks.value
        #expect(instants.count == 3)
        // Deadlines only move later, so tick n comes no sooner than n intervals after start.
        for (index, instant) in instants.enumerated() {
            #expect(instant - start >= .milliseconds(5 * (index + 1)))
        }
    }

    @Test func aTimerScheduledFromAHandlerFires() async throws {
        let loop = try EventLoop()
        let fired = Locked(false)
        loop.schedule(after: .milliseconds(1)) { loop in
            // Due at once: the timerfd has just expired and must be armed again for this one.
            loop.schedule(at: loop.now) { loop in
                fired.mutate { $0 = true }
                loop.stop()
            }
        }
        try await runOnOwnThread(loop)
        #expect(fired.value)
    }
}

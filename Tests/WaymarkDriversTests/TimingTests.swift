import Testing
import WaymarkDrivers
import WaymarkSystem

@Suite struct TimingTests {
    @Test func backoffDoublesToItsCeilingAndResets() {
        var backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(3))
        #expect((0..<5).map { _ in backoff.nextDelay() } == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(3)])
        backoff.reset()
        #expect(backoff.nextDelay() == .milliseconds(500))
    }

    @Test func debounceLocksOutCloseEdges() {
        var debouncer = EdgeDebouncer(period: .milliseconds(10))
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        let accepted = [0, 3, 9, 10, 12].map { debouncer.accept(start + .milliseconds($0)) }
        #expect(accepted == [true, false, false, true, false])
    }
}

import Testing
import WaymarkClock
import WaymarkInput
import WaymarkSystem

/// The timeline's conversions saturate: a speed the options allow, or a far instant, never
/// traps (a --speed of 1e-300 did, once a client subscribed).
struct TimelineTests {
    @Test func conversionsAtExtremeSpeedsSaturate() {
        let start = MonotonicInstant(nanoseconds: 0)
        let slow = Timeline(speed: 1e-300, now: start)
        #expect(slow.monotonic(at: Instant(nanoseconds: 1_000_000_000)) == MonotonicInstant(nanoseconds: .max))
        #expect(slow.monotonic(at: Instant(nanoseconds: -1_000_000_000)) == MonotonicInstant(nanoseconds: .min))
        let fast = Timeline(speed: 1e300, now: start)
        #expect(fast.instant(at: start + .seconds(1)) == Instant(nanoseconds: .max))
        let real = Timeline(speed: 2, now: start)
        #expect(real.instant(at: start + .seconds(3)) == Instant(nanoseconds: 6_000_000_000))
        #expect(real.monotonic(at: Instant(nanoseconds: 6_000_000_000)) == start + .seconds(3))
    }
}

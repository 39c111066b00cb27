import Testing
import WaymarkClock
import WaymarkSystem

/// Instants and durations saturate at their extremes instead of trapping: a duration can come
/// from outside (`WATCHDOG_USEC` of 2^63 − 1 µs trapped the daemon at start, docs/reliability.md).
struct TimeArithmeticTests {
    @Test func aDurationBeyondTheNanosecondRangeSaturates() {
        #expect(Duration.microseconds(Int64.max).nanoseconds == .max)
        #expect(Duration.seconds(Int64.min).nanoseconds == .min)
        #expect((Duration.seconds(9_223_372_036) + .nanoseconds(854_775_807)).nanoseconds == .max, "the largest exact one")
        #expect(Duration.milliseconds(-1_500).nanoseconds == -1_500_000_000)
    }

    @Test func monotonicInstantsSaturate() {
        #expect(MonotonicInstant.now + .microseconds(Int64.max) == MonotonicInstant(nanoseconds: .max))
        #expect(MonotonicInstant(nanoseconds: .min + 5) - .seconds(1) == MonotonicInstant(nanoseconds: .min))
        #expect(MonotonicInstant(nanoseconds: 5) - .seconds(Int64.min) == MonotonicInstant(nanoseconds: .max))
        let span = MonotonicInstant(nanoseconds: .max) - MonotonicInstant(nanoseconds: .min)
        #expect(span == .nanoseconds(Int64.max) + .nanoseconds(Int64.max) + .nanoseconds(1))
    }

    @Test func theCoresInstantsSaturate() {
        #expect(Instant(nanoseconds: .max - 1) + .seconds(10) == Instant(nanoseconds: .max))
        #expect(Instant(nanoseconds: .min + 1) - .seconds(10) == Instant(nanoseconds: .min))
        #expect(Instant(nanoseconds: 1) + .seconds(2) == Instant(nanoseconds: 2_000_000_001))
        #expect(Instant(nanoseconds: .min) - Instant(nanoseconds: .max) == .zero - .nanoseconds(Int64.max) - .nanoseconds(Int64.max) - .nanoseconds(1))
    }

    @Test func monotonicInstantsDescribeNegativeTimes() {
        #expect(MonotonicInstant(nanoseconds: 1_234_000_000_500).description == "1234.000000500s")
        #expect(MonotonicInstant(nanoseconds: -250_000_000).description == "-0.250000000s")
        #expect(MonotonicInstant(nanoseconds: .min).description == "-9223372036.854775808s")
    }
}

/// A point on the core's monotonic timeline, in nanoseconds from an arbitrary origin.
///
/// The pure core never reads a clock: every event it handles carries an `Instant`, and a
/// timer is a request to be called back at one. The daemon maps the timeline to
/// `CLOCK_MONOTONIC`; a simulation advances it as fast as the CPU allows.
package struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the timeline's origin.
    package var nanoseconds: Int64

    /// The instant `nanoseconds` after the origin.
    @inlinable
    package init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The timeline's origin.
    package static let zero = Instant(nanoseconds: 0)

    /// The instant a duration later (saturating at the timeline's extremes).
    @inlinable
    package static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds.saturatingAdvanced(by: rhs))
    }

    /// The instant a duration earlier (saturating at the timeline's extremes).
    @inlinable
    package static func - (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds.saturatingAdvanced(by: .zero - rhs))
    }

    /// The time from `rhs` to `lhs`.
    @inlinable
    package static func - (lhs: Instant, rhs: Instant) -> Duration {
        .nanoseconds(lhs.nanoseconds) - .nanoseconds(rhs.nanoseconds)
    }

    package static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// Seconds since the origin, for display and arithmetic.
    package var seconds: Double { Double(nanoseconds) / 1e9 }

    package var description: String { "t+\(seconds)s" }
}

extension Duration {
    /// The duration in whole nanoseconds, rounded toward zero, saturating beyond about 292
    /// years either way: durations can come from outside (an environment variable, a
    /// request), and none may trap.
    @inlinable
    package var nanoseconds: Int64 {
        // Compared first: `components` itself traps past 2^63 seconds.
        if self >= .nanoseconds(Int64.max) { return .max }
        if self <= .nanoseconds(Int64.min) { return .min }
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in seconds as a `Double`.
    @inlinable
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Int64 {
    /// This count of nanoseconds moved by `offset`, saturating at the extremes instead of
    /// trapping (the times of instants and dates come from outside).
    @inlinable
    package func saturatingAdvanced(by offset: Duration) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(offset.nanoseconds)
        return overflow ? (offset < .zero ? .min : .max) : sum
    }

    /// `value` rounded toward zero, clamped to the type's range (NaN is 0): a count made of a
    /// product or a quotient of outside values, such as a timeline's speed.
    @inlinable
    package init(saturating value: Double) {
        // Double(Int64.max) rounds up to 2^63, which is out of range: compared, not converted.
        if value.isNaN {
            self = 0
        } else if value >= Double(Int64.max) {
            self = .max
        } else if value <= Double(Int64.min) {
            self = .min
        } else {
            self.init(value)
        }
    }
}

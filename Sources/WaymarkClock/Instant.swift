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

    /// The instant a duration later.
    @inlinable
    package static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }

    /// The instant a duration earlier.
    @inlinable
    package static func - (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    /// The time from `rhs` to `lhs`.
    @inlinable
    package static func - (lhs: Instant, rhs: Instant) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    package static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// Seconds since the origin, for display and arithmetic.
    package var seconds: Double { Double(nanoseconds) / 1e9 }

    package var description: String { "t+\(seconds)s" }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating far beyond any run's length).
    @inlinable
    package var nanoseconds: Int64 {
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

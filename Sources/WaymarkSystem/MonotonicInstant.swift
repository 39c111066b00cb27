import Glibc
import WaymarkClock

/// A point in time on `CLOCK_MONOTONIC`: nanoseconds since an arbitrary start (boot), never
/// stepped by NTP or the user. Timers and timeouts are measured on it.
///
/// It is an `InstantProtocol` instant, with `+ Duration`, `- Duration` and `instant - instant`
/// as on the standard clocks' instants.
package struct MonotonicInstant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds on `CLOCK_MONOTONIC`.
    package var nanoseconds: Int64

    /// The instant `nanoseconds` into `CLOCK_MONOTONIC`.
    package init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The current instant, read with `clock_gettime(CLOCK_MONOTONIC)`.
    package static var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: readClock(CLOCK_MONOTONIC))
    }

    /// The instant `duration` later (earlier if negative), saturating at the clock's
    /// extremes: a timeout can come from outside (`WATCHDOG_USEC`, a request).
    package func advanced(by duration: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds.saturatingAdvanced(by: duration))
    }

    /// The time from this instant to `other`.
    package func duration(to other: MonotonicInstant) -> Duration {
        .nanoseconds(other.nanoseconds) - .nanoseconds(nanoseconds)
    }

    /// The instant `rhs` after `lhs`.
    package static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        lhs.advanced(by: rhs)
    }

    /// The instant `rhs` before `lhs`.
    package static func - (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        lhs.advanced(by: .zero - rhs)
    }

    /// The time from `rhs` to `lhs`.
    package static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
        rhs.duration(to: lhs)
    }

    /// Whether `lhs` comes before `rhs`.
    package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// Seconds with nanosecond digits, such as `1234.000000500s` or `-0.250000000s`.
    package var description: String {
        let fraction = String(nanoseconds.magnitude % 1_000_000_000)
        let padding = String(repeating: "0", count: 9 - fraction.count)
        return "\(nanoseconds < 0 ? "-" : "")\(nanoseconds.magnitude / 1_000_000_000).\(padding)\(fraction)s"
    }
}

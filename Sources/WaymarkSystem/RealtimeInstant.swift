import Glibc

/// A wall-clock time on `CLOCK_REALTIME`: nanoseconds since the Unix epoch. It can jump when
/// the clock is set, so measure intervals with ``MonotonicInstant`` instead.
package struct RealtimeInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since 1970-01-01 00:00:00 UTC.
    package var nanosecondsSinceEpoch: Int64

    /// The time `nanosecondsSinceEpoch` after the Unix epoch.
    package init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// The current time, read with `clock_gettime(CLOCK_REALTIME)`.
    package static var now: RealtimeInstant {
        RealtimeInstant(nanosecondsSinceEpoch: readClock(CLOCK_REALTIME))
    }

    /// Whether `lhs` comes before `rhs`.
    package static func < (lhs: RealtimeInstant, rhs: RealtimeInstant) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}

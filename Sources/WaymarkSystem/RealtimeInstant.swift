import Glibc

/// A wall-clock time on `CLOCK_REALTIME`: nanoseconds since the Unix epoch. It can jump when
/// the clock is set, so measure intervals with ``MonotonicInstant`` instead.
public struct RealtimeInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since 1970-01-01 00:00:00 UTC.
    public var nanosecondsSinceEpoch: Int64

    /// The time `nanosecondsSinceEpoch` after the Unix epoch.
    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// The current time, read with `clock_gettime(CLOCK_REALTIME)`.
    public static var now: RealtimeInstant {
        RealtimeInstant(nanosecondsSinceEpoch: readClock(CLOCK_REALTIME))
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: RealtimeInstant, rhs: RealtimeInstant) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}

import Glibc
import WaymarkClock

// Conversions between the kernel's `timespec` and nanosecond counts, and the clock read that
// both instant types use. Durations convert with WaymarkClock's saturating `nanoseconds`.

extension timespec {
    /// A timespec holding `nanoseconds` (which must not be negative).
    internal init(nanoseconds: Int64) {
        self.init(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    /// The total in nanoseconds.
    internal var nanoseconds: Int64 {
        Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec)
    }
}

/// Reads `clock` with clock_gettime(2), in nanoseconds. The clocks used here cannot fail.
internal func readClock(_ clock: clockid_t) -> Int64 {
    var time = timespec()
    let result = system_clock_gettime(clock, &time)
    precondition(result == 0, "clock_gettime(\(clock)) failed with errno \(Glibc.errno)")
    return time.nanoseconds
}

import CWaymarkSystem
import Glibc
import WaymarkClock

/// A timerfd on `CLOCK_MONOTONIC` (timerfd_create(2)): it becomes readable when its deadline
/// passes, so timers wait in epoll with everything else. Disarmed, it never wakes anyone.
package struct TimerFD: Sendable {
    /// The timer descriptor; close it when done.
    package let descriptor: FileDescriptor

    /// Creates a disarmed, nonblocking, close-on-exec timer on `CLOCK_MONOTONIC`.
    package init() throws(SystemError) {
        let flags = Int32(TFD_NONBLOCK | TFD_CLOEXEC)
        descriptor = FileDescriptor(
            rawValue: try check("timerfd_create") { system_timerfd_create(CLOCK_MONOTONIC, flags) })
    }

    /// Arms the timer (timerfd_settime(2), absolute) to expire at `deadline`, and then every
    /// `interval` if one is given. A deadline in the past expires at once.
    package func arm(at deadline: MonotonicInstant, repeating interval: Duration? = nil) throws(SystemError) {
        // An all-zero it_value would disarm the timer, so the earliest deadline is 1 ns.
        try set(
            TFD_TIMER_ABSTIME,
            value: max(deadline.nanoseconds, 1),
            interval: interval?.nanoseconds ?? 0)
    }

    /// Disarms the timer: it will not expire until armed again.
    package func disarm() throws(SystemError) {
        try set(0, value: 0, interval: 0)
    }

    /// Reads how many times the timer expired since the last read, or `nil` if it has not.
    package func readExpirations() throws(SystemError) -> UInt64? {
        try descriptor.readCounter("read(timerfd)")
    }

    private func set(_ flags: Int, value: Int64, interval: Int64) throws(SystemError) {
        var spec = itimerspec(
            it_interval: timespec(nanoseconds: interval), it_value: timespec(nanoseconds: value))
        _ = try check("timerfd_settime") { system_timerfd_settime(descriptor.rawValue, Int32(flags), &spec) }
    }
}

package import WaymarkClock

/// `CLOCK_MONOTONIC` and `CLOCK_REALTIME` read back to back, which maps an instant on the
/// monotonic timeline (where libgpiod's edge timestamps and the core's instants live) to the
/// system's wall clock that chrony compares with its reference.
///
/// The mapping holds while the wall clock is not stepped or slewed between the event and the
/// reading; the daemon reads the clocks when it reads the event (within milliseconds), so a
/// slew of at most 500 ppm moves it by well under a microsecond.
package struct ClockReading: Hashable, Sendable {
    /// `CLOCK_MONOTONIC` at the reading.
    package var monotonic: Instant
    /// `CLOCK_REALTIME` at the reading: nanoseconds since 1970-01-01 00:00:00 UTC.
    package var realtimeNanoseconds: Int64

    /// A reading of both clocks.
    package init(monotonic: Instant, realtimeNanoseconds: Int64) {
        self.monotonic = monotonic
        self.realtimeNanoseconds = realtimeNanoseconds
    }

    /// The wall-clock time at `instant`, or `nil` when absurd values overflow.
    package func realtimeNanoseconds(at instant: Instant) -> Int64? {
        let (elapsed, elapsedOverflow) = instant.nanoseconds.subtractingReportingOverflow(monotonic.nanoseconds)
        if elapsedOverflow { return nil }
        let (realtime, overflow) = realtimeNanoseconds.addingReportingOverflow(elapsed)
        return overflow ? nil : realtime
    }

    /// The instant on the monotonic timeline at wall-clock time `realtime` (nanoseconds since
    /// 1970), the inverse of ``realtimeNanoseconds(at:)``; `nil` when absurd values overflow.
    package func instant(atRealtime realtime: Int64) -> Instant? {
        let (elapsed, elapsedOverflow) = realtime.subtractingReportingOverflow(realtimeNanoseconds)
        if elapsedOverflow { return nil }
        let (nanoseconds, overflow) = monotonic.nanoseconds.addingReportingOverflow(elapsed)
        return overflow ? nil : Instant(nanoseconds: nanoseconds)
    }
}

package import WaymarkClock

/// What the time service needs from one NMEA epoch (the sentences of one fix: RMC, GGA, ZDA
/// with the same time of day).
package struct EpochTime: Hashable, Sendable {
    /// The UTC the epoch names, in nanoseconds since 1970-01-01 00:00:00 UTC (date from RMC
    /// or ZDA, time of day from any of its sentences).
    package var utcNanoseconds: Int64
    /// When its first sentence's first byte was read, on the monotonic timeline.
    package var firstSentenceAt: Instant
    /// The wall and monotonic clocks read when that sentence was read.
    package var clocks: ClockReading
    /// Whether the receiver had a fix (RMC status `A`, GGA quality above 0): without one its
    /// clock may be free-running or not yet aligned to GPS time.
    package var hasFix: Bool
    /// The receiver's leap-second announcement, where it makes one.
    package var leap: LeapWarning

    /// An epoch's time.
    package init(utcNanoseconds: Int64, firstSentenceAt: Instant, clocks: ClockReading, hasFix: Bool, leap: LeapWarning = .none) {
        self.utcNanoseconds = utcNanoseconds
        self.firstSentenceAt = firstSentenceAt
        self.clocks = clocks
        self.hasFix = hasFix
        self.leap = leap
    }

    /// Whether the epoch names the start of a UTC second.
    var isWholeSecond: Bool { utcNanoseconds % 1_000_000_000 == 0 }

    /// The NMEA-only sample (without PPS): the epoch's UTC against its first sentence's
    /// arrival, late by the receiver's output latency, which chrony's `offset` option
    /// removes; `nil` without a fix, for a sub-second epoch, or with absurd times.
    package var nmeaSample: TimeSample? {
        guard hasFix, isWholeSecond, let arrival = clocks.realtimeNanoseconds(at: firstSentenceAt) else { return nil }
        return TimeSample(systemNanoseconds: arrival, referenceNanoseconds: utcNanoseconds, source: .nmea, leap: leap)
    }
}

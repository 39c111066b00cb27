/// A leap second the receiver announced for the end of the current UTC day, as chrony's
/// SOCK and SHM refclocks encode it (0 normal, 1 insert, 2 delete). NMEA 0183 carries no
/// announcement, so a receiver read through NMEA alone reports ``none``.
package enum LeapWarning: Int32, Hashable, Sendable {
    /// No leap second announced.
    case none = 0
    /// 23:59:60 will be inserted.
    case insert = 1
    /// 23:59:59 will be deleted.
    case delete = 2
}

/// What a time sample was measured from.
package enum TimeSampleSource: Hashable, Sendable {
    /// A PPS edge paired with the UTC second it starts: sub-microsecond on the receiver's
    /// side, limited by the interrupt latency on ours.
    case pulse
    /// The arrival of an epoch's first NMEA sentence: late by the receiver's output latency
    /// (tens to hundreds of milliseconds, varying with the sentences it sends), as gpsd's SHM 0.
    case nmea

    /// log2 of the sample's precision in seconds, as NTP (SHM `precision`) and gpsd (PPS
    /// `precision`) state it: about 120 µs for a PPS edge, the bound on the interrupt latency
    /// of a GPIO edge on a Raspberry Pi class board (``PulsePairer/Limits/gpio``); half a
    /// second for NMEA alone, as gpsd states it.
    package var precisionExponent: Int32 {
        switch self {
        case .pulse: -13
        case .nmea: -1
        }
    }
}

/// One measurement for chrony: at ``systemNanoseconds`` on the local wall clock, the true
/// time was ``referenceNanoseconds``. Both are nanoseconds since 1970-01-01 00:00:00 UTC.
package struct TimeSample: Hashable, Sendable {
    /// The local `CLOCK_REALTIME` at the event.
    package var systemNanoseconds: Int64
    /// UTC at the same event, from the receiver.
    package var referenceNanoseconds: Int64
    /// Where the sample came from.
    package var source: TimeSampleSource
    /// The receiver's leap-second announcement.
    package var leap: LeapWarning

    /// A sample; `nil` when the two times are so far apart that their offset overflows.
    package init?(systemNanoseconds: Int64, referenceNanoseconds: Int64, source: TimeSampleSource, leap: LeapWarning) {
        if referenceNanoseconds.subtractingReportingOverflow(systemNanoseconds).overflow { return nil }
        self.systemNanoseconds = systemNanoseconds
        self.referenceNanoseconds = referenceNanoseconds
        self.source = source
        self.leap = leap
    }

    /// True time minus local time, in nanoseconds (chrony's sign: positive when the local
    /// clock is behind).
    package var offsetNanoseconds: Int64 { referenceNanoseconds &- systemNanoseconds }

    /// The offset in seconds.
    package var offsetSeconds: Double { Double(offsetNanoseconds) / 1e9 }
}

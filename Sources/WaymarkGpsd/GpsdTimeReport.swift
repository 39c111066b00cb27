package import WaymarkJSON
package import WaymarkTime

/// A time sample as gpsd reports it to watchers that asked for `pps`: PPS for a pulse
/// edge, TOFF for the arrival of an epoch's first sentence (`real` the receiver's UTC,
/// `clock` the local clock at the same event).
package struct GpsdTimeReport: Sendable {
    package var sample: TimeSample
    package var device: String

    package init(sample: TimeSample, device: String) {
        self.sample = sample
        self.device = device
    }

    /// Appends the PPS or TOFF object. Precision is log2 seconds, as gpsd prints it: -20
    /// (about a microsecond) for a pulse, -1 (half a second) for a sentence's arrival.
    package func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        switch sample.source {
        case .pulse: buffer.member("class", "PPS")
        case .nmea: buffer.member("class", "TOFF")
        }
        buffer.member("device", text: device)
        let real = Self.split(sample.referenceNanoseconds)
        let clock = Self.split(sample.systemNanoseconds)
        buffer.key("real_sec")
        buffer.integer(real.seconds)
        buffer.key("real_nsec")
        buffer.integer(real.nanoseconds)
        buffer.key("clock_sec")
        buffer.integer(clock.seconds)
        buffer.key("clock_nsec")
        buffer.integer(clock.nanoseconds)
        buffer.member("precision", sample.source == .pulse ? -20 : -1)
        buffer.endObject()
    }

    /// A timespec of nanoseconds since the epoch: whole seconds (floored) and 0..<1e9 nanoseconds.
    static func split(_ nanoseconds: Int64) -> (seconds: Int64, nanoseconds: Int64) {
        let remainder = nanoseconds % 1_000_000_000
        let adjust: Int64 = remainder < 0 ? 1 : 0
        return (nanoseconds / 1_000_000_000 - adjust, remainder + adjust * 1_000_000_000)
    }
}

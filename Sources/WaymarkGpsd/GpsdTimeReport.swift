package import WaymarkJSON
package import WaymarkTime

/// A time sample as gpsd reports it to its watchers, with the members gpsd 3.22 writes (and
/// its libgps reads): PPS for a pulse edge paired with its UTC second, TOFF for the arrival of
/// an epoch's first sentence; `real` the receiver's UTC, `clock` the local clock at the same
/// event, each a timespec. Who is sent which: ``GpsdWatch/wantsTime(from:)``.
package struct GpsdTimeReport: Sendable {
    package var sample: TimeSample
    package var device: String

    package init(sample: TimeSample, device: String) {
        self.sample = sample
        self.device = device
    }

    /// Appends the PPS or TOFF object. PPS also states the sample's precision (log2 seconds,
    /// the one NTP SHM states); gpsd's TOFF has none.
    package func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        switch sample.source {
        case .pulse: buffer.member("class", "PPS")
        case .nmea: buffer.member("class", "TOFF")
        }
        buffer.member("device", text: device)
        let real = splitSeconds(sample.referenceNanoseconds)
        let clock = splitSeconds(sample.systemNanoseconds)
        buffer.key("real_sec")
        buffer.integer(real.seconds)
        buffer.key("real_nsec")
        buffer.integer(real.nanoseconds)
        buffer.key("clock_sec")
        buffer.integer(clock.seconds)
        buffer.key("clock_nsec")
        buffer.integer(clock.nanoseconds)
        if sample.source == .pulse { buffer.member("precision", Int(sample.source.precisionExponent)) }
        buffer.endObject()
    }
}

import CWaymarkChrony
package import WaymarkSystem
package import WaymarkTime

/// Publishes time samples in an NTP SHM segment (`refclock SHM 0` in chrony.conf, ntpd's
/// 127.127.28.N, as gpsd does): key `0x4e545030` plus the unit, mode 1.
package final class NTPSharedMemoryWriter {
    /// The SHM unit.
    package let unit: UInt8
    private let segment: SharedMemorySegment

    /// Attaches unit `unit`, creating it when the reader has not: owner-only for units 0 and 1
    /// (which ntpd and gpsd keep to root), readable and writable by all above.
    package init(unit: UInt8) throws(SystemError) {
        self.unit = unit
        segment = try SharedMemorySegment(
            key: Int32(WAYMARK_NTPSHM_KEY) + Int32(unit), size: MemoryLayout<waymark_shm_time>.size,
            permissions: unit < 2 ? 0o600 : 0o666)
    }

    /// Publishes `sample`; returns `false` when its times do not fit the platform's `time_t`.
    package func put(_ sample: TimeSample) -> Bool {
        let reference = splitSeconds(sample.referenceNanoseconds)
        let system = splitSeconds(sample.systemNanoseconds)
        guard let referenceSeconds = time_t(exactly: reference.seconds), let systemSeconds = time_t(exactly: system.seconds)
        else { return false }
        waymark_shm_time_store(
            segment.base.assumingMemoryBound(to: waymark_shm_time.self), referenceSeconds, UInt32(reference.nanoseconds),
            systemSeconds, UInt32(system.nanoseconds), sample.leap.rawValue, sample.source.precisionExponent)
        return true
    }

    /// Detaches the segment (it stays for its reader).
    package func close() {
        segment.detach()
    }
}

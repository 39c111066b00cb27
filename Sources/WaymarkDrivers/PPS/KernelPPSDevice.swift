import CWaymarkDrivers
package import WaymarkSystem

/// A kernel PPS source (`/dev/ppsN`: the `pps-gpio` overlay, the `pps-ldisc` line discipline,
/// `pps_parport`), read with the RFC 2783 ioctls without ever waiting: the kernel stamps each
/// edge in its interrupt handler and keeps the newest; ``fetchAssert()`` asks for it with a
/// zero timeout. (The device cannot wake the event loop: on Linux 6.1 its poll(2) is always
/// ready, so the reader paces its fetches on a timer.)
package final class KernelPPSDevice {
    /// The device, such as `/dev/pps0`.
    package let path: String
    private let descriptor: FileDescriptor

    /// Opens `path` and makes sure it captures assert events (PPS_GETCAP, then PPS_SETPARAMS
    /// only when it does not already, which needs CAP_SYS_TIME).
    package init(path: String) throws(SystemError) {
        let descriptor = try FileDescriptor.open(path, .readOnly)
        do throws(SystemError) {
            let capabilities = try checkShim("ioctl(PPS_GETCAP)", path, waymark_pps_capabilities(descriptor.rawValue))
            // PPS_CAPTUREASSERT: a source that cannot stamp assert edges is of no use here.
            guard capabilities & 0x01 != 0 else { throw SystemError(errno: Errno.notSupported, call: "ioctl(PPS_GETCAP)", argument: path, note: "no assert capture") }
            _ = try checkShim("ioctl(PPS_SETPARAMS)", path, waymark_pps_capture_assert(descriptor.rawValue))
        } catch {
            try? descriptor.close()
            throw error
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// The newest assert event (PPS_FETCH, zero timeout: returns at once): its sequence
    /// number (0 before the first; it wraps) and the kernel's `CLOCK_REALTIME` stamp, as the
    /// kernel gives them (``WaymarkTime/KernelPulsePoller`` checks them).
    package func fetchAssert() throws(SystemError) -> (sequence: UInt32, seconds: Int64, nanoseconds: Int32) {
        var event = waymark_pps_assert()
        _ = try checkShim("ioctl(PPS_FETCH)", path, waymark_pps_fetch_assert(descriptor.rawValue, &event))
        return (event.sequence, event.seconds, event.nanoseconds)
    }

    /// Closes the device.
    package func close() {
        try? descriptor.close()
    }
}

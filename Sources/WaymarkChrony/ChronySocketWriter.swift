import CWaymarkChrony
package import WaymarkSystem
package import WaymarkTime

/// Sends time samples to chrony's SOCK refclock (`refclock SOCK /run/chrony.ttyS0.sock`), one
/// `struct sock_sample` datagram each. chrony creates the socket; until it does, or while it
/// is stopped, ``send(_:)`` reports the sample as not delivered.
package final class ChronySocketWriter {
    private let sender: UnixDatagramSender

    /// A writer to the socket at `path`.
    package init(path: String) throws(SystemError) {
        sender = try UnixDatagramSender(path: path)
    }

    /// Sends `sample`. Returns whether chrony took it: `false` when nobody listens, its queue
    /// is full, or the time does not fit the platform's `time_t`; other errors throw.
    package func send(_ sample: TimeSample) throws(SystemError) -> Bool {
        guard var record = waymark_sock_sample(sample) else { return false }
        return try withUnsafeBytes(of: &record) { bytes throws(SystemError) in try sender.send(bytes) }
    }

    /// Closes the socket.
    package func close() {
        sender.close()
    }
}

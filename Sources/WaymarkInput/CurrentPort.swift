import WaymarkDrivers
import WaymarkSystem

/// A ``ByteStreamPort`` that stands for whatever port a ``ReceiverLink`` has open now, so a
/// power control made once (and a marker line's count of transitions) outlives reconnects.
/// With no port open, writes fail with `EBADF` and rate changes with `ENODEV`.
final class CurrentPort: ByteStreamPort {
    private let link: ReceiverLink

    /// Stands for `link`'s port.
    init(_ link: ReceiverLink) {
        self.link = link
    }

    var path: String { link.configuration.path }
    var descriptor: FileDescriptor { link.port?.descriptor ?? FileDescriptor(rawValue: -1) }
    var baudRate: Int { link.port?.baudRate ?? link.rate }

    func setBaudRate(_ rate: Int) throws(SystemError) {
        guard let port = link.port else {
            throw SystemError(errno: Errno.noDevice, call: "set baud rate", argument: path, note: "the port is not open")
        }
        try port.setBaudRate(rate)
    }

    /// Does nothing: the link owns the port.
    func close() {}
}

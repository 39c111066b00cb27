import CSerialPort
package import WaymarkSystem

/// A real UART opened and configured with libserialport: 8N1, no flow control, at a baud rate.
/// Its descriptor is put in nonblocking mode for the event loop; reads and writes go straight
/// through it (``ByteStreamPort``).
///
/// libserialport looks the port up in sysfs and sets modem lines, so it opens real UARTs
/// (`/dev/serial0`, `/dev/ttyAMA0`, `/dev/ttyS*`, `/dev/ttyUSB*`, `/dev/ttyACM*`) but not
/// pseudo-terminals: use ``TerminalPort`` for those.
package final class SerialPort: ByteStreamPort {
    package let path: String
    package let descriptor: FileDescriptor
    package private(set) var baudRate: Int
    private let port: OpaquePointer

    /// Opens `path` read-write at `baudRate`, 8N1, no flow control. Pending input is kept.
    package init(path: String, baudRate: Int) throws(SystemError) {
        var found: OpaquePointer?
        do throws(SystemError) {
            try Self.check(sp_get_port_by_name(path, &found), "sp_get_port_by_name", path)
        } catch {
            // libserialport says only "invalid argument" when the device is not there.
            if let missing = FileSystem.existenceError(path) { throw missing }
            throw error
        }
        guard let port = found else { throw SystemError(errno: Errno.noDevice, call: "sp_get_port_by_name", argument: path) }
        do throws(SystemError) {
            try Self.check(sp_open(port, SP_MODE_READ_WRITE), "sp_open", path)
            do throws(SystemError) {
                try Self.check(sp_set_bits(port, 8), "sp_set_bits", path)
                try Self.check(sp_set_parity(port, SP_PARITY_NONE), "sp_set_parity", path)
                try Self.check(sp_set_stopbits(port, 1), "sp_set_stopbits", path)
                try Self.check(sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE), "sp_set_flowcontrol", path)
                try Self.check(sp_set_baudrate(port, Int32(baudRate)), "sp_set_baudrate", path)
                var handle: Int32 = -1
                try withUnsafeMutableBytes(of: &handle) { raw throws(SystemError) in
                    try Self.check(sp_get_port_handle(port, raw.baseAddress), "sp_get_port_handle", path)
                }
                descriptor = FileDescriptor(rawValue: handle)
                try descriptor.setNonblocking()
            } catch {
                sp_close(port)
                throw error
            }
        } catch {
            sp_free_port(port)
            throw error
        }
        self.port = port
        self.path = path
        self.baudRate = baudRate
    }

    package func setBaudRate(_ rate: Int) throws(SystemError) {
        try Self.check(sp_set_baudrate(port, Int32(rate)), "sp_set_baudrate", path)
        baudRate = rate
    }

    /// Closes the port (sp_close) and frees libserialport's record of it.
    package func close() throws(SystemError) {
        defer { sp_free_port(port) }
        try Self.check(sp_close(port), "sp_close", path)
    }

    /// Maps a libserialport result to a ``SystemError``: `SP_ERR_FAIL` carries the OS errno,
    /// the other codes become EINVAL, ENOMEM or ENOTSUP.
    private static func check(_ result: sp_return, _ call: String, _ path: String) throws(SystemError) {
        switch result {
        case SP_OK: return
        case SP_ERR_FAIL: throw SystemError(errno: sp_last_error_code(), call: call, argument: path)
        case SP_ERR_MEM: throw SystemError(errno: Errno.outOfMemory, call: call, argument: path)
        case SP_ERR_SUPP:
            throw SystemError(errno: Errno.notSupported, call: call, argument: path, note: "the port or driver does not support it")
        default:
            throw SystemError(
                errno: Errno.invalidArgument, call: call, argument: path,
                note: "libserialport refused it (not a serial port it knows, or an invalid setting)")
        }
    }
}

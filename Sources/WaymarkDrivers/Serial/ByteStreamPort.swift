package import WaymarkSystem

/// Where a receiver's bytes come from and its commands go: a UART opened with libserialport
/// (``SerialPort``) or any terminal, pseudo-terminal or pipe (``TerminalPort``). The daemon
/// watches ``descriptor`` in its event loop and does not care which one it has.
///
/// The descriptor is nonblocking. A device that went away (a USB receiver unplugged, a pty's
/// other side closed) reports a hangup to poll/epoll and `EIO` or 0 bytes to read; on a pipe
/// or FIFO 0 bytes is the end. A terminal opened by libserialport has VMIN = 0, so there a
/// read of 0 bytes alone only means that nothing is waiting.
package protocol ByteStreamPort: AnyObject {
    /// The device path, such as `/dev/ttyS1`.
    var path: String { get }
    /// The nonblocking descriptor to watch for `.readable`.
    var descriptor: FileDescriptor { get }
    /// The baud rate the port runs at (a pipe has none and reports the last one set).
    var baudRate: Int { get }
    /// Changes the baud rate (8N1 and no flow control stay). Bytes in flight are not flushed.
    func setBaudRate(_ rate: Int) throws(SystemError)
    /// Closes the port.
    func close() throws(SystemError)
}

extension ByteStreamPort {
    /// Reads what has arrived into `buffer`: the count, 0 at the end (see above), or
    /// `nil` when nothing is waiting.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        try descriptor.read(into: buffer)
    }

    /// Writes all of `bytes`, waiting (at most `patience` per stall) while the transmit
    /// buffer is full. Receiver commands are a few dozen bytes, so this returns at once unless
    /// the port is stuck, which is reported as `ETIMEDOUT`.
    package func writeAll(_ bytes: [UInt8], patience: Duration = .seconds(1)) throws(SystemError) {
        do throws(SystemError) {
            try descriptor.writeAll(bytes, patience: patience)
        } catch {
            var named = error
            named.argument = path
            throw named
        }
    }
}

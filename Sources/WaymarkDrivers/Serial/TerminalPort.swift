package import WaymarkSystem

/// A byte stream opened with plain open(2): a pseudo-terminal or a real tty set to raw 8N1
/// with termios, or a pipe or FIFO as it is. Tests, replay and the simulated receiver use it;
/// libserialport cannot open a pseudo-terminal.
package final class TerminalPort: ByteStreamPort {
    package let path: String
    package let descriptor: FileDescriptor
    package private(set) var baudRate: Int
    private let isTerminal: Bool

    /// Opens `path` nonblocking; a terminal is set to raw 8N1 at `baudRate`.
    package convenience init(path: String, baudRate: Int = 9600) throws(SystemError) {
        let descriptor = try FileDescriptor.open(path, .readWrite)
        do throws(SystemError) {
            try self.init(descriptor: descriptor, path: path, baudRate: baudRate)
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    /// Adopts an open nonblocking `descriptor` (a pipe's read end, a pseudo-terminal's
    /// secondary); a terminal is set to raw 8N1 at `baudRate`. ``close()`` closes it.
    package init(descriptor: FileDescriptor, path: String, baudRate: Int = 9600) throws(SystemError) {
        self.descriptor = descriptor
        self.path = path
        self.baudRate = baudRate
        isTerminal = descriptor.isTerminal
        if isTerminal { try configure(at: baudRate) }
    }

    package func setBaudRate(_ rate: Int) throws(SystemError) {
        if isTerminal { try configure(at: rate) }
        baudRate = rate
    }

    package func close() throws(SystemError) {
        try descriptor.close()
    }

    /// Sets the terminal to raw 8N1 at `rate`; an error names the port.
    private func configure(at rate: Int) throws(SystemError) {
        do throws(SystemError) {
            try descriptor.makeSerial(baudRate: rate)
        } catch {
            var named = error
            named.argument = path
            throw named
        }
    }
}

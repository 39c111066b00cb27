import WaymarkSystem

/// How a receiver's port is opened.
package enum ReceiverPortKind: Hashable, Sendable {
    /// Plain open(2) and termios: ptys, FIFOs, ttys (and what libserialport cannot open).
    case terminal
    /// libserialport (real UARTs and USB serial adapters).
    case serial

    /// The kind that can open `path`: ``terminal`` for a FIFO or a pseudo-terminal (also
    /// behind a symlink, as `socat` makes them), which libserialport cannot open; ``serial``
    /// for everything else, including a path that does not exist yet (a USB receiver not
    /// plugged in).
    package static func forPath(_ path: String) -> ReceiverPortKind {
        guard let status = try? FileStatus(path: path) else { return .serial }
        guard status.kind == .characterDevice else { return .terminal }
        // Unix98 pty secondaries have majors 136…143 (/dev/pts/N).
        return (136...143).contains(status.deviceMajor) ? .terminal : .serial
    }
}

import Synchronization

/// A daemon's log on standard error, written without ever waiting for its reader, so that a
/// paused pager or a stalled journal cannot stall the event loop. A line that finds no room
/// is dropped and counted, and the next line that fits is preceded by how many were lost.
package final class StandardErrorLog: Sendable {
    private struct State {
        var dropped = 0
        /// Whether a line was cut short when the reader stopped taking it (the next write
        /// begins with a newline, so no two lines run together).
        var lineOpen = false
    }

    private let prefix: String
    private let descriptor: FileDescriptor
    /// Whether the log is a socket (a journal's stream), written with `MSG_DONTWAIT`.
    private let isSocket: Bool
    private let state = Mutex(State())

    /// Prepares `descriptor` (standard error unless a test says otherwise) for lines that
    /// begin with `prefix`. A pipe, FIFO or terminal is opened anew, nonblocking, in place of
    /// the descriptor: a new open file, whose flags are this process's alone (setting
    /// `O_NONBLOCK` on the inherited one would change it for the shell or supervisor that
    /// shares it). When that is refused (a pipe of another user), writes wait as before.
    package init(prefix: String, descriptor: FileDescriptor = .standardError) {
        self.prefix = prefix
        self.descriptor = descriptor
        let kind = try? FileStatus(descriptor).kind
        isSocket = kind == .socket
        guard kind == .fifo || kind == .characterDevice,
            let reopened = try? FileDescriptor.open("/proc/self/fd/\(descriptor.rawValue)", .writeOnly)
        else { return }
        try? reopened.duplicate(onto: descriptor)
        try? reopened.close()
    }

    /// The most one line takes, newline included: what a pipe takes whole or not at all
    /// (`PIPE_BUF`). Longer lines are cut on a character.
    package static let longestLine = 4_096

    /// Writes `line` with the prefix, its control characters escaped (a device's or a
    /// client's bytes it quotes cannot split it or steer a terminal), or counts it as dropped if the reader has no room.
    package func write(_ line: String) {
        state.withLock { state in
            var text = state.lineOpen ? "\n" : ""
            if state.dropped > 0 {
                text += prefix + "\(state.dropped) log line\(state.dropped == 1 ? "" : "s") dropped: the log's reader fell behind\n"
            }
            text += prefix + DisplayText.printable(line)
            var bytes = Array(text.utf8)
            if bytes.count >= Self.longestLine {
                var end = Self.longestLine - 1
                while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }  // not within a character
                bytes.removeSubrange(end...)
            }
            bytes.append(UInt8(ascii: "\n"))
            let written = writeWithoutWaiting(bytes)
            switch written {
            case 0:
                state.dropped += 1
            case bytes.count:
                (state.dropped, state.lineOpen) = (0, false)
            default:
                (state.dropped, state.lineOpen) = (0, true)
            }
        }
    }

    /// Writes as much of `bytes` as the reader takes now; how much that was. An error (a
    /// reader that went away, a full disk) takes nothing.
    private func writeWithoutWaiting(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
                let written =
                    isSocket
                    ? try? descriptor.send(rest, withoutWaiting: true)
                    : try? descriptor.write(rest)
                guard let written, written > 0 else { break }
                offset += written
            }
            return offset
        }
    }
}

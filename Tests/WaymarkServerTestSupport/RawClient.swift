import Glibc
package import WaymarkProtocol
package import WaymarkSystem

/// A client that speaks the protocol by hand over a real socket, with timeouts, for tests.
package final class RawClient {
    /// The connected socket.
    package let descriptor: FileDescriptor
    private var received: [UInt8] = []
    private var nextID: Int64 = 1

    /// Why a read gave up.
    package enum Failure: Error {
        case timedOut
        case closed
    }

    /// Connects to the socket at `path`.
    package init(path: String) throws {
        descriptor = try FileDescriptor.connectUnixStream(to: path)
    }

    deinit {
        try? descriptor.close()
    }

    /// Sends `text` as is (add the newline yourself).
    package func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Sends `bytes`, waiting while the socket is full.
    package func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = try bytes[offset...].withUnsafeBytes { raw in try descriptor.send(raw) }
            if let sent { offset += sent } else { try wait(for: Int16(POLLOUT), seconds: 5) }
        }
    }

    /// Sends a request with the next id and returns its reply, skipping events.
    package func request(_ operation: Operation) throws -> Reply {
        let id = MessageID.number(nextID)
        nextID += 1
        try write(Request(id: id, operation: operation).line)
        while true {
            if case .reply(let reply) = try readMessage(), reply.id == id { return reply }
        }
    }

    /// Says hello and returns the daemon's answer.
    @discardableResult
    package func hello(appID: String? = nil) throws -> Reply {
        try request(.hello(Hello(appID: appID)))
    }

    /// The next message the daemon sends.
    package func readMessage(seconds: Int32 = 5) throws -> ServerMessage {
        try ServerMessage(line: readLine(seconds: seconds))
    }

    /// The next line the daemon sends, without its newline.
    package func readLine(seconds: Int32 = 5) throws -> [UInt8] {
        while true {
            if let newline = received.firstIndex(of: 0x0A) {
                let line = Array(received[..<newline])
                received.removeSubrange(...newline)
                return line
            }
            try fill(seconds: seconds)
        }
    }

    /// Whether the daemon closed the connection (reads end of file) within `seconds`.
    package func isClosedByPeer(seconds: Int32 = 5) throws -> Bool {
        do {
            while true { try fill(seconds: seconds) }
        } catch Failure.closed {
            return true
        } catch Failure.timedOut {
            return false
        }
    }

    /// Shuts down the sending side (as `socat` does at the end of its input).
    package func shutdownWriting() {
        shutdown(descriptor.rawValue, Int32(SHUT_WR))
    }

    private func fill(seconds: Int32) throws {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            guard let count else {
                try wait(for: Int16(POLLIN), seconds: seconds)
                continue
            }
            guard count > 0 else { throw Failure.closed }
            received.append(contentsOf: buffer[..<count])
            return
        }
    }

    private func wait(for events: Int16, seconds: Int32) throws {
        var request = pollfd(fd: descriptor.rawValue, events: events, revents: 0)
        guard poll(&request, 1, seconds * 1_000) > 0 else { throw Failure.timedOut }
    }
}

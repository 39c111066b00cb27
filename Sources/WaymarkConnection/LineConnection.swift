package import WaymarkEventLoop
package import WaymarkProtocol
package import WaymarkSystem

/// One end of a protocol connection over a nonblocking stream socket: the bytes read, split
/// into lines; the messages waiting to be written; and the events the loop watches the socket
/// for. The daemon's server keeps one per client; the client library keeps one to the daemon.
package struct LineConnection {
    /// What one read brought.
    package enum ReadOutcome: Equatable {
        /// Bytes were added to ``lines``.
        case read
        /// Nothing to read now.
        case nothingYet
        /// The peer shut down its sending side (it may still read).
        case endOfFile
        /// The socket failed.
        case failed(SystemError)
    }

    /// What writing did.
    package enum FlushOutcome: Equatable {
        /// Everything queued is written.
        case allWritten
        /// The socket takes no more for now; the rest waits.
        case socketFull
        /// The socket failed (the peer is gone).
        case failed(SystemError)
    }

    /// The socket.
    package let descriptor: FileDescriptor
    /// What was read and not taken yet.
    package var lines: LineBuffer
    /// What waits to be written.
    package var output = OutputQueue()
    /// The events the loop watches the socket for now.
    package private(set) var interest: IOEvents

    /// A connection over `descriptor`, which the loop watches for `interest`.
    package init(descriptor: FileDescriptor, interest: IOEvents = .readable) {
        self.descriptor = descriptor
        self.interest = interest
        lines = LineBuffer()
    }

    /// Reads once, at most `size` bytes, into ``lines``.
    package mutating func readOnce(size: Int) -> ReadOutcome {
        Self.readOnce(from: descriptor, size: size) { lines.append($0) }
    }

    /// Reads once, at most `size` bytes, and hands them to `deliver` instead of ``lines``:
    /// for a dialect whose requests are not lines (gpsd's commands end at `;`).
    package func readOnce(size: Int, into deliver: (UnsafeRawBufferPointer) -> Void) -> ReadOutcome {
        Self.readOnce(from: descriptor, size: size, into: deliver)
    }

    private static func readOnce(from descriptor: FileDescriptor, size: Int, into deliver: (UnsafeRawBufferPointer) -> Void) -> ReadOutcome {
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 1) { buffer in
            let count: Int?
            do throws(SystemError) {
                count = try descriptor.read(into: buffer)
            } catch {
                return .failed(error)
            }
            guard let count else { return .nothingYet }
            guard count > 0 else { return .endOfFile }
            deliver(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            return .read
        }
    }

    /// Writes queued output until all of it is written or the socket is full; adds to
    /// `messagesStarted` the messages it began writing.
    package mutating func flush(messagesStarted: inout Int) -> FlushOutcome {
        while true {
            let (bytes, isNewMessage) = output.nextBytes()
            if bytes.isEmpty { return .allWritten }
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in try descriptor.send(raw) }
            }
            switch result {
            case .failure(let error): return .failed(error)
            case .success(nil):
                output.socketFilled()
                return .socketFull
            case .success(let sent?):
                if isNewMessage { messagesStarted += 1 }
                output.consume(sent)
            }
        }
    }

    /// Has `loop` watch the socket for `wanted`, if it does not already.
    package mutating func watch(for wanted: IOEvents, on loop: EventLoop) throws(SystemError) {
        guard wanted != interest else { return }
        try loop.modify(descriptor, for: wanted)
        interest = wanted
    }
}

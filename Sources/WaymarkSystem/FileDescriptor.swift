import Glibc

/// An open file descriptor: a plain `Int32` value that is closed only by an explicit
/// ``close()``, so whoever opens one decides when it ends.
///
/// Everything WaymarkSystem opens is nonblocking and close-on-exec: reads and writes that
/// cannot proceed return `nil` rather than wait, because one event loop owns every descriptor.
package struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The kernel's descriptor number.
    package let rawValue: Int32

    /// Wraps an existing descriptor number.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Whether a file is opened for reading, writing or both.
    package enum AccessMode: Sendable {
        /// `O_RDONLY`.
        case readOnly
        /// `O_WRONLY`.
        case writeOnly
        /// `O_RDWR`.
        case readWrite

        fileprivate var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// Opens `path` with open(2): nonblocking, close-on-exec, and never as the controlling
    /// terminal (`O_NOCTTY`), which is what a serial port or pipe needs.
    package static func open(
        _ path: String, _ access: AccessMode
    ) throws(SystemError) -> FileDescriptor {
        let flags = access.flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        return FileDescriptor(rawValue: try check("open", path) { system_open(path, flags) })
    }

    /// Opens `path` to read it to its end, as cat(1) does: like ``open(_:_:)``, but a FIFO is
    /// opened again waiting for its writer (opened nonblocking, a FIFO nobody has opened yet
    /// reads as empty), so `mkfifo` and process substitution work as input.
    package static func openToRead(_ path: String) throws(SystemError) -> FileDescriptor {
        let file = try open(path, .readOnly)
        guard (try? FileStatus(file))?.kind == .fifo else { return file }
        try? file.close()
        return FileDescriptor(rawValue: try check("open", path) { system_open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) })
    }

    /// Makes `target` another descriptor of this one's open file with dup2(2), closing what
    /// `target` was; the copy is inherited across exec.
    package func duplicate(onto target: FileDescriptor) throws(SystemError) {
        _ = try check("dup2") { system_dup2(rawValue, target.rawValue) }
    }

    /// Closes the descriptor with close(2). Linux releases the descriptor even when close
    /// reports EINTR, so that is not an error and the call is never retried.
    package func close() throws(SystemError) {
        if system_close(rawValue) == -1 && Glibc.errno != EINTR {
            throw SystemError.last("close")
        }
    }

    /// Reads into `buffer` with read(2). Returns the number of bytes read, 0 at end of file,
    /// or `nil` when nothing is available yet.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        try nilIfWouldBlock { () throws(SystemError) in
            try check("read") { system_read(rawValue, buffer.baseAddress, buffer.count) }
        }
    }

    /// Writes `bytes` with write(2). Returns how many were written, or `nil` when the
    /// descriptor cannot take any now. Use ``send(_:)`` on sockets, which cannot raise SIGPIPE.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        try nilIfWouldBlock { () throws(SystemError) in
            try check("write") { system_write(rawValue, bytes.baseAddress, bytes.count) }
        }
    }

    /// Reads the 8-byte counter that timerfd and eventfd descriptors hold, or `nil` if it is 0.
    internal func readCounter(_ call: String) throws(SystemError) -> UInt64? {
        var counter: UInt64 = 0
        let count = try nilIfWouldBlock { () throws(SystemError) in
            try check(call) {
                withUnsafeMutableBytes(of: &counter) { system_read(rawValue, $0.baseAddress, $0.count) }
            }
        }
        return count == nil ? nil : counter
    }
}

extension FileDescriptor {
    /// Creates (or truncates) the file at `path` for writing, with `permissions` for a new
    /// file (less the umask), close-on-exec.
    package static func create(_ path: String, permissions: UInt32 = 0o644) throws(SystemError) -> FileDescriptor {
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        return FileDescriptor(rawValue: try check("open", path) { system_create(path, flags, mode_t(permissions)) })
    }

    /// Waits up to `timeout` (for ever when `nil`) until the descriptor is ready for `events`
    /// (poll(2)); returns `false` when the time ran out. A hangup or error counts as ready, so
    /// that the read or write that follows reports it.
    package func wait(for events: IOEvents, timeout: Duration?) throws(SystemError) -> Bool {
        try !readiness(for: events, timeout: timeout).isEmpty
    }

    /// What the descriptor is ready for, once it is ready for some of `events` or `timeout` ran
    /// out (for ever when `nil`; `.zero` looks without waiting) (poll(2)): those of `events` it
    /// is ready for, and ``IOEvents/hangup`` and ``IOEvents/error``, which are reported whether
    /// asked for or not; empty when the time ran out. Linux's poll bits are epoll's (`POLLIN`
    /// is `EPOLLIN`, `POLLRDHUP` is `EPOLLRDHUP`, …), so ``IOEvents`` says both.
    package func readiness(for events: IOEvents, timeout: Duration?) throws(SystemError) -> IOEvents {
        var request = pollfd(fd: rawValue, events: Int16(truncatingIfNeeded: events.rawValue), revents: 0)
        let milliseconds = timeout.map { Int32(clamping: $0.components.seconds * 1_000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? -1
        let ready = try check("poll") { system_poll(&request, milliseconds) }
        guard ready > 0 else { return [] }
        return IOEvents(rawValue: UInt32(UInt16(bitPattern: request.revents)))
    }

    /// Writes all of `bytes`, waiting (at most `patience` per stall, for ever when `nil`)
    /// while the descriptor cannot take more; a stall longer than that is `ETIMEDOUT`.
    package func writeAll(_ bytes: UnsafeRawBufferPointer, patience: Duration? = nil) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            if let written = try write(UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
                offset += written
            } else if try !wait(for: .writable, timeout: patience) {
                throw SystemError(errno: ETIMEDOUT, call: "write", note: "nothing was taken in \(patience ?? .zero)")
            }
        }
    }

    /// Writes all of `bytes` (see ``writeAll(_:patience:)``).
    package func writeAll(_ bytes: [UInt8], patience: Duration? = nil) throws(SystemError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try writeAll(buffer, patience: patience) }
        }.get()
    }

    /// Reads what comes next into `buffer`, waiting while a pipe or terminal has nothing
    /// yet: the count, or 0 at the end of the file.
    package func readWaiting(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            if let count = try read(into: buffer) { return count }
            _ = try wait(for: .readable, timeout: nil)
        }
    }

    /// The most a whole-file read holds unless told otherwise: far beyond any capture,
    /// scenario or board file, and a bound on what a file named by mistake (/dev/zero) costs.
    package static let largestWholeFile = 64 << 20

    /// Reads a whole file of at most `maximumBytes`: a capture, a scenario, a board definition,
    /// /proc text. A longer one is an error (EFBIG), so an untrusted file cannot make the
    /// process hold more.
    package static func readFile(_ path: String, maximumBytes: Int = largestWholeFile) throws(SystemError) -> [UInt8] {
        let file = try FileDescriptor.openToRead(path)
        defer { try? file.close() }
        return try file.readAll(maximumBytes: maximumBytes, path: path)
    }

    /// Reads from the current offset to the end, failing with EFBIG past `maximumBytes`; an
    /// error names `path` (a directory opens, and fails only when read: EISDIR).
    package func readAll(maximumBytes: Int, path: String) throws(SystemError) -> [UInt8] {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { chunk.deallocate() }
        var bytes: [UInt8] = []
        while true {
            let count: Int
            do {
                count = try readWaiting(into: chunk)
            } catch {
                var named = error
                named.argument = error.argument ?? path
                throw named
            }
            guard count > 0 else { break }
            guard bytes.count + count <= maximumBytes else {
                throw SystemError(errno: EFBIG, call: "read", argument: path, note: "longer than \(maximumBytes) bytes")
            }
            bytes += chunk[..<count]
        }
        return bytes
    }
}

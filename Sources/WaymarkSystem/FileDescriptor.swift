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
    /// Reads a whole (small) file: a capture, a scenario, a board definition.
    package static func readFile(_ path: String) throws(SystemError) -> [UInt8] {
        let file = try FileDescriptor.open(path, .readOnly)
        defer { try? file.close() }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { chunk.deallocate() }
        var bytes: [UInt8] = []
        while true {
            let count = try file.read(into: chunk) ?? 0
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}

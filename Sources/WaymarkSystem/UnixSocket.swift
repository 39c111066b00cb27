import Glibc

extension FileDescriptor {
    /// Creates a nonblocking, close-on-exec AF_UNIX socket of `type` with socket(2).
    internal static func unixSocket(_ type: __socket_type) throws(SystemError) -> FileDescriptor {
        let flags = Int32(type.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        return FileDescriptor(rawValue: try check("socket") { system_socket(AF_UNIX, flags, 0) })
    }

    /// Connects a new nonblocking stream socket to the Unix socket at `path` with connect(2).
    /// A Unix socket connects at once or fails (EAGAIN when the listener's backlog is full).
    public static func connectUnixStream(to path: String) throws(SystemError) -> FileDescriptor {
        let address = try UnixSocketAddress(path)
        let socket = try unixSocket(SOCK_STREAM)
        do throws(SystemError) {
            _ = try address.withSocketAddress { pointer, length throws(SystemError) in
                try check("connect", path) { system_connect(socket.rawValue, pointer, length) }
            }
            return socket
        } catch {
            try? socket.close()
            throw error
        }
    }

    /// Sends `bytes` on a connected socket with send(2) and `MSG_NOSIGNAL`, so a vanished peer
    /// is an EPIPE error and never a SIGPIPE. Returns how many bytes were sent, or `nil` when
    /// the socket cannot take any now.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        try nilIfWouldBlock { () throws(SystemError) in
            try check("send") { system_send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
        }
    }
}

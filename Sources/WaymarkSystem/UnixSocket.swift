import Glibc

extension FileDescriptor {
    /// Creates a close-on-exec AF_UNIX socket of `type` with socket(2), nonblocking unless
    /// `blocking`.
    internal static func unixSocket(_ type: __socket_type, blocking: Bool = false) throws(SystemError) -> FileDescriptor {
        let flags = Int32(type.rawValue | SOCK_CLOEXEC.rawValue) | (blocking ? 0 : Int32(SOCK_NONBLOCK.rawValue))
        return FileDescriptor(rawValue: try check("socket") { system_socket(AF_UNIX, flags, 0) })
    }

    /// Connects a new nonblocking stream socket to the Unix socket at `path` with connect(2).
    ///
    /// A Unix socket connects at once while the listener's queue has room. When it is full
    /// (a burst of clients the daemon has not accepted yet), the connect waits up to
    /// `patience` for room, woken by the kernel as soon as the daemon accepts one (a blocking
    /// connect bounded by `SO_SNDTIMEO`), and then fails with EAGAIN.
    package static func connectUnixStream(to path: String, patience: Duration = .zero) throws(SystemError) -> FileDescriptor {
        let address = try UnixSocketAddress(path)
        let waits = patience > .zero
        let socket = try unixSocket(SOCK_STREAM, blocking: waits)
        do throws(SystemError) {
            if waits { try socket.setSendTimeout(patience) }
            _ = try address.withSocketAddress { pointer, length throws(SystemError) in
                try check("connect", path) { system_connect(socket.rawValue, pointer, length) }
            }
            if waits {
                try socket.setSendTimeout(.zero)
                try socket.setNonblocking()
            }
            return socket
        } catch let error where error.errno == EAGAIN {
            try? socket.close()
            throw SystemError(
                errno: EAGAIN, call: "connect", argument: path,
                note: "the listener's queue of new connections " + (waits ? "stayed full for \(patience)" : "is full"))
        } catch {
            try? socket.close()
            throw error
        }
    }

    /// Sends `bytes` on a connected socket with send(2) and `MSG_NOSIGNAL`, so a vanished peer
    /// is an EPIPE error and never a SIGPIPE. Returns how many bytes were sent, or `nil` when
    /// the socket cannot take any now. `withoutWaiting` adds `MSG_DONTWAIT`, for a blocking
    /// socket whose flags are shared with another process (a journal's stream).
    package func send(_ bytes: UnsafeRawBufferPointer, withoutWaiting: Bool = false) throws(SystemError) -> Int? {
        let flags = Int32(MSG_NOSIGNAL) | (withoutWaiting ? Int32(MSG_DONTWAIT) : 0)
        return try nilIfWouldBlock { () throws(SystemError) in
            try check("send") { system_send(rawValue, bytes.baseAddress, bytes.count, flags) }
        }
    }

    /// Sets `O_NONBLOCK` with fcntl(2), for a descriptor opened blocking (by another library).
    package func setNonblocking() throws(SystemError) {
        let flags = try check("fcntl(F_GETFL)") { system_fcntl(rawValue, F_GETFL, 0) }
        _ = try check("fcntl(F_SETFL)") { system_fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Sets the socket's kernel send buffer (`SO_SNDBUF`; the kernel doubles the value for
    /// its bookkeeping and raises it to its minimum).
    package func setSendBufferSize(_ bytes: Int32) throws(SystemError) {
        var value = bytes
        _ = try check("setsockopt", "SO_SNDBUF") {
            system_setsockopt(rawValue, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Bounds how long a blocking send or connect waits (`SO_SNDTIMEO`; zero: no bound).
    private func setSendTimeout(_ timeout: Duration) throws(SystemError) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = try check("setsockopt(SO_SNDTIMEO)") {
            system_setsockopt(rawValue, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// An integer socket option read with getsockopt(2).
    internal func socketOption(_ level: Int32, _ option: Int32, _ name: String) throws(SystemError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try check("getsockopt(\(name))") { system_getsockopt(rawValue, level, option, &value, &length) }
        return value
    }
}

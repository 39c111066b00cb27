import Glibc

/// A listening AF_UNIX stream socket bound to a filesystem path: the daemon's front door.
package struct UnixListener: Sendable {
    /// The listening socket; ``close()`` closes it (and removes the socket file it created).
    package let descriptor: FileDescriptor
    /// Where the socket file is.
    package let path: String
    /// Whether this process created the socket file, and so removes it at ``close()``; a
    /// socket the service manager passed (``init(activated:)``) stays for the next start.
    package let removesFileAtClose: Bool

    /// Binds a nonblocking stream socket to `path`, gives the file `mode`, and listens with a
    /// queue of `backlog` connections (the kernel caps it at `net.core.somaxconn`).
    ///
    /// A socket file left at `path` by an earlier run of the same user is removed first.
    /// Anything else there is refused and left untouched: a file that is not a socket
    /// (EEXIST), another user's socket (EPERM), and a socket another process still listens
    /// on (EADDRINUSE). The mode is set with chmod(2) after bind(2) and before listen(2), so
    /// it does not depend on the umask and nobody can connect in between.
    package init(path: String, mode: UInt32 = 0o660, backlog: Int32 = SOMAXCONN) throws(SystemError) {
        try Self.removeStaleSocket(at: path)
        let address = try UnixSocketAddress(path)
        let socket = try FileDescriptor.unixSocket(SOCK_STREAM)
        var bound = false
        do throws(SystemError) {
            _ = try address.withSocketAddress { pointer, length throws(SystemError) in
                try check("bind", path) { system_bind(socket.rawValue, pointer, length) }
            }
            bound = true
            _ = try check("chmod", path) { system_chmod(path, mode_t(mode)) }
            _ = try check("listen", path) { system_listen(socket.rawValue, backlog) }
        } catch {
            try? socket.close()
            if bound { _ = system_unlink(path) }
            throw error
        }
        descriptor = socket
        self.path = path
        removesFileAtClose = true
    }

    /// Takes over a listening socket the service manager passed (socket activation, see
    /// ``SocketActivation``): it must be an AF_UNIX stream socket bound to a path and
    /// listening. It is made nonblocking; its file is left in place at ``close()``.
    package init(activated socket: FileDescriptor) throws(SystemError) {
        let isSocket = try FileStatus(socket).kind == .socket
        guard isSocket, try socket.socketOption(SOL_SOCKET, SO_DOMAIN, "SO_DOMAIN") == AF_UNIX,
            try socket.socketOption(SOL_SOCKET, SO_TYPE, "SO_TYPE") == Int32(SOCK_STREAM.rawValue),
            try socket.socketOption(SOL_SOCKET, SO_ACCEPTCONN, "SO_ACCEPTCONN") == 1,
            let path = try UnixSocketAddress.boundPath(of: socket)
        else {
            throw SystemError(
                errno: ENOTSOCK, call: "socket activation", argument: "descriptor \(socket.rawValue)",
                note: "waymarkd takes one listening AF_UNIX stream socket bound to a path (ListenStream=/path)")
        }
        try socket.setNonblocking()
        descriptor = socket
        self.path = path
        removesFileAtClose = false
    }

    /// Accepts a waiting connection with accept4(2), nonblocking and close-on-exec, or
    /// returns `nil` when none is waiting.
    package func accept() throws(SystemError) -> FileDescriptor? {
        let flags = Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        return try nilIfWouldBlock { () throws(SystemError) in
            FileDescriptor(rawValue: try check("accept4", path) { system_accept4(descriptor.rawValue, flags) })
        }
    }

    /// Closes the socket and removes its file if this process created it.
    package func close() throws(SystemError) {
        try descriptor.close()
        guard removesFileAtClose else { return }
        _ = try check("unlink", path) { system_unlink(path) }
    }

    /// Removes a leftover socket file at `path`: one of this user's that nobody listens on
    /// (connect(2) is refused). Refuses other files, other users' sockets and live sockets,
    /// and passes on any other connect error.
    private static func removeStaleSocket(at path: String) throws(SystemError) {
        var status = stat()
        guard system_lstat(path, &status) == 0 else {
            if Glibc.errno == ENOENT { return }
            throw SystemError.last("lstat", path)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SystemError(
                errno: EEXIST, call: "bind", argument: path,
                note: "it is not a socket, so it was left in place")
        }
        guard status.st_uid == geteuid() else {
            throw SystemError(
                errno: EPERM, call: "bind", argument: path,
                note: "the socket there belongs to uid \(status.st_uid), so it was left in place")
        }
        let live: FileDescriptor
        do throws(SystemError) {
            live = try FileDescriptor.connectUnixStream(to: path)
        } catch let error where error.errno == ECONNREFUSED {
            // Nobody listens: the file is a leftover from an earlier run.
            _ = try check("unlink", path) { system_unlink(path) }
            return
        }
        try? live.close()
        throw SystemError(
            errno: EADDRINUSE, call: "bind", argument: path, note: "another process is listening on it")
    }
}

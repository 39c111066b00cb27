import Glibc

/// A listening AF_UNIX stream socket bound to a filesystem path: the daemon's front door.
public struct UnixListener: Sendable {
    /// The listening socket; ``close()`` closes it and removes the socket file.
    public let descriptor: FileDescriptor
    /// Where the socket file is.
    public let path: String

    /// Binds a nonblocking stream socket to `path`, gives the file `mode`, and listens.
    ///
    /// A socket file left at `path` by an earlier run is removed first. Anything else there is
    /// refused with EEXIST and left untouched, and so is a socket another process still
    /// listens on (EADDRINUSE). The mode is set with chmod(2) after bind(2) and before
    /// listen(2), so it does not depend on the umask and nobody can connect in between.
    public init(path: String, mode: mode_t = 0o660, backlog: Int32 = 16) throws(SystemError) {
        try Self.removeStaleSocket(at: path)
        let address = try UnixSocketAddress(path)
        let socket = try FileDescriptor.unixSocket(SOCK_STREAM)
        do throws(SystemError) {
            _ = try address.withSocketAddress { pointer, length throws(SystemError) in
                try check("bind", path) { system_bind(socket.rawValue, pointer, length) }
            }
            _ = try check("chmod", path) { system_chmod(path, mode) }
            _ = try check("listen", path) { system_listen(socket.rawValue, backlog) }
        } catch {
            try? socket.close()
            throw error
        }
        descriptor = socket
        self.path = path
    }

    /// Accepts a waiting connection with accept4(2), nonblocking and close-on-exec, or
    /// returns `nil` when none is waiting.
    public func accept() throws(SystemError) -> FileDescriptor? {
        let flags = Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        return try nilIfWouldBlock { () throws(SystemError) in
            FileDescriptor(rawValue: try check("accept4", path) { system_accept4(descriptor.rawValue, flags) })
        }
    }

    /// Closes the socket and removes its file.
    public func close() throws(SystemError) {
        try descriptor.close()
        _ = try check("unlink", path) { system_unlink(path) }
    }

    /// Removes a leftover socket file at `path`: one nobody listens on (connect(2) is refused).
    /// Refuses other files and live sockets, and passes on any other connect error.
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

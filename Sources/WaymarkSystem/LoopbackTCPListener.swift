import Glibc

/// A listening TCP socket on 127.0.0.1 only (gpsd's clients connect to port 2947 there):
/// nonblocking and close-on-exec, with `SO_REUSEADDR` so a restarted daemon binds at once.
package struct LoopbackTCPListener: Sendable {
    /// The listening socket.
    package let descriptor: FileDescriptor
    /// The port it listens on (the one bound, when 0 was asked for).
    package let port: UInt16

    /// Binds 127.0.0.1:`port` (0: a free port) and listens with a queue of `backlog`.
    package init(port: UInt16, backlog: Int32 = SOMAXCONN) throws(SystemError) {
        let flags = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
        let socket = FileDescriptor(rawValue: try check("socket") { system_socket(AF_INET, flags, 0) })
        do throws(SystemError) {
            var reuse: Int32 = 1
            _ = try check("setsockopt", "SO_REUSEADDR") {
                system_setsockopt(socket.rawValue, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = Self.loopback.bigEndian
            _ = try withUnsafePointer(to: &address) { pointer throws(SystemError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(SystemError) in
                    try check("bind", "127.0.0.1:\(port)") { system_bind(socket.rawValue, raw, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
            }
            _ = try check("listen", "127.0.0.1:\(port)") { system_listen(socket.rawValue, backlog) }
            self.port = try socket.inetAddress(peer: false).port
        } catch {
            try? socket.close()
            throw error
        }
        descriptor = socket
    }

    /// 127.0.0.1 in host byte order.
    static let loopback: UInt32 = 0x7F00_0001

    /// Where it listens, as the kernel's socket table names the connections' remote end.
    package var endpoint: LoopbackSocketOwner.Endpoint { LoopbackSocketOwner.Endpoint(address: Self.loopback, port: port) }

    /// Accepts a waiting connection (nonblocking, close-on-exec), or `nil` when none waits.
    package func accept() throws(SystemError) -> FileDescriptor? {
        let flags = Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        return try nilIfWouldBlock { () throws(SystemError) in
            FileDescriptor(rawValue: try check("accept4", "127.0.0.1:\(port)") { system_accept4(descriptor.rawValue, flags) })
        }
    }

    /// Closes the socket.
    package func close() throws(SystemError) {
        try descriptor.close()
    }
}

extension FileDescriptor {
    /// The uid owning the other end of this TCP connection over loopback, as `table` says
    /// (``LoopbackSocketOwner``), or `nil` when it has no such socket.
    package func loopbackPeerOwner(in table: LoopbackSocketOwner.Table) throws(SystemError) -> UInt32? {
        guard try inetAddress(peer: false) == table.local else { return nil }
        return table.owner(peer: try inetAddress(peer: true))
    }

    /// The process on the other end of this TCP connection over loopback, as far as the
    /// kernel says: its uid (``loopbackPeerOwner(in:)``) and that user's primary group; no
    /// pid (TCP has no `SO_PEERCRED`), so nothing of `/proc/PID`. `nil` when the table has no
    /// such socket (the peer already closed it).
    package func loopbackPeerProcess(in table: LoopbackSocketOwner.Table) throws(SystemError) -> PeerProcess? {
        guard let uid = try loopbackPeerOwner(in: table) else { return nil }
        let group = UserGroups.groups(ofUser: uid).first ?? gid_t.max
        return PeerProcess(credentials: PeerCredentials(pid: 0, uid: uid, gid: group), cgroup: nil, executableLink: nil)
    }

    /// This IPv4 socket's own address (getsockname(2)) or its peer's (getpeername(2)).
    func inetAddress(peer: Bool) throws(SystemError) -> LoopbackSocketOwner.Endpoint {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = try withUnsafeMutablePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(SystemError) in
                try check(peer ? "getpeername" : "getsockname") {
                    peer ? system_getpeername(rawValue, raw, &length) : system_getsockname(rawValue, raw, &length)
                }
            }
        }
        guard address.sin_family == sa_family_t(AF_INET) else {
            throw SystemError(errno: EAFNOSUPPORT, call: peer ? "getpeername" : "getsockname", argument: nil, note: "not an IPv4 socket")
        }
        return LoopbackSocketOwner.Endpoint(address: UInt32(bigEndian: address.sin_addr.s_addr), port: UInt16(bigEndian: address.sin_port))
    }
}

public import Glibc

/// Who is on the other end of a Unix socket, as the kernel recorded it at connect time.
public struct PeerCredentials: Hashable, Sendable {
    /// The peer's process ID.
    public var pid: pid_t
    /// The peer's effective user ID.
    public var uid: uid_t
    /// The peer's effective group ID.
    public var gid: gid_t

    /// Credentials with the given IDs.
    public init(pid: pid_t, uid: uid_t, gid: gid_t) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

extension FileDescriptor {
    /// The credentials of a connected Unix socket's peer: getsockopt(2) `SO_PEERCRED`.
    public func peerCredentials() throws(SystemError) -> PeerCredentials {
        var credentials = PeerCredentials(pid: 0, uid: 0, gid: 0)
        _ = try check("getsockopt(SO_PEERCRED)") {
            system_peer_credentials(rawValue, &credentials.pid, &credentials.uid, &credentials.gid)
        }
        return credentials
    }
}

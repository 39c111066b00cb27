package import Glibc

/// Who is on the other end of a Unix socket, as the kernel recorded it at connect time.
package struct PeerCredentials: Hashable, Sendable {
    /// The peer's process ID.
    package var pid: pid_t
    /// The peer's effective user ID.
    package var uid: uid_t
    /// The peer's effective group ID.
    package var gid: gid_t

    /// Credentials with the given IDs.
    package init(pid: pid_t, uid: uid_t, gid: gid_t) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

extension FileDescriptor {
    /// The credentials of a connected Unix socket's peer: getsockopt(2) `SO_PEERCRED`.
    package func peerCredentials() throws(SystemError) -> PeerCredentials {
        var credentials = PeerCredentials(pid: 0, uid: 0, gid: 0)
        _ = try check("getsockopt(SO_PEERCRED)") {
            system_peer_credentials(rawValue, &credentials.pid, &credentials.uid, &credentials.gid)
        }
        return credentials
    }
}

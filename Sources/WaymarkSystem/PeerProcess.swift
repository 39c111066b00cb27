import Glibc

/// What `/proc` says about the process on the other end of a Unix socket, read once right
/// after accept: the raw text of its `/proc/PID/cgroup`, of its `/proc/PID/exe` link and of
/// its `/proc/PID/stat`, for
/// the pure parsers of WaymarkAuthorization. Nothing here comes from the client.
package struct PeerProcess: Hashable, Sendable {
    /// The peer's credentials (`SO_PEERCRED`).
    package var credentials: PeerCredentials
    /// The text of `/proc/PID/cgroup`, nil when it could not be read.
    package var cgroup: [UInt8]?
    /// The target of `/proc/PID/exe`, nil when it could not be read (a daemon that is neither
    /// root nor the peer's user may not read another user's link).
    package var executableLink: [UInt8]?
    /// The text of `/proc/PID/stat` (its terminal and process groups), nil when it could not
    /// be read.
    package var stat: [UInt8]?

    /// The largest `/proc/PID/cgroup` read: a line per hierarchy, far below this.
    package static let maximumCgroupBytes = 16_384
    /// The largest `/proc/PID/stat` read: one line of numbers and a 16-byte command name.
    package static let maximumStatBytes = 4_096
}

extension FileDescriptor {
    /// The peer of this connected Unix socket with what `/proc` (under `procDirectory`) says
    /// about it. The peer's pid could be reused by another process between its connect and
    /// this read, so the record is kept only if the same process still holds the pid
    /// afterwards: checked with a pidfd (`SO_PEERPIDFD`, Linux 6.5) where the kernel has one,
    /// else by the `/proc/PID` directory still belonging to the peer's uid. A record that
    /// fails the check, or a pid of 0 (a peer in another pid namespace), has no facts.
    package func peerProcess(procDirectory: String = "/proc") throws(SystemError) -> PeerProcess {
        let credentials = try peerCredentials()
        var record = PeerProcess(credentials: credentials, cgroup: nil, executableLink: nil, stat: nil)
        guard credentials.pid > 0 else { return record }
        let pidfd = system_peer_pidfd(rawValue)
        defer { if pidfd >= 0 { _ = system_close(pidfd) } }
        let directory = "\(procDirectory)/\(credentials.pid)"
        let cgroup = try? FileDescriptor.readFile(directory + "/cgroup", maximumBytes: PeerProcess.maximumCgroupBytes)
        let executableLink = Self.readLink(directory + "/exe")
        let statText = try? FileDescriptor.readFile(directory + "/stat", maximumBytes: PeerProcess.maximumStatBytes)
        let samePeer: Bool
        if pidfd >= 0 {
            samePeer = system_pidfd_alive(pidfd) == 0
        } else {
            var status = stat()
            samePeer = system_lstat(directory, &status) == 0 && status.st_uid == credentials.uid
        }
        guard samePeer else { return record }
        record.cgroup = cgroup
        record.executableLink = executableLink
        record.stat = statText
        return record
    }

    /// The target of the symbolic link at `path` (at most `PATH_MAX` bytes), or nil.
    private static func readLink(_ path: String) -> [UInt8]? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { system_readlink(path, $0.baseAddress!, $0.count) }
        guard count > 0, count < buffer.count else { return nil }
        return buffer[..<count].map { UInt8(bitPattern: $0) }
    }
}

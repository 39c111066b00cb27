package import Glibc

/// Whom a Waymark socket is trusted to (`docs/protocol.md`, "Connecting"), checked as OpenSSH
/// checks the directories of its agent socket: by the daemon for the directory it listens in,
/// and by a client for the directories on the way to a socket and for the process listening.
///
/// The trusted users are root, the process's own user and the `waymark` system user (the
/// installed daemon's account, looked up in `/etc/passwd`). Every directory from the socket's
/// up to `/` must be owned by one of them and must not be writable by group or others unless
/// it has the sticky bit (as `/tmp` has: nobody may then rename or remove another user's
/// entries). A symbolic link on the way must be owned by one of them, and the directories of
/// its target are checked too. A client believes a daemon only if the process listening on the
/// socket runs as one of them (`SO_PEERCRED`).
package struct SocketTrust: Hashable, Sendable {
    /// The process's own user.
    package let user: uid_t
    /// The `waymark` system user, if it exists.
    package let serviceUser: uid_t?

    /// The name of the installed daemon's system user.
    package static let serviceUserName = "waymark"

    /// Trust for `user`, with the system daemon's account `serviceUser`.
    package init(user: uid_t, serviceUser: uid_t?) {
        self.user = user
        self.serviceUser = serviceUser
    }

    /// Trust for this process: its effective user, and the `waymark` user from `/etc/passwd`.
    package static func current() -> SocketTrust {
        let passwd = (try? FileDescriptor.readFile("/etc/passwd")) ?? []
        return SocketTrust(user: geteuid(), serviceUser: userID(named: serviceUserName, inPasswd: passwd))
    }

    /// The uid of the user `name` in the text of a passwd(5) file, or `nil` if it is not there.
    package static func userID(named name: String, inPasswd text: [UInt8]) -> uid_t? {
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard fields.count >= 3, fields[0].elementsEqual(name.utf8) else { continue }
            return uid_t(String(decoding: fields[2], as: UTF8.self))
        }
        return nil
    }

    /// Whether `uid` is trusted.
    package func trusts(_ uid: uid_t) -> Bool {
        uid == 0 || uid == user || uid == serviceUser
    }

    /// Checks every directory on the way to `socketPath` (see the type's description); throws
    /// EPERM naming the first one that fails, or the error of a directory that cannot be read.
    package func checkDirectories(of socketPath: String) throws(SystemError) {
        let directory = Self.parent(of: socketPath)
        if directory.hasPrefix("/") { try checkChain(directory) }
        guard let resolved = system_realpath(directory) else { throw SystemError.last("realpath", directory) }
        defer { free(resolved) }
        let target = String(cString: resolved)
        if target != directory { try checkChain(target) }
    }

    /// Checks that the process listening on `socket`, connected to `path`, runs as a trusted
    /// user; throws EPERM otherwise.
    package func checkListener(of socket: FileDescriptor, path: String) throws(SystemError) {
        let listener = try socket.peerCredentials()
        guard trusts(listener.uid) else {
            throw SystemError(
                errno: EPERM, call: "connect", argument: path,
                note: "the process listening there runs as uid \(listener.uid), and only \(trustedUsers) may serve Waymark")
        }
    }

    /// "root, uid 1000 or waymark (uid 998)", for messages.
    private var trustedUsers: String {
        var names = ["root"]
        if user != 0 { names.append("uid \(user)") }
        if let serviceUser, serviceUser != 0, serviceUser != user {
            names.append("\(Self.serviceUserName) (uid \(serviceUser))")
        }
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + names.last!
    }

    /// Checks `directory` (absolute) and each of its ancestors, without following links.
    private func checkChain(_ directory: String) throws(SystemError) {
        var prefixes = ["/"]
        for component in directory.split(separator: "/") {
            prefixes.append((prefixes.count == 1 ? "/" : prefixes[prefixes.count - 1] + "/") + component)
        }
        for prefix in prefixes {
            var status = stat()
            guard system_lstat(prefix, &status) == 0 else { throw SystemError.last("lstat", prefix) }
            let kind = status.st_mode & S_IFMT
            guard trusts(status.st_uid) else {
                throw refusal(prefix, "it is owned by uid \(status.st_uid), and only \(trustedUsers) may own a directory on the way to the socket")
            }
            if kind == S_IFLNK { continue }
            guard kind == S_IFDIR else { throw SystemError(errno: ENOTDIR, call: "socket directory", argument: prefix) }
            let writableByOthers = status.st_mode & (S_IWGRP | S_IWOTH) != 0
            guard !writableByOthers || status.st_mode & S_ISVTX != 0 else {
                throw refusal(prefix, "its mode \(String(status.st_mode & 0o7777, radix: 8)) lets group or others replace the socket (no sticky bit)")
            }
        }
    }

    private func refusal(_ path: String, _ reason: String) -> SystemError {
        SystemError(errno: EPERM, call: "socket directory", argument: path, note: "\(reason); refusing it")
    }

    /// The directory part of `path`: `.` for a bare name, `/` for a name in the root.
    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// Where the daemon's socket is (`docs/protocol.md`, "Connecting").
///
/// The system daemon listens at ``system``; an unprivileged development daemon at
/// `$XDG_RUNTIME_DIR/waymark/waymark.sock`, or `/tmp/waymark-$UID/waymark.sock` without
/// `XDG_RUNTIME_DIR`. `WAYMARK_SOCKET` overrides both, for daemon and clients alike. A daemon
/// systemd starts with `RuntimeDirectory=waymark` listens in `$RUNTIME_DIRECTORY`, which is
/// ``system``'s directory.
package enum SocketPath {
    /// The system daemon's socket.
    package static let system = "/run/waymark/waymark.sock"
    /// The environment variable that names the socket explicitly.
    package static let environmentVariable = "WAYMARK_SOCKET"

    /// The development socket for user `uid`, given the value of `XDG_RUNTIME_DIR`.
    package static func development(runtimeDirectory: String?, uid: UInt32) -> String {
        if let runtimeDirectory, runtimeDirectory.hasPrefix("/") {
            return "\(runtimeDirectory)/waymark/waymark.sock"
        }
        return "/tmp/waymark-\(uid)/waymark.sock"
    }

    /// Where a daemon run by `uid` listens: `WAYMARK_SOCKET`, else `waymark.sock` in the
    /// first directory of `RUNTIME_DIRECTORY` (set by systemd), else ``system`` for root, else
    /// the development socket. `environment` looks a variable up.
    package static func daemon(environment: (String) -> String?, uid: UInt32) -> String {
        if let explicit = explicit(environment) { return explicit }
        if let runtime = environment("RUNTIME_DIRECTORY")?.split(separator: ":").first, runtime.hasPrefix("/") {
            return "\(runtime)/waymark.sock"
        }
        return uid == 0 ? system : development(runtimeDirectory: environment("XDG_RUNTIME_DIR"), uid: uid)
    }

    /// Where a client looks, in order: `WAYMARK_SOCKET` alone if set, else ``system`` and then
    /// the development socket (the first that exists is the one to use).
    package static func clientCandidates(environment: (String) -> String?, uid: UInt32) -> [String] {
        if let explicit = explicit(environment) { return [explicit] }
        return [system, development(runtimeDirectory: environment("XDG_RUNTIME_DIR"), uid: uid)]
    }

    private static func explicit(_ environment: (String) -> String?) -> String? {
        guard let path = environment(environmentVariable), !path.isEmpty else { return nil }
        return path
    }
}

import WaymarkSystem

/// The server's listening socket: the one the service manager passed (socket activation), or
/// a new one at the configured path, in a directory created if missing and checked against
/// ``SocketTrust`` (a directory another user could write to is refused).
func makeListener(for configuration: ServerConfiguration) throws(SystemError) -> UnixListener {
    if let activated = configuration.activatedSocket { return try UnixListener(activated: activated) }
    try createSocketDirectory(for: configuration.path)
    try SocketTrust.current().checkDirectories(of: configuration.path)
    return try UnixListener(path: configuration.path, mode: configuration.mode)
}

/// Creates the directory that will hold the socket at `path`, if it is missing, with
/// mkdir(2): world-searchable for the system socket's group to reach it, private under /tmp.
private func createSocketDirectory(for path: String) throws(SystemError) {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
    let directory = String(path[..<slash])
    try FileSystem.makeDirectory(directory, permissions: directory.hasPrefix("/tmp/") ? 0o700 : 0o755)
}

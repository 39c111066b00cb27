import Glibc
import WaymarkSystem

/// Creates the directory that will hold the socket at `path`, if it is missing, with
/// mkdir(2): world-searchable for the system socket's group to reach it, private under /tmp.
func createSocketDirectory(for path: String) throws(SystemError) {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
    let directory = String(path[..<slash])
    let mode: mode_t = directory.hasPrefix("/tmp/") ? 0o700 : 0o755
    if mkdir(directory, mode) == -1 && errno != EEXIST {
        throw SystemError(errno: errno, call: "mkdir", argument: directory)
    }
}

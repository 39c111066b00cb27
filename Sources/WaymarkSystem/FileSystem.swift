import Glibc

/// Paths in the file system: directories, access checks, group names.
package enum FileSystem {
    /// Creates the directory `path` with `permissions` (mkdir(2), less the umask). Returns
    /// `false` when something exists at `path` already.
    @discardableResult
    package static func makeDirectory(_ path: String, permissions: UInt32) throws(SystemError) -> Bool {
        if system_mkdir(path, mode_t(permissions)) == 0 { return true }
        if Glibc.errno == EEXIST { return false }
        throw SystemError.last("mkdir", path)
    }

    /// Removes the file `path` (unlink(2)); one that is not there is no error.
    package static func remove(_ path: String) throws(SystemError) {
        guard system_unlink(path) != 0, Glibc.errno != ENOENT else { return }
        throw SystemError.last("unlink", path)
    }

    /// Whether this process's real user may read `path` (access(2) with `R_OK`).
    package static func isReadable(_ path: String) -> Bool {
        system_access(path, R_OK) == 0
    }

    /// Whether this process's real user may read and write `path` (access(2)).
    package static func isReadableAndWritable(_ path: String) -> Bool {
        system_access(path, R_OK | W_OK) == 0
    }

    /// Whether anything exists at `path` (access(2) with `F_OK`): `nil` when it does, else
    /// the error that says why not.
    package static func existenceError(_ path: String) -> SystemError? {
        system_access(path, F_OK) == 0 ? nil : SystemError(errno: Glibc.errno, call: "open", argument: path)
    }

    /// The names in the directory `path` (opendir(3), readdir(3)), `.` and `..` included, in
    /// the order the file system keeps them; none when it cannot be read.
    package static func entries(of path: String) -> [String] {
        guard let directory = system_opendir(path) else { return [] }
        defer { _ = system_closedir(directory) }
        var names: [String] = []
        while let entry = system_readdir(directory) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }

    /// The name of the group `id` (getgrgid(3)), or `nil` when it has none.
    package static func groupName(_ id: UInt32) -> String? {
        system_getgrgid(id).map { String(cString: $0.pointee.gr_name) }
    }
}

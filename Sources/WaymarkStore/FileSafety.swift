import WaymarkSystem

/// The ownership rule for the database: only the daemon's user (or root) may be able to change
/// the file, its write-ahead log and shared-memory index, or the directory that holds them.
/// Otherwise another local user could rewrite the authorizations (or swap the file for one of
/// their own), so the store refuses to open.
enum FileSafety {
    /// Checks the directory of `path` and, where they exist already, the database file and its
    /// `-wal` and `-shm` companions.
    static func checkDatabase(at path: String) throws(StoreError) {
        try checkDirectory(directory(of: path), for: path)
        for file in [path, path + "-wal", path + "-shm"] {
            try checkFile(file, for: path)
        }
    }

    /// The directory part of `path`: everything before its last `/` ("." when there is none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func checkDirectory(_ directory: String, for database: String) throws(StoreError) {
        let status: FileStatus
        do throws(SystemError) {
            status = try FileStatus(path: directory)
        } catch {
            throw StoreError(.inaccessibleFile, operation: "open \(database)", message: "stat \(directory): \(explain(error))")
        }
        guard status.kind == .directory else {
            throw unsafe(database, "\(directory) is not a directory")
        }
        try checkOwnerAndMode(status, directory, for: database)
    }

    private static func checkFile(_ file: String, for database: String) throws(StoreError) {
        let status: FileStatus
        do throws(SystemError) {
            status = try FileStatus(linkAt: file)
        } catch where error.errno == Errno.noEntry {
            return
        } catch {
            throw StoreError(.inaccessibleFile, operation: "open \(database)", message: "lstat \(file): \(explain(error))")
        }
        guard status.kind == .regular else {
            throw unsafe(database, "\(file) is not a regular file (a symbolic link or device is refused)")
        }
        try checkOwnerAndMode(status, file, for: database)
    }

    private static func checkOwnerAndMode(_ status: FileStatus, _ path: String, for database: String) throws(StoreError) {
        let user = CurrentProcess.effectiveUserID
        guard status.ownerID == user || status.ownerID == 0 else {
            throw unsafe(database, "\(path) belongs to uid \(status.ownerID), not to this user (uid \(user)) or root")
        }
        guard !status.isWritableByOthers else {
            let mode = String(status.permissions, radix: 8)
            throw unsafe(database, "\(path) is writable by its group or by everyone (mode \(mode)); chmod go-w it")
        }
    }

    private static func unsafe(_ database: String, _ message: String) -> StoreError {
        StoreError(.unsafeFile, operation: "open \(database)", message: message)
    }

    private static func explain(_ error: SystemError) -> String {
        "\(error.reason) (errno \(error.errno))"
    }
}

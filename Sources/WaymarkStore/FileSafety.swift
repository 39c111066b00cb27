import Glibc

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
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw StoreError(.inaccessibleFile, operation: "open \(database)", message: "stat \(directory): \(lastError)")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw unsafe(database, "\(directory) is not a directory")
        }
        try checkOwnerAndMode(status, directory, for: database)
    }

    private static func checkFile(_ file: String, for database: String) throws(StoreError) {
        var status = stat()
        guard lstat(file, &status) == 0 else {
            if errno == ENOENT { return }
            throw StoreError(.inaccessibleFile, operation: "open \(database)", message: "lstat \(file): \(lastError)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw unsafe(database, "\(file) is not a regular file (a symbolic link or device is refused)")
        }
        try checkOwnerAndMode(status, file, for: database)
    }

    private static func checkOwnerAndMode(_ status: stat, _ path: String, for database: String) throws(StoreError) {
        let user = geteuid()
        guard status.st_uid == user || status.st_uid == 0 else {
            throw unsafe(database, "\(path) belongs to uid \(status.st_uid), not to this user (uid \(user)) or root")
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw unsafe(database, "\(path) is writable by its group or by everyone (mode \(mode)); chmod go-w it")
        }
    }

    private static func unsafe(_ database: String, _ message: String) -> StoreError {
        StoreError(.unsafeFile, operation: "open \(database)", message: message)
    }

    private static var lastError: String {
        "\(String(cString: strerror(errno))) (errno \(errno))"
    }
}

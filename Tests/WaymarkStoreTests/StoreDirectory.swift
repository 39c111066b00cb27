import Foundation

/// A private (mode 0700) directory for one test's database, removed with its contents by
/// ``remove()``.
struct StoreDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "waymark-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    /// The database file's path inside the directory.
    var database: String { path + "/store.db" }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

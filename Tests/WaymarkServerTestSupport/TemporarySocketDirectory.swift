import Foundation

/// A fresh directory for a test's socket, removed with its contents by ``remove()``.
package struct TemporarySocketDirectory: Sendable {
    /// The directory's path (short, since socket paths must fit 107 bytes).
    package let path: String

    /// Creates the directory.
    package init() throws {
        path = "/tmp/wm-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// The socket path `name` inside the directory.
    package func socket(_ name: String = "waymark.sock") -> String {
        "\(path)/\(name)"
    }

    /// Removes the directory and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

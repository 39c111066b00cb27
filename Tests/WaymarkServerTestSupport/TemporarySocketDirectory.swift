import Foundation

/// A fresh directory for a test's socket, removed with its contents by ``remove()``.
public struct TemporarySocketDirectory: Sendable {
    /// The directory's path (short, since socket paths must fit 107 bytes).
    public let path: String

    /// Creates the directory.
    public init() throws {
        path = "/tmp/wm-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// The socket path `name` inside the directory.
    public func socket(_ name: String = "waymark.sock") -> String {
        "\(path)/\(name)"
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

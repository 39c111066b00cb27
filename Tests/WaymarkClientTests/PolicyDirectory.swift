import Foundation

/// A directory of root's that every uid may read (0755), holding `apps.d/test.toml` with the
/// policies given, as `waymarkd --policies` trusts them, and room for the daemon's store.
struct PolicyDirectory {
    let directory: URL
    /// What `--policies` takes.
    var policies: String { directory.appendingPathComponent("apps.d").path }
    /// What `--store` takes.
    var store: String { directory.appendingPathComponent("authorization.sqlite").path }

    /// Creates `/tmp/<prefix>-<pid>-<random>` with `apps.d/test.toml` holding `text`.
    init(prefix: String, policies text: String) throws {
        directory = URL(fileURLWithPath: "/tmp/\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: policies, withIntermediateDirectories: true)
        chmod(directory.path, 0o755)
        chmod(policies, 0o755)
        let file = policies + "/test.toml"
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o644)
    }

    /// Removes the directory and what it holds.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One step of a schema: the SQL that takes a database from the previous version to the next.
/// A schema is an ordered list of them; version `n` is the database after the first `n` steps,
/// recorded in `PRAGMA user_version`.
package struct Migration: Sendable {
    /// The statements of this step.
    package var script: String

    /// A step that runs `script`.
    package init(_ script: String) {
        self.script = script
    }
}

extension Database {
    /// The schema version recorded in the file (`PRAGMA user_version`, 0 for a new file).
    package func schemaVersion() throws(StoreError) -> Int {
        let versions = try rows("PRAGMA user_version") { row throws(StoreError) in try row.int64(0) }
        guard let version = versions.first, version >= 0 else {
            throw StoreError(.unexpectedValue, operation: "read schema version of \(path)", message: "\(versions)")
        }
        return Int(version)
    }

    /// Brings the database to the last version of `migrations`, applying each missing step in a
    /// transaction of its own (so a crash leaves a whole version), and refuses a database
    /// written by a newer schema.
    package func migrate(_ migrations: [Migration]) throws(StoreError) {
        while try transaction({ () throws(StoreError) -> Bool in
            let version = try schemaVersion()
            guard version <= migrations.count else {
                throw StoreError(
                    .newerSchema, operation: "open \(path)",
                    message: "the database has schema version \(version) but this waymarkd knows only "
                        + "up to \(migrations.count); run the newer waymarkd that wrote it, or move the file aside")
            }
            guard version < migrations.count else { return false }
            try execute(migrations[version].script)
            try execute("PRAGMA user_version = \(version + 1)")
            return true
        }) {}
    }
}

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
    /// written by a newer schema, or one whose tables, indexes or triggers are not the ones its
    /// version's steps made (a file edited by hand: a dropped table would otherwise fail only
    /// when first used). Objects the file has beyond those are left alone.
    package func migrate(_ migrations: [Migration]) throws(StoreError) {
        try bringUpToDate(migrations)
        let changed = try schemaObjectsMissing(from: migrations)
        guard changed.isEmpty else {
            throw StoreError(
                .unexpectedValue, operation: "open \(path)",
                message: "the schema's \(changed.joined(separator: ", ")) \(changed.count == 1 ? "is" : "are") missing or not as "
                    + "version \(migrations.count) defines \(changed.count == 1 ? "it" : "them") (a damaged or hand-edited file)")
        }
    }

    /// The schema objects (`table apps`) that `migrations` make which this file lacks or has in
    /// another shape (a table's columns: names, types, NOT NULL, defaults, keys).
    private func schemaObjectsMissing(from migrations: [Migration]) throws(StoreError) -> [String] {
        let reference = try Database.inMemory()
        for migration in migrations { try reference.execute(migration.script) }
        let present = Set(try schemaObjects())
        return try reference.schemaObjects().filter { !present.contains($0) }.map { "\($0.type) \($0.name)" }
    }

    /// Every table, index, view and trigger of the file, SQLite's own left out; a table with its
    /// columns as SQLite reads them (not the SQL text, which an `ALTER TABLE` of another SQLite
    /// version may have written differently).
    private func schemaObjects() throws(StoreError) -> [SchemaObject] {
        let objects = try rows("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'") { row throws(StoreError) in
            (type: try row.string(0), name: try row.string(1))
        }
        return try objects.map { object throws(StoreError) in
            guard object.type == "table" else { return SchemaObject(type: object.type, name: object.name, columns: []) }
            let columns = try rows(
                "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", [.text(object.name)]
            ) { row throws(StoreError) in
                "\(try row.string(0)) \(try row.string(1)) \(try row.int64(2)) \(try row.optionalString(3) ?? "") \(try row.int64(4))"
            }
            return SchemaObject(type: object.type, name: object.name, columns: columns)
        }
    }

    private func bringUpToDate(_ migrations: [Migration]) throws(StoreError) {
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

/// One object of a database's schema as `sqlite_schema` lists it.
private struct SchemaObject: Hashable {
    var type: String
    var name: String
    var columns: [String]
}

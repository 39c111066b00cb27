import Testing
@testable import WaymarkStore
import WaymarkAuthorization
import WaymarkSystem

@Suite("schema versions")
struct MigrationTests {
    @Test func aNewFileGetsTheWholeSchema() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try StoreSchema.open(path: directory.database)
        #expect(try database.schemaVersion() == StoreSchema.migrations.count)
        // Opening again changes nothing.
        #expect(try StoreSchema.open(path: directory.database).schemaVersion() == StoreSchema.migrations.count)
    }

    @Test func migratesVersionOneToTwoKeepingTheData() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let app = AppIdentity(.unit, "tracker.service")
        let time = RealtimeInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        do {
            let database = try Database(path: directory.database)
            try database.migrate([StoreSchema.authorization])
            let store = AuthorizationStore(database: database)
            try store.grant(app, .authorizedWhenInUse, accuracy: .reduced, at: time)
            try store.setLocationServicesEnabled(false)
        }
        let versionTwo = Migration(
            """
            ALTER TABLE apps ADD COLUMN note TEXT;
            UPDATE apps SET note = 'migrated ' || identityKey;
            """)
        let database = try Database(path: directory.database)
        try database.migrate([StoreSchema.authorization, versionTwo])
        #expect(try database.schemaVersion() == 2)
        let store = AuthorizationStore(database: database)
        let record = try store.app(app)
        #expect(record?.authorization == .authorizedWhenInUse)
        #expect(record?.accuracy == .reduced)
        #expect(record?.updatedAt == time)
        #expect(try store.locationServicesEnabled() == false)
        #expect(try database.rows("SELECT note FROM apps") { row throws(StoreError) in try row.string(0) } == ["migrated tracker.service"])
    }

    @Test func aFailingStepLeavesThePreviousVersionWhole() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.database)
        try database.migrate([StoreSchema.authorization])
        let broken = Migration("CREATE TABLE monitors (id INTEGER); INSERT INTO nowhere VALUES (1);")
        #expect(throws: StoreError.self) { try database.migrate([StoreSchema.authorization, broken]) }
        #expect(try database.schemaVersion() == 1)
        #expect(try database.rows("SELECT name FROM sqlite_schema WHERE name = 'monitors'") { row throws(StoreError) in try row.string(0) }.isEmpty)
    }

    @Test func refusesADatabaseFromANewerSchema() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        do {
            let database = try StoreSchema.open(path: directory.database)
            try database.execute("PRAGMA user_version = \(StoreSchema.migrations.count + 1)")
        }
        let error = #expect(throws: StoreError.self) { try StoreSchema.open(path: directory.database) }
        #expect(error?.kind == .newerSchema)
        #expect(error?.message.contains("schema version \(StoreSchema.migrations.count + 1)") == true)
    }

    /// A file whose tables are not its version's (edited by hand) is refused when opened, not
    /// when the missing table is first used; a table of the operator's own is left alone.
    @Test func refusesASchemaEditedByHand() throws {
        let edits = [
            ("DROP TABLE visits", "table visits"),
            ("ALTER TABLE conditions DROP COLUMN diagnostics", "table conditions"),
            ("ALTER TABLE settings RENAME TO preferences", "table settings"),
            ("DROP INDEX pendingEventsByApp", "index pendingEventsByApp"),
        ]
        for (edit, named) in edits {
            let directory = try StoreDirectory()
            defer { directory.remove() }
            try StoreSchema.open(path: directory.database).execute(edit)
            let error = #expect(throws: StoreError.self, "\(edit)") { try StoreSchema.open(path: directory.database) }
            #expect(error?.kind == .unexpectedValue, "\(edit)")
            #expect(error?.message.contains("the schema's \(named) is missing or not as version") == true, "\(edit): \(String(describing: error))")
        }
        let directory = try StoreDirectory()
        defer { directory.remove() }
        try StoreSchema.open(path: directory.database).execute("CREATE TABLE notes (text TEXT); CREATE INDEX notesByText ON notes (text)")
        #expect(try StoreSchema.open(path: directory.database).schemaVersion() == StoreSchema.migrations.count)
    }
}

import Testing
import WaymarkAuthorization
import WaymarkLocation
import WaymarkMonitoring
@testable import WaymarkStore
import WaymarkSystem

@Suite("schema version 3")
struct MonitorMigrationTests {
    @Test func migratesVersionTwoToThreeKeepingAuthorizationAndAddingMonitors() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let app = AppIdentity(.unit, "tracker.service")
        let time = RealtimeInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        do {
            let database = try Database(path: directory.database)
            try database.migrate(Array(StoreSchema.migrations.prefix(2)))
            #expect(try database.schemaVersion() == 2)
            let store = AuthorizationStore(database: database)
            try store.grant(app, .authorizedAlways, accuracy: .reduced, at: time)
            try store.recordPendingRequest(
                AppIdentity(.unit, "asker.service"), usageDescription: "why", requested: .authorizedWhenInUse, uid: 1000, at: time)
        }
        let database = try StoreSchema.open(path: directory.database)
        #expect(try database.schemaVersion() == StoreSchema.migrations.count)
        #expect(try database.integrityProblems() == [])
        let authorization = AuthorizationStore(database: database)
        #expect(try authorization.app(app)?.authorization == .authorizedAlways)
        #expect(try authorization.app(app)?.accuracy == .reduced)
        #expect(try authorization.pendingRequests().map(\.usageDescription) == ["why"])

        // The new tables hang from the existing app row, and go with it.
        let monitors = MonitorStore(database: database)
        var monitor = try #require(Monitor(name: "places"))
        _ = try monitor.add(
            .circularGeographic(CircularRegion(latitude: 1, longitude: 2, radius: 30)!), identifier: "home",
            at: Timestamp(nanosecondsSinceEpoch: 5))
        try monitors.save(monitor, of: app, queueing: [MonitorEvent(identifier: "home", state: .unknown, date: Timestamp(nanosecondsSinceEpoch: 5))], at: time)
        #expect(try monitors.monitor(named: "places", of: app)?.identifiers == ["home"])
        #expect(try database.rows("SELECT count(*) FROM apps") { row throws(StoreError) in try row.int64(0) } == [2])
        try database.execute("DELETE FROM apps WHERE identityKey = 'tracker.service'")
        #expect(try database.rows("SELECT (SELECT count(*) FROM conditions) + (SELECT count(*) FROM pendingEvents)") {
            row throws(StoreError) in try row.int64(0)
        } == [0])
        #expect(try database.rows("PRAGMA foreign_key_check") { row throws(StoreError) in try row.string(0) }.isEmpty)
    }
}

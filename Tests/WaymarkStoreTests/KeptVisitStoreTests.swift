import Testing
import WaymarkAuthorization
import WaymarkLocation
@testable import WaymarkStore
import WaymarkSystem

@Suite("kept visits")
struct KeptVisitStoreTests {
    let app = AppIdentity(.unit, "tracker.service")
    let time = RealtimeInstant(nanosecondsSinceEpoch: 1_795_392_000_000_000_000)

    static func visit(arriving seconds: Int64, leaving: Int64? = nil) -> Visit {
        Visit(
            latitude: 48.85, longitude: 2.35, horizontalAccuracy: 12, arrivalDate: MonitorStoreTests.date(seconds),
            departureDate: leaving.map(MonitorStoreTests.date))
    }

    @Test func visitsStayKeptInOrderAcrossReopeningUntilAcknowledged() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let visits = [Self.visit(arriving: 0), Self.visit(arriving: 0, leaving: 600), Self.visit(arriving: 900)]
        let kept = try MonitorStore(database: try StoreSchema.open(path: directory.database)).keep(visits, for: app, at: time)
        #expect(kept.map(\.visit) == visits)
        #expect(kept.map(\.sequence) == kept.map(\.sequence).sorted())

        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        #expect(try store.pendingVisits(of: app) == PendingVisits(visits: kept, dropped: 0))
        #expect(try store.pendingVisits(of: AppIdentity(.unit, "other.service")).visits.isEmpty, "each app's queue is its own")
        try store.acknowledgeVisits(through: kept[1].sequence, of: app)
        #expect(try store.pendingVisits(of: app).visits == [kept[2]])

        // Sequences are never reused, even once the queue is empty.
        try store.acknowledgeVisits(through: kept[2].sequence, of: app)
        #expect(try store.keep([visits[0]], for: app, at: time).map(\.sequence) == [kept[2].sequence + 1])
    }

    @Test func aFullQueueDropsTheOldestAndCountsThem() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        let capacity = MonitorStore.visitQueueCapacity
        let visits = (0..<(capacity + 5)).map { Self.visit(arriving: Int64($0) * 1000) }
        let kept = try store.keep(visits, for: app, at: time)
        #expect(kept.map(\.visit) == Array(visits.suffix(capacity)), "only the kept ones come back")
        let pending = try store.pendingVisits(of: app)
        #expect(pending.visits.map(\.visit) == Array(visits.suffix(capacity)))
        #expect(pending.dropped == 5)
        try store.keep([Self.visit(arriving: 999_999)], for: app, at: time)
        #expect(try store.pendingVisits(of: app).dropped == 6)
        try store.acknowledgeVisits(through: try #require(kept.last).sequence, of: app)
        #expect(try store.pendingVisits(of: app) == PendingVisits(visits: [try store.pendingVisits(of: app).visits[0]], dropped: 0))
    }

    @Test func stoppingVisitMonitoringForgetsTheKeptVisits() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        try store.setVisitMonitoring(true, of: app, at: time)
        try store.keep((0...MonitorStore.visitQueueCapacity).map { Self.visit(arriving: Int64($0)) }, for: app, at: time)
        try store.setVisitMonitoring(false, of: app, at: time)
        #expect(try store.pendingVisits(of: app) == PendingVisits(visits: [], dropped: 0))
        #expect(try store.visitMonitoringApps().isEmpty)
    }

    @Test func migratesVersionFourToFiveKeepingTheVisitService() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        do {
            let database = try Database(path: directory.database)
            try database.migrate(Array(StoreSchema.migrations.prefix(4)))
            #expect(try database.schemaVersion() == 4)
            try MonitorStore(database: database).setVisitMonitoring(true, of: app, at: time)
        }
        let database = try StoreSchema.open(path: directory.database)
        #expect(try database.schemaVersion() == 5)
        #expect(try database.integrityProblems() == [])
        let store = MonitorStore(database: database)
        #expect(try store.visitMonitoringApps() == [app])
        try store.keep([Self.visit(arriving: 0)], for: app, at: time)
        #expect(try store.pendingVisits(of: app).visits.count == 1)
        // The kept visits hang from the app's row, and go with it.
        try database.execute("DELETE FROM apps WHERE identityKey = 'tracker.service'")
        #expect(try database.rows("SELECT (SELECT count(*) FROM pendingVisits) + (SELECT count(*) FROM visitMonitoring)") {
            row throws(StoreError) in try row.int64(0)
        } == [0])
    }

    @Test func aHandEditedVisitIsAnErrorNotATrap() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try StoreSchema.open(path: directory.database)
        let store = MonitorStore(database: database)
        try store.keep([Self.visit(arriving: 0)], for: app, at: time)
        // STRICT refuses text in a date; a null arrival is refused by NOT NULL: the file cannot hold them.
        #expect(throws: StoreError.self) { try database.execute("UPDATE pendingVisits SET arrivalDate = 'soon'") }
        #expect(throws: StoreError.self) { try database.execute("UPDATE pendingVisits SET arrivalDate = NULL") }
        #expect(try store.pendingVisits(of: app).visits.count == 1)
    }
}

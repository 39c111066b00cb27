import Testing
@testable import WaymarkStore
import WaymarkAuthorization
import WaymarkSystem

@Suite("the store's bounds, its book changes and its device secret")
struct AuthorizationLimitsTests {
    static let time = RealtimeInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)

    static func count(_ table: String, in database: Database) throws -> Int64 {
        try database.rows("SELECT count(*) FROM \(table)") { row throws(StoreError) in try row.int64(0) }.first ?? -1
    }

    @Test("a client cannot grow the database: requests are capped per uid and in all, descriptions by length")
    func caps() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try StoreSchema.open(path: directory.database)
        let store = AuthorizationStore(database: database)
        // One uid minting apps (a new executable path each time) gets 8 requests waiting.
        var refused = 0
        for index in 0..<1_000 {
            let result = Result { () throws(StoreError) in
                try store.recordPendingRequest(
                    .executable("/home/eve/copy-\(index)", uid: 1000), usageDescription: "please", requested: .authorizedAlways,
                    uid: 1000, at: Self.time)
            }
            if case .failure(let error) = result {
                #expect(error.kind == .limitExceeded)
                refused += 1
            }
        }
        #expect(refused == 1_000 - AuthorizationLimits.maximumPendingRequestsPerUID)
        #expect(try Self.count("apps", in: database) == Int64(AuthorizationLimits.maximumPendingRequestsPerUID))
        // Asking again for an app already waiting is not a new request.
        try store.recordPendingRequest(
            .executable("/home/eve/copy-0", uid: 1000), usageDescription: "please!", requested: .authorizedAlways, uid: 1000, at: Self.time)
        // Many uids together stop at 64.
        for uid in UInt32(2_000)..<2_100 {
            try? store.recordPendingRequest(.user(uid), usageDescription: "", requested: .authorizedWhenInUse, uid: uid, at: Self.time)
        }
        #expect(try store.pendingRequests().count == AuthorizationLimits.maximumPendingRequests)
        #expect(try Self.count("apps", in: database) == Int64(AuthorizationLimits.maximumPendingRequests))
        let long = String(repeating: "x", count: AuthorizationLimits.maximumUsageDescriptionBytes + 1)
        let error = #expect(throws: StoreError.self) {
            try store.recordPendingRequest(.executable("/home/eve/copy-0", uid: 1000), usageDescription: long, requested: .authorizedAlways, uid: 1000, at: Self.time)
        }
        #expect(error?.kind == .limitExceeded)
        #expect(try store.pendingRequests().first { $0.identity == .executable("/home/eve/copy-0", uid: 1000) }?.usageDescription == "please!")
        // The operator's answer makes room again.
        let root = try #require(Operator.verify(uid: 0, groups: [], administratorGroup: nil))
        try store.apply(.decide(.user(2_000), .denied, nil, by: root), at: Self.time)
        try store.recordPendingRequest(.user(3_000), usageDescription: "", requested: .authorizedWhenInUse, uid: 3_000, at: Self.time)
    }

    @Test("changes written by the store and applied to the book agree after a restart")
    func changesRoundTrip() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let root = try #require(Operator.verify(uid: 0, groups: [], administratorGroup: nil))
        let tracker = AppIdentity.appID("com.example.tracker")
        let logger = AppIdentity.userUnit("logger.service", uid: 1000)
        var book = AuthorizationBook(AuthorizationSnapshot())
        do {
            let store = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
            let changes: [AuthorizationChange] = [
                .request(tracker, PendingAuthorization(requested: .authorizedAlways, usageDescription: "trips", uid: 998)),
                .request(logger, PendingAuthorization(requested: .authorizedWhenInUse, usageDescription: "log", uid: 1000)),
                book.grant(tracker, .authorizedAlways, accuracy: .reduced, by: root),
                book.setLocationServices(false, by: root),
                .request(.user(1001), PendingAuthorization(requested: .authorizedWhenInUse, usageDescription: "", uid: 1001)),
                book.reset(.user(1001), by: root),
                book.setAccuracy(.user(1002), .reduced, by: root),
            ]
            for change in changes {
                try store.apply(change, at: Self.time)
                book.apply(change)
            }
        }
        let reopened = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
        #expect(try reopened.snapshot() == book.snapshot)
        #expect(book.snapshot.pending.keys.sorted { $0.key < $1.key } == [logger])
    }

    @Test("the device secret is generated once and kept")
    func deviceSecret() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
        #expect(try store.deviceSecret() == nil)
        let first = try RandomBytes.generate(count: 32)
        #expect(try store.keepDeviceSecret(first) == first)
        #expect(try store.keepDeviceSecret(try RandomBytes.generate(count: 32)) == first)
        #expect(try AuthorizationStore(database: try StoreSchema.open(path: directory.database)).deviceSecret() == first)
    }

    @Test("version 1 becomes version 2 with every row, the foreign key and the cascade intact")
    func migrationToVersionTwo() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let tracker = AppIdentity(.unit, "tracker.service")
        do {
            let database = try Database(path: directory.database)
            try database.migrate([StoreSchema.authorization])
            try database.run(
                "INSERT INTO apps (identityKind, identityKey, authorization, accuracy, updatedAt) VALUES ('unit', 'tracker.service', 'authorizedAlways', 'reduced', 5)")
            try database.run(
                "INSERT INTO apps (identityKind, identityKey, updatedAt) VALUES ('executable', '/usr/bin/logger', 6)")
            try database.run(
                "INSERT INTO pendingRequests (app, usageDescription, requestedAuthorization, firstRequestedAt) VALUES (2, 'logs', 'authorizedWhenInUse', 7)")
            try database.run("INSERT INTO settings (key, value) VALUES ('locationServicesEnabled', 0)")
        }
        let database = try Database(path: directory.database)
        try database.migrate(Array(StoreSchema.migrations.prefix(2)))
        #expect(try database.schemaVersion() == 2)
        let store = AuthorizationStore(database: database)
        #expect(try store.app(tracker)?.authorization == .authorizedAlways && store.app(tracker)?.accuracy == .reduced)
        #expect(try store.pendingRequests() == [
            PendingRequest(identity: AppIdentity(.executable, "/usr/bin/logger"), usageDescription: "logs", requested: .authorizedWhenInUse, uid: nil,
                firstRequestedAt: RealtimeInstant(nanosecondsSinceEpoch: 7)),
        ])
        #expect(try !store.locationServicesEnabled())
        #expect(try database.integrityProblems().isEmpty)
        #expect(try database.rows("PRAGMA foreign_key_check") { row throws(StoreError) in try row.string(0) }.isEmpty)
        // The new kinds are accepted, and the pending request still goes with its app.
        try store.recordPendingRequest(.appID("com.example.x"), usageDescription: "", requested: .authorizedWhenInUse, uid: 5, at: Self.time)
        try database.run("DELETE FROM apps WHERE identityKey = '/usr/bin/logger'")
        #expect(try store.pendingRequests().map(\.identity) == [.appID("com.example.x")])
    }
}

import Testing
@testable import WaymarkStore
import WaymarkAuthorization
import WaymarkSystem

@Suite("the authorization store")
struct AuthorizationStoreTests {
    let tracker = AppIdentity(.unit, "tracker.service")
    let logger = AppIdentity(.executable, "/usr/local/bin/logger")

    static func time(_ seconds: Int64) -> RealtimeInstant {
        RealtimeInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000 + seconds * 1_000_000_000)
    }

    @Test func aRequestIsPendingUntilTheOperatorAnswersIt() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
        #expect(try store.app(tracker) == nil)
        try store.recordPendingRequest(tracker, usageDescription: "Logs trips", requested: .authorizedWhenInUse, uid: 1000, at: Self.time(1))
        try store.recordPendingRequest(logger, usageDescription: "Tags photos", requested: .authorizedWhenInUse, uid: 1000, at: Self.time(2))
        // Asking again keeps the first time and takes the latest text and level.
        try store.recordPendingRequest(tracker, usageDescription: "Logs trips, also at night", requested: .authorizedAlways, uid: 1000, at: Self.time(3))
        #expect(try store.app(tracker)?.authorization == .notDetermined)
        #expect(
            try store.pendingRequests() == [
                PendingRequest(identity: tracker, usageDescription: "Logs trips, also at night", requested: .authorizedAlways, uid: 1000, firstRequestedAt: Self.time(1)),
                PendingRequest(identity: logger, usageDescription: "Tags photos", requested: .authorizedWhenInUse, uid: 1000, firstRequestedAt: Self.time(2)),
            ])

        try store.grant(tracker, .authorizedAlways, accuracy: .reduced, at: Self.time(4))
        try store.deny(logger, at: Self.time(5))
        #expect(try store.pendingRequests().isEmpty)
        #expect(
            try store.apps() == [
                AppRecord(identity: logger, appID: nil, authorization: .denied, accuracy: .full, updatedAt: Self.time(5)),
                AppRecord(identity: tracker, appID: nil, authorization: .authorizedAlways, accuracy: .reduced, updatedAt: Self.time(4)),
            ])
    }

    @Test func denyKeepsTheAccuracyAndResetForgetsTheDecisionButNotTheBinding() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
        try store.bindAppID("com.example.tracker", to: tracker, at: Self.time(1))
        try store.grant(tracker, .authorizedWhenInUse, accuracy: .reduced, at: Self.time(2))
        try store.deny(tracker, at: Self.time(3))
        #expect(try store.app(tracker) == AppRecord(identity: tracker, appID: "com.example.tracker", authorization: .denied, accuracy: .reduced, updatedAt: Self.time(3)))
        try store.recordPendingRequest(tracker, usageDescription: "again", requested: .authorizedWhenInUse, uid: 1000, at: Self.time(4))
        try store.reset(tracker, at: Self.time(5))
        #expect(try store.app(tracker) == AppRecord(identity: tracker, appID: "com.example.tracker", authorization: .notDetermined, accuracy: .full, updatedAt: Self.time(5)))
        #expect(try store.pendingRequests().isEmpty)
        try store.bindAppID(nil, to: tracker, at: Self.time(6))
        #expect(try store.app(tracker)?.appID == nil)
    }

    @Test func theGlobalSwitchIsOnUntilSwitchedOffAndOutlivesTheConnection() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        do {
            let store = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
            #expect(try store.locationServicesEnabled())
            try store.setLocationServicesEnabled(false)
        }
        let store = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
        #expect(try store.locationServicesEnabled() == false)
        try store.setLocationServicesEnabled(true)
        #expect(try store.locationServicesEnabled())
    }

    @Test func theSameKeyOfAnotherKindIsAnotherApp() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
        try store.grant(AppIdentity(.uid, "1001"), .authorizedWhenInUse, accuracy: .full, at: Self.time(1))
        #expect(try store.app(AppIdentity(.executable, "1001")) == nil)
        #expect(try store.app(AppIdentity(.uid, "1001"))?.authorization == .authorizedWhenInUse)
    }

    @Test func aHandEditedStateIsAnErrorNotAGuess() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try StoreSchema.open(path: directory.database)
        let store = AuthorizationStore(database: database)
        try store.grant(tracker, .authorizedWhenInUse, accuracy: .full, at: Self.time(1))
        try database.execute("PRAGMA ignore_check_constraints = ON; UPDATE apps SET authorization = 'authorizedSometimes'")
        let error = #expect(throws: StoreError.self) { try store.app(tracker) }
        #expect(error?.kind == .unexpectedValue)
        #expect(error?.message.contains("authorizedSometimes") == true)
        try database.execute("INSERT INTO settings VALUES ('locationServicesEnabled', 7)")
        #expect(throws: StoreError.self) { try store.locationServicesEnabled() }
    }
}

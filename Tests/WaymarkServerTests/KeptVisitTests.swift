import Foundation
import Testing
import WaymarkAuthorization
import WaymarkDaemon
import WaymarkEngine
import WaymarkLocation
import WaymarkMonitoring
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkTestFixtures
import WaymarkStore

/// Visits kept for an app that is away (docs/protocol.md, "Kept visits"): in the store, in
/// order, sent when it starts visit monitoring again until it acknowledges them, under its
/// authorization then, and its relaunch trigger written once, as for a monitor event.
@Suite(
    "Server: visits kept for an app that is away", .ownThread, .timeLimit(.minutes(1)),
    .enabled(if: geteuid() == 0, "the operator's changes need root or waymark-admin"))
struct KeptVisitTests {
    static let tracker = AppReference(kind: "appID", key: "org.example.tracker")
    static let arrival = Visit(
        latitude: 47.3769, longitude: 8.5417, horizontalAccuracy: 12, arrivalDate: Timestamp(nanosecondsSinceEpoch: 1_000_000_000_000),
        departureDate: nil)
    static var departure: Visit {
        var departure = arrival
        departure.departureDate = Timestamp(nanosecondsSinceEpoch: 1_600_000_000_000)
        return departure
    }

    /// A daemon with a store whose tracker app (authorized always, `accuracy`, not interactive:
    /// a service; relaunch trigger "tracker") started visit monitoring and left; `body` gets the
    /// daemon, the trigger file's path and an operator's connection.
    static func withTrackerAway(accuracy: String = "full", _ body: (TestDaemon, String, RawClient) async throws -> Void) async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let parts = try StoredParts(path: directory.socket("store.sqlite"))
        let policy = """
            [[app]]
            uid = \(geteuid())
            app_id = "org.example.tracker"
            authorization = "always"
            accuracy = "\(accuracy)"
            relaunch = "tracker"

            """
        try await withDaemon(authorizer: parts.authorizer, monitors: parts.monitors, configure: {
            $0.relaunchDirectory = directory.path
            $0.policies = try! PolicySet(files: [(path: "tracker.toml", bytes: Array(policy.utf8))])
        }) { daemon in
            do {
                let app = try RawClient(path: daemon.path)
                try app.hello(appID: "org.example.tracker")
                #expect(try app.request(.startVisitMonitoring).outcome == .success(.done))
                // There: sent as it happens, not kept, no relaunch.
                await daemon.onLoop { $0.deliver(visits: [Self.arrival]) }
                let live = try #require(try Self.visit(app))
                #expect(live.0 == nil && live.1.arrivalDate == Self.arrival.arrivalDate && live.1.departureDate == nil)
                #expect(await Self.kept(daemon) == [])
                #expect(!FileManager.default.fileExists(atPath: directory.socket("tracker")))
            }
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            let operatorClient = try RawClient(path: daemon.path)
            try operatorClient.hello()
            try await body(daemon, directory.socket("tracker"), operatorClient)
        }
    }

    /// A connection of the tracker that starts visit monitoring; the messages after the reply
    /// are left to read.
    static func back(_ daemon: TestDaemon) throws -> RawClient {
        let app = try RawClient(path: daemon.path)
        try app.hello(appID: "org.example.tracker")
        #expect(try app.request(.startVisitMonitoring).outcome == .success(.done))
        return app
    }

    /// The next message is a visit: its sequence and the visit.
    static func visit(_ client: RawClient) throws -> (UInt64?, Visit)? {
        guard case .event(.visit(let sequence, let visit)) = try client.readMessage() else { return nil }
        return (sequence, visit)
    }

    /// Delivers a new visit and checks that it is the next message `client` gets (so nothing
    /// was sent to it before), without a sequence.
    static func expectNothingKept(_ client: RawClient, _ daemon: TestDaemon) async throws {
        let fresh = Visit(latitude: 1, longitude: 2, horizontalAccuracy: 3, arrivalDate: Timestamp(nanosecondsSinceEpoch: 9_000_000_000_000), departureDate: nil)
        await daemon.onLoop { $0.deliver(visits: [fresh]) }
        #expect(try client.readMessage() == .event(.visit(sequence: nil, fresh)))
    }

    /// The visits kept for the tracker; nil when the store could not read them.
    static func kept(_ daemon: TestDaemon) async -> [Visit]? {
        await daemon.onLoop { try? $0.monitors.pendingVisits(of: .appID("org.example.tracker")).visits.map(\.visit) }
    }

    /// Checks that no message follows the reply `client` read: kept visits are written in the
    /// loop's turn that replies, so they would be there already.
    static func expectNoVisit(_ client: RawClient) throws {
        #expect(throws: (any Error).self) { try client.readMessage(seconds: 1) }
    }

    @Test func anAwayAppGetsItsVisitsInOrderOnReturnUntilItAcknowledgesThemAndIsRelaunchedOnce() async throws {
        try await Self.withTrackerAway { daemon, trigger, _ in
            await daemon.onLoop { $0.deliver(visits: [Self.arrival]) }
            #expect(try String(contentsOfFile: trigger, encoding: .utf8) == "appID:org.example.tracker\n")
            // Asked once: the departure does not write it again.
            try FileManager.default.removeItem(atPath: trigger)
            await daemon.onLoop { $0.deliver(visits: [Self.departure]) }
            #expect(!FileManager.default.fileExists(atPath: trigger))

            // Back: arrival then departure, with increasing sequences, before anything new.
            let first = try Self.back(daemon)
            let arrival = try #require(try Self.visit(first))
            let departure = try #require(try Self.visit(first))
            #expect(arrival.1 == Self.arrival && departure.1 == Self.departure)
            let sequences = try [#require(arrival.0), #require(departure.0)]
            #expect(sequences[0] < sequences[1])
            try await Self.expectNothingKept(first, daemon)

            // Not acknowledged (the connection could have died before it read them): a new
            // start sends them again with the same sequences.
            let again = try Self.back(daemon)
            #expect(try Self.visit(again)?.0 == sequences[0])
            #expect(try Self.visit(again)?.0 == sequences[1])
            #expect(try again.request(.acknowledgeVisits(through: sequences[1])).outcome == .success(.done))
            // Acknowledged: never again.
            let last = try Self.back(daemon)
            try await Self.expectNothingKept(last, daemon)
            #expect(await Self.kept(daemon) == [])
        }
    }

    @Test func underReducedAccuracyTheKeptVisitComesWithItsCell() async throws {
        try await Self.withTrackerAway(accuracy: "reduced") { daemon, _, _ in
            await daemon.onLoop { $0.deliver(visits: [Self.departure]) }
            let back = try Self.back(daemon)
            let (sequence, visit) = try #require(try Self.visit(back))
            #expect(sequence != nil)
            #expect(visit.arrivalDate == Self.departure.arrivalDate && visit.departureDate == Self.departure.departureDate)
            #expect(visit.horizontalAccuracy > Self.departure.horizontalAccuracy * 10, "the cell's accuracy, not the fixes' 12 m")
            #expect(visit.latitude != Self.departure.latitude || visit.longitude != Self.departure.longitude)
        }
    }

    @Test func aDeniedAppGetsNoKeptVisitUntilItIsAuthorizedAgain() async throws {
        try await Self.withTrackerAway { daemon, _, operatorClient in
            await daemon.onLoop { $0.deliver(visits: [Self.arrival]) }
            let denied = AuthorizeAppRequest(app: Self.tracker, authorization: .denied, fullAccuracy: nil)
            #expect(try operatorClient.request(.authorizeApp(denied)).outcome == .success(.done))
            // Denied when it happens: not kept.
            await daemon.onLoop { $0.deliver(visits: [Self.departure]) }
            try Self.expectNoVisit(Self.back(daemon))
            #expect(await Self.kept(daemon) == [Self.arrival])

            // Services off: none either, and they stay kept.
            let granted = AuthorizeAppRequest(app: Self.tracker, authorization: .whenInUse, fullAccuracy: nil)
            #expect(try operatorClient.request(.authorizeApp(granted)).outcome == .success(.done))
            #expect(try operatorClient.request(.setLocationServices(enabled: false)).outcome == .success(.done))
            try Self.expectNoVisit(Self.back(daemon))
            #expect(try operatorClient.request(.setLocationServices(enabled: true)).outcome == .success(.done))
            // Authorized again: the arrival kept before the denial comes.
            let back = try Self.back(daemon)
            #expect(try Self.visit(back)?.1 == Self.arrival)
            try await Self.expectNothingKept(back, daemon)
        }
    }

    /// Hostile acknowledgements: a `through` past the wire's integers is refused as an invalid
    /// message, the largest one the wire carries and one before any kept visit neither trap nor
    /// lose a visit not yet sent, and one from an app that never asked for visits does nothing.
    @Test func acknowledgementsOutOfRangeNeitherTrapNorLoseAVisit() async throws {
        try await Self.withTrackerAway { daemon, _, operatorClient in
            #expect(try operatorClient.request(.acknowledgeVisits(through: UInt64(Int64.max))).outcome == .success(.done))
            await daemon.onLoop { $0.deliver(visits: [Self.arrival]) }
            let back = try Self.back(daemon)
            #expect(try Self.visit(back)?.1 == Self.arrival)
            guard case .failure(let refused) = try back.request(.acknowledgeVisits(through: UInt64.max)).outcome else {
                Issue.record("a through past the wire's integers was taken")
                return
            }
            #expect(refused.code == .invalidMessage)
            #expect(try back.request(.acknowledgeVisits(through: 0)).outcome == .success(.done))
            #expect(await Self.kept(daemon) == [Self.arrival], "nothing up to 0 was kept")
            #expect(try back.request(.acknowledgeVisits(through: UInt64(Int64.max))).outcome == .success(.done))
            #expect(await Self.kept(daemon) == [])
            try await Self.expectNothingKept(Self.back(daemon), daemon)
        }
    }
}

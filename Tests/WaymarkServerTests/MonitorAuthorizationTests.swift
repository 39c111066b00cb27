import Foundation
import Testing
import WaymarkAuthorization
import WaymarkClock
import WaymarkDaemon
import WaymarkEngine
import WaymarkMonitoring
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkTestFixtures
import WaymarkStore

/// An operator's change of authorization re-plans the monitors' fix demand at once
/// (docs/monitoring.md, "Authorization"), for an app that is away too: a revoked app's
/// conditions cost no fix from that moment, a granted one's need a fix now.
@Suite(
    "Server: authorization changes and the monitors' demand", .ownThread, .timeLimit(.minutes(1)),
    .enabled(if: geteuid() == 0, "the operator's changes need root or waymark-admin"))
struct MonitorAuthorizationTests {
    static let tracker = AppReference(kind: "appID", key: "org.example.tracker")

    @Test func grantingRevokingAndServicesReplanTheDemandAtOnce() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let parts = try StoredParts(path: directory.socket("store.sqlite"))
        let policy = "[[app]]\nuid = \(geteuid())\napp_id = \"org.example.tracker\"\nauthorization = \"always\"\n"
        try await withDaemon(authorizer: parts.authorizer, monitors: parts.monitors, configure: {
            $0.policies = try! PolicySet(files: [(path: "tracker.toml", bytes: Array(policy.utf8))])
        }) { daemon in
            do {
                let app = try RawClient(path: daemon.path)
                try app.hello(appID: "org.example.tracker")
                #expect(try app.request(.openMonitor(name: "places")).outcome == .success(.monitor(1)))
                let circle = Condition.circularGeographic(CircularGeographicCondition(latitude: 47.3769, longitude: 8.5417, radius: 100))
                let added = try app.request(.addCondition(ConditionRequest(monitor: 1, identifier: "desk", condition: circle)))
                #expect(added.outcome == .success(.done))
            }
            // The app is away; its condition still needs a fix (it has none yet).
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            let needsFix: @Sendable () async -> Bool = { await daemon.onLoop { $0.monitors.nextFix(after: nil, at: .zero) != nil } }
            #expect(await needsFix())
            let operatorClient = try RawClient(path: daemon.path)
            try operatorClient.hello()

            /// Has the operator make `operation` and returns whether the agent re-planned the
            /// monitors' demand, and whether they need a fix now.
            func change(_ operation: WaymarkProtocol.Operation) async throws -> (replanned: Bool, needsFix: Bool) {
                let before = daemon.agent.calls.filter { $0 == .monitorsChanged }.count
                #expect(try operatorClient.request(operation).outcome == .success(.done))
                let after = daemon.agent.calls.filter { $0 == .monitorsChanged }.count
                return (after > before, await needsFix())
            }
            let revoked = try await change(.authorizeApp(AuthorizeAppRequest(app: Self.tracker, authorization: .denied, fullAccuracy: nil)))
            #expect(revoked == (true, false))
            let granted = try await change(.authorizeApp(AuthorizeAppRequest(app: Self.tracker, authorization: .whenInUse, fullAccuracy: nil)))
            #expect(granted == (true, true))
            let reduced = try await change(.authorizeApp(AuthorizeAppRequest(app: Self.tracker, authorization: nil, fullAccuracy: false)))
            // Reduced accuracy decides nothing but still watches (one accuracyLimited event each).
            #expect(reduced == (true, true))
            #expect(await daemon.onLoop { $0.monitors.access(.appID("org.example.tracker")) } == .accuracyLimited)
            let servicesOff = try await change(.setLocationServices(enabled: false))
            #expect(servicesOff == (true, false))
            let servicesOn = try await change(.setLocationServices(enabled: true))
            #expect(servicesOn == (true, true))
        }
    }
}

import Foundation
import Testing
import Waymark
import WaymarkProtocol

extension ClientLibraryTests {
/// `ServiceSession` and `WaymarkAgent.authorization()` against the real daemon enforcing
/// authorization; this process (root, so also the operator) is the app.
@Suite(
    "service sessions with the real waymarkd", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: geteuid() == 0, "the operator's answer needs root or waymark-admin"))
struct ServiceSessionTests {
    @Test("a session asks the operator, its diagnostics say so, and the grant ends the request")
    func aSessionAsksAndIsGranted() async throws {
        let directory = try PolicyDirectory(prefix: "waymark-session", policies: "[[app]]\nuid = 0\ninteractive = true\n")
        defer { directory.remove() }
        let daemon = try DaemonProcess([
            "--store", directory.store, "--policies", directory.policies,
            "--scenario", try DaemonProcess.scenario("walk 10m\n"), "--speed", "20",
        ])
        defer { daemon.stop() }

        let before = try await within(10) { try await WaymarkAgent.authorization() }
        #expect(before.status == .notDetermined && before.accuracy == .fullAccuracy)
        let session = ServiceSession(authorization: .whenInUse)
        let seen = Task {
            var seen: [[String]] = []
            for try await diagnostic in session.diagnostics {
                seen.append(diagnostic.names)
                if seen.count == 2 { break }
            }
            return seen
        }
        let asking = try await within(10) { () -> AppReference in
            while true {
                if case .apps(let answer) = try await WaymarkAgent.perform(.authorizationApps(after: nil)),
                    let entry = answer.apps.first(where: { $0.request != nil })
                {
                    return entry.app
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        _ = try await WaymarkAgent.perform(.authorizeApp(AuthorizeAppRequest(app: asking, authorization: .whenInUse, fullAccuracy: false)))
        #expect(try await within(10) { try await seen.value } == [["authorizationRequestInProgress"], []])
        let after = try await within(10) { try await WaymarkAgent.authorization() }
        #expect(after.status == .authorizedWhenInUse && after.accuracy == .reducedAccuracy)
        session.invalidate()
    }
}
}

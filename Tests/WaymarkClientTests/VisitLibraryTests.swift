import Foundation
import Testing
import Waymark
import WaymarkProtocol
import WaymarkServerTestSupport

extension ClientLibraryTests {
/// The Swift `VisitMonitor` against the real daemon with a store: the visits kept while the
/// app was away come first, once, and are acknowledged (docs/protocol.md, "Kept visits").
@Suite(
    "VisitMonitor with the real waymarkd", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: geteuid() == 0, "the store enforces authorization; root's policy grants it"))
struct VisitLibraryTests {
    @Test("a VisitMonitor made after the app was away for a whole stay gets its arrival and departure once and acknowledges each when its loop takes it")
    func keptVisitsComeOnceAndAreAcknowledged() async throws {
        let directory = try PolicyDirectory(prefix: "waymark-visits", policies: "[[app]]\nuid = 0\nauthorization = \"always\"\ninteractive = true\n")
        defer { directory.remove() }
        // 1 min east, 7 min at a desk, 2 min north (30 s at 20×).
        let daemon = try DaemonProcess([
            "--store", directory.store, "--policies", directory.policies,
            "--scenario", try DaemonProcess.scenario("walk 1m heading=90\ndesk 7m\nwalk 2m heading=0\n"), "--speed", "20",
        ])
        defer { daemon.stop() }
        // The app's visit service, asked for on a connection that then goes: the app is away.
        do {
            let away = try RawClient(path: DaemonProcess.socket)
            try away.hello()
            #expect(try away.request(.startVisitMonitoring).outcome == .success(.done))
        }
        // The library's connection does not ask for visits: it reads the diary until the departure.
        try await within(60) {
            while try await WaymarkAgent.visits().last?.departureDate == nil { try await Task.sleep(for: .milliseconds(500)) }
        }
        let monitor = try await VisitMonitor()
        // Handed to the monitor's sequence but not taken by a loop yet: not acknowledged, so
        // another start of the service gets them again (with the same sequences).
        try await Task.sleep(for: .milliseconds(500))
        do {
            let meanwhile = try RawClient(path: DaemonProcess.socket)
            try meanwhile.hello()
            #expect(try meanwhile.request(.startVisitMonitoring).outcome == .success(.done))
            for _ in 0..<2 {
                guard case .event(.visit(let sequence, _)) = try meanwhile.readMessage(seconds: 2) else {
                    Issue.record("a kept visit was acknowledged before the loop took it")
                    break
                }
                #expect(sequence != nil)
            }
        }
        let kept = try await within(10) { () -> [Visit] in
            var seen: [Visit] = []
            for await visit in monitor.visits {
                seen.append(visit)
                if seen.count == 2 { break }
            }
            return seen
        }
        #expect(kept.map { $0.departureDate == nil } == [true, false])
        #expect(kept.first?.arrivalDate == kept.last?.arrivalDate)
        // Acknowledged by the library: a new start gets none.
        try await Task.sleep(for: .milliseconds(300))
        let later = try RawClient(path: DaemonProcess.socket)
        try later.hello()
        #expect(try later.request(.startVisitMonitoring).outcome == .success(.done))
        #expect(throws: RawClient.Failure.self) { try later.readMessage(seconds: 1) }
    }
}
}

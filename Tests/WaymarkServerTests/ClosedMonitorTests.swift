import Testing
import WaymarkDaemon
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkStore
import WaymarkTestFixtures

/// An empty monitor is forgotten once no connection of its app holds it open, so its name
/// no longer counts against the app's limit (docs/monitoring.md, "In the daemon").
@Suite("Server: the monitors an app closes", .ownThread, .timeLimit(.minutes(1)))
struct ClosedMonitorTests {
    static let limit = MonitorStore.maximumMonitorsPerApp

    static func isLimitExceeded(_ reply: Reply) -> Bool {
        guard case .failure(let error) = reply.outcome else { return false }
        return error.code == .limitExceeded
    }

    @Test func anEmptyMonitorClosedOrLeftByItsLastConnectionFreesItsPlace() async throws {
        try await withDaemon { daemon in
            let second = try RawClient(path: daemon.path)
            try second.hello()
            do {
                let first = try RawClient(path: daemon.path)
                try first.hello()
                for index in 0..<Self.limit {
                    #expect(try first.request(.openMonitor(name: "m\(index)")).outcome == .success(.monitor(UInt64(index + 1))))
                }
                #expect(Self.isLimitExceeded(try first.request(.openMonitor(name: "more"))))

                // Held by another connection of the same app: closing it on one forgets nothing.
                #expect(try second.request(.openMonitor(name: "m0")).outcome == .success(.monitor(1)))
                #expect(try first.request(.closeMonitor(monitor: 1)).outcome == .success(.done))
                #expect(Self.isLimitExceeded(try first.request(.openMonitor(name: "more"))))
                #expect(try second.request(.closeMonitor(monitor: 1)).outcome == .success(.done))
                #expect(try first.request(.openMonitor(name: "more")).outcome == .success(.monitor(UInt64(Self.limit + 1))))
            }
            // A connection that goes takes its app's empty monitors with it.
            try await waitUntil { await daemon.onLoop { $0.clientCount } == 1 }
            for index in 0..<Self.limit {
                #expect(try second.request(.openMonitor(name: "n\(index)")).outcome == .success(.monitor(UInt64(index + 2))))
            }
        }
    }
}

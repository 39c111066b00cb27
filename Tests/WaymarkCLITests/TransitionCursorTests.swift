import Testing
import WaymarkLocation

@testable import WaymarkCLI

/// `waymark power-log` writes each of the daemon's transitions once.
@Suite("power-log's transition cursor")
struct TransitionCursorTests {
    static func status(total: Int, recent: [(Double, String, String)]) -> StatusReport {
        StatusReport(
            daemonVersion: "0.1.0", uptime: 10, source: .init(kind: "simulated", description: "", isSimulated: true),
            receiverPowerState: recent.last?.2 ?? "off", receiverPowerSince: 0, transitions: total,
            recentTransitions: recent.map { StatusReport.PowerTransition(time: $0.0, from: $0.1, to: $0.2, reason: "") })
    }

    @Test("transitions at the same instant are each written once, across polls too (the second of a pair was dropped)")
    func sameInstant() {
        var cursor = TransitionCursor()
        let first = cursor.unwritten(in: Self.status(total: 2, recent: [(1.0, "off", "acquiring"), (5.5, "acquiring", "tracking")]))
        #expect(first.map(\.to) == ["acquiring", "tracking"])
        // The next poll: the fix's tracking → backup came at the same instant as the one before.
        let second = cursor.unwritten(
            in: Self.status(total: 3, recent: [(1.0, "off", "acquiring"), (5.5, "acquiring", "tracking"), (5.5, "tracking", "backup")]))
        #expect(second.map(\.to) == ["backup"])
        #expect(cursor.unwritten(in: Self.status(total: 3, recent: [(5.5, "tracking", "backup")])).isEmpty)
    }

    @Test("more transitions than the status lists between polls: those listed are written; a daemon started again starts over")
    func gapsAndRestarts() {
        var cursor = TransitionCursor()
        _ = cursor.unwritten(in: Self.status(total: 1, recent: [(1.0, "off", "acquiring")]))
        let later = cursor.unwritten(in: Self.status(total: 40, recent: [(90.0, "tracking", "backup"), (95.0, "backup", "tracking")]))
        #expect(later.map(\.time) == [90.0, 95.0])
        let restarted = cursor.unwritten(in: Self.status(total: 1, recent: [(200.0, "off", "acquiring")]))
        #expect(restarted.map(\.time) == [200.0])
    }
}

import Testing
import WaymarkAuthorization
import WaymarkLocation
import WaymarkProtocol

/// An operator's `status` lists up to 64 connected apps and 64 apps with sessions, named by
/// what the kernel says they are: a path of 4,095 bytes each, escaped, would make a line no
/// client reads. The daemon names them briefly (`AppIdentity.briefDescription`).
@Suite("Server: the status line")
struct StatusLineTests {
    @Test func anOperatorsFullStatusFitsALine() {
        let hostile = (0..<64).map { index in
            AppIdentity.executable("/tmp/\(index)/" + String(repeating: "é\u{1}\"\\", count: 1_000), uid: 1000).briefDescription
        }
        let counts = StatusReport.SessionCounts(
            serviceSessions: 64, backgroundActivitySessions: 64, keptSubscriptions: 64, keptRequests: 16, keptBackgroundActivitySessions: 64)
        let transition = StatusReport.PowerTransition(
            time: 1.7e9, from: "acquiring", to: "backup", reason: "the device is stationary: no movement for every subscription's dwell")
        var report = StatusReport(
            daemonVersion: "0.1.0", uptime: 1e9,
            source: .init(kind: "uart", description: "/dev/serial0 at 115200 Bd, u-blox M8", isSimulated: false),
            receiverPowerState: "tracking", receiverPowerSince: 1e9,
            lastLocation: Location(
                latitude: -33.856784412345, longitude: -151.215296712345, horizontalAccuracy: 1234.5678,
                timestamp: Timestamp(nanosecondsSinceEpoch: 1)),
            powerLedger: (0..<6).map { .init(state: "tracking\($0)", seconds: 1e9, milliwattHours: 1e9) }, transitions: Int.max,
            recentTransitions: Array(repeating: transition, count: 100), eventLoop: .init(timers: Int.max, descriptors: Int.max))
        report.connectedApps = hostile.map { .init(pid: Int(Int32.max), uid: Int(UInt32.max), app: $0) }
        report.appSessions = hostile.map { .init(app: $0, counts: counts) }
        let id = MessageID.string(String(repeating: "i", count: ProtocolLimits.maximumIDLength))
        let reply = Reply(id: id, operation: .status, outcome: .success(.status(report)))
        #expect(ServerMessage.reply(reply).line.count <= ProtocolLimits.maximumLineLength)
    }
}

import ArgumentParser
import Waymark
import WaymarkJSON
import WaymarkProtocol

/// `waymark status`: the daemon's status.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show waymarkd's status: source, receiver power and ledger, last location.")

    @Flag(name: .long, help: "Print the status as JSON (the protocol's status object).")
    var json = false

    func run() async throws {
        let status = try await WaymarkAgent.status()
        if json {
            var buffer = JSONBuffer()
            buffer.value(status.json)
            buffer.newline()
            try StandardOutput().write(buffer.bytes)
            return
        }
        var lines = [
            "waymarkd \(status.daemonVersion), up \(Int(status.uptime)) s",
            "source      \(status.source.description)\(status.source.isSimulated ? " (simulated)" : "")",
            "receiver    \(status.receiverPowerState) since \(Int(status.receiverPowerSince)) s, \(status.transitions) transitions",
            "stationary  \(status.isStationary ? "yes" : "no") (motion detection: \(status.motionDetection))",
            "clients     \(status.clients), \(status.liveSubscriptions) live subscriptions, \(status.pendingRequests) pending requests",
        ]
        if let location = status.lastLocation {
            lines.append("last fix    \(location.latitude), \(location.longitude) ±\(location.horizontalAccuracy) m at \(location.timestamp.iso8601)")
        }
        lines.append("power ledger:")
        for entry in status.powerLedger where entry.seconds > 0 {
            lines.append("  \(entry.state.padding(10)) \(Int(entry.seconds)) s  \(entry.milliwattHours) mWh")
        }
        try StandardOutput().write(Array((lines.joined(separator: "\n") + "\n").utf8))
    }
}

import ArgumentParser
import Waymark
import WaymarkJSON
import WaymarkProtocol
import WaymarkLocation

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
            status.write(to: &buffer)
            buffer.newline()
            try StandardOutput().write(buffer.bytes)
            return
        }
        var lines = [
            "waymarkd \(status.daemonVersion), up \(HumanText.duration(seconds: status.uptime))",
            "source      \(status.source.description)\(status.source.isSimulated ? " (simulated)" : "")",
            "receiver    \(status.receiverPowerState) for \(HumanText.duration(seconds: status.uptime - status.receiverPowerSince)), \(status.transitions) transitions",
            "stationary  \(status.isStationary ? "yes" : "no") (motion detection: \(status.motionDetection))",
            "clients     \(status.clients), \(status.liveSubscriptions) live subscriptions, \(status.pendingRequests) pending requests",
        ]
        if let location = status.lastLocation {
            lines.append("last fix    \(HumanText.coordinates(location)) ±\(HumanText.number(location.horizontalAccuracy, 1)) m at \(location.timestamp.iso8601)")
        }
        for client in status.connectedApps {
            lines.append("client      pid \(client.pid), uid \(client.uid): \(client.app)")
        }
        lines.append("power ledger:")
        for entry in status.powerLedger where entry.seconds > 0 {
            lines.append("  \(entry.state.padding(10)) \(HumanText.duration(seconds: entry.seconds).padding(14)) \(HumanText.energy(entry.milliwattHours))")
        }
        try StandardOutput().write(Array((lines.joined(separator: "\n") + "\n").utf8))
    }
}

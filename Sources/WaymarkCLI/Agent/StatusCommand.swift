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
        lines.append("sessions    \(Self.describe(status.sessions))")
        if let location = status.lastLocation {
            lines.append("last fix    \(HumanText.coordinates(location)) ±\(HumanText.number(location.horizontalAccuracy, 1)) m at \(location.timestamp.iso8601)")
        } else {
            // The daemon gives the last location only to an app that may have it now.
            lines.append("last fix    none this command may see (none yet, or not authorized now: waymark auth list)")
        }
        for client in status.connectedApps {
            lines.append("client      pid \(client.pid), uid \(client.uid): \(client.app)")
        }
        for entry in status.appSessions {
            lines.append("app         \(entry.app): \(Self.describe(entry.counts))")
        }
        lines.append("power ledger:")
        for entry in status.powerLedger where entry.seconds > 0 {
            lines.append("  \(entry.state.padding(10)) \(HumanText.duration(seconds: entry.seconds).padding(14)) \(HumanText.energy(entry.milliwattHours))")
        }
        try StandardOutput().write(Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// Session counts in words: what connected clients hold, then what apps that are away keep.
    static func describe(_ counts: StatusReport.SessionCounts) -> String {
        "\(counts.serviceSessions) service, \(counts.backgroundActivitySessions) background activity sessions; kept while away: "
            + "\(counts.keptSubscriptions) subscriptions, \(counts.keptRequests) requests, "
            + "\(counts.keptBackgroundActivitySessions) background activity sessions"
    }
}

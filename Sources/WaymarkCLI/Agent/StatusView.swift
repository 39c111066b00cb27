import Waymark
import WaymarkPowerProfile
import WaymarkProtocol
import WaymarkLocation

/// The status block `waymark watch` redraws in place on a terminal.
struct StatusView {
    private var linesShown = 0
    private var updates = 0

    /// Redraws the block for a new update.
    mutating func show(_ update: LocationUpdate, status: StatusReport?, configuration: LiveConfiguration) {
        updates += 1
        var lines: [String] = []
        if let location = update.location {
            lines.append("location    \(HumanText.coordinates(location))  ±\(HumanText.number(location.horizontalAccuracy, 1)) m")
            lines.append("altitude    \(HumanText.number(location.altitude, 1)) m  ±\(HumanText.number(location.verticalAccuracy, 1)) m")
            lines.append("speed       \(location.speed >= 0 ? HumanText.number(location.speed, 2) + " m/s" : "unknown")  course \(location.course >= 0 ? HumanText.number(location.course, 0) + "°" : "unknown")")
            lines.append("fix         \(location.mode.rawValue)D, \(location.satellites.totalUsed) satellites used, time \(location.timestamp.iso8601)")
        } else {
            lines += ["location    none", "", "", ""]
        }
        let stationary = switch HumanText.isStationary(update) {
        case true?: "yes — updates paused until the device moves"
        case false?: "no"
        case nil: "unknown — no word from the daemon"
        }
        lines.append("stationary  \(stationary)")
        let diagnostics = update.diagnostics.names
        lines.append("diagnostics \(diagnostics.isEmpty ? "none" : diagnostics.joined(separator: ", "))")
        if let status {
            let simulated = status.source.isSimulated ? " (simulated)" : ""
            lines.append("receiver    \(status.receiverPowerState), \(status.transitions) power transitions\(simulated); motion: \(status.motionDetection)")
        } else {
            lines.append("receiver    status unavailable")
        }
        lines.append("updates     \(updates) (\(configuration.rawValue))")
        var text = linesShown > 0 ? "\u{1B}[\(linesShown)A" : ""
        for line in lines { text += "\u{1B}[2K" + line + "\n" }
        linesShown = lines.count
        try? StandardOutput().write(Array(text.utf8))
    }
}

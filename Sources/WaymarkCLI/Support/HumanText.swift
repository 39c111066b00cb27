import Waymark
import WaymarkJSON
import WaymarkLocation

/// How the tool writes numbers, locations and durations for people: fixed decimals at each
/// quantity's resolution (coordinates to 7 decimals, about 1 cm), never a float's noise.
enum HumanText {
    /// `value` with `decimals` digits after the point.
    static func number(_ value: Double, _ decimals: Int) -> String {
        JSONBuffer.decimalText(value, decimals: decimals)
    }

    /// Latitude and longitude in degrees, to 7 decimals.
    static func coordinates(_ location: Location) -> String {
        "\(number(location.latitude, 7))°, \(number(location.longitude, 7))°"
    }

    /// Energy in milliwatt-hours, to 2 decimals.
    static func energy(_ milliwattHours: Double) -> String {
        number(milliwattHours, 2) + " mWh"
    }

    /// A duration such as `45 s`, `12 min 05 s` or `3 h 07 min`.
    static func duration(seconds: Double) -> String {
        let whole = Int(max(0, seconds.isFinite ? seconds : 0).rounded(.down))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if whole < 60 { return "\(whole) s" }
        if whole < 3_600 { return "\(whole / 60) min \(two(whole % 60)) s" }
        return "\(whole / 3_600) h \(two(whole / 60 % 60)) min"
    }

    /// Whether the device is stationary, as the daemon found it; `nil` when the update says the
    /// daemon is unavailable, and nothing is known of the device's motion.
    static func isStationary(_ update: LocationUpdate) -> Bool? {
        update.diagnostics.daemonUnavailable ? nil : update.isStationary
    }

    /// One update on one line, for a pipe or a log: time, position, accuracy, altitude, speed,
    /// course, whether stationary (when the daemon could say), and the diagnostics.
    static func line(_ update: LocationUpdate) -> String {
        var fields: [String] = []
        if let location = update.location {
            fields.append(location.timestamp.iso8601)
            fields.append(coordinates(location))
            fields.append("±\(number(location.horizontalAccuracy, 1)) m")
            if location.verticalAccuracy >= 0 { fields.append("alt \(number(location.altitude, 1)) m") }
            if location.speed >= 0 { fields.append("\(number(location.speed, 2)) m/s") }
            if location.course >= 0 { fields.append("course \(number(location.course, 0))°") }
        } else {
            fields.append("no location")
        }
        if let isStationary = isStationary(update) { fields.append(isStationary ? "stationary" : "moving") }
        let diagnostics = update.diagnostics.names
        if !diagnostics.isEmpty { fields.append(diagnostics.joined(separator: ",")) }
        return fields.joined(separator: "  ")
    }
}

import Testing
import WaymarkLocation
@testable import WaymarkMonitoring

/// Positions near (0°, 0°) in metres east and north. Along the equator the WGS 84 distance is
/// exactly the semi-major axis times the longitude difference, so east offsets are exact.
enum Geometry {
    static let semiMajorAxis = 6_378_137.0
    /// Metres per degree of latitude at the equator on WGS 84 (meridian arc).
    static let metresPerDegreeNorth = 110_574.3

    /// A fix `east` and `north` metres from (0°, 0°), with `accuracy` metres, `seconds` after
    /// an arbitrary date.
    static func fix(east: Double, north: Double = 0, accuracy: Double, at seconds: Double) -> Location {
        fix(
            latitude: north / metresPerDegreeNorth, longitude: east / semiMajorAxis * 180 / .pi, accuracy: accuracy,
            at: seconds)
    }

    /// A fix at a latitude and longitude.
    static func fix(latitude: Double, longitude: Double, accuracy: Double, at seconds: Double) -> Location {
        Location(
            latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy, timestamp: date(seconds),
            sourceInformation: SourceInformation(isSimulatedBySoftware: true))
    }

    /// `seconds` after an arbitrary date (2026-11-23T00:00:00Z).
    static func date(_ seconds: Double) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: 1_795_392_000_000_000_000 + Int64(seconds * 1e9))
    }

    /// The circle of `radius` metres around (0°, 0°).
    static func region(radius: Double) -> MonitoredCondition {
        .circularGeographic(CircularRegion(latitude: 0, longitude: 0, radius: radius)!)
    }
}

extension Monitor {
    /// A monitor watching one circle of `radius` metres around (0°, 0°), added at `seconds`.
    static func watching(_ identifier: String, radius: Double, since seconds: Double = 0) throws -> Monitor {
        var monitor = try #require(Monitor(name: "m"))
        _ = try monitor.add(Geometry.region(radius: radius), identifier: identifier, at: Geometry.date(seconds))
        return monitor
    }
}

/// A deterministic jitter in −1 ... 1 (a linear congruential generator).
struct Jitter {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53) * 2 - 1
    }
}

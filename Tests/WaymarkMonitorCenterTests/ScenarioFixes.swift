import Foundation
import WaymarkClock
import WaymarkLocation
import WaymarkSimulation

/// A shipped scenario's truth sampled every 5 s, as fixes 10 m accurate with up to ±3 m of
/// noise on each axis, with the truth's distance to a point at hand.
struct ScenarioFixes {
    static let names = ["desk-day", "commute", "hike", "demo", "full-day", "holiday", "courier", "road-trip"]
    static let step = Duration.seconds(5)
    static let accuracy = 10.0
    /// The most the noise moves a fix: 3 m on each axis.
    static let noise = 3 * 2.0.squareRoot()

    let trajectory: Trajectory

    init(_ name: String) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/\(name).scenario").path
        let scenario = try ScenarioParser.parse(String(contentsOfFile: path, encoding: .utf8), file: "\(name).scenario")
        trajectory = Trajectory(scenario: scenario, seed: 1)
    }

    /// The samples: the instant, the truth and the noisy fix.
    func samples() -> [(instant: Instant, truth: Location, fix: Location, isMoving: Bool)] {
        var state: UInt64 = 7
        func jitter() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
        var samples: [(Instant, Location, Location, Bool)] = []
        var instant = Instant.zero
        while instant <= trajectory.end {
            let truth = trajectory.truth(at: instant)
            let date = trajectory.utc(at: instant)
            let metresPerDegree = 111_320.0
            let latitude = truth.position.latitude
            let east = 3 * jitter() / (metresPerDegree * cos(latitude * .pi / 180))
            let fix = Location(
                latitude: latitude + 3 * jitter() / metresPerDegree, longitude: truth.position.longitude + east,
                horizontalAccuracy: Self.accuracy, timestamp: date)
            let exact = Location(latitude: latitude, longitude: truth.position.longitude, horizontalAccuracy: 1, timestamp: date)
            samples.append((instant, exact, fix, truth.isMoving))
            instant = instant + Self.step
        }
        return samples
    }
}

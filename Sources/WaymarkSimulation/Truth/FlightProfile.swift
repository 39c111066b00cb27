/// The vertical profile of a flight: climb at a constant rate to the cruising altitude,
/// cruise, descend at a constant rate to land where it took off (same elevation).
struct FlightProfile: Hashable, Sendable {
    /// Cruising altitude above the departure elevation, metres.
    let cruiseAltitude: Double
    /// Climb rate, m/s (about 2,000 ft/min, a typical airliner average to cruise).
    static let climbRate = 10.0
    /// Descent rate, m/s (about 1,200 ft/min, a typical continuous descent).
    static let descentRate = 6.0

    /// The shortest flight that reaches the cruising altitude and comes back down.
    var minimumDuration: Duration {
        .seconds(cruiseAltitude / Self.climbRate + cruiseAltitude / Self.descentRate)
    }

    /// Height above the departure elevation `time` seconds into a flight of `duration`.
    func height(at time: Double, duration: Double) -> Double {
        max(0, min(cruiseAltitude, Self.climbRate * time, Self.descentRate * (duration - time)))
    }

    /// Vertical speed `time` seconds into a flight of `duration`, m/s.
    func verticalSpeed(at time: Double, duration: Double) -> Double {
        guard time >= 0, time < duration else { return 0 }
        if Self.climbRate * time < min(cruiseAltitude, Self.descentRate * (duration - time)) { return Self.climbRate }
        if Self.descentRate * (duration - time) < cruiseAltitude { return -Self.descentRate }
        return 0
    }
}

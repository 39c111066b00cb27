import WaymarkClock
/// A trapezoidal speed profile: accelerate at a constant rate from rest, cruise, brake at
/// the same rate to rest at the end. Closed forms give speed and distance at any time.
struct SpeedProfile: Hashable, Sendable {
    /// Length of the movement, seconds.
    let duration: Double
    /// The acceleration while speeding up (and the deceleration while braking), m/s².
    let acceleration: Double
    /// Time spent accelerating (and braking), seconds: at most half the duration.
    let rampTime: Double

    /// Walking accelerates at about 1 m/s² (standing to 1.4 m/s in a step or two).
    static let walkingAcceleration = 1.0
    /// An ordinary car pulling off or braking for a light: 2 m/s² (0.2 g).
    static let drivingAcceleration = 2.0
    /// Passenger lifts: 0.8 m/s² (comfort limit, typical 0.5–1 m/s²).
    static let liftAcceleration = 0.8
    /// Aircraft ground speed: 2 m/s² from the take-off roll onwards (simplified: one rate
    /// up to cruising speed).
    static let flightAcceleration = 2.0

    /// A movement lasting `duration` seconds that cruises at `speed` (or peaks below it
    /// when too short to reach it).
    init(duration: Double, speed: Double, acceleration: Double) {
        self.duration = duration
        self.acceleration = acceleration
        rampTime = min(speed / acceleration, duration / 2)
    }

    /// The shortest movement that covers `distance` metres at up to `speed`.
    static func ride(distance: Double, speed: Double, acceleration: Double) -> (duration: Duration, profile: SpeedProfile) {
        let seconds = distance >= speed * speed / acceleration
            ? distance / speed + speed / acceleration
            : 2 * (distance / acceleration).squareRoot()
        let duration = Duration.nanoseconds(Int64((seconds * 1e9).rounded(.up)))
        return (duration, SpeedProfile(duration: duration.seconds, speed: speed, acceleration: acceleration))
    }

    /// The highest speed reached.
    var peakSpeed: Double { acceleration * rampTime }

    /// Speed `time` seconds after the start.
    func speed(at time: Double) -> Double {
        let clamped = min(max(time, 0), duration)
        return acceleration * min(clamped, rampTime, duration - clamped)
    }

    /// Distance covered `time` seconds after the start, metres.
    func distance(at time: Double) -> Double {
        let clamped = min(max(time, 0), duration)
        let ramp = 0.5 * acceleration * rampTime * rampTime
        if clamped < rampTime { return 0.5 * acceleration * clamped * clamped }
        let braking = duration - rampTime
        if clamped <= braking { return ramp + peakSpeed * (clamped - rampTime) }
        let remaining = duration - clamped
        return totalDistance - 0.5 * acceleration * remaining * remaining
    }

    /// Distance covered by the whole movement.
    var totalDistance: Double {
        peakSpeed * rampTime + peakSpeed * (duration - 2 * rampTime)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A receiver moving over the Earth one second at a time: standing, walking or driving,
/// with smooth speed changes, gentle curves, sharp turns and climbs.
struct Trajectory {
    private enum Activity {
        case standing, walking, driving
    }

    /// Degrees, north positive.
    private(set) var latitude: Double
    /// Degrees, east positive.
    private(set) var longitude: Double
    /// Metres above mean sea level.
    private(set) var altitude: Double
    /// Metres per second over ground.
    private(set) var speed = 0.0
    /// Degrees true, `0 ..< 360`.
    private(set) var heading: Double

    private var activity = Activity.standing
    private var secondsLeft = 30
    private var targetSpeed = 0.0
    private var turnRate = 0.0
    private var turnSecondsLeft = 0
    private var grade = 0.0
    private let homeAltitude: Double

    init(latitude: Double, longitude: Double, altitude: Double, heading: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.heading = heading
        homeAltitude = altitude
    }

    mutating func step(_ random: inout SplitMix64) {
        secondsLeft -= 1
        if secondsLeft <= 0 {
            chooseActivity(&random)
        }
        steer(&random)
        let metresPerDegree = 111_320.0
        let radians = heading * .pi / 180
        latitude += speed * cos(radians) / metresPerDegree
        longitude += speed * sin(radians) / (metresPerDegree * cos(latitude * .pi / 180))
        // Hills: the road's grade wanders, and is drawn back so that the land stays near home.
        let pull = (altitude - homeAltitude) * 0.000_05
        grade = min(0.08, max(-0.08, grade * 0.995 + random.noise(0.004) - pull))
        altitude = max(homeAltitude - 40, altitude + grade * speed + random.noise(0.05))
    }

    private mutating func chooseActivity(_ random: inout SplitMix64) {
        let pick = random.unit()
        if pick < 0.2 {
            activity = .standing
            secondsLeft = random.integer(10, 180)
            targetSpeed = 0
        } else if pick < 0.45 {
            activity = .walking
            secondsLeft = random.integer(60, 900)
            targetSpeed = random.uniform(1.0, 1.6)
        } else {
            activity = .driving
            secondsLeft = random.integer(300, 2400)
            targetSpeed = random.uniform(8, 33)
        }
    }

    private mutating func steer(_ random: inout SplitMix64) {
        switch activity {
        case .standing:
            speed = max(0, speed - 3)
            if speed < 0.3 {
                speed = random.uniform(0, 0.15)  // the fix wanders a little at rest
            }
        case .walking:
            speed = max(0, targetSpeed + random.noise(0.3))
            heading += random.noise(8)
            if random.chance(1.0 / 90) {
                startTurn(&random, seconds: random.integer(2, 4))
            }
        case .driving:
            if random.chance(1.0 / 120) {
                targetSpeed = random.uniform(5, 33)
            }
            let step = min(1.5, max(-3, targetSpeed - speed))
            speed = max(0, speed + step + random.noise(0.2))
            heading += random.noise(1.5)
            if random.chance(1.0 / 75) {
                startTurn(&random, seconds: random.integer(4, 9))
            }
        }
        if turnSecondsLeft > 0 {
            heading += turnRate
            turnSecondsLeft -= 1
        }
        heading = heading.truncatingRemainder(dividingBy: 360)
        if heading < 0 {
            heading += 360
        }
    }

    private mutating func startTurn(_ random: inout SplitMix64, seconds: Int) {
        let angle = random.chance(0.5) ? random.uniform(60, 120) : -random.uniform(60, 120)
        turnRate = angle / Double(seconds)
        turnSecondsLeft = seconds
    }
}

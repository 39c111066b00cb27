/// A u-blox M8/F9 style receiver at 1 Hz. It moves along a `Trajectory` under a sky of four
/// constellations; signal outages (tunnels) lose the fix for a while, and the fix comes back
/// through a short 2D phase. SBAS corrections come and go.
struct Receiver {
    private struct Site {
        let latitude: Double
        let longitude: Double
        let altitude: Double
        let geoidSeparation: Double
    }

    /// Start-up banner, as a u-blox M8 prints it.
    static let banner: [StaticString] = [
        "u-blox AG - www.u-blox.com", "HW UBX-M8030 00080000", "ROM CORE 3.01 (107888)",
        "FWVER=SPG 3.01", "PROTVER=18.00", "GPS;GLO;GAL;BDS", "SBAS;IMES;QZSS",
        "ANTSUPERV=AC SD PDoS SR", "ANTSTATUS=OK",
    ]

    private static let sites = [
        Site(latitude: 47.37685, longitude: 8.54169, altitude: 408, geoidSeparation: 47.4),
        Site(latitude: -43.53205, longitude: 172.63622, altitude: 12, geoidSeparation: 10.9),
        Site(latitude: 47.60621, longitude: -122.33207, altitude: 56, geoidSeparation: -19.2),
        Site(latitude: -23.55052, longitude: -46.63331, altitude: 760, geoidSeparation: -5.0),
    ]

    private var random: SplitMix64
    // Four hours before a midnight that also ends a leap-year February.
    private var clock = UTCClock(year: 2024, month: 2, day: 29, secondOfDay: 20 * 3600)
    private var trajectory: Trajectory
    private var sky: [Constellation]
    private let geoidSeparation: Double
    private var outageSecondsLeft = 0
    private var acquireSecondsLeft = 26  // time to first fix after power-up
    private var twoDSecondsLeft = 2
    private var differential = false

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        let site = Self.sites[random.integer(0, Self.sites.count - 1)]
        geoidSeparation = site.geoidSeparation
        trajectory = Trajectory(
            latitude: site.latitude, longitude: site.longitude, altitude: site.altitude,
            heading: random.uniform(0, 360))
        let galileo = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15, 19, 21, 24, 25, 26, 27, 30, 31, 33, 34, 36]
        sky = [
            Constellation(
                talker: "GP", systemID: 1, signalID: 1, ids: Array(1...31),
                passSeconds: 5 * 3600, random: &random),
            Constellation(
                talker: "GL", systemID: 2, signalID: 1, ids: Array(65...88),
                passSeconds: 4 * 3600, random: &random),
            Constellation(
                talker: "GA", systemID: 3, signalID: 7, ids: galileo,
                passSeconds: 5.5 * 3600, random: &random),
            Constellation(
                talker: "GB", systemID: 4, signalID: 1, ids: Array(1...16) + Array(19...37),
                passSeconds: 5 * 3600, random: &random),
        ]
    }

    /// Whether to repeat the antenna status this epoch, as receivers do now and then.
    mutating func reportsAntennaStatus() -> Bool {
        random.chance(1.0 / 3600)
    }

    /// The current epoch; `advance()` moves on by one second.
    mutating func epoch() -> Epoch {
        let blocked = outageSecondsLeft > 0
        let constellations = sky.map { constellation in
            let satellites = constellation.view(blocked: blocked, random: &random)
            return Epoch.Constellation(
                talker: constellation.talker, systemID: constellation.systemID,
                signalID: constellation.signalID, satellites: satellites,
                used: satellites.filter { ($0.signal ?? 0) >= 24 && $0.elevation >= 10 }
                    .prefix(12).map(\.id))
        }
        let usedCount = constellations.reduce(0) { $0 + $1.used.count }
        let fix: Epoch.Fix
        if blocked || acquireSecondsLeft > 0 || usedCount < 3 {
            fix = .none
        } else {
            fix = twoDSecondsLeft > 0 || usedCount < 4 ? .twoD : .threeD
        }
        let hdop = min(99.99, 0.45 + 5.5 / Double(max(1, usedCount)) + random.noise(0.04))
        let pdop = min(99.99, hdop * 1.7)
        let degreesPerMetre = 1 / 111_320.0
        return Epoch(
            fix: fix, differential: differential, clock: clock,
            latitude: trajectory.latitude + random.noise(0.4) * degreesPerMetre,
            longitude: trajectory.longitude + random.noise(0.4) * degreesPerMetre,
            altitude: trajectory.altitude + random.noise(0.3), geoidSeparation: geoidSeparation,
            speed: trajectory.speed, course: trajectory.speed >= 0.3 ? trajectory.heading : nil,
            pdop: pdop, hdop: hdop, vdop: (pdop * pdop - hdop * hdop).squareRoot(),
            constellations: constellations)
    }

    mutating func advance() {
        clock.tick()
        trajectory.step(&random)
        for index in sky.indices {
            sky[index].advance()
        }
        if random.chance(1.0 / 900) {
            differential.toggle()
        }
        if outageSecondsLeft > 0 {
            outageSecondsLeft -= 1
            if outageSecondsLeft == 0 {
                acquireSecondsLeft = random.integer(1, 6)
                twoDSecondsLeft = random.integer(1, 3)
            }
        } else if acquireSecondsLeft > 0 {
            acquireSecondsLeft -= 1
        } else if twoDSecondsLeft > 0 {
            twoDSecondsLeft -= 1
        } else if random.chance(1.0 / 1500) {
            outageSecondsLeft = random.integer(3, 120)
        }
    }
}

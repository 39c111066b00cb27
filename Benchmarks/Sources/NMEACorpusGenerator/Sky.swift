#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One satellite in view: NMEA id, elevation and azimuth in whole degrees, and C/N0
/// in dB-Hz (`nil` while not tracked).
struct SatelliteView {
    var id: Int
    var elevation: Int
    var azimuth: Int
    var signal: Int?
}

/// The satellites of one GNSS constellation rising, passing and setting over time.
struct Constellation {
    private struct Orbit {
        let id: Int
        var phase: Double  // 0 ..< 2π; above the horizon for part of the upper half
        let rate: Double  // radians per second
        let peakElevation: Double
        let azimuthStart: Double
        let azimuthSweep: Double
        let signalOffset: Double
    }

    /// Sky-view talker (`GP`, `GL`, `GA`, `GB`).
    let talker: StaticString
    /// GSA system id of NMEA 4.10: 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou.
    let systemID: Int
    /// GSV signal id of NMEA 4.10 (1 for GPS L1 C/A, GLONASS L1 OF, BeiDou B1I; 7 for Galileo E1).
    let signalID: Int
    private var orbits: [Orbit]

    /// - Parameters:
    ///   - ids: the NMEA satellite ids of the constellation.
    ///   - passSeconds: how long a satellite stays above the horizon, roughly.
    init(
        talker: StaticString, systemID: Int, signalID: Int, ids: [Int], passSeconds: Double,
        random: inout SplitMix64
    ) {
        self.talker = talker
        self.systemID = systemID
        self.signalID = signalID
        orbits = ids.map { id in
            Orbit(
                id: id,
                phase: random.uniform(0, 2 * .pi),
                rate: .pi / passSeconds * random.uniform(0.8, 1.2),
                peakElevation: random.uniform(25, 88),
                azimuthStart: random.uniform(0, 360),
                azimuthSweep: random.uniform(-160, 160),
                signalOffset: random.noise(6)
            )
        }
    }

    mutating func advance() {
        for index in orbits.indices {
            orbits[index].phase += orbits[index].rate
            if orbits[index].phase >= 2 * .pi {
                orbits[index].phase -= 2 * .pi
            }
        }
    }

    /// The satellites above the horizon, by id; `blocked` drops every signal (a tunnel).
    func view(blocked: Bool, random: inout SplitMix64) -> [SatelliteView] {
        var satellites: [SatelliteView] = []
        for orbit in orbits {
            let elevation = (orbit.peakElevation + 15) * sin(orbit.phase) - 15
            guard elevation >= 0 else { continue }
            var azimuth = Int(orbit.azimuthStart + orbit.azimuthSweep * orbit.phase / .pi) % 360
            if azimuth < 0 {
                azimuth += 360
            }
            var signal: Int?
            if !blocked && (elevation >= 5 || random.chance(0.5)) {
                let strength = 22 + 26 * sin(elevation * .pi / 180) + orbit.signalOffset
                signal = Int(min(52, max(10, strength + random.noise(3))))
            }
            satellites.append(
                SatelliteView(
                    id: orbit.id, elevation: Int(elevation), azimuth: azimuth, signal: signal))
        }
        satellites.sort { $0.id < $1.id }
        return satellites
    }
}

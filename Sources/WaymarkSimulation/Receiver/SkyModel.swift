import WaymarkClock
import WaymarkNMEA
import WaymarkLocation

/// The satellites above the receiver: a fixed, seeded set per constellation whose azimuths
/// turn slowly, with signal strengths from elevation, and dilutions of precision from the
/// count used. No real orbits: the numbers look like a clear sky, not any particular one.
struct SkyModel: Sendable {
    /// One satellite's fixed parameters.
    struct Satellite: Sendable {
        var number: Int
        var elevation: Int
        var azimuth: Double
    }

    /// The satellites of each constellation, in the profile's order.
    let constellations: [(constellation: Constellation, satellites: [Satellite])]
    private let seed: UInt64

    /// Satellites below this elevation are tracked but not used.
    static let elevationMask = 10

    init(constellations: [Constellation], seed: UInt64) {
        self.seed = seed
        var random = SimulationRandom(seed: seed, stream: .sky)
        self.constellations = constellations.map { constellation in
            let numbers = constellation == .glonass ? Self.glonassNumbers : Self.gpsNumbers
            let satellites = numbers.map { number in
                Satellite(number: number, elevation: Int(random.uniform(3...85)), azimuth: random.uniform(0...359))
            }
            return (constellation, satellites)
        }
    }

    private static let gpsNumbers = [2, 5, 7, 9, 13, 15, 18, 20, 24, 29, 30]
    private static let glonassNumbers = [65, 66, 72, 73, 74, 80, 81, 88]

    /// The satellites in view of one constellation at an epoch: all of them once tracking,
    /// during acquisition those acquired so far (`acquired`, 0–1) with a signal and, when
    /// the almanac is known, the others without one.
    func inView(_ index: Int, second: Int64, acquired: Double, almanacKnown: Bool) -> [SatelliteInView] {
        let satellites = constellations[index].satellites
        let tracked = Int(acquired * Double(satellites.count))
        return satellites.enumerated().compactMap { position, satellite in
            let isTracked = position < tracked
            guard isTracked || almanacKnown else { return nil }
            let azimuth = Int((satellite.azimuth + Double(second) / 240).truncatingRemainder(dividingBy: 360))
            let bits = SimulationRandom.hash(seed: seed, stream: .sky, index: second, salt: UInt64(satellite.number))
            let strength = 22 + satellite.elevation / 4 + Int(SimulationRandom.unit(bits) * 6)
            return SatelliteInView(
                number: satellite.number, elevation: satellite.elevation, azimuth: azimuth,
                signalStrength: isTracked ? strength : nil)
        }
    }

    /// The numbers of the satellites used in a fix, per constellation.
    func used(_ index: Int) -> [UInt16] {
        constellations[index].satellites.filter { $0.elevation >= Self.elevationMask }.map { UInt16($0.number) }
    }

    /// Total satellites used in a fix.
    var usedCount: Int {
        constellations.indices.reduce(0) { $0 + used($1).count }
    }

    /// Horizontal dilution of precision: about 0.6 + 6 / satellites used, with a slow
    /// wander of ±0.1 over about ten minutes.
    func hdop(second: Int64) -> Double {
        0.6 + 6 / Double(max(usedCount, 4)) + 0.1 * Trigonometry.sine(turns: Double(second) / 600)
    }
}

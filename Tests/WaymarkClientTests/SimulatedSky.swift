import Foundation
import WaymarkClock
import WaymarkReceiver
import WaymarkSimulation

/// What the daemon's simulated receiver says of its sky, second by second: the test runs the
/// same receiver (the scenario's, with waymarkd's defaults: u-blox M8, seed 1, powered at the
/// start) and reads its GSV and GSA sentences as text, as a gpsd client would expect them.
struct SimulatedSky {
    /// One satellite as the sentences gave it; `used` when GSA lists it and it has a signal.
    struct Satellite: Equatable {
        var prn: Int
        var elevation: Double
        var azimuth: Double
        var signalStrength: Double?
        var used: Bool
    }

    /// The satellites of each epoch with a fix, by its time of day (`hhmmss`).
    private var epochs: [String: [Satellite]] = [:]
    /// Every satellite number the sentences name.
    private(set) var prns: Set<Int> = []

    init(scenario path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let scenario = try ScenarioParser.parse(text, file: path)
        var receiver = SimulatedReceiver(profile: .ubloxM8, trajectory: Trajectory(scenario: scenario, seed: 1), seed: 1)
        receiver.powerOn(at: .zero)
        let bytes = receiver.epochs(until: .zero + scenario.duration).flatMap { $0.bytes }
        var time: String?
        var used: Set<Int> = []
        var inView: [(prn: Int, elevation: Double, azimuth: Double, signalStrength: Double?)] = []
        func finishEpoch() {
            guard let time, !used.isEmpty else { return }
            epochs[time] = inView.map { satellite in
                Satellite(
                    prn: satellite.prn, elevation: satellite.elevation, azimuth: satellite.azimuth,
                    signalStrength: satellite.signalStrength, used: used.contains(satellite.prn) && satellite.signalStrength ?? 0 > 0)
            }
        }
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) where line.hasPrefix("$") {
            let fields = line.prefix { $0 != "*" }.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            switch fields[0].suffix(3) {
            case "RMC":
                finishEpoch()
                time = String(fields[1].prefix(6))
                used = []
                inView = []
            case "GSA":
                used.formUnion(fields[3..<min(15, fields.count)].compactMap { Int($0) })
            case "GSV":
                for group in stride(from: 4, to: fields.count - 3, by: 4) {
                    guard let prn = Int(fields[group]), let elevation = Double(fields[group + 1]), let azimuth = Double(fields[group + 2])
                    else { continue }
                    inView.append((prn, elevation, azimuth, Double(fields[group + 3])))
                    prns.insert(prn)
                }
            default: break
            }
        }
        finishEpoch()
    }

    /// The satellites of the epoch at `time` (ISO 8601), if the receiver had a fix then.
    func satellites(at time: String) -> [Satellite]? {
        guard time.count >= 19 else { return nil }
        let clock = time.dropFirst(11).prefix(8).filter { $0 != ":" }
        return epochs[String(clock)]
    }
}

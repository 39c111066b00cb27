import Foundation
import Testing
import WaymarkFix
import WaymarkLocation
import WaymarkNMEA
import WaymarkTestFixtures

/// One satellite signal of gpsd's SKY, or of ours, as the comparison sees it.
struct SkyEntry: Equatable {
    let prn: Int
    let elevation: Double?
    let azimuth: Double?
    let signalStrength: Double?
    let used: Bool
}

/// gpsd's sky per epoch of a `.chk` file, by the epoch's time of day in milliseconds: the last
/// SKY with satellites gpsd wrote after a sentence of that time (the file echoes each
/// sentence gpsd read before the reports it made of it; gpsd writes an epoch's TPV only at
/// its end, after its GSV).
func gpsdSkies(_ name: String) throws -> [Int: [SkyEntry]] {
    let text = String(decoding: try Fixtures.capture(name + ".chk"), as: UTF8.self)
    var skies: [Int: [SkyEntry]] = [:]
    var time: Int?
    for line in text.split(whereSeparator: \.isNewline) {
        if line.hasPrefix("$") {
            let fields = line.drop { $0 == "$" }.prefix { $0 != "*" }.split(separator: ",", omittingEmptySubsequences: false)
            let position = ["RMC": 1, "GGA": 1, "GNS": 1, "GST": 1, "ZDA": 1, "GLL": 5][String(fields[0].suffix(3))]
            if let position, position < fields.count, let milliseconds = millisecondsOfDay(fields[position]) { time = milliseconds }
            continue
        }
        guard line.hasPrefix(#"{"class":"SKY""#), let time,
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
            let satellites = object["satellites"] as? [[String: Any]]
        else { continue }
        skies[time] = satellites.map { satellite in
            SkyEntry(
                prn: satellite["PRN"] as? Int ?? 0, elevation: satellite["el"] as? Double, azimuth: satellite["az"] as? Double,
                signalStrength: satellite["ss"] as? Double, used: satellite["used"] as? Bool ?? false)
        }
    }
    return skies
}

/// Milliseconds since midnight of an NMEA time field, `hhmmss` or `hhmmss.sss`.
func millisecondsOfDay(_ field: Substring) -> Int? {
    guard field.count >= 6, let hours = Int(field.prefix(2)), let minutes = Int(field.dropFirst(2).prefix(2)),
        let seconds = Int(field.dropFirst(4).prefix(2))
    else { return nil }
    let fraction = field.dropFirst(6)
    let milliseconds = fraction.isEmpty ? 0 : Int(((Double("0" + fraction) ?? 0) * 1_000).rounded())
    return ((hours * 60 + minutes) * 60 + seconds) * 1_000 + milliseconds
}

/// How our sky of an epoch differs from gpsd's, by the first difference found.
enum SkyDisagreement: String, CaseIterable {
    case missing = "sky missing", prns = "sky PRNs", elevation = "sky el", azimuth = "sky az", strength = "sky ss",
        used = "sky used"
}

/// The comparison: the same signals (each PRN as often), and per signal, in the receivers'
/// order, the same elevation, azimuth and signal strength (gpsd prints them with one
/// decimal, from whole numbers) and the same `used`.
func compareSky(_ reference: [SkyEntry], with ours: SkyView?) -> SkyDisagreement? {
    guard let ours, !ours.satellites.isEmpty else { return .missing }
    let entries = ours.satellites.map { satellite in
        SkyEntry(
            prn: satellite.identity.prn, elevation: satellite.elevation.map(Double.init),
            azimuth: satellite.azimuth.map(Double.init), signalStrength: satellite.signalStrength.map(Double.init),
            used: ours.isUsed(satellite))
    }
    let theirs = Dictionary(grouping: reference, by: \.prn)
    let mine = Dictionary(grouping: entries, by: \.prn)
    guard theirs.mapValues(\.count) == mine.mapValues(\.count) else { return .prns }
    let pairs = theirs.keys.sorted().flatMap { prn in zip(theirs[prn, default: []], mine[prn, default: []]) }
    if pairs.contains(where: { $0.elevation != $1.elevation }) { return .elevation }
    if pairs.contains(where: { $0.azimuth != $1.azimuth }) { return .azimuth }
    if pairs.contains(where: { $0.signalStrength != $1.signalStrength }) { return .strength }
    if pairs.contains(where: { $0.used != $1.used }) { return .used }
    return nil
}

@Suite("Conformance with gpsd's SKY satellites on 71 real receivers", .ownThread)
struct SkyConformanceTests {
    @Test("every epoch gpsd listed satellites for has ours, the same, or a documented difference")
    func corpus() throws {
        var total = 0
        var agreeing = 0
        var signals = 0
        var found: [String: Int] = [:]
        for name in try Fixtures.captureNames() {
            let (fixes, _) = decodeCapture(try Fixtures.capture(name))
            var ours: [Int: SkyView] = [:]
            for fix in fixes {
                if let time = fix.timeOfDay { ours[Int(time.nanosecondsSinceMidnight / 1_000_000)] = fix.sky }
            }
            for (time, sky) in try gpsdSkies(name) {
                total += 1
                if let disagreement = compareSky(sky, with: ours[time]) {
                    found["\(name) \(disagreement.rawValue)", default: 0] += 1
                } else {
                    agreeing += 1
                    signals += sky.count
                }
            }
        }
        let documented = try documentedDisagreements(under: "## Every difference in the sky")
        #expect(found == documented.counts, "disagreements differ from docs/conformance.md: \(found.sorted { $0.key < $1.key })")
        #expect(total > 1_000)
        let base = total - documented.gpsdErrors
        print("sky conformance: \(agreeing) of \(total) gpsd skies agree (\(signals) satellite signals); \(documented.gpsdErrors) are gpsd errors; \(agreeing) of \(base) = \(Double(agreeing) * 100 / Double(base)) %")
    }

    @Test("the comparison sees each kind of difference")
    func comparison() throws {
        let identity = try #require(SatelliteIdentity(number: 7, system: .gps))
        var used = SatelliteSet()
        used.insert(identity)
        let ours = SkyView(
            satellites: [SkySatellite(identity: identity, signal: 0, elevation: 40, azimuth: 200, signalStrength: 35)], used: used)
        let same = SkyEntry(prn: 7, elevation: 40, azimuth: 200, signalStrength: 35, used: true)
        #expect(compareSky([same], with: ours) == nil)
        #expect(compareSky([same], with: nil) == .missing)
        #expect(compareSky([same, same], with: ours) == .prns)
        #expect(compareSky([SkyEntry(prn: 8, elevation: 40, azimuth: 200, signalStrength: 35, used: true)], with: ours) == .prns)
        #expect(compareSky([SkyEntry(prn: 7, elevation: nil, azimuth: 200, signalStrength: 35, used: true)], with: ours) == .elevation)
        #expect(compareSky([SkyEntry(prn: 7, elevation: 40, azimuth: 201, signalStrength: 35, used: true)], with: ours) == .azimuth)
        #expect(compareSky([SkyEntry(prn: 7, elevation: 40, azimuth: 200, signalStrength: 0, used: true)], with: ours) == .strength)
        #expect(compareSky([SkyEntry(prn: 7, elevation: 40, azimuth: 200, signalStrength: 35, used: false)], with: ours) == .used)
    }
}

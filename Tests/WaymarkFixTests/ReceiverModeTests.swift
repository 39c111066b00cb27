import Testing
import WaymarkFix
import WaymarkLocation

/// How several families of receivers print one epoch whose GSA says 2D: the talker, the
/// satellite numbers they list and the sentences they send.
struct UnderReportingReceiver: CustomStringConvertible {
    let description: String
    /// The talker of the GGA and GSA.
    let talker: String
    /// The GSA selection mode (`A` automatic, `M` manual).
    let selection: String
    /// Satellite numbers in the numbering the receiver uses.
    let satellitePool: [Int]
    /// Whether the GSA ends with an NMEA 4.10 system id.
    let systemID: Int?

    /// GGA then GSA (and an RMC to close it, as a MediaTek does), `used` satellites,
    /// the altitude and VDOP fields as given (empty for none).
    func epoch(used: Int, altitude: String, vdop: String) -> [String] {
        let numbers = satellitePool.prefix(used).map { $0 < 10 ? "0\($0)" : "\($0)" }
        let fields = (numbers + Array(repeating: "", count: max(0, 12 - numbers.count))).joined(separator: ",")
        let count = used < 10 ? "0\(used)" : "\(used)"
        let system = systemID.map { ",\($0)" } ?? ""
        return [
            "$\(talker)GGA,101500.000,5130.1200,N,00007.5000,W,1,\(count),1.2,\(altitude),M,47.0,M,,",
            "$\(talker)GSA,\(selection),2,\(fields),2.1,1.2,\(vdop)\(system)",
            "$\(talker)RMC,101500.000,A,5130.1200,N,00007.5000,W,0.00,0.0,150624,,,A",
        ]
    }

    static let all = [
        UnderReportingReceiver(
            description: "MediaTek (GP, GPS numbers)", talker: "GP", selection: "A",
            satellitePool: [2, 5, 7, 9, 13, 15, 18, 20, 24, 29, 30, 31], systemID: nil),
        UnderReportingReceiver(
            description: "Quectel (GN, NMEA 4.10 system id)", talker: "GN", selection: "A",
            satellitePool: [3, 6, 8, 11, 14, 17, 19, 22, 25, 28, 32, 1], systemID: 1),
        UnderReportingReceiver(
            description: "Telit (GP, manual selection)", talker: "GP", selection: "M",
            satellitePool: [1, 4, 10, 12, 16, 21, 23, 26, 27, 2, 5, 7], systemID: nil),
        UnderReportingReceiver(
            description: "GLONASS-era (GL, numbers 65-96)", talker: "GL", selection: "A",
            satellitePool: [65, 66, 72, 73, 74, 80, 81, 82, 87, 88, 95, 96], systemID: nil),
        UnderReportingReceiver(
            description: "GPS+GLONASS (GN, mixed numbers, no system id)", talker: "GN", selection: "A",
            satellitePool: [5, 70, 12, 71, 19, 85, 24, 86, 30, 66, 2, 67], systemID: nil),
    ]
}

@Suite("The fix dimension of receivers whose GSA under-reports it")
struct ReceiverModeTests {
    @Test("four or more satellites with an altitude and a VDOP are 3D, whatever GSA's mode field says",
          arguments: UnderReportingReceiver.all, [4, 7, 12])
    func threeDimensional(receiver: UnderReportingReceiver, used: Int) throws {
        let fix = try #require(assemble(receiver.epoch(used: used, altitude: "61.3", vdop: "1.7")).last?.fix)
        #expect(fix.mode == .threeDimensional)
        #expect(fix.receiverMode == .twoDimensional)
        #expect(fix.altitudeMSL == 61.3)
        let location = try #require(Location(fix: fix, isSimulated: false))
        #expect(location.altitude == 61.3)
        #expect(location.verticalAccuracy > 0)
        #expect(location.receiverMode == .twoDimensional)
    }

    @Test("three satellites, no altitude or no VDOP leave the receiver's 2D", arguments: UnderReportingReceiver.all)
    func twoDimensional(receiver: UnderReportingReceiver) throws {
        let cases = [
            receiver.epoch(used: 3, altitude: "61.3", vdop: "1.7"),
            receiver.epoch(used: 8, altitude: "", vdop: "1.7"),
            receiver.epoch(used: 8, altitude: "61.3", vdop: ""),
            receiver.epoch(used: 8, altitude: "61.3", vdop: "99.99"),
            receiver.epoch(used: 8, altitude: "61.3", vdop: "0.0"),
        ]
        for lines in cases {
            let fix = try #require(assemble(lines).last?.fix)
            #expect(fix.mode == .twoDimensional, "\(lines)")
            #expect(fix.receiverMode == .twoDimensional)
            #expect(try #require(Location(fix: fix, isSimulated: false)).verticalAccuracy < 0)
        }
    }

    @Test("the receiver's own 3D and no-fix stand; an epoch without GSA reports no receiver mode")
    func otherModes() throws {
        let threeD = assemble(ubloxCycle(second: 0)).map(\.fix)
        #expect(threeD.first?.receiverMode == .threeDimensional)
        let noFix = try #require(assemble(["$GPGGA,101500,,,,,0,00,,,M,,M,,", "$GPGSA,A,1,,,,,,,,,,,,,,,"]).last?.fix)
        #expect(noFix.mode == .noFix)
        #expect(noFix.receiverMode == .noFix)
        let ggaOnly = try #require(assemble(["$GPGGA,101500,5130.12,N,00007.5,W,1,08,0.9,61.3,M,47.0,M,,"]).last?.fix)
        #expect(ggaOnly.mode == .threeDimensional)
        #expect(ggaOnly.receiverMode == nil)
    }
}

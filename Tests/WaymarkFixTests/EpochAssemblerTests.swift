import Testing
import WaymarkFix
import WaymarkLocation
import WaymarkNMEA

/// Feeds text sentences one at a time and records after which sentence each epoch came out.
func assemble(_ lines: [String], referenceDate: CivilDate? = nil) -> [(afterLine: Int, fix: Fix)] {
    var assembler = EpochAssembler(referenceDate: referenceDate)
    var framer = NMEAFramer()
    var emitted: [(Int, Fix)] = []
    for (index, line) in lines.enumerated() {
        Array(withChecksum(line).utf8).withUnsafeBufferPointer { buffer in
            framer.consume(buffer) { sentence in
                if let parsed = NMEAParser.parse(sentence).sentence {
                    assembler.add(parsed) { emitted.append((index, $0)) }
                }
            }
        }
    }
    assembler.finish { emitted.append((lines.count, $0)) }
    return emitted
}

/// Adds `*hh\r\n` to a sentence written without its checksum.
func withChecksum(_ line: String) -> String {
    let body = line.dropFirst()
    let sum = body.utf8.reduce(UInt8(0), ^)
    let hex = Array("0123456789ABCDEF")
    return line + "*" + String(hex[Int(sum >> 4)]) + String(hex[Int(sum & 15)]) + "\r\n"
}

/// A u-blox style cycle: RMC, VTG, GGA, GSA, GSV, GLL, all for second `second`.
func ubloxCycle(second: Int) -> [String] {
    let time = "1200\(second < 10 ? "0" : "")\(second).00"
    return [
        "$GNRMC,\(time),A,4717.11399,N,00833.91590,E,0.004,77.52,091202,,,A",
        "$GNVTG,77.52,T,,M,0.004,N,0.008,K,A",
        "$GNGGA,\(time),4717.11399,N,00833.91590,E,1,08,1.01,499.6,M,48.0,M,,",
        "$GNGSA,A,3,23,29,07,08,09,18,26,28,,,,,1.94,1.18,1.54,1",
        "$GPGSV,1,1,04,23,38,230,44,29,71,156,47,07,29,116,41,08,09,081,36",
        "$GNGLL,4717.11399,N,00833.91590,E,\(time),A,A",
    ]
}

@Suite("Epoch assembly")
struct EpochAssemblerTests {
    @Test("merges an epoch's sentences into one fix")
    func merge() throws {
        let fixes = assemble(ubloxCycle(second: 0)).map(\.fix)
        let fix = try #require(fixes.first)
        #expect(fixes.count == 1)
        #expect(fix.time?.iso8601 == "2002-12-09T12:00:00.000Z")
        #expect(fix.mode == .threeDimensional)
        #expect(fix.quality == .autonomous)
        #expect(abs((fix.latitude ?? 0) - 47.285233166) < 1e-8)
        #expect(fix.altitudeMSL == 499.6)
        #expect(fix.altitudeHAE == 499.6 + 48.0)
        #expect(abs((fix.speed ?? 0) - 0.004 * 1852 / 3600) < 1e-15)
        #expect(fix.vdop == 1.54)
        #expect(fix.satellites.used(.gps) == 8)
        #expect(fix.satellites.inView(.gps) == 4)
    }

    @Test("learns the end of the cycle and then emits on it, not a cycle later")
    func cycleLearning() {
        let cycles = (0..<5).map { ubloxCycle(second: $0) }
        let emitted = assemble(cycles.flatMap { $0 })
        #expect(emitted.count == 5)
        // The first two epochs wait for the next epoch's first sentence (lines 6 and 12); once
        // the GLL has ended two epochs in a row, each epoch goes out on its own GLL.
        #expect(emitted.map(\.afterLine) == [6, 12, 17, 23, 29])
    }

    @Test("a sentence after the learned end withdraws the guess; no epoch is lost")
    func cycleChange() {
        var lines = (0..<4).flatMap { ubloxCycle(second: $0) }
        lines += ubloxCycle(second: 4) + ["$GNZDA,120004.00,09,12,2002,00,00"]
        lines += ubloxCycle(second: 5) + ["$GNZDA,120005.00,09,12,2002,00,00"]
        lines += ubloxCycle(second: 6) + ["$GNZDA,120006.00,09,12,2002,00,00"]
        lines += ubloxCycle(second: 7) + ["$GNZDA,120007.00,09,12,2002,00,00"]
        let emitted = assemble(lines)
        #expect(emitted.map { $0.fix.time?.iso8601.dropFirst(11).prefix(8) } == (0..<8).map { "12:00:0\($0)" })
        // Second 6 goes out at its ZDA once ZDA has ended two epochs in a row.
        #expect(emitted.last?.afterLine == lines.count - 1)
    }

    @Test("TXT messages (a start-up banner, an antenna status) are in no epoch and never end a cycle")
    func textMessages() {
        let banner = ["$GNTXT,01,01,02,u-blox AG - www.u-blox.com", "$GNTXT,01,01,02,ANTSTATUS=OK"]
        let lines = (0..<3).flatMap { ubloxCycle(second: $0) } + banner + (3..<6).flatMap { ubloxCycle(second: $0) }
        let emitted = assemble(lines)
        #expect(emitted.count == 6)
        // Every epoch after the second goes out on its own GLL, the one after the banner too.
        #expect(emitted.map(\.afterLine) == [6, 12, 17, 25, 31, 37])
    }

    @Test("GGA-only receivers get the seeded date; no-fix epochs are no-fix")
    func ggaOnly() {
        let emitted = assemble(
            [
                "$GPGGA,235959,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                "$GPGGA,000000,4807.038,N,01131.000,E,0,00,,,M,,M,,",
            ], referenceDate: nil)
        #expect(emitted.count == 2)
        #expect(emitted[0].fix.time == nil)
        #expect(emitted[1].fix.mode == .noFix)
        var assembler = EpochAssembler()
        assembler.seedDate(CivilDate(year: 2010, month: 7, day: 7))
        #expect(assembler.dates.reference == CivilDate(year: 2010, month: 7, day: 7))
    }

    @Test("a DOP of 0.0, like 99.99, is no value: the accuracy is never claimed perfect")
    func zeroDilution() throws {
        let fix = try #require(assemble([
            "$GPGGA,120000,4807.038,N,01131.000,E,1,05,0.0,545.4,M,46.9,M,,",
            "$GPGSA,A,3,01,02,03,04,05,,,,,,,,0.0,0.0,0.0",
            "$GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,010120,,,A",
        ]).last?.fix)
        #expect(fix.hdop == nil && fix.vdop == nil && fix.pdop == nil)
        let location = try #require(Location(fix: fix, isSimulated: false))
        #expect(location.horizontalAccuracy > 0)
        #expect(location.verticalAccuracy > 0)
    }

    @Test("a valid RMC alone holds the previous dimension; GSA's 2D wins over an altitude")
    func modeRules() {
        let emitted = assemble([
            "$GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
            "$GPRMC,120001,A,4807.038,N,01131.000,E,0.0,0.0,010120,,,A",
            "$GPGGA,120002,4807.038,N,01131.000,E,1,03,0.9,545.4,M,46.9,M,,",
            "$GPGSA,A,2,01,02,03,,,,,,,,,,2.0,1.0,1.7",
            "$GPRMC,120003,V,,,,,,,010120,,,N",
        ])
        #expect(emitted.map(\.fix.mode) == [.threeDimensional, .threeDimensional, .twoDimensional, .noFix])
    }
}

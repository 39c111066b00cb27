import Testing
import WaymarkFix
import WaymarkLocation
import WaymarkNMEA

// Receivers that are not in the gpsd captures, each written here after its manufacturer's
// protocol description (field order, talkers, numbering, NMEA version): what the decoder
// makes of one or more of their epochs. The sentences are this file's own; `withChecksum`
// computes their checksums.

/// Decodes sentences written without checksums through the whole path (framer, parser,
/// epoch assembler, velocity), as `waymark nmea decode` does.
private func decode(_ lines: [String], date: String? = nil) -> (fixes: [Fix], decoder: NMEADecoder) {
    let header = date.map { "# Date: \($0)\n" } ?? ""
    return decodeCapture(Array((header + lines.map(withChecksum).joined()).utf8))
}

/// The satellites of a sky as `system number/signal el az ss used` ("-" for unknown).
private func described(_ sky: SkyView) -> [String] {
    sky.satellites.map { satellite in
        let values = [satellite.elevation, satellite.azimuth, satellite.signalStrength].map { $0.map(String.init) ?? "-" }
        return "\(satellite.identity.constellation) \(satellite.identity.number)/\(satellite.signal) "
            + values.joined(separator: " ") + (sky.isUsed(satellite) ? " used" : "")
    }
}

/// `value` with leading zeros to `width` digits.
private func digits(_ value: Int, _ width: Int) -> String {
    String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
}

/// Degrees from `ddmm.mmmmmmm`, computed independently of the decoder.
private func degrees(_ whole: Double, _ minutes: Double) -> Double { whole + minutes / 60 }

@Suite("Receiver families outside the corpus, from their protocol descriptions")
struct ReceiverFamilyTests {
    @Test("u-blox M10/F9P, NMEA 4.11: high precision, GSA system ids, GSV signal ids, RMC navigational status, GST")
    func ubloxHighPrecision() throws {
        let (fixes, decoder) = decode([
            "$GNRMC,083559.00,A,4717.1163981,N,00833.9159042,E,0.012,,271126,,,A,V",
            "$GNVTG,,T,,M,0.012,N,0.022,K,A",
            "$GNGGA,083559.00,4717.1163981,N,00833.9159042,E,1,12,0.62,499.712,M,47.992,M,,",
            "$GNGSA,A,3,02,05,13,15,,,,,,,,,1.10,0.62,0.91,1",
            "$GNGSA,A,3,65,71,72,,,,,,,,,,1.10,0.62,0.91,2",
            "$GNGSA,A,3,04,09,,,,,,,,,,,1.10,0.62,0.91,3",
            "$GNGSA,A,3,,,,,,,,,,,,,1.10,0.62,0.91,4",
            "$GPGSV,1,1,04,02,45,110,42,05,30,200,38,13,60,300,45,15,10,050,30,1",
            "$GPGSV,1,1,02,02,45,110,36,13,60,300,40,6",
            "$GLGSV,1,1,03,65,40,080,40,71,25,220,35,72,55,310,,1",
            "$GAGSV,1,1,02,04,35,100,39,09,15,260,31,7",
            "$GBGSV,1,1,00,1",
            "$GNGLL,4717.1163981,N,00833.9159042,E,083559.00,A,A",
            "$GNGST,083559.00,7.1,1.2,0.9,45.0,1.1,1.0,1.9",
        ])
        #expect(decoder.parser.malformed == 0)
        let fix = try #require(fixes.last)
        #expect(fixes.count == 1)
        #expect(fix.time?.description == "2026-11-27T08:35:59.000Z")
        #expect(abs(try #require(fix.latitude) - degrees(47, 17.1163981)) < 1e-12)
        #expect(abs(try #require(fix.longitude) - degrees(8, 33.9159042)) < 1e-12)
        #expect(fix.altitudeMSL == 499.712)
        #expect(fix.geoidSeparation == 47.992)
        #expect(fix.mode == .threeDimensional)
        #expect(fix.receiverMode == .threeDimensional)
        #expect(abs(try #require(fix.speed) - 0.012 * 1852 / 3600) < 1e-12)
        #expect(fix.course == nil)
        #expect(fix.derivedVelocity == nil)
        #expect([fix.latitudeError, fix.longitudeError, fix.altitudeError] == [1.1, 1.0, 1.9])
        #expect([fix.pdop, fix.hdop, fix.vdop] == [1.10, 0.62, 0.91])
        #expect(fix.satellitesUsed == 12)
        // GLONASS 72 is in the GSA but not tracked (no density): not used.
        #expect(described(fix.sky) == [
            "gps 2/1 45 110 42 used", "gps 5/1 30 200 38 used", "gps 13/1 60 300 45 used", "gps 15/1 10 50 30 used",
            "gps 2/6 45 110 36 used", "gps 13/6 60 300 40 used",
            "glonass 1/1 40 80 40 used", "glonass 7/1 25 220 35 used", "glonass 8/1 55 310 -",
            "galileo 4/7 35 100 39 used", "galileo 9/7 15 260 31 used",
        ])
        #expect(fix.sky.satellites.map(\.identity.prn) == [2, 5, 13, 15, 2, 13, 65, 71, 72, 304, 309])
    }

    @Test("Quectel LC29H/LC76G and L76, NMEA 4.10: GN sentences, per-system GSA, GSV with signal ids and empty lists")
    func quectel() throws {
        let (fixes, decoder) = decode([
            "$GNRMC,101500.000,A,5130.1234,N,00007.5678,W,1.94,254.31,150626,,,D,V",
            "$GNGGA,101500.000,5130.1234,N,00007.5678,W,2,09,0.88,35.6,M,47.1,M,,",
            "$GNGLL,5130.1234,N,00007.5678,W,101500.000,A,D",
            "$GNGSA,A,3,07,08,27,30,,,,,,,,,1.52,0.88,1.24,1",
            "$GNGSA,A,3,79,80,,,,,,,,,,,1.52,0.88,1.24,2",
            "$GNGSA,A,3,19,20,37,,,,,,,,,,1.52,0.88,1.24,4",
            "$GPGSV,2,1,05,07,62,089,44,08,35,052,41,27,22,160,38,30,71,277,45,1",
            "$GPGSV,2,2,05,195,20,150,33,1",
            "$GLGSV,1,1,02,79,48,310,37,80,25,020,32,1",
            "$GAGSV,1,1,00,7",
            "$GBGSV,1,1,03,19,50,100,44,20,30,200,40,37,61,030,42,1",
            "$GNVTG,254.31,T,,M,1.94,N,3.59,K,D",
        ])
        #expect(decoder.parser.malformed == 0)
        let fix = try #require(fixes.last)
        #expect(fix.time?.description == "2026-06-15T10:15:00.000Z")
        #expect(abs(try #require(fix.latitude) - degrees(51, 30.1234)) < 1e-12)
        #expect(abs(try #require(fix.longitude) + degrees(0, 7.5678)) < 1e-12)
        #expect(fix.altitudeMSL == 35.6 && fix.geoidSeparation == 47.1)
        #expect(fix.mode == .threeDimensional && fix.quality == .differential)
        #expect(abs(try #require(fix.speed) - 1.94 * 1852 / 3600) < 1e-12)
        #expect(fix.course == 254.31)
        // QZSS 195 under GP is the common range's QZSS 3; GLONASS 79/80 are slots 15/16.
        #expect(described(fix.sky) == [
            "gps 7/1 62 89 44 used", "gps 8/1 35 52 41 used", "gps 27/1 22 160 38 used", "gps 30/1 71 277 45 used",
            "qzss 3/1 20 150 33", "glonass 15/1 48 310 37 used", "glonass 16/1 25 20 32 used",
            "beidou 19/1 50 100 44 used", "beidou 20/1 30 200 40 used", "beidou 37/1 61 30 42 used",
        ])
    }

    @Test("Unicore UM980 and Septentrio mosaic: RTK qualities, GNS with a mode per system and navigational status")
    func highPrecisionReceivers() throws {
        let unicore = decode([
            "$GNGGA,021504.00,3108.7714532,N,12123.3101245,E,4,32,0.5,12.3456,M,9.8765,M,1.0,0000",
            "$GNGSA,A,3,05,13,15,18,,,,,,,,,0.9,0.5,0.7,1",
            "$GNRMC,021504.00,A,3108.7714532,N,12123.3101245,E,0.021,12.5,040426,,,R,V",
            "$GNGST,021504.00,0.9,0.012,0.009,30.0,0.011,0.010,0.019",
            "$GBGSV,1,1,02,19,50,100,44,20,30,200,40,B",
        ])
        let rtk = try #require(unicore.fixes.last)
        #expect(rtk.quality == .rtkFixed && rtk.mode == .threeDimensional)
        #expect(abs(try #require(rtk.latitude) - degrees(31, 8.7714532)) < 1e-12)
        #expect(rtk.altitudeMSL == 12.3456 && rtk.geoidSeparation == 9.8765 && rtk.differentialAge == 1.0)
        #expect([rtk.latitudeError, rtk.longitudeError, rtk.altitudeError] == [0.011, 0.010, 0.019])
        #expect(described(rtk.sky) == ["beidou 19/11 50 100 44", "beidou 20/11 30 200 40"])

        // mosaic: GNS (modes GPS, GLONASS, Galileo, BeiDou: RTK float, float, float, none),
        // navigational status S (safe), then its GSA and RMC.
        let septentrio = decode([
            "$GNGNS,131245.20,4807.0381201,N,01131.0001223,E,FFFN,18,0.6,545.411,47.322,2.4,0123,S",
            "$GNGSA,A,3,02,05,13,15,18,,,,,,,,1.2,0.6,1.0,1",
            "$GNRMC,131245.20,A,4807.0381201,N,01131.0001223,E,0.3,,220526,,,F,S",
        ])
        let float = try #require(septentrio.fixes.last)
        #expect(float.time?.description == "2026-05-22T13:12:45.200Z")
        #expect(float.quality == .rtkFloat && float.mode == .threeDimensional)
        #expect(float.altitudeMSL == 545.411 && float.geoidSeparation == 47.322 && float.satellitesUsed == 18)
        #expect(abs(try #require(float.longitude) - degrees(11, 31.0001223)) < 1e-12)
        #expect(septentrio.decoder.parser.malformed == 0 && unicore.decoder.parser.malformed == 0)
    }

    @Test("SkyTraq, Allystar, Broadcom: several signals of one system, GQ and GI talkers, NavIC")
    func multiSignalReceivers() throws {
        let (fixes, decoder) = decode([
            "$GNGGA,174512.000,1257.8123,N,07735.4567,E,1,14,0.7,921.4,M,-86.2,M,,",
            "$GNGSA,A,3,10,12,25,32,,,,,,,,,1.3,0.7,1.1,1",
            "$GNGSA,A,3,02,05,09,,,,,,,,,,1.3,0.7,1.1,6",
            "$GNGSA,A,3,02,03,,,,,,,,,,,1.3,0.7,1.1,5",
            "$GPGSV,1,1,04,10,33,048,41,12,71,334,46,25,40,210,43,32,18,110,37,1",
            "$GPGSV,1,1,02,10,33,048,38,25,40,210,39,8",
            "$GIGSV,1,1,03,02,40,120,35,05,25,250,30,09,62,080,39,1",
            "$GQGSV,1,1,02,02,55,160,36,03,35,100,,1",
            "$GNRMC,174512.000,A,1257.8123,N,07735.4567,E,0.0,,010726,,,A,V",
        ])
        #expect(decoder.parser.malformed == 0)
        let fix = try #require(fixes.last)
        #expect(fix.altitudeMSL == 921.4 && fix.geoidSeparation == -86.2)
        #expect(fix.mode == .threeDimensional)
        #expect(described(fix.sky) == [
            "gps 10/1 33 48 41 used", "gps 12/1 71 334 46 used", "gps 25/1 40 210 43 used", "gps 32/1 18 110 37 used",
            "gps 10/8 33 48 38 used", "gps 25/8 40 210 39 used",
            "navic 2/1 40 120 35 used", "navic 5/1 25 250 30 used", "navic 9/1 62 80 39 used",
            "qzss 2/1 55 160 36 used", "qzss 3/1 35 100 -",
        ])
        #expect(fix.sky.satellites.map(\.identity.prn).suffix(5) == [502, 505, 509, 194, 195])
    }

    @Test("Sony CXD5603, SiRF, Telit, MediaTek: NMEA 3.0 talkers, common numbering, PMTK lines skipped")
    func olderNumbering() throws {
        let (fixes, decoder) = decode([
            "$PMTK011,MTKGPS",
            "$GPGGA,064951.000,2307.1256,N,12016.4438,E,1,06,1.4,28.1,M,17.9,M,,0000",
            "$GNGSA,A,3,03,06,19,22,,,,,,,,,2.3,1.4,1.8",
            "$GNGSA,A,3,67,68,,,,,,,,,,,2.3,1.4,1.8",
            "$GPGSV,1,1,04,03,35,042,39,06,60,312,44,19,22,200,36,22,48,122,41",
            "$GLGSV,1,1,02,67,30,020,33,68,71,150,38",
            "$QZGSV,1,1,01,193,58,175,40",
            "$GPRMC,064951.000,A,2307.1256,N,12016.4438,E,0.03,165.48,260326,3.05,W,A",
            "$GPVTG,165.48,T,,M,0.03,N,0.06,K,A",
            "$PMTK001,604,3",
        ])
        #expect(decoder.parser.malformed == 0)
        #expect(decoder.parser.unsupported == 2)
        let fix = try #require(fixes.last)
        #expect(fix.mode == .threeDimensional && fix.satellitesUsed == 6)
        #expect(fix.magneticVariation == -3.05)
        #expect(described(fix.sky) == [
            "gps 3/0 35 42 39 used", "gps 6/0 60 312 44 used", "gps 19/0 22 200 36 used", "gps 22/0 48 122 41 used",
            "glonass 3/0 30 20 33 used", "glonass 4/0 71 150 38 used", "qzss 1/0 58 175 40",
        ])
    }

    @Test("10 Hz and 20 Hz output: each fraction of the second is its own epoch, in order", arguments: [10, 20])
    func highRate(hertz: Int) throws {
        let step = 1000 / hertz
        var lines: [String] = []
        for index in 0..<(2 * hertz) {
            let milliseconds = index * step
            let time = "0930\(10 + milliseconds / 1000).\(digits(milliseconds % 1000 / 10, 2))"
            let minutes = "15.\(digits(index, 4))"
            lines += [
                "$GNRMC,\(time),A,48\(minutes),N,01131.0000,E,10.5,90.0,020326,,,A,V",
                "$GNGGA,\(time),48\(minutes),N,01131.0000,E,1,10,0.8,520.0,M,47.0,M,,",
            ]
        }
        let (fixes, _) = decode(lines)
        #expect(fixes.count == 2 * hertz)
        let times = fixes.compactMap { $0.time?.nanosecondsSinceEpoch }
        #expect(times.count == 2 * hertz)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == Int64(step) * 1_000_000 })
        #expect(fixes.first?.time?.description == "2026-03-02T09:30:10.000Z")
        #expect(fixes.allSatisfy { $0.speed.map { abs($0 - 10.5 * 1852 / 3600) < 1e-9 } ?? false })
    }

    @Test("a leap second (23:59:60) is an epoch of its own, and the next day's date follows it")
    func leapSecond() throws {
        let (fixes, _) = decode([
            "$GPRMC,235959.00,A,4807.0380,N,01131.0000,E,0.0,,311216,,,A",
            "$GPGGA,235959.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
            "$GPRMC,235960.00,A,4807.0380,N,01131.0000,E,0.0,,311216,,,A",
            "$GPGGA,235960.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
            "$GPRMC,000000.00,A,4807.0380,N,01131.0000,E,0.0,,010117,,,A",
            "$GPGGA,000000.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
            "$GPGGA,000001.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
        ])
        #expect(fixes.map(\.timeOfDay?.second) == [59, 60, 0, 1])
        // POSIX time has no 61st second: 23:59:60 reads as the next midnight, which POSIX repeats.
        #expect(fixes.map { $0.time?.description ?? "-" } == [
            "2016-12-31T23:59:59.000Z", "2017-01-01T00:00:00.000Z", "2017-01-01T00:00:00.000Z",
            "2017-01-01T00:00:01.000Z",
        ])
    }

    @Test("midnight: the new day's GGA comes before the RMC with its date (MediaTek order), or without one")
    func midnightRollover() throws {
        let epoch = { (time: String, date: String?) -> [String] in
            ["$GPGGA,\(time),3348.1234,S,15112.5678,E,1,07,1.1,40.2,M,22.1,M,,", "$GPGSA,A,3,02,05,07,09,13,,,,,,,,1.9,1.1,1.5"]
                + (date.map { ["$GPRMC,\(time),A,3348.1234,S,15112.5678,E,0.1,,\($0),,,A"] } ?? [])
                + ["$GPVTG,,T,,M,0.1,N,0.2,K,A"]
        }
        let (fixes, _) = decode(
            epoch("235958.000", "311226") + epoch("235959.000", "311226") + epoch("000000.000", "010127")
                + epoch("000001.000", "010127"))
        #expect(fixes.map { $0.time?.description ?? "-" } == [
            "2026-12-31T23:59:58.000Z", "2026-12-31T23:59:59.000Z", "2027-01-01T00:00:00.000Z",
            "2027-01-01T00:00:01.000Z",
        ])
        // The RMC of the new day lost: its GGA carries the date across midnight.
        let (carried, _) = decode(epoch("235959.000", "311226") + epoch("000000.000", nil) + epoch("000001.000", "010127"))
        #expect(carried.map { $0.time?.description ?? "-" } == [
            "2026-12-31T23:59:59.000Z", "2027-01-01T00:00:00.000Z", "2027-01-01T00:00:01.000Z",
        ])
    }

    @Test("dead reckoning: GGA quality 6 and FAA mode E are estimated fixes with their position")
    func deadReckoning() throws {
        let (fixes, _) = decode([
            "$GNRMC,120000.00,A,4717.1000,N,00833.9000,E,25.0,90.0,100326,,,E,V",
            "$GNGGA,120000.00,4717.1000,N,00833.9000,E,6,00,99.99,480.0,M,48.0,M,,",
            "$GNGSA,A,3,,,,,,,,,,,,,99.99,99.99,99.99,1",
            "$GNVTG,90.0,T,,M,25.0,N,46.3,K,E",
        ])
        let fix = try #require(fixes.last)
        #expect(fix.quality == .deadReckoning)
        #expect(fix.hasPosition && fix.mode == .threeDimensional)
        #expect(abs(try #require(fix.speed) - 25.0 * 1852 / 3600) < 1e-12 && fix.course == 90.0)
        #expect(fix.hdop == nil && fix.vdop == nil)
    }

    @Test("dead reckoning flagged as NMEA 2.3 asks (status V, mode E) in RMC or GLL alone is an estimated fix; V with another mode is none")
    func deadReckoningWithWarningStatus() throws {
        let rmcOnly = decode([
            "$GPRMC,120000.000,V,4143.6057,N,08338.0788,W,11.70,231.0,100326,,,E",
            "$GPRMC,120001.000,V,4143.6020,N,08338.0850,W,11.70,231.0,100326,,,E",
        ]).fixes
        #expect(rmcOnly.count == 2)
        for fix in rmcOnly {
            #expect(fix.quality == .deadReckoning && fix.hasPosition && fix.mode == .twoDimensional)
            #expect(abs(try #require(fix.speed) - 11.70 * 1852 / 3600) < 1e-12 && fix.course == 231.0)
        }
        #expect(abs(try #require(rmcOnly.last?.latitude) - degrees(41, 43.6020)) < 1e-9)
        #expect(AccuracyModel().horizontalAccuracy(of: rmcOnly[0]) == 20)
        let gllOnly = decode(["$GPGLL,4143.6057,N,08338.0788,W,120000.000,V,E"]).fixes
        #expect(gllOnly.count == 1 && gllOnly[0].quality == .deadReckoning && gllOnly[0].hasPosition)
        // Manual input, simulator, no fix, a status of V before NMEA 2.3 (no mode), or a
        // status that is neither A nor V: no position.
        for tail in [",,,M", ",,,S", ",,,N", ",,", ",,,E"] {
            let status = tail == ",,,E" ? "X" : "V"
            let fixes = decode(["$GPRMC,120000.000,\(status),4143.6057,N,08338.0788,W,11.70,231.0,100326\(tail)"]).fixes
            #expect(fixes.count == 1 && !fixes[0].hasPosition && fixes[0].mode == .noFix, "\(status)\(tail)")
        }
    }

    @Test("RMC V with a position is no fix; the GGA of the same epoch says whether there is one")
    func rmcWarningWithPosition() throws {
        let rmcOnly = decode(["$GPRMC,081500.000,V,5130.1200,N,00007.5000,W,0.00,0.0,150624,,,N"]).fixes
        #expect(rmcOnly.count == 1 && rmcOnly[0].mode == .noFix && !rmcOnly[0].hasPosition && rmcOnly[0].speed == nil)
        let withGGA = decode([
            "$GPRMC,081500.000,V,5130.1200,N,00007.5000,W,0.00,0.0,150624,,,N",
            "$GPGGA,081500.000,5130.1200,N,00007.5000,W,0,03,2.5,61.0,M,47.0,M,,",
        ]).fixes
        #expect(withGGA.count == 1 && withGGA[0].mode == .noFix && !withGGA[0].hasPosition)
    }

    @Test("no-fix output of each family, fields empty: epochs without a fix, nothing malformed")
    func emptyNoFix() throws {
        let families: [(String, [String])] = [
            ("u-blox", [
                "$GNRMC,000012.00,V,,,,,,,271126,,,N,V", "$GNVTG,,,,,,,,,N", "$GNGGA,000012.00,,,,,0,00,99.99,,,,,,",
                "$GNGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99,1", "$GPGSV,1,1,00,1", "$GNGLL,,,,,000012.00,V,N",
                "$GNGST,000012.00,0.0,,,,,,",
            ]),
            ("Quectel", ["$GNRMC,000012.000,V,,,,,,,,,,N,V", "$GNGGA,000012.000,,,,,0,0,,,M,,M,,", "$GPGSV,1,1,0,8"]),
            ("MediaTek", [
                "$GPGGA,000012.000,,,,,0,00,,,M,,M,,", "$GPGSA,A,1,,,,,,,,,,,,,,,", "$GPGSV,1,1,00",
                "$GPRMC,000012.000,V,,,,,0.00,0.00,060180,,,N", "$GPVTG,0.00,T,,M,0.00,N,0.00,K,N",
            ]),
            ("SiRF", ["$GPGGA,000012.000,,,,,0,00,,,M,0.0,M,,0000", "$GPGSA,A,1,,,,,,,,,,,,,,,", "$GPRMC,000012.000,V,,,,,,,,,,N"]),
            ("Septentrio", ["$GNGNS,000012.00,,,,,NNNN,00,,,,,,V", "$GNRMC,000012.00,V,,,,,,,,,,N,V"]),
        ]
        for (family, lines) in families {
            let (fixes, decoder) = decode(lines)
            #expect(decoder.parser.malformed == 0, "\(family)")
            #expect(fixes.count == 1, "\(family)")
            #expect(fixes.allSatisfy { $0.mode == .noFix && !$0.hasPosition && $0.altitudeMSL == nil }, "\(family)")
        }
    }
    @Test("a satellite below the horizon (negative elevation) loses its elevation, not its sentence")
    func negativeElevation() throws {
        let (fixes, decoder) = decode([
            "$GPGGA,120000.00,4717.1000,N,00833.9000,E,1,04,1.2,480.0,M,48.0,M,,",
            "$GPGSV,2,1,06,02,-03,110,,05,30,200,38,13,60,300,45,15,10,050,30",
            "$GPGSV,2,2,06,18,-1,140,,20,70,010,48",
        ])
        #expect(decoder.parser.malformed == 0)
        #expect(described(try #require(fixes.last).sky) == [
            "gps 2/0 - 110 -", "gps 5/0 30 200 38", "gps 13/0 60 300 45", "gps 15/0 10 50 30", "gps 18/0 - 140 -",
            "gps 20/0 70 10 48",
        ])
    }

    @Test("a GSA whose 18th field is no NMEA 4.10 system id (a TDOP) is read as a GSA of 17 fields")
    func gsaWithTimeDilution() throws {
        let (fixes, decoder) = decode([
            "$GNGGA,120000.00,3959.1000,N,11623.9000,E,1,07,1.3,48.0,M,-8.0,M,,",
            "$GPGSA,A,3,25,32,12,14,,,,,,,,,2.1,1.1,1.8,1.2",
            "$BDGSA,A,3,02,03,04,,,,,,,,,,2.1,1.1,1.8,1.2",
            "$GPGSV,1,1,04,25,40,110,41,32,55,200,44,12,20,300,36,14,65,050,45",
            "$BDGSV,1,1,03,02,45,230,40,03,50,190,38,04,35,120,37",
        ])
        #expect(decoder.parser.malformed == 0)
        let fix = try #require(fixes.last)
        #expect(fix.receiverMode == .threeDimensional && [fix.pdop, fix.hdop, fix.vdop] == [2.1, 1.1, 1.8])
        #expect(fix.sky.satellites.allSatisfy { fix.sky.isUsed($0) })
        #expect(fix.sky.satellites.count == 7)
    }
}

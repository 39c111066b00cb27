import Testing
import WaymarkFix
import WaymarkLocation

/// The satellites of a sky view as `PRN el az ss used` strings ("-" for an unknown value),
/// in the receiver's order.
private func described(_ sky: SkyView) -> [String] {
    sky.satellites.map { satellite in
        let values = [satellite.elevation, satellite.azimuth, satellite.signalStrength].map { $0.map(String.init) ?? "-" }
        return "\(satellite.identity.prn) \(values.joined(separator: " ")) \(sky.isUsed(satellite) ? "used" : "-")"
    }
}

/// A GGA for second `second`, starting an epoch.
private func gga(_ second: Int) -> String {
    "$GPGGA,1200\(second < 10 ? "0" : "")\(second).00,4717.11399,N,00833.91590,E,1,08,1.01,499.6,M,48.0,M,,"
}

@Suite("The sky view: satellites in view from GSV, used from GSA")
struct SkyViewTests {
    @Test("a list of three sentences, with the epoch's GSA's satellites used when tracked")
    func multiSentenceList() throws {
        let lines = [
            gga(0), "$GPGSA,A,3,05,10,13,24,,,,,,,,,1.9,1.1,1.5",
            "$GPGSV,3,1,10,05,06,110,19,10,24,284,34,13,37,124,29,15,63,083,11",
            "$GPGSV,3,2,10,16,11,248,10,20,52,273,34,21,79,231,30,24,07,045,",
            "$GPGSV,3,3,10,26,04,276,,27,15,218,31",
        ]
        let fix = try #require(assemble(lines).last?.fix)
        #expect(described(fix.sky) == [
            "5 6 110 19 used", "10 24 284 34 used", "13 37 124 29 used", "15 63 83 11 -", "16 11 248 10 -",
            "20 52 273 34 -", "21 79 231 30 -", "24 7 45 - -", "26 4 276 - -", "27 15 218 31 -",
        ])
        // 24 is in the GSA but not tracked: GSA does not say which signal was used, and an
        // untracked one was not.
        #expect(fix.sky.used.contains(try #require(SatelliteIdentity(number: 24, system: .gps))))
    }

    @Test("NMEA 4.10: several systems and signals, numbered by system id and talker")
    func multiConstellation() throws {
        let lines = [
            gga(0),
            "$GNGSA,A,3,13,16,,,,,,,,,,,1.05,0.64,0.83,1", "$GNGSA,A,3,82,66,,,,,,,,,,,1.05,0.64,0.83,2",
            "$GNGSA,A,3,07,33,,,,,,,,,,,1.05,0.64,0.83,3", "$GNGSA,A,3,13,,,,,,,,,,,,1.05,0.64,0.83,4",
            "$GPGSV,1,1,02,13,37,124,29,16,11,248,40,1", "$GPGSV,1,1,02,13,37,124,,16,11,248,33,6",
            "$GLGSV,1,1,02,82,13,214,33,66,58,305,32,1", "$GAGSV,1,1,02,07,11,134,11,33,62,034,08,7",
            "$GBGSV,1,1,01,13,45,100,40,1",
        ]
        let fix = try #require(assemble(lines).last?.fix)
        #expect(described(fix.sky) == [
            "13 37 124 29 used", "16 11 248 40 used", "13 37 124 - -", "16 11 248 33 used", "82 13 214 33 used",
            "66 58 305 32 used", "307 11 134 11 used", "333 62 34 8 used", "413 45 100 40 used",
        ])
        let identities = fix.sky.satellites.map { "\($0.identity.constellation.name) \($0.identity.number) \($0.signal)" }
        #expect(identities == [
            "gps 13 1", "gps 16 1", "gps 13 6", "gps 16 6", "glonass 18 1", "glonass 2 1", "galileo 7 7", "galileo 33 7",
            "beidou 13 1",
        ])
    }

    @Test("numbers of the common range name their system under a combined talker; unknown numbers are dropped")
    func commonRange() throws {
        let lines = [gga(0), "$GNGSV,2,1,06,02,10,010,20,40,20,020,30,70,30,030,40,205,40,040,", "$GNGSV,2,2,06,310,50,050,,999,60,060,"]
        let fix = try #require(assemble(lines).last?.fix)
        #expect(described(fix.sky) == ["2 10 10 20 -", "40 20 20 30 -", "70 30 30 40 -", "405 40 40 - -", "310 50 50 - -"])
        #expect(fix.sky.satellites.map(\.identity.constellation) == [.gps, .sbas, .glonass, .beidou, .galileo])
        #expect(fix.sky.satellites[1].identity.number == 127)
    }

    @Test("empty fields and values beyond the standard's ranges are unknown, not zero")
    func emptyAndOutOfRange() throws {
        let lines = [gga(0), "$GPGSV,2,1,05,05,,,,10,24,,34,13,,124,,15,91,360,100", "$GPGSV,2,2,05,16,90,359,99"]
        let fix = try #require(assemble(lines).last?.fix)
        #expect(described(fix.sky) == ["5 - - - -", "10 24 - 34 -", "13 - 124 - -", "15 - - - -", "16 90 359 99 -"])
    }

    @Test("the sky stays through epochs without GSV, and a list may run on into the next epoch")
    func acrossEpochs() throws {
        let lines = [
            gga(0), "$GPGSA,A,3,05,10,,,,,,,,,,,1.9,1.1,1.5", "$GPGSV,2,1,05,05,06,110,19,10,24,284,34,13,37,124,29,15,63,083,11",
            "$GPGSV,2,2,05,16,11,248,10", gga(1), "$GPGSA,A,3,13,,,,,,,,,,,,1.9,1.1,1.5",
            "$GPGSV,2,1,02,05,07,111,20", gga(2), "$GPGSV,2,2,02,13,38,125,30", gga(3),
        ]
        let fixes = assemble(lines).map(\.fix)
        #expect(fixes.count == 4)
        #expect(described(fixes[0].sky) == ["5 6 110 19 used", "10 24 284 34 used", "13 37 124 29 -", "15 63 83 11 -", "16 11 248 10 -"])
        // Second 1 used 13; the new list is not complete yet, so the sky is second 0's.
        #expect(described(fixes[1].sky) == ["5 6 110 19 -", "10 24 284 34 -", "13 37 124 29 used", "15 63 83 11 -", "16 11 248 10 -"])
        // The list ends in second 2, whose epoch had no GSA: second 1's used satellites hold.
        #expect(described(fixes[2].sky) == ["5 7 111 20 -", "13 38 125 30 used"])
        #expect(fixes[3].sky == fixes[2].sky)
    }

    @Test("an epoch's first list, or a list that comes again, starts a new sky; lists of other systems add up")
    func newSky() throws {
        let lines = [
            "$GLGSV,1,1,01,70,30,030,40",  // before the first epoch: its lists start no new sky
            gga(0), "$GPGSV,1,1,02,05,06,110,19,10,24,284,34", "$GLGSV,1,1,01,71,30,030,40",
            gga(1), "$GLGSV,1,1,01,72,31,031,41",
            gga(2), "$GPGSV,1,1,01,13,37,124,29", "$GPGSV,1,1,01,14,38,125,30",
        ]
        let fixes = assemble(lines).map(\.fix)
        #expect(described(fixes[0].sky) == ["5 6 110 19 -", "10 24 284 34 -", "71 30 30 40 -"])
        #expect(described(fixes[1].sky) == ["72 31 31 41 -"])
        #expect(described(fixes[2].sky) == ["14 38 125 30 -"])
    }

    @Test("a signal named only in a list's last sentence counts for that sentence; a proprietary talker's list is skipped")
    func signalsAndTalkers() throws {
        let lines = [
            gga(0), "$GPGSV,2,1,03,06,12,215,45,09,53,089,27", "$PQGSV,1,1,01,13,19,043,17,1,4", "$GPGSV,2,2,03,06,,,40,8",
        ]
        let fix = try #require(assemble(lines).last?.fix)
        #expect(described(fix.sky) == ["6 12 215 45 -", "9 53 89 27 -", "6 - - 40 -"])
        #expect(fix.sky.satellites.map(\.signal) == [0, 0, 8])
    }

    @Test("hostile: a list out of order is dropped, and numbering that cannot be read traps nothing")
    func brokenLists() throws {
        let complete = "$GPGSV,1,1,01,05,06,110,19"
        for broken in [
            ["$GPGSV,3,1,09,10,24,284,34", "$GPGSV,3,3,09,13,37,124,29"],  // 2 of 3 skipped
            ["$GPGSV,2,1,05,10,24,284,34", "$GPGSV,2,1,05,13,37,124,29"],  // 1 of 2 twice, and no 2
            ["$GPGSV,2,2,05,10,24,284,34"],  // a list's end without its start
            ["$GPGSV,2,3,05,10,24,284,34", "$GPGSV,0,1,05,10,24,284,34", "$GPGSV,2,0,05,10,24,284,34"],
            ["$GLGSV,9999,1,99,70,30,030,40"],  // never ends
        ] {
            let fix = try #require(assemble([gga(0), complete] + broken + [gga(1)]).first?.fix)
            #expect(described(fix.sky) == ["5 6 110 19 -"], "\(broken)")
        }
    }

    @Test("hostile: GSV repeated without end grows nothing, and no sky holds more than its capacity")
    func bounded() throws {
        let list = ["$GPGSV,2,1,05,05,06,110,19,10,24,284,34,13,37,124,29,15,63,083,11", "$GPGSV,2,2,05,16,11,248,10"]
        let repeated = try #require(assemble([gga(0)] + Array(repeating: list, count: 500).flatMap { $0 } + [gga(1)]).first?.fix)
        #expect(repeated.sky.satellites.count == 5)
        // The same satellite listed twice in one list is one signal, with the later values.
        let twice = try #require(assemble([gga(0), "$GPGSV,1,1,02,05,06,110,19,05,07,111,20", gga(1)]).first?.fix)
        #expect(described(twice.sky) == ["5 7 111 20 -"])
        // Sixteen signals of every GPS, GLONASS and Galileo satellite: 1,536 signals, one sky.
        var lines = [gga(0)]
        for (talker, first) in [("GP", 1), ("GL", 65), ("GA", 1)] {
            for signal in 0..<16 {
                let numbers = Array(first..<(first + 32))
                for part in 0..<8 {
                    let satellites = numbers[(part * 4)..<(part * 4 + 4)].map { "\($0),45,180,40" }.joined(separator: ",")
                    lines.append("$\(talker)GSV,8,\(part + 1),32,\(satellites),\(String(signal, radix: 16, uppercase: true))")
                }
            }
        }
        let full = try #require(assemble(lines + [gga(1)]).first?.fix)
        #expect(full.sky.satellites.count == SkyView.capacity)
        #expect(Set(full.sky.satellites.map { "\($0.identity) \($0.signal)" }).count == SkyView.capacity)
    }

    @Test("satellite numbers map to gpsd's PRN numbering for every system")
    func identities() {
        let cases: [(Int, Constellation?, String?)] = [
            (7, .gps, "gps 7 7"), (33, .gps, "sbas 120 33"), (131, nil, "sbas 131 131"), (65, nil, "glonass 1 65"),
            (1, .glonass, "glonass 1 65"), (96, .glonass, "glonass 32 96"), (33, .glonass, nil), (36, .galileo, "galileo 36 336"),
            (301, nil, "galileo 1 301"), (37, .galileo, nil), (63, .beidou, "beidou 63 463"), (201, nil, "beidou 1 401"),
            (437, .beidou, "beidou 37 437"), (3, .qzss, "qzss 3 195"), (193, nil, "qzss 1 193"), (14, .navic, "navic 14 514"),
            (15, .navic, nil), (0, .gps, nil), (97, nil, nil), (Int.max, nil, nil), (Int.min, .beidou, nil),
        ]
        for (number, system, expected) in cases {
            let identity = SatelliteIdentity(number: number, system: system)
            #expect(identity.map { "\($0.constellation.name) \($0.number) \($0.prn)" } == expected, "\(number) \(String(describing: system))")
        }
    }
}

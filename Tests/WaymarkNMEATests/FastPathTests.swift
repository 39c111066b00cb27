import Testing
import WaymarkNMEA

/// The edges of the parser's fast paths: integers read eight bytes at a time, fields at the
/// end of the body, the address field, and parsing into the caller's storage.
@Suite("NMEA parser fast paths")
struct FastPathTests {
    @Test("GSV satellite fields of every width, empty, with a zero fraction, at the body's end")
    func gsvFields() throws {
        guard case .gsv(let gsv) = message("$GPGSV,1,1,04,4,5,6,,0008,58.0,106,47,10,25,1,2,193,7,359,,A") else {
            Issue.record("not a GSV"); return
        }
        #expect(gsv.described == [
            SatelliteInView(number: 4, elevation: 5, azimuth: 6),
            SatelliteInView(number: 8, elevation: 58, azimuth: 106, signalStrength: 47),
            SatelliteInView(number: 10, elevation: 25, azimuth: 1, signalStrength: 2),
            SatelliteInView(number: 193, elevation: 7, azimuth: 359),
        ])
        #expect(gsv.signalID == 10)
        guard case .gsv(let last) = message("$GPGSV,1,1,01,12,34,56,78") else { Issue.record("not a GSV"); return }
        #expect(last.described == [SatelliteInView(number: 12, elevation: 34, azimuth: 56, signalStrength: 78)])
        #expect(last.signalID == nil)
        guard case .gsv(let short) = message("$GPGSV,1") else { Issue.record("not a GSV"); return }
        #expect(short.messageCount == 1 && short.satelliteCount == 0)
    }

    @Test("GSV fields the fast path hands to the careful one", arguments: [
        "$GPGSV,1,1,01,04,15,20202,22,1",
        "$GPGSV,1,1,01,04,1x,202,22,1",
        "$GPGSV,1,1,01,04,15,202,2.5,1",
        "$GPGSV,1,1,01,04,15,202,22,G",
        "$GPGSV,1,1,01,04,-,202,22,1",
        "$GPGSV,1,1,01,04,-1x,202,22,1",
        "$GPGSV,1,1,01,04,--15,202,22,1",
        "$GPGSV,1,1,01,04,15,-202,22,1",
        "$GPGSV,1,1,01,04,-12345,202,22,1",
        "$GPGSV,1,1,01,04,-+15,202,22,1",
        "$GPGSV,1,1,01,04,-1.5,202,22,1",
    ])
    func gsvMalformed(sentence: String) {
        #expect(parse(sentence) == .malformed)
    }

    @Test("a negative GSV elevation (below the horizon) is unknown; the sentence stays")
    func gsvBelowHorizon() {
        guard case .gsv(let gsv) = message("$GPGSV,1,1,02,04,-15,202,22,07,-3,100,,1") else {
            Issue.record("not a GSV"); return
        }
        #expect(gsv.described == [
            SatelliteInView(number: 4, elevation: nil, azimuth: 202, signalStrength: 22),
            SatelliteInView(number: 7, elevation: nil, azimuth: 100, signalStrength: nil),
        ])
        #expect(gsv.signalID == 1)
        // Hostile: the most negative a field of four digits holds, repeated in every group,
        // traps nothing and still reads as unknown.
        let repeated = Array(repeating: "09,-9999,359,99", count: 4).joined(separator: ",")
        guard case .gsv(let deep) = message("$GPGSV,1,1,04,\(repeated),1") else { Issue.record("not a GSV"); return }
        #expect(deep.described == Array(
            repeating: SatelliteInView(number: 9, elevation: nil, azimuth: 359, signalStrength: 99), count: 4))
    }

    @Test("GSV satellites in the standard's fixed widths, tracked or not, mixed with other widths")
    func gsvFixedWidths() {
        guard case .gsv(let gsv) = message("$GPGSV,4,2,14,04,15,202,22,08,58,106,,10,5,136,29,00,19,179,27,1") else {
            Issue.record("not a GSV"); return
        }
        // Satellite 0 is not a satellite; the one with a one-digit elevation is read field
        // by field after two fixed-width ones.
        #expect(gsv.described == [
            SatelliteInView(number: 4, elevation: 15, azimuth: 202, signalStrength: 22),
            SatelliteInView(number: 8, elevation: 58, azimuth: 106),
            SatelliteInView(number: 10, elevation: 5, azimuth: 136, signalStrength: 29),
        ])
        #expect(gsv.signalID == 1 && gsv.satellitesInView == 14)
        // No field after the last satellite: read field by field; an untracked one too.
        guard case .gsv(let old) = message("$GPGSV,1,1,02,99,90,359,99,01,00,000,") else {
            Issue.record("not a GSV"); return
        }
        #expect(old.described == [
            SatelliteInView(number: 99, elevation: 90, azimuth: 359, signalStrength: 99),
            SatelliteInView(number: 1, elevation: 0, azimuth: 0),
        ])
        #expect(old.signalID == nil)
        // Five satellites: the fifth is beyond the standard's four and skipped.
        guard case .gsv(let five) = message("$GPGSV,1,1,05,01,01,001,01,02,02,002,02,03,03,003,03,04,04,004,04,05,05,005,05,8")
        else { Issue.record("not a GSV"); return }
        #expect(five.described.map(\.number) == [1, 2, 3, 4])
        #expect(five.signalID == 8)
    }

    @Test("GSV list headers in the standard's widths and wider")
    func gsvListHeaders() {
        for (text, header) in [
            ("$GPGSV,3,2,11,04,15,202,22,1", [3, 2, 11]),
            ("$GPGSV,10,10,37,04,15,202,22,1", [10, 10, 37]),
            ("$GPGSV,1,1,5,04,15,202,22,1", [1, 1, 5]),
            ("$GPGSV,1,1,00", [1, 1, 0]),
        ] {
            guard case .gsv(let gsv) = message(text) else { Issue.record("not a GSV: \(text)"); continue }
            #expect([gsv.messageCount, gsv.messageNumber, gsv.satellitesInView] == header, "\(text)")
        }
        #expect(parse("$GPGSV,3,2,1a,04,15,202,22,1") == .malformed)
        #expect(parse("$GPGSV,3.2,11,04,15,202,22,1") == .malformed)
    }

    @Test("times of day with every length of fraction, at the edges of their ranges")
    func timesOfDay() {
        for (field, expected) in [
            ("235960.00", TimeOfDay(hour: 23, minute: 59, second: 60)),
            ("000000.5", TimeOfDay(hour: 0, minute: 0, second: 0, nanoseconds: 500_000_000)),
            ("123519.123", TimeOfDay(hour: 12, minute: 35, second: 19, nanoseconds: 123_000_000)),
            ("123519.12345678", TimeOfDay(hour: 12, minute: 35, second: 19, nanoseconds: 123_456_780)),
            ("123519.123456789", TimeOfDay(hour: 12, minute: 35, second: 19, nanoseconds: 123_456_789)),
            ("123519", TimeOfDay(hour: 12, minute: 35, second: 19)),
        ] {
            guard case .zda(let zda) = message("$GPZDA,\(field),29,02,2024,00,00") else {
                Issue.record("not a ZDA: \(field)"); continue
            }
            #expect(zda.time == expected, "\(field)")
        }
        for field in ["240000.00", "126000.00", "123561.00", "1235a9.00", "123519,00", "123519.0x", "123519.1234567890"] {
            #expect(parse("$GPZDA,\(field),29,02,2024,00,00") == .malformed, "\(field)")
        }
    }

    @Test("bytes next to a comma in value, where a fixed-width satellite has its commas", arguments: [
        "$GPGSV,1,1,01,04/15,202,22,1",
        "$GPGSV,1,1,01,04,15.202,22,1",
        "$GPGSV,1,1,01,04,15,202+22,1",
        "$GPGSV,1,1,01,04,15,202,22-1",
        "$GPGSV,1,1,01,04,15,202,(,1",
        "$GPGSV,1,1,01,04,15,2:2,22,1",
    ])
    func gsvFixedWidthLookalikes(sentence: String) {
        #expect(parse(sentence) == .malformed)
    }

    @Test("GSA satellite fields: runs of empty ones, two digits, other widths, at the body's end")
    func gsaSatelliteFields() {
        guard case .gsa(let gsa) = message("$GNGSA,A,3,04,,,,7,123,00,,,,,65,1.2,0.7,1.0,1") else {
            Issue.record("not a GSA"); return
        }
        #expect(gsa.usedSatellites == [4, 7, 123, 65])
        #expect(gsa.pdop == NMEADecimal(significand: 12, scale: 1) && gsa.systemID == 1)
        // A shortened GSA: four satellite fields, close to the body's end.
        guard case .gsa(let short) = message("$GPGSA,A,3,,12,,,1.5,1.0,1.1") else { Issue.record("not a GSA"); return }
        #expect(short.usedSatellites == [12] && !short.isComplete)
        #expect(short.vdop == NMEADecimal(significand: 11, scale: 1))
        #expect(parse("$GNGSA,A,3,04,1/,,,,,,,,,,,1.2,0.7,1.0,1") == .malformed)
        // System ids of one digit (at the body's end, read at once), two digits, and junk.
        guard case .gsa(let wide) = message("$GNGSA,A,3,04,05,06,,,,,,,,,,1.2,0.7,1.0,12") else {
            Issue.record("not a GSA"); return
        }
        #expect(wide.systemID == 12 && wide.usedSatellites == [4, 5, 6])
        // A field there that is no whole number is no system id (SiRF-TriG prints a TDOP):
        // ignored, and the rest of the sentence read.
        for junk in ["A", "1.2", "1x", "-1", "9999999999999999999999", String(repeating: "7.", count: 400)] {
            guard case .gsa(let other) = message("$GNGSA,A,3,04,05,06,,,,,,,,,,1.2,0.7,1.0,\(junk)") else {
                Issue.record("not a GSA: \(junk)"); continue
            }
            #expect(other.systemID == nil && other.usedSatellites == [4, 5, 6] && other.fixType == 3, "\(junk)")
            #expect(other.vdop == NMEADecimal(significand: 10, scale: 1), "\(junk)")
        }
    }

    @Test("GSA satellite numbers of seven to ten digits")
    func gsaLongNumbers() {
        guard case .gsa(let gsa) = message("$GNGSA,A,3,1234567,12345678,123456789,65535,65536,5.0,,,,,,,1.2,0.7,1.0,1")
        else { Issue.record("not a GSA"); return }
        // Numbers past UInt16 are skipped, not errors; a zero fraction is allowed.
        #expect(gsa.usedSatellites == [65535, 5])
        #expect(gsa.systemID == 1)
        #expect(parse("$GNGSA,A,3,1234567890,,,,,,,,,,,,1.2,0.7,1.0,1") == .malformed)
        #expect(parse("$GNGSA,A,3,04,1x,,,,,,,,,,,1.2,0.7,1.0,1") == .malformed)
    }

    @Test("an address field cut short by a comma is read as before")
    func shortAddress() {
        #expect(parse("$G,GST,200203.00,1.31,,,,0.9,1.1,1.6") == .malformed)
    }

    @Test("parsing into the caller's storage gives what parse(_:) gives, sentence after sentence")
    func intoStorage() {
        let sentences = [
            "GPGSV,3,1,11,04,15,202,22,08,58,106,47,10,25,136,29,12,19,179,27,1",
            "GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,3.5,W,A,V",
            "PUBX,00,1",
            "GPGGA,126519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
            "GNGSA,A,3,13,12,22,19,08,21,,,,,,,1.05,0.64,0.83,4",
        ]
        var storage = ParsedSentence()
        for text in sentences {
            let bytes = Array(text.utf8)
            let sentence = NMEASentence(body: bytes.span)
            let outcome = NMEAParser.parse(sentence, into: &storage)
            switch NMEAParser.parse(sentence) {
            case .parsed(let parsed):
                #expect(outcome == .parsed)
                #expect(storage == parsed)
            case .unsupported: #expect(outcome == .unsupported)
            case .malformed: #expect(outcome == .malformed)
            }
        }
    }
}

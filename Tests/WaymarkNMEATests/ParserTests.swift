import Testing
import WaymarkNMEA

/// Parses one sentence given as text (with or without `$` and checksum).
func parse(_ text: String) -> ParseResult {
    var body = Substring(text)
    if body.first == "$" { body = body.dropFirst() }
    if let star = body.lastIndex(of: "*") { body = body[..<star] }
    let bytes = Array(body.utf8)
    return NMEAParser.parse(NMEASentence(body: bytes.span))
}

func message(_ text: String) -> NMEAMessage? {
    parse(text).sentence?.message
}

@Suite("NMEA parser")
struct ParserTests {
    @Test("RMC of NMEA 4.10 with mode and navigation status")
    func rmc() throws {
        guard case .rmc(let rmc) = message("$GNRMC,171926.00,A,4404.14063,N,12118.85478,W,0.117,,180315,3.5,W,A,V*00")
        else { Issue.record("not an RMC"); return }
        #expect(rmc.time == TimeOfDay(hour: 17, minute: 19, second: 26))
        #expect(rmc.isValid)
        let latitude = try #require(rmc.latitude)
        #expect(latitude.degrees == 264_414_063.0 / 6_000_000.0)
        #expect(try #require(rmc.longitude).degrees < -121)
        #expect(rmc.speedKnots == NMEADecimal(significand: 117, scale: 3))
        #expect(rmc.course == nil)
        #expect(rmc.date == NMEADate(day: 18, month: 3, year: 15, hasCentury: false))
        #expect(rmc.magneticVariation == NMEADecimal(significand: -35, scale: 1))
        #expect(rmc.mode == .autonomous)
        #expect(rmc.navigationStatus == UInt8(ascii: "V"))
    }

    @Test("RMC of NMEA 2.1 without a mode indicator")
    func oldRMC() {
        guard case .rmc(let rmc) = message("$GPRMC,120327,A,4221.3872,N,01322.0800,E,000.0,000.0,150305,001.4,E")
        else { Issue.record("not an RMC"); return }
        #expect(rmc.mode == nil)
        #expect(rmc.isValid)
        #expect(rmc.magneticVariation == NMEADecimal(significand: 14, scale: 1))
    }

    @Test("latitude and longitude convert exactly, one rounding from the printed digits")
    func exactCoordinates() {
        guard case .gga(let gga) = message("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") else {
            Issue.record("not a GGA"); return
        }
        #expect(gga.latitude?.degrees == 2_887_038.0 / 60_000.0)
        #expect(gga.longitude?.degrees == 691_000.0 / 60_000.0)
        #expect(gga.quality == 1)
        #expect(gga.satellitesUsed == 8)
        #expect(gga.altitude?.doubleValue == 545.4)
        #expect(gga.geoidSeparation?.doubleValue == 46.9)
    }

    @Test("southern and western hemispheres are negative")
    func hemispheres() {
        guard case .gll(let gll) = message("$GPGLL,3345.1234,S,07012.5000,W,235959.999,A,D") else {
            Issue.record("not a GLL"); return
        }
        #expect((gll.latitude?.degrees ?? 0) < 0)
        #expect((gll.longitude?.degrees ?? 0) < 0)
        #expect(gll.time == TimeOfDay(hour: 23, minute: 59, second: 59, nanoseconds: 999_000_000))
        #expect(gll.mode == .differential)
    }

    @Test("GSA with the NMEA 4.10 system id, and with 24 satellite fields")
    func gsa() {
        guard case .gsa(let modern) = message("$GNGSA,A,3,13,12,22,19,08,21,,,,,,,1.05,0.64,0.83,4") else {
            Issue.record("not a GSA"); return
        }
        #expect(modern.fixType == 3)
        #expect(modern.usedSatellites == [13, 12, 22, 19, 8, 21])
        #expect(modern.systemID == 4)
        #expect(modern.vdop == NMEADecimal(significand: 83, scale: 2))
        guard case .gsa(let long) = message("$GPGSA,A,3,27,23,13,07,25,,,,,,,,,,,,,,,,,,,,07.9,06.0,05.2") else {
            Issue.record("not a GSA"); return
        }
        #expect(long.usedSatellites == [27, 23, 13, 7, 25])
        #expect(long.pdop == NMEADecimal(significand: 79, scale: 1))
        #expect(long.systemID == nil)
        guard case .gsa(let short) = message("$GPGSA,A,1,,,,*32") else { Issue.record("not a GSA"); return }
        #expect(!short.isComplete)
    }

    @Test("GSV with and without the signal id")
    func gsv() {
        guard case .gsv(let gsv) = message("$GPGSV,3,3,12,29,11,091,48,76,48,225,24,75,14,188,,70,27,083,30,1") else {
            Issue.record("not a GSV"); return
        }
        #expect(gsv.isLast)
        #expect(gsv.satellitesInView == 12)
        #expect(gsv.described.map(\.number) == [29, 76, 75, 70])
        #expect(gsv.described[2].signalStrength == nil)
        #expect(gsv.signalID == 1)
        guard case .gsv(let partial) = message("$GLGSV,3,3,10,83,27,309,29,84,01,353,") else {
            Issue.record("not a GSV"); return
        }
        #expect(partial.described.count == 2)
        #expect(partial.signalID == nil)
    }

    @Test("VTG in the NMEA 2.x and the NMEA 1.5 layouts")
    func vtg() {
        guard case .vtg(let modern) = message("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A") else {
            Issue.record("not a VTG"); return
        }
        #expect(modern.speedKnots == NMEADecimal(significand: 55, scale: 1))
        #expect(modern.mode == .autonomous)
        guard case .vtg(let old) = message("$GPVTG,054.7,034.4,005.5,010.2") else { Issue.record("not a VTG"); return }
        #expect(old.courseTrue == NMEADecimal(significand: 547, scale: 1))
        #expect(old.speedKnots == NMEADecimal(significand: 55, scale: 1))
        #expect(old.speedKilometresPerHour == NMEADecimal(significand: 102, scale: 1))
    }

    @Test("GNS, GST, ZDA and TXT")
    func others() {
        guard case .gns(let gns) = message("$GNGNS,213713.000,4111.59903,N,11156.54809,W,AANN,13,0.93,01482.5,-016.5,,,V") else {
            Issue.record("not a GNS"); return
        }
        #expect(gns.bestMode == .autonomous)
        #expect(gns.altitude == NMEADecimal(significand: 14825, scale: 1))
        #expect(gns.navigationStatus == UInt8(ascii: "V"))
        guard case .gst(let gst) = message("$GNGST,003956.00,23,1.4,1.1,74,1.2,1.3,2.5") else { Issue.record("not a GST"); return }
        #expect(gst.altitudeError == NMEADecimal(significand: 25, scale: 1))
        guard case .zda(let zda) = message("$GPZDA,094817,20,08,2018,-01,00") else { Issue.record("not a ZDA"); return }
        #expect(zda.date == NMEADate(day: 20, month: 8, year: 2018, hasCentury: true))
        #expect(zda.zoneHours == -1)
        guard case .txt(let txt) = message("$GPTXT,01,01,02,ANTSTATUS=OK,SHORT") else { Issue.record("not a TXT"); return }
        #expect(txt.text == "ANTSTATUS=OK,SHORT")
    }

    @Test("every listed talker is recognised")
    func talkers() {
        let expected: [(String, Talker)] = [
            ("GP", .gps), ("GL", .glonass), ("GA", .galileo), ("GB", .beidou), ("BD", .beidou), ("GQ", .qzss),
            ("QZ", .qzss), ("GI", .navic), ("IN", .navic), ("GN", .combined),
        ]
        for (letters, talker) in expected {
            #expect(parse("$\(letters)GSA,A,1,,,,,,,,,,,,,,,").sentence?.talker == talker)
        }
    }

    @Test("unknown and proprietary sentences are skipped, not errors")
    func unsupported() {
        #expect(parse("$PUBX,00,081350.00,4717.113210,N") == .unsupported)
        #expect(parse("$SDDBT,17.5,f,5.3,M,2.9,F") == .unsupported)
        #expect(parse("$GPXYZ,1,2") == .unsupported)
        #expect(parse("$GP") == .unsupported)
    }

    @Test("broken fields reject the whole sentence", arguments: [
        "$GPGGA,123519,48x7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        "$GPGGA,123519,4867.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        "$GPGGA,123519,4807.038,Q,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        "$GPGGA,126519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        "$GPRMC,120327,A,4221.3872,N,01322.0800,E,000.0,000.0,151305,001.4,E",
        "$GPRMC,120327,A,4221.3872,N,18122.0800,E,000.0,000.0,150305,001.4,E",
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4.1,M,46.9,M,,",
        "$GPZDA,094817,20,13,2018,-01,00",
    ])
    func malformed(sentence: String) {
        #expect(parse(sentence) == .malformed)
    }
}

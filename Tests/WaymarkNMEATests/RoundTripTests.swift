import Testing
import WaymarkNMEA

/// Generates random but valid sentences of every supported type.
struct SentenceGenerator {
    var random: SplitMix64

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func maybe<T>(_ make: (inout SentenceGenerator) -> T) -> T? { int(0...4) == 0 ? nil : make(&self) }

    mutating func decimal(digits: ClosedRange<Int>, scale: ClosedRange<Int>, signed: Bool = false) -> NMEADecimal {
        let scale = int(scale)
        let limit = Int64(NMEADecimal.powerOfTenInt(UInt8(int(digits) + scale))) - 1
        let magnitude = Int64.random(in: 0...limit, using: &random)
        return NMEADecimal(significand: signed && int(0...1) == 1 ? -magnitude : magnitude, scale: UInt8(scale))
    }

    mutating func coordinate(maximumDegrees: Int) -> NMEACoordinate {
        let scale = int(0...7)
        let unit = NMEADecimal.powerOfTenInt(UInt8(scale))
        let degrees = Int64(int(0...(maximumDegrees - 1)))
        let minutes = Int64.random(in: 0...(60 * unit - 1), using: &random)
        return NMEACoordinate(
            printed: NMEADecimal(significand: degrees * 100 * unit + minutes, scale: UInt8(scale)),
            isNegative: int(0...1) == 1)
    }

    mutating func time() -> TimeOfDay {
        TimeOfDay(hour: int(0...23), minute: int(0...59), second: int(0...59), nanoseconds: Int32(int(0...99)) * 10_000_000)
    }

    mutating func date() -> NMEADate { NMEADate(day: int(1...28), month: int(1...12), year: int(0...99), hasCentury: false) }
    mutating func mode() -> ModeIndicator { [.autonomous, .differential, .estimated, .rtkFixed, .notValid][int(0...4)] }

    mutating func sentence() -> ParsedSentence {
        let talker: Talker = [.gps, .glonass, .galileo, .beidou, .qzss, .navic, .combined][int(0...6)]
        let message: NMEAMessage
        switch int(0...9) {
        case 0:
            var rmc = RMC()
            rmc.time = time()
            rmc.status = UInt8(ascii: int(0...1) == 0 ? "A" : "V")
            rmc.latitude = coordinate(maximumDegrees: 90)
            rmc.longitude = coordinate(maximumDegrees: 180)
            rmc.speedKnots = maybe { $0.decimal(digits: 1...3, scale: 0...3) }
            rmc.course = maybe { $0.decimal(digits: 1...3, scale: 0...2) }
            rmc.date = date()
            rmc.magneticVariation = maybe { $0.decimal(digits: 1...2, scale: 1...1, signed: true) }
            rmc.mode = mode()
            rmc.navigationStatus = maybe { _ in UInt8(ascii: "V") }
            message = .rmc(rmc)
        case 1:
            var gga = GGA()
            gga.time = time()
            gga.latitude = coordinate(maximumDegrees: 90)
            gga.longitude = coordinate(maximumDegrees: 180)
            gga.quality = int(0...8)
            gga.satellitesUsed = int(0...40)
            gga.hdop = decimal(digits: 1...2, scale: 1...2)
            gga.altitude = decimal(digits: 1...4, scale: 1...3, signed: true)
            gga.geoidSeparation = decimal(digits: 1...2, scale: 1...3, signed: true)
            gga.differentialAge = maybe { $0.decimal(digits: 1...2, scale: 1...1) }
            gga.differentialStation = gga.differentialAge == nil ? nil : int(0...1023)
            message = .gga(gga)
        case 2:
            var gsa = GSA(satellites: (0..<int(0...12)).map { _ in UInt16(int(1...96)) })
            gsa.selection = UInt8(ascii: "A")
            gsa.fixType = int(1...3)
            gsa.pdop = decimal(digits: 1...2, scale: 2...2)
            gsa.hdop = decimal(digits: 1...2, scale: 2...2)
            gsa.vdop = decimal(digits: 1...2, scale: 2...2)
            gsa.systemID = maybe { $0.int(1...6) }
            message = .gsa(gsa)
        case 3:
            let satellites = (0..<int(1...4)).map { _ in
                SatelliteInView(number: int(1...96), elevation: int(0...90), azimuth: int(0...359), signalStrength: maybe { $0.int(0...55) })
            }
            var gsv = GSV(satellites: satellites)
            gsv.messageCount = 3
            gsv.messageNumber = int(1...3)
            gsv.satellitesInView = int(satellites.count...12)
            gsv.signalID = maybe { $0.int(1...15) }
            message = .gsv(gsv)
        case 4:
            var vtg = VTG()
            vtg.courseTrue = decimal(digits: 1...3, scale: 1...2)
            vtg.courseMagnetic = maybe { $0.decimal(digits: 1...3, scale: 1...2) }
            vtg.speedKnots = decimal(digits: 1...3, scale: 1...3)
            vtg.speedKilometresPerHour = decimal(digits: 1...3, scale: 1...3)
            vtg.mode = mode()
            message = .vtg(vtg)
        case 5:
            var gll = GLL()
            gll.latitude = coordinate(maximumDegrees: 90)
            gll.longitude = coordinate(maximumDegrees: 180)
            gll.time = time()
            gll.status = UInt8(ascii: "A")
            gll.mode = mode()
            message = .gll(gll)
        case 6:
            var gns = GNS()
            gns.time = time()
            gns.latitude = coordinate(maximumDegrees: 90)
            gns.longitude = coordinate(maximumDegrees: 180)
            for index in 0..<int(1...6) { gns.modes[index] = mode() }
            gns.satellitesUsed = int(0...40)
            gns.hdop = decimal(digits: 1...2, scale: 1...2)
            gns.altitude = decimal(digits: 1...4, scale: 1...3, signed: true)
            gns.geoidSeparation = decimal(digits: 1...2, scale: 1...3, signed: true)
            gns.navigationStatus = UInt8(ascii: "S")
            message = .gns(gns)
        case 7:
            var gst = GST()
            gst.time = time()
            gst.rangeRMS = decimal(digits: 1...2, scale: 1...2)
            gst.semiMajor = decimal(digits: 1...2, scale: 1...2)
            gst.semiMinor = decimal(digits: 1...2, scale: 1...2)
            gst.orientation = decimal(digits: 1...3, scale: 0...1)
            gst.latitudeError = decimal(digits: 1...2, scale: 1...2)
            gst.longitudeError = decimal(digits: 1...2, scale: 1...2)
            gst.altitudeError = decimal(digits: 1...2, scale: 1...2)
            message = .gst(gst)
        case 8:
            var zda = ZDA()
            zda.time = time()
            zda.date = NMEADate(day: int(1...28), month: int(1...12), year: int(1980...2099), hasCentury: true)
            zda.zoneHours = int(-12...12)
            zda.zoneMinutes = int(0...59)
            message = .zda(zda)
        default:
            var txt = TXT(text: ["ANTSTATUS=OK", "u-blox AG - www.u-blox.com", "HW UBX-M8030 00080000"][int(0...2)])
            txt.messageCount = 1
            txt.messageNumber = 1
            txt.identifier = int(0...7)
            message = .txt(txt)
        }
        return ParsedSentence(talker: talker, message: message)
    }
}

@Suite("NMEA writer and parser round trip")
struct RoundTripTests {
    @Test("generated sentences survive writing, framing and parsing unchanged")
    func roundTrip() {
        var generator = SentenceGenerator(random: SplitMix64(seed: 7))
        let sentences = (0..<5_000).map { _ in generator.sentence() }
        var stream: [UInt8] = []
        for sentence in sentences { NMEAWriter.append(sentence, to: &stream) }
        var framer = NMEAFramer()
        var parsed: [ParsedSentence] = []
        stream.withUnsafeBufferPointer { buffer in
            framer.consume(buffer) { sentence in
                if let value = NMEAParser.parse(sentence).sentence { parsed.append(value) }
            }
        }
        #expect(framer.statistics.rejected == 0)
        #expect(parsed.count == sentences.count)
        for (original, roundTripped) in zip(sentences, parsed) where original != roundTripped {
            Issue.record("\(original) became \(roundTripped) via \(String(decoding: NMEAWriter.bytes(original), as: UTF8.self))")
            break
        }
    }

    @Test("writes the checksum and layout receivers use")
    func layout() {
        var gga = GGA()
        gga.time = TimeOfDay(hour: 12, minute: 35, second: 19)
        gga.latitude = NMEACoordinate(printed: NMEADecimal(significand: 4_807_038, scale: 3), isNegative: false)
        gga.longitude = NMEACoordinate(printed: NMEADecimal(significand: 1_131_000, scale: 3), isNegative: false)
        gga.quality = 1
        gga.satellitesUsed = 8
        gga.hdop = NMEADecimal(significand: 9, scale: 1)
        gga.altitude = NMEADecimal(significand: 5454, scale: 1)
        gga.geoidSeparation = NMEADecimal(significand: 469, scale: 1)
        let text = String(decoding: NMEAWriter.bytes(ParsedSentence(talker: .gps, message: .gga(gga))), as: UTF8.self)
        #expect(text == "$GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*69\r\n")
    }
}

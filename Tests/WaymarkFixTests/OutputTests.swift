import Testing
import WaymarkFix
import WaymarkJSON
import WaymarkLocation

@Suite("TPV output and the accuracy model")
struct OutputTests {
    func fix() -> Fix {
        var fix = Fix()
        fix.time = Timestamp(date: CivilDate(year: 2019, month: 4, day: 6), hour: 12, minute: 0, second: 1, nanoseconds: 0)
        fix.mode = .threeDimensional
        fix.quality = .autonomous
        fix.latitude = -33.8567844
        fix.longitude = 151.213108
        fix.altitudeMSL = 12.5
        fix.geoidSeparation = 22.1
        fix.speed = 1.5
        fix.course = 270
        fix.hdop = 1.2
        fix.vdop = 1.8
        return fix
    }

    @Test("prints gpsd's member names, units and precision")
    func tpv() {
        var json = JSONBuffer()
        TPVEncoder().encode(fix(), into: &json)
        let line = String(decoding: json.bytes, as: UTF8.self)
        #expect(line.hasPrefix(#"{"class":"TPV","time":"2019-04-06T12:00:01.000Z","mode":3,"lat":-33.856784400,"lon":151.213108000,"altHAE":34.6000,"altMSL":12.5000,"alt":12.5000,"geoidSep":22.100,"speed":1.500,"track":270.0000,"#))
        #expect(line.contains(#""eph":4.800,"epv":7.200,"#))
        #expect(line.hasSuffix("}\n"))
    }

    @Test("prints the receiver's own GSA mode and marks a derived speed and track, with their errors")
    func receiverModeAndDerivedVelocity() {
        var derived = fix()
        derived.receiverMode = .twoDimensional
        derived.speed = 12
        derived.course = 45
        derived.derivedVelocity = DerivedVelocity(speedError: 6.788, courseError: 29.5)
        var json = JSONBuffer()
        TPVEncoder().encode(derived, into: &json)
        let line = String(decoding: json.bytes, as: UTF8.self)
        #expect(line.contains(#""mode":3,"receiverMode":2,"#))
        #expect(line.contains(#""speed":12.000,"track":45.0000,"velocityDerived":true,"#))
        #expect(line.contains(#""eps":6.788,"epd":29.50"#))
        var measured = JSONBuffer()
        TPVEncoder().encode(fix(), into: &measured)
        let plain = String(decoding: measured.bytes, as: UTF8.self)
        #expect(!plain.contains("velocityDerived"))
        #expect(!plain.contains("receiverMode"))
    }

    @Test("accuracy comes from GST when present, else DOP times UERE; unknown is negative")
    func accuracy() throws {
        let model = AccuracyModel()
        var withGST = fix()
        withGST.latitudeError = 3
        withGST.longitudeError = 4
        withGST.altitudeError = 6
        #expect(model.horizontalAccuracy(of: withGST) == 5)
        #expect(model.verticalAccuracy(of: withGST) == 6)
        #expect(model.horizontalAccuracy(of: fix()) == 1.2 * 4)
        var noFix = fix()
        noFix.mode = .noFix
        #expect(model.horizontalAccuracy(of: noFix) == -1)
        let location = try #require(Location(fix: fix(), isSimulated: true))
        #expect(location.sourceInformation.isSimulatedBySoftware)
        #expect(location.ellipsoidalAltitude == 34.6)
        #expect(location.courseAccuracy > 0 && location.courseAccuracy < 10)
        var still = fix()
        still.speed = 0
        #expect(model.courseAccuracy(of: still) == 180)
        var noCourse = fix()
        noCourse.course = nil
        #expect(try #require(Location(fix: noCourse, isSimulated: false)).course == -1)
    }

    @Test("JSON numbers round correctly and never print NaN")
    func numbers() {
        var json = JSONBuffer()
        json.beginObject()
        json.member("a", 0.0005, decimals: 3)
        json.member("b", -0.0004, decimals: 3)
        json.member("c", Double.nan, decimals: 3)
        json.member("d", 12.3456789, decimals: 2)
        json.member("e", text: "e\"\n")
        json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"a":0.000,"b":0.000,"d":12.35,"e":"e\"\n"}"#)
    }

    @Test("capture comments are removed and the date comment is read, whatever the chunking")
    func comments() {
        let text = Array("# Name: test\n# Date: 2010-07-07\n$GPGGA,1*xx\n#not a date\n$GPRMC\n".utf8)
        for size in [1, 3, 7, 1000] {
            var filter = CaptureCommentFilter()
            var data: [UInt8] = []
            var dates: [CivilDate] = []
            var offset = 0
            while offset < text.count {
                let end = min(offset + size, text.count)
                text[offset..<end].withUnsafeBufferPointer { filter.filter($0, data: { data += $0 }, date: { dates.append($0) }) }
                offset = end
            }
            #expect(String(decoding: data, as: UTF8.self) == "$GPGGA,1*xx\n$GPRMC\n")
            #expect(dates == [CivilDate(year: 2010, month: 7, day: 7)])
        }
    }
}

import Testing
import WaymarkFix
import WaymarkGpsd
import WaymarkJSON
import WaymarkLocation
import WaymarkTime

/// A session fed text as a client sends it; returns what the endpoint writes back.
private func exchange(_ session: inout GpsdSession, _ text: String, latest: Location? = nil) -> String {
    var buffer = JSONBuffer()
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { session.receive(UnsafeRawBufferPointer($0)) }
    while session.answerNextCommand(latest: latest, now: noon, into: &buffer) {}
    return String(decoding: buffer.bytes, as: UTF8.self)
}

private let noon = Timestamp(date: CivilDate(year: 2026, month: 11, day: 23), hour: 12, minute: 0, second: 0, nanoseconds: 0)!
private let device = GpsdDevice(path: "/dev/ttyAMA0", activated: noon, bitsPerSecond: 9600, cycle: 1)

private func session() -> GpsdSession { GpsdSession(device: device, release: "waymark 0.1.0") }

private func sydney() -> Location {
    var satellites = SatelliteCounts()
    satellites.inView[0] = 9
    satellites.used[0] = 7
    return Location(
        latitude: -33.8567844, longitude: 151.213108, altitude: 12.5, ellipsoidalAltitude: 34.6,
        horizontalAccuracy: 4.8, verticalAccuracy: 7.2, speed: 1.5, speedAccuracy: 0.12, course: 270, courseAccuracy: 4.6,
        timestamp: noon.adding(nanoseconds: 1_000_000_000), mode: .threeDimensional,
        dilution: DilutionOfPrecision(horizontal: 1.2, vertical: 1.8, position: 2.16), satellites: satellites)
}

@Suite("gpsd endpoint: replies and reports in gpsd's framing")
struct GpsdSessionTests {
    @Test("greets with VERSION, one CRLF-terminated object without spaces")
    func greeting() {
        var buffer = JSONBuffer()
        session().writeGreeting(to: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self)
            == #"{"class":"VERSION","release":"waymark 0.1.0","rev":"waymark 0.1.0","proto_major":3,"proto_minor":14}"# + "\r\n")
    }

    @Test("?WATCH enabling JSON replies DEVICES then WATCH, as gpsd does")
    func watch() {
        var client = session()
        let reply = exchange(&client, #"?WATCH={"enable":true,"json":true};"# + "\n")
        #expect(reply == #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyAMA0","driver":"NMEA0183","activated":"2026-11-23T12:00:00.000Z","flags":1,"native":0,"bps":9600,"parity":"N","stopbits":1,"cycle":1.00}]}"#
            + "\r\n" + #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"# + "\r\n")
        #expect(client.wantsLocations)
        _ = exchange(&client, #"?WATCH={"enable":false};"#)
        #expect(!client.wantsLocations)
    }

    @Test("enabling without naming an output asks for JSON; scaled, split24 and pps given are set")
    func watchDefaults() {
        var client = session()
        let reply = exchange(&client, #"?WATCH={"enable":true,"scaled":true,"split24":true,"pps":true}"# + "\n")
        #expect(reply.contains(#""enable":true,"json":true,"nmea":false,"raw":0,"scaled":true,"timing":false,"split24":true,"pps":true}"#))
        #expect(client.wantsLocations)
    }

    @Test("a ?WATCH object without enable enables, and one without scaled, split24, pps or timing clears them, as gpsd's json_watch_read (it kept them, and did not watch)")
    func watchObjectDefaults() {
        for object in [#"{"json":true}"#, "{}"] {
            var client = session()
            let reply = exchange(&client, "?WATCH=\(object);\n")
            #expect(reply.contains(#"{"class":"WATCH","enable":true,"json":true,"#), "\(object)")
            #expect(client.wantsLocations, "\(object)")
        }
        var client = session()
        _ = exchange(&client, #"?WATCH={"enable":true,"scaled":true,"split24":true,"pps":true,"timing":true};"# + "\n")
        let reply = exchange(&client, #"?WATCH={"enable":true};"# + "\n")
        #expect(reply.contains(#""enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#))
        // `?WATCH;` asks, and changes nothing.
        var quiet = session()
        _ = exchange(&quiet, "?WATCH;\n")
        #expect(!quiet.wantsLocations)
    }

    @Test("several commands on one line, a command split over reads, ; or newline ending each")
    func framing() {
        var client = session()
        let both = exchange(&client, "?VERSION;?DEVICES;\n")
        #expect(both.crlfLines.map { $0.prefix(18) } == [#"{"class":"VERSION""#, #"{"class":"DEVICES""#, ""])
        #expect(exchange(&client, "?VERS").isEmpty)
        #expect(exchange(&client, "ION\r\n").hasPrefix(#"{"class":"VERSION""#))
        #expect(exchange(&client, #"?WATCH={"device":"/dev/a;b","enable":true};"#).contains(#""device":"/dev/a;b"}"#))
    }

    @Test("unknown commands, bad WATCH arguments and text that is no command get gpsd's ERROR")
    func errors() {
        var client = session()
        #expect(exchange(&client, "?FOO;") == #"{"class":"ERROR","message":"Unrecognized request 'FOO'"}"# + "\r\n")
        #expect(exchange(&client, #"?WATCH={"enable":1};"#) == #"{"class":"ERROR","message":"Invalid WATCH: enable is not a boolean"}"# + "\r\n")
        #expect(exchange(&client, "?WATCH={;").contains("Invalid WATCH: not a JSON object"))
        #expect(exchange(&client, "hello\u{7}\n") == #"{"class":"ERROR","message":"Unrecognized request 'hello?'"}"# + "\r\n")
        #expect(!client.wantsLocations)
    }

    @Test("an overlong command is refused once, holds no more than the limit, and the next one is served")
    func overlong() {
        var client = session()
        let flood = exchange(&client, "?" + String(repeating: "A", count: 100_000))
        #expect(flood == #"{"class":"ERROR","message":"Request too long"}"# + "\r\n")
        #expect(client.heldBytes == 0)
        #expect(exchange(&client, String(repeating: "B", count: 5_000) + ";?VERSION;").hasPrefix(#"{"class":"VERSION""#))
    }

    @Test("commands are answered one at a time, the rest kept for later")
    func oneAtATime() {
        var client = session()
        var bytes = Array("?VERSION;?POLL;?DEVICE;".utf8)
        bytes.withUnsafeMutableBytes { client.receive(UnsafeRawBufferPointer($0)) }
        var buffer = JSONBuffer()
        #expect(client.answerNextCommand(latest: nil, now: noon, into: &buffer))
        #expect(String(decoding: buffer.bytes, as: UTF8.self).hasPrefix(#"{"class":"VERSION""#))
        #expect(client.heldBytes == 14)
        buffer.removeAll()
        #expect(client.answerNextCommand(latest: nil, now: noon, into: &buffer))
        #expect(client.answerNextCommand(latest: nil, now: noon, into: &buffer))
        #expect(!client.answerNextCommand(latest: nil, now: noon, into: &buffer))
        #expect(String(decoding: buffer.bytes, as: UTF8.self).crlfLines.map { $0.prefix(15) } == [#"{"class":"POLL""#, #"{"class":"DEVIC"#, ""])
        #expect(client.heldBytes == 0)
    }

    @Test("a watching client is sent TPV, SKY and GST per fix; one not watching nothing")
    func reports() {
        var client = session()
        var silent = JSONBuffer()
        client.writeReports(for: sydney(), into: &silent)
        #expect(silent.bytes.isEmpty)
        _ = exchange(&client, #"?WATCH={"enable":true,"json":true};"#)
        var buffer = JSONBuffer()
        client.writeReports(for: sydney(), into: &buffer)
        let lines = String(decoding: buffer.bytes, as: UTF8.self).crlfLines
        #expect(lines.count == 4 && lines[3].isEmpty)
        #expect(lines[0] == #"{"class":"TPV","device":"/dev/ttyAMA0","time":"2026-11-23T12:00:01.000Z","mode":3,"lat":-33.856784400,"lon":151.213108000,"altHAE":34.6000,"altMSL":12.5000,"alt":12.5000,"geoidSep":22.100,"speed":1.500,"track":270.0000,"eph":4.800,"epv":7.200,"eps":0.120,"epd":4.60,"hdop":1.20,"vdop":1.80,"pdop":2.16,"uSat":7,"nSat":9}"#)
        #expect(lines[1] == #"{"class":"SKY","device":"/dev/ttyAMA0","time":"2026-11-23T12:00:01.000Z","hdop":1.20,"pdop":2.16,"vdop":1.80,"nSat":9,"uSat":7}"#)
        #expect(lines[2] == #"{"class":"GST","device":"/dev/ttyAMA0","time":"2026-11-23T12:00:01.000Z","lat":3.394,"lon":3.394,"alt":7.200}"#)
    }

    @Test("SKY with a sky view lists each satellite signal as gpsd 3.22 writes it; without one it has none")
    func skySatellites() throws {
        var client = session()
        _ = exchange(&client, #"?WATCH={"enable":true,"json":true};"#)
        var buffer = JSONBuffer()
        client.writeReports(for: sydney(), sky: try threeSatellites(), into: &buffer)
        let lines = String(decoding: buffer.bytes, as: UTF8.self).crlfLines
        #expect(lines[1] == #"{"class":"SKY","device":"/dev/ttyAMA0","time":"2026-11-23T12:00:01.000Z","hdop":1.20,"pdop":2.16,"vdop":1.80,"nSat":9,"uSat":7,"satellites":[{"PRN":7,"el":40.0,"az":200.0,"ss":35.0,"used":true,"gnssid":0,"svid":7},{"PRN":82,"az":214.0,"used":false,"gnssid":6,"svid":18,"sigid":2},{"PRN":333,"el":62.0,"az":34.0,"ss":8.0,"used":true,"gnssid":2,"svid":33}]}"#)
        // An empty view (no GSV yet) writes no array, as gpsd does; nor does no view.
        for sky in [SkyView(), nil] {
            var plain = JSONBuffer()
            client.writeReports(for: sydney(), sky: sky, into: &plain)
            #expect(String(decoding: plain.bytes, as: UTF8.self).crlfLines[1].hasSuffix(#""nSat":9,"uSat":7}"#))
        }
        // ?POLL's SKY carries them too.
        var polled = JSONBuffer()
        var bytes = Array("?POLL;".utf8)
        bytes.withUnsafeMutableBytes { client.receive(UnsafeRawBufferPointer($0)) }
        let sky = try threeSatellites()
        #expect(client.answerNextCommand(latest: sydney(), sky: sky, now: noon, into: &polled))
        #expect(String(decoding: polled.bytes, as: UTF8.self).contains(#""uSat":7,"satellites":[{"PRN":7,"#))
    }

    /// GPS 7 used; GLONASS slot 18 on L2 (NMEA signal 3) without elevation or signal; Galileo
    /// 33 on E1 (signal 7), used.
    private func threeSatellites() throws -> SkyView {
        let gps = try #require(SatelliteIdentity(number: 7, system: .gps))
        let glonass = try #require(SatelliteIdentity(number: 82, system: .glonass))
        let galileo = try #require(SatelliteIdentity(number: 33, system: .galileo))
        var used = SatelliteSet()
        used.insert(gps)
        used.insert(glonass)
        used.insert(galileo)
        return SkyView(
            satellites: [
                SkySatellite(identity: gps, signal: 1, elevation: 40, azimuth: 200, signalStrength: 35),
                SkySatellite(identity: glonass, signal: 3, elevation: nil, azimuth: 214, signalStrength: nil),
                SkySatellite(identity: galileo, signal: 7, elevation: 62, azimuth: 34, signalStrength: 8),
            ], used: used)
    }

    @Test("without a fix a watching client is sent a TPV of mode 1 alone, as gpsd's; one not watching nothing")
    func noFix() {
        var client = session()
        var silent = JSONBuffer()
        client.writeNoFix(into: &silent)
        #expect(silent.bytes.isEmpty)
        _ = exchange(&client, #"?WATCH={"enable":true,"json":true};"#)
        var buffer = JSONBuffer()
        client.writeNoFix(into: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "{\"class\":\"TPV\",\"device\":\"/dev/ttyAMA0\",\"mode\":1}\r\n")
        var sentences = session()
        _ = exchange(&sentences, #"?WATCH={"enable":true,"nmea":true};"#)
        var none = JSONBuffer()
        sentences.writeNoFix(into: &none)
        #expect(none.bytes.isEmpty)
    }

    @Test("watching nmea or raw asks for the receiver's sentences and holds locations, without JSON reports")
    func sentences() {
        for watch in [#"?WATCH={"enable":true,"nmea":true};"#, #"?WATCH={"enable":true,"raw":2};"#] {
            var client = session()
            #expect(!client.wantsLocations && !client.watch.wantsSentences)
            _ = exchange(&client, watch)
            #expect(client.watch.wantsSentences && client.wantsLocations && !client.watch.wantsReports)
            var buffer = JSONBuffer()
            client.writeReports(for: sydney(), into: &buffer)
            #expect(buffer.bytes.isEmpty)
            _ = exchange(&client, #"?WATCH={"enable":false};"#)
            #expect(!client.watch.wantsSentences && !client.wantsLocations)
        }
    }

    @Test("unknown speed, course and altitude are left out of TPV, not printed as -1")
    func unknownValues() {
        var client = session()
        _ = exchange(&client, #"?WATCH={"enable":true};"#)
        let coarse = Location(latitude: -33.86, longitude: 151.21, horizontalAccuracy: 3_000, timestamp: noon)
        var buffer = JSONBuffer()
        client.writeReports(for: coarse, into: &buffer)
        let tpv = String(decoding: buffer.bytes, as: UTF8.self).crlfLines[0]
        #expect(tpv == #"{"class":"TPV","device":"/dev/ttyAMA0","time":"2026-11-23T12:00:00.000Z","mode":2,"lat":-33.860000000,"lon":151.210000000,"eph":3000.000}"#)
    }

    @Test("?POLL carries the last fix's TPV and SKY, and empty lists before one")
    func poll() {
        var client = session()
        #expect(exchange(&client, "?POLL;") == #"{"class":"POLL","time":"2026-11-23T12:00:00.000Z","active":1,"tpv":[],"sky":[]}"# + "\r\n")
        let reply = exchange(&client, "?POLL;", latest: sydney())
        #expect(reply.hasPrefix(#"{"class":"POLL","time":"2026-11-23T12:00:00.000Z","active":1,"tpv":[{"class":"TPV","device":"/dev/ttyAMA0","#))
        #expect(reply.hasSuffix(#""uSat":7}]}"# + "\r\n"))
        #expect((try? JSONParser().parse(Array(reply.utf8.dropLast(2))))?.objectValue?["sky"]?.arrayValue?.count == 1)
    }

    @Test("PPS to a client watching JSON or PPS, TOFF to a PPS watcher only, as gpsd's notify_watchers")
    func timeWatchers() {
        var client = session()
        #expect(!client.watch.wantsTime(from: .pulse) && !client.watch.wantsTime(from: .nmea))
        _ = exchange(&client, #"?WATCH={"enable":true,"json":true};"#)
        #expect(client.watch.wantsTime(from: .pulse) && !client.watch.wantsTime(from: .nmea))
        _ = exchange(&client, #"?WATCH={"pps":true};"#)
        #expect(client.watch.wantsTime(from: .pulse) && client.watch.wantsTime(from: .nmea))
        _ = exchange(&client, #"?WATCH={"enable":true,"json":false,"nmea":true,"pps":true};"#)
        #expect(client.watch.wantsTime(from: .pulse) && client.watch.wantsTime(from: .nmea))
        _ = exchange(&client, #"?WATCH={"pps":false};"#)
        #expect(!client.watch.wantsTime(from: .pulse) && !client.watch.wantsTime(from: .nmea))
        _ = exchange(&client, #"?WATCH={"enable":false,"json":true,"pps":true};"#)
        #expect(!client.watch.wantsTime(from: .pulse) && !client.watch.wantsTime(from: .nmea))
    }

    @Test("PPS and TOFF with gpsd 3.22's members (TOFF states no precision); negative times as gpsd's timespecs")
    func timeReports() throws {
        let pulse = try #require(TimeSample(
            systemNanoseconds: 1_763_899_200_000_012_345, referenceNanoseconds: 1_763_899_200_000_000_000, source: .pulse, leap: .none))
        var buffer = JSONBuffer()
        GpsdTimeReport(sample: pulse, device: "/dev/ttyAMA0").write(to: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self)
            == #"{"class":"PPS","device":"/dev/ttyAMA0","real_sec":1763899200,"real_nsec":0,"clock_sec":1763899200,"clock_nsec":12345,"precision":-13}"#)
        let sentence = try #require(TimeSample(systemNanoseconds: -1, referenceNanoseconds: 0, source: .nmea, leap: .none))
        buffer.removeAll()
        GpsdTimeReport(sample: sentence, device: "/dev/ttyAMA0").write(to: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self)
            == #"{"class":"TOFF","device":"/dev/ttyAMA0","real_sec":0,"real_nsec":0,"clock_sec":-1,"clock_nsec":999999999}"#)
        let extreme = try #require(TimeSample(systemNanoseconds: .min, referenceNanoseconds: .min, source: .pulse, leap: .none))
        buffer.removeAll()
        GpsdTimeReport(sample: extreme, device: "/dev/ttyAMA0").write(to: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self).contains(#""real_sec":-9223372037,"real_nsec":145224192,"#))
    }
}

extension String {
    /// The text split at each CRLF (one `Character` in Swift), keeping a trailing empty part.
    fileprivate var crlfLines: [String] {
        split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
    }
}

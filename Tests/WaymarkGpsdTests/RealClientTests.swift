import Foundation
import Testing
import WaymarkGpsd
import WaymarkJSON
import WaymarkLocation

/// Locations along a short walk, at whole seconds (gpsd's TPV prints milliseconds).
private func walk() -> [Location] {
    var satellites = SatelliteCounts()
    satellites.inView[0] = 11
    satellites.used[0] = 8
    return (0..<3).map { step in
        Location(
            latitude: 51.4778 + Double(step) * 0.0001, longitude: -0.0015 - Double(step) * 0.0002,
            altitude: 46.2, ellipsoidalAltitude: 92.1, horizontalAccuracy: 3.6, verticalAccuracy: 5.4,
            speed: 1.4, speedAccuracy: 0.2, course: 300.5, courseAccuracy: 8,
            timestamp: Timestamp(nanosecondsSinceEpoch: 1_763_899_200_000_000_000 + Int64(step) * 1_000_000_000),
            mode: .threeDimensional, dilution: DilutionOfPrecision(horizontal: 0.9, vertical: 1.35, position: 1.62),
            satellites: satellites)
    }
}

/// The `lat`, `lon` and `time` of each TPV line in `text`.
private func positions(in text: String) -> [(latitude: Double, longitude: Double, time: String)] {
    text.split(whereSeparator: \.isNewline).compactMap { line in
        guard let object = (try? JSONParser().parse(String(line)))?.objectValue, object["class"]?.stringValue == "TPV",
            let latitude = object["lat"]?.doubleValue, let longitude = object["lon"]?.doubleValue,
            let time = object["time"]?.stringValue
        else { return nil }
        return (latitude, longitude, time)
    }
}

@Suite("gpsd's own clients read the gpsd protocol core", .serialized)
struct RealClientTests {
    @Test("gpspipe -w -n 9 reads VERSION, DEVICES, WATCH and each fix's TPV, SKY and GST")
    func gpspipe() throws {
        let peer = try GpsdTestPeer(locations: walk())
        guard let output = try runClient("/usr/bin/gpspipe", ["-w", "-n", "9", "127.0.0.1:\(peer.port)"], against: peer) else {
            Issue.record("gpspipe is not installed (Debian gpsd-clients; Scripts/lib.sh build_packages installs it)")
            return
        }
        let classes = output.split(whereSeparator: \.isNewline).compactMap {
            (try? JSONParser().parse(String($0)))?.objectValue?["class"]?.stringValue
        }
        #expect(classes == ["VERSION", "DEVICES", "WATCH", "TPV", "SKY", "GST", "TPV", "SKY", "GST"])
        let read = positions(in: output)
        #expect(read.map(\.latitude) == walk().prefix(2).map { ($0.latitude * 1e9).rounded() / 1e9 })
        #expect(read.map(\.time) == ["2025-11-23T12:00:00.000Z", "2025-11-23T12:00:01.000Z"])
    }

    @Test("python3-gps, gps.gps(mode=WATCH_ENABLE), reads each fix's position, altitude, speed and errors")
    func pythonGps() throws {
        let script = """
            import gps, sys
            session = gps.gps(host="127.0.0.1", port=sys.argv[1], mode=gps.WATCH_ENABLE)
            seen = 0
            for report in session:
                if report["class"] == "TPV":
                    print("%.9f %.9f %.4f %.4f %.3f %.4f %.3f %s %d" % (session.fix.latitude, session.fix.longitude,
                        session.fix.altMSL, session.fix.altHAE, session.fix.speed, session.fix.track, report["eph"],
                        report["time"], session.fix.mode))
                    seen += 1
                    if seen == 3:
                        break
            """
        let peer = try GpsdTestPeer(locations: walk())
        guard FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gps/__init__.py"),
            let output = try runClient("/usr/bin/python3", ["-c", script, "\(peer.port)"], against: peer)
        else {
            Issue.record("python3 or its gps module is not installed (Debian python3-gps)")
            return
        }
        let expected = walk().map { location in
            "\(JSONBuffer.decimalText(location.latitude, decimals: 9)) \(JSONBuffer.decimalText(location.longitude, decimals: 9)) "
                + "46.2000 92.1000 1.400 300.5000 3.600 \(location.timestamp.iso8601) 3"
        }
        #expect(output.split(whereSeparator: \.isNewline).map(String.init) == expected)
    }

    @Test("gpxlogger writes a GPX track of the fixes, each point one of them")
    func gpxlogger() throws {
        let peer = try GpsdTestPeer(locations: walk())
        guard let output = try runClient("/usr/bin/gpxlogger", ["127.0.0.1:\(peer.port)"], against: peer, seconds: 3) else {
            Issue.record("gpxlogger is not installed (Debian gpsd-clients; Scripts/lib.sh build_packages installs it)")
            return
        }
        let points = output.split(separator: "<trkpt ").dropFirst().map { $0.prefix { $0 != ">" } }
        let expected = walk().map {
            #"lat="\#(JSONBuffer.decimalText($0.latitude, decimals: 9))" lon="\#(JSONBuffer.decimalText($0.longitude, decimals: 9))""#
        }
        #expect(points.first.map(String.init) == expected.first)
        #expect(points.allSatisfy { expected.contains(String($0)) })
        #expect(output.contains("<ele>92.1000</ele>") && output.contains("<fix>3d</fix>"))
    }

    @Test("cgps -s at a pseudo-terminal shows a fix's latitude, longitude and altitudes")
    func cgps() throws {
        let peer = try GpsdTestPeer(locations: walk())
        guard let screen = try runClient("/usr/bin/cgps", ["-s", "127.0.0.1:\(peer.port)"], environment: ["TERM": "xterm"], against: peer, seconds: 3, atTerminal: true)
        else {
            Issue.record("cgps is not installed (Debian gpsd-clients)")
            return
        }
        let shown = walk().filter { location in
            screen.contains("\(JSONBuffer.decimalText(location.latitude, decimals: 8)) N")
                && screen.contains("\(JSONBuffer.decimalText(-location.longitude, decimals: 8)) W")
        }
        #expect(!shown.isEmpty)
        #expect(screen.contains("92.100") && screen.contains("46.200"))
    }
}

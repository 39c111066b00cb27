import Foundation
import Testing
import WaymarkSystem
import WaymarkTestFixtures

/// The real waymarkd with `--gpsd` on the simulated board, read by gpsd's own unmodified
/// Debian clients (gpsd-clients, python3-gps) beside `waymark watch --json` on the daemon's
/// socket: every position a gpsd client reads is one Waymark delivered, to 1e-8 degrees.
/// Synchronous: the clients are processes, waited for on the test's own thread.
extension ClientLibraryTests {
@Suite("GpsdEndpointTests: gpsd's clients read the real waymarkd", .serialized, .timeLimit(.minutes(3)))
struct GpsdEndpointTests {
    /// A daemon walking a scenario (600 s unless given) 4× faster than real time, serving gpsd's clients on a free
    /// port, and `waymark watch --json` recording what Waymark delivers.
    final class Endpoint {
        let daemon: DaemonProcess
        let port: UInt16
        /// The scenario the simulated board walks.
        let scenario: String
        private let watch = Process()
        private let delivered = Recorded()

        init(scenario body: String = "walk 600s\n") throws {
            port = try freePort()
            scenario = try DaemonProcess.scenario(body)
            daemon = try DaemonProcess(["--scenario", scenario, "--speed", "4", "--gpsd-port", "\(port)"])
            watch.executableURL = DaemonProcess.binary.deletingLastPathComponent().appendingPathComponent("waymark")
            watch.arguments = ["watch", "--json"]
            watch.environment = ProcessInfo.processInfo.environment.merging(["WAYMARK_SOCKET": DaemonProcess.socket]) { $1 }
            let output = Pipe()
            watch.standardOutput = output
            watch.standardError = FileHandle.nullDevice
            try watch.run()
            let delivered = delivered
            let reading = output.fileHandleForReading
            Thread {
                var pending = Data()
                while case let data = reading.availableData, !data.isEmpty {
                    pending += data
                    while let end = pending.firstIndex(of: 0x0A) {
                        let line = pending[pending.startIndex..<end]
                        pending = pending[(end + 1)...]
                        guard let location = object(String(decoding: line, as: UTF8.self))?["location"] as? [String: Any],
                            let latitude = location["latitude"] as? Double, let longitude = location["longitude"] as? Double,
                            let time = location["timestamp"] as? String
                        else { continue }
                        delivered.append(Position(latitude: latitude, longitude: longitude, time: time))
                    }
                }
            }.start()
            let deadline = Date().addingTimeInterval(30)
            while delivered.positions.isEmpty && Date() < deadline { usleep(50_000) }
            guard !delivered.positions.isEmpty else { throw DaemonError.didNotStart("waymark watch read no location in 30 s") }
        }

        /// A raw gpsd client on the TCP port, greeted with VERSION.
        fileprivate func greetedClient(sourceLocation: SourceLocation = #_sourceLocation) throws -> LineClient {
            let client = try LineClient(port: port)
            #expect(object(try client.readLine())?["class"] as? String == "VERSION", sourceLocation: sourceLocation)
            return client
        }

        /// What `cgps -s` painted at a pseudo-terminal in 8 s (on a loaded machine 4 s were
        /// once not enough for cgps to start, connect and paint a position).
        func cgpsScreen() throws -> String {
            guard let screen = try ClientProgram.screen(of: "/usr/bin/cgps", ["-s", "127.0.0.1:\(port)"], environment: ["TERM": "xterm"], seconds: 8)
            else { throw DaemonError.didNotStart("cgps is not installed (Debian gpsd-clients)") }
            return screen
        }

        /// The gpsd endpoint's Unix socket.
        var socketPath: String { String(DaemonProcess.socket.dropLast(5)) + "-gpsd.sock" }

        /// What `waymark watch --json` was delivered so far (after a moment for the last fix).
        var waymark: [Position] {
            usleep(500_000)
            return delivered.positions
        }

        func stop() {
            if watch.isRunning { watch.terminate() }
            watch.waitUntilExit()
            daemon.stop()
        }

        /// Checks that every (time, latitude, longitude) read is a location Waymark delivered,
        /// and that there were at least `minimum`.
        func expectWaymarksOwn(_ read: [Position], minimum: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            let delivered = Dictionary(waymark.map { ($0.time, $0) }, uniquingKeysWith: { $1 })
            #expect(read.count >= minimum, "read \(read.count) positions", sourceLocation: sourceLocation)
            for position in read {
                let location = delivered[position.time]
                #expect(location != nil, "no Waymark location at \(position.time)", sourceLocation: sourceLocation)
                guard let location else { continue }
                #expect(abs(location.latitude - position.latitude) < 1e-8, sourceLocation: sourceLocation)
                #expect(abs(location.longitude - position.longitude) < 1e-8, sourceLocation: sourceLocation)
            }
        }
    }

    @Test("gpspipe -w -n 12 over TCP: VERSION, DEVICES, WATCH, then TPV, SKY and GST of Waymark's own fixes")
    func gpspipe() throws {
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let output = try run("/usr/bin/gpspipe", ["-w", "-n", "12", "127.0.0.1:\(endpoint.port)"])
        let classes = output.split(whereSeparator: \.isNewline).map { (object(String($0))?["class"] as? String) ?? "?" }
        #expect(Array(classes.prefix(3)) == ["VERSION", "DEVICES", "WATCH"])
        #expect(Set(classes.dropFirst(3)).isSubset(of: ["TPV", "SKY", "GST"]))
        endpoint.expectWaymarksOwn(positions(in: output), minimum: 2)
    }

    @Test("over the Unix socket beside the daemon's: the same reports, and the client is known by its pid too")
    func unixSocket() throws {
        // Debian 12's libgps (gpsd 3.22) connects over TCP only, so a raw client speaks here.
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let client = try LineClient(unixSocket: endpoint.socketPath)
        try client.send(#"?WATCH={"enable":true,"json":true};"#)
        var lines: [String] = []
        while lines.filter({ $0.hasPrefix(#"{"class":"TPV""#) }).count < 3 { lines.append(try client.readLine()) }
        #expect(lines.first?.hasPrefix(#"{"class":"VERSION""#) == true)
        endpoint.expectWaymarksOwn(positions(in: lines.joined(separator: "\n")), minimum: 3)
        let apps = try daemonStatus()["connectedApps"] as? [[String: Any]] ?? []
        #expect(apps.contains { $0["uid"] as? Int == Int(getuid()) && $0["pid"] as? Int == Int(getpid()) })
    }

    @Test("a client watching sentences only (gpspipe -r's WATCH) gets no TPV, SKY or GST beside JSON watchers (it was sent the reports made for them)")
    func sentencesOnlyGetNoReports() throws {
        let receiver = try FedReceiver(capture: "quectel-l76k-nmea.log")
        defer { receiver.stop() }
        // Watchers of both kinds on either side of it in the daemon's order, whatever that is.
        var watchers: [LineClient] = []
        for index in 0..<5 {
            let client = try LineClient(port: receiver.port)
            try client.send(index == 2 ? #"?WATCH={"enable":true,"nmea":true};"# : #"?WATCH={"enable":true,"json":true};"#)
            watchers.append(client)
        }
        var lines: [String] = []
        while lines.count(where: { $0.hasPrefix("$") }) < 100 { lines.append(try watchers[2].readLine()) }
        let reports = lines.filter { line in ["TPV", "SKY", "GST"].contains { line.hasPrefix(#"{"class":"\#($0)""#) } }
        #expect(reports.isEmpty, "\(reports.count) reports, the first \(reports.first?.prefix(40) ?? "")")
        // The JSON watchers had theirs (a read fails after 10 s without a line).
        while !(try watchers[0].readLine()).hasPrefix(#"{"class":"TPV""#) {}
    }

    @Test("gpspipe -r: the receiver's sentences relayed as read, beside Waymark's reports")
    func sentencesRelayed() throws {
        let receiver = try FedReceiver(capture: "quectel-l76k-nmea.log")
        defer { receiver.stop() }
        let output = try run("/usr/bin/gpspipe", ["-r", "-n", "40", "127.0.0.1:\(receiver.port)"])
        let relayed = output.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$") }
        #expect(relayed.count >= 20)
        #expect(relayed.allSatisfy { receiver.sentences.contains(String($0)) })
    }

    @Test("python3-gps, gps.gps(mode=WATCH_ENABLE), reads Waymark's positions")
    func pythonGps() throws {
        let script = """
            import gps, itertools, json, sys
            session = gps.gps(host="127.0.0.1", port=sys.argv[1], mode=gps.WATCH_ENABLE)
            tpvs = (report for report in session if report["class"] == "TPV")
            for report in itertools.islice(tpvs, 4):
                fix = session.fix
                print(json.dumps({"class": "TPV", "lat": fix.latitude, "lon": fix.longitude, "time": report["time"], "mode": fix.mode}))
            """
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let output = try run("/usr/bin/python3", ["-c", script, "\(endpoint.port)"])
        endpoint.expectWaymarksOwn(positions(in: output), minimum: 4)
        #expect(output.split(whereSeparator: \.isNewline).allSatisfy { object(String($0))?["mode"] as? Int == 3 })
    }

    @Test("python3-gps reads session.satellites: each satellite as the simulated receiver's GSV and GSA said")
    func pythonGpsSatellites() throws {
        let script = """
            import gps, json, sys
            session = gps.gps(host="127.0.0.1", port=sys.argv[1], mode=gps.WATCH_ENABLE)
            skies = 0
            for report in session:
                if report["class"] == "SKY" and "time" in report:
                    satellites = [[s.PRN, s.elevation, s.azimuth, s.ss, s.used] for s in session.satellites]
                    print(json.dumps({"time": report["time"], "satellites": satellites, "used": session.satellites_used}))
                    skies += 1
                    if skies == 24:
                        break
            """
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let output = try run("/usr/bin/python3", ["-c", script, "\(endpoint.port)"])
        let truth = try SimulatedSky(scenario: endpoint.scenario)
        var compared = 0
        for line in output.split(whereSeparator: \.isNewline) {
            let report = try #require(object(String(line)))
            let satellites = try #require(report["satellites"] as? [[Any]])
            #expect(!satellites.isEmpty, "\(line)")
            // The simulated receiver of the test is powered at the daemon's start too, but its
            // first fix may come a few seconds later: the seconds both have a fix are compared.
            guard let time = report["time"] as? String, let expected = truth.satellites(at: time) else { continue }
            compared += 1
            let read = satellites.map { values in
                SimulatedSky.Satellite(
                    prn: values[0] as? Int ?? 0, elevation: values[1] as? Double ?? -1, azimuth: values[2] as? Double ?? -1,
                    signalStrength: (values[3] as? Double).flatMap { $0 < 0 ? nil : $0 }, used: values[4] as? Bool ?? false)
            }
            #expect(read == expected, "at \(time)")
            #expect(report["used"] as? Int == expected.filter(\.used).count)
        }
        #expect(compared >= 3, "compared \(compared) skies of \(output)")
    }

    @Test("cgps -s shows the satellite table: the simulated receiver's GPS and GLONASS satellites, by system and number")
    func cgpsSatellites() throws {
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let text = plainText(try endpoint.cgpsScreen())
        // A row is the system (`GP`, `GL`: from gnssid), the number in it (svid), then the PRN.
        let prns = try SimulatedSky(scenario: endpoint.scenario).prns
        let rows = text.matches(of: /(GP|GL)\s+(\d+)\s+(\d+)\s/).compactMap { row in
            Int(row.output.2).flatMap { svid in Int(row.output.3).map { (system: String(row.output.1), svid: svid, prn: $0) } }
        }
        #expect(rows.contains { $0.system == "GP" } && rows.contains { $0.system == "GL" }, "rows \(rows) on \(text.suffix(1_500))")
        for row in rows {
            #expect(prns.contains(row.prn) && row.prn == row.svid + (row.system == "GL" ? 64 : 0), "\(row)")
        }
    }

    @Test("gpxlogger writes a track whose every point Waymark delivered")
    func gpxlogger() throws {
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let output = try run("/usr/bin/gpxlogger", ["127.0.0.1:\(endpoint.port)"], seconds: 4)
        let points: [Position] = output.components(separatedBy: "<trkpt ").dropFirst().compactMap { point in
            let attributes = point.split(separator: "\"")
            guard attributes.count > 3, let latitude = Double(attributes[1]), let longitude = Double(attributes[3]),
                let time = point.components(separatedBy: "<time>").dropFirst().first?.components(separatedBy: "</time>").first
            else { return nil }
            return Position(latitude: latitude, longitude: longitude, time: time)
        }
        endpoint.expectWaymarksOwn(points, minimum: 2)
    }

    @Test("cgps -s under a pseudo-terminal shows one of Waymark's positions")
    func cgps() throws {
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let screen = try endpoint.cgpsScreen()
        // cgps prints 8 decimals of the 9 the gpsd protocol carries, so a shown coordinate is
        // within 0.55e-8° of Waymark's, not always its own rounding to 8 decimals.
        let latitudes = degrees(on: screen, hemisphere: "N"), longitudes = degrees(on: screen, hemisphere: "E")
        let shown = endpoint.waymark.filter { location in
            latitudes.contains { abs($0 - location.latitude) < 1e-8 } && longitudes.contains { abs($0 - location.longitude) < 1e-8 }
        }
        let text = plainText(screen)
        #expect(!shown.isEmpty, "cgps showed latitudes \(latitudes), longitudes \(longitudes) on \(text.suffix(600))")
    }

    @Test("hostile: 1 MiB without a terminator costs one ERROR, holds no more than a read, and the client is answered after it")
    func unterminatedFlood() throws {
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let client = try endpoint.greetedClient()
        try client.send(String(repeating: "?WATCH={\"device\":\"", count: 1 << 20 / 18) + "\"};\n?VERSION;")
        #expect(object(try client.readLine()) as NSDictionary? == ["class": "ERROR", "message": "Request too long"])
        #expect(object(try client.readLine())?["class"] as? String == "VERSION")
        #expect(endpoint.daemon.isRunning)
    }

    @Test("a watcher is sent a TPV of mode 1 alone when the sky is lost (a lift), then fixes again after it")
    func noFixInALift() throws {
        // 60 s of walking (a cold start, then fixes), 24 s in a lift without signal, then walking.
        let endpoint = try Endpoint(scenario: "walk 60s\nlift 24s up=12\nwalk 600s\n")
        defer { endpoint.stop() }
        let client = try endpoint.greetedClient()
        try client.send(#"?WATCH={"enable":true,"json":true};"#)
        // Reads TPVs until a fix, then a TPV of mode 1, then a fix again (each read fails after 10 s of silence).
        var phase = 0
        var noFix: [String: Any]?
        var modes: [Int] = []
        while phase < 3, modes.count < 400 {
            guard let report = object(try client.readLine()), report["class"] as? String == "TPV", let mode = report["mode"] as? Int
            else { continue }
            modes.append(mode)
            switch (phase, mode) {
            case (0, 2...), (2, 2...): phase += 1
            case (1, 1):
                noFix = report
                phase = 2
            default: break
            }
        }
        #expect(phase == 3, "TPV modes read: \(modes)")
        let report = try #require(noFix)
        #expect(Set(report.keys) == ["class", "device", "mode"], "\(report)")
        #expect((report["device"] as? String)?.isEmpty == false)
    }

    /// The simulated board with its PPS line, on the wall clock (speed 1), serving chronyd's
    /// SOCK refclock (the real chronyd, `-x`) and gpsd's clients at once. The scenario starts at
    /// the whole second before the daemon, so true minus local time stays under a few seconds
    /// and chronyd's log keeps it to a tenth of a microsecond.
    @Test(
        "PPS and TOFF: python3-gps with WATCH_PPS and raw clients read, for each pulse, what chronyd's SOCK refclock got",
        .enabled(if: Chronyd.unavailable == nil, "\(Chronyd.unavailable ?? "")"))
    func timeReports() async throws {
        let chronyd = try Chronyd()
        defer { chronyd.stop() }
        let directory = chronyd.directory
        let started = try await chronyd.start(["refclock SOCK \(directory)/pps.sock refid PPS poll 2"], waitFor: "\(directory)/pps.sock")
        try #require(started, "chronyd did not create its SOCK socket\n\(chronyd.output)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let board = try String(contentsOf: root.appendingPathComponent("Board/simulated.toml"), encoding: .utf8)
        try (board + "\n[chrony]\nsocket = \"\(directory)/pps.sock\"\n").write(toFile: "\(directory)/board.toml", atomically: true, encoding: .utf8)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        try "start \(ISO8601DateFormatter().string(from: start)) 47.3769 8.5417 408\nwalk 10m heading=90\n"
            .write(toFile: "\(directory)/walk.scenario", atomically: true, encoding: .utf8)
        let port = try freePort()
        let daemon = try DaemonProcess(
            ["--board", "\(directory)/board.toml", "--scenario", "\(directory)/walk.scenario", "--gpsd-port", "\(port)"])
        defer { daemon.stop() }

        // Watching JSON and PPS, and JSON alone: both keep the receiver on. After the cold start
        // (about half a minute to the first fix, hence the patience) a TOFF, then a PPS, each second.
        let timing = try LineClient(port: port, patience: 90)
        try timing.send(#"?WATCH={"enable":true,"json":true,"pps":true};"#)
        let plain = try LineClient(port: port, patience: 90)
        try plain.send(#"?WATCH={"enable":true,"json":true};"#)
        var timingLines: [String] = []
        while timingLines.filter({ $0.hasPrefix(#"{"class":"PPS""#) }).count < 4 || timingLines.filter({ $0.hasPrefix(#"{"class":"TOFF""#) }).count < 4 {
            timingLines.append(try timing.readLine())
        }
        let script = """
            import gps, json, sys
            session = gps.gps(host="127.0.0.1", port=sys.argv[1], mode=gps.WATCH_ENABLE | gps.WATCH_JSON | gps.WATCH_PPS)
            counts = {"PPS": 0, "TOFF": 0}
            for report in session:
                kind = report["class"]
                if kind == "PPS":  # what the module keeps of it
                    print(json.dumps({"class": "PPS", "real_sec": session.real_sec, "real_nsec": session.real_nsec,
                        "clock_sec": session.clock_sec, "clock_nsec": session.clock_nsec, "precision": session.precision}), flush=True)
                elif kind == "TOFF":
                    print(json.dumps(report.__dict__), flush=True)
                else:
                    continue
                counts[kind] += 1
                if min(counts.values()) >= 3:
                    break
            """
        let python = try run("/usr/bin/python3", ["-c", script, "\(port)"], seconds: 30)
        var plainLines: [String] = []
        while plainLines.filter({ $0.hasPrefix(#"{"class":"PPS""#) }).count < 3 { plainLines.append(try plain.readLine()) }
        daemon.stop()

        // gpsd 3.22's members, in its order, CR LF ended (readLine took the CR off).
        let number = "-?[0-9]+"
        let pulse = #"^\{"class":"PPS","device":"[^"]+","real_sec":N,"real_nsec":N,"clock_sec":N,"clock_nsec":N,"precision":-13\}$"#
            .replacingOccurrences(of: "N", with: number)
        let arrival = #"^\{"class":"TOFF","device":"[^"]+","real_sec":N,"real_nsec":N,"clock_sec":N,"clock_nsec":N\}$"#
            .replacingOccurrences(of: "N", with: number)
        let rawTime = (timingLines + plainLines).filter { $0.hasPrefix(#"{"class":"PPS""#) || $0.hasPrefix(#"{"class":"TOFF""#) }
        #expect(rawTime.allSatisfy { $0.range(of: pulse, options: .regularExpression) != nil || $0.range(of: arrival, options: .regularExpression) != nil }, "\(rawTime)")
        #expect(!plainLines.contains { $0.hasPrefix(#"{"class":"TOFF""#) }, "a client watching without pps got TOFF")

        let reports = (timingLines + plainLines + python.split(whereSeparator: \.isNewline).map(String.init)).compactMap(TimeReport.init)
        let pulses = reports.filter { $0.kind == "PPS" }, arrivals = reports.filter { $0.kind == "TOFF" }
        #expect(pulses.count >= 10 && arrivals.count >= 7, "\(pulses.count) PPS, \(arrivals.count) TOFF; python3-gps printed:\n\(python)")
        // chronyd logs each sample at its corrected time with the raw and corrected offsets: the
        // sample's true second is time + cooked, the local time it was sent with time + cooked - raw.
        let logged = chronyd.refclockSamples()["PPS", default: []]
        let bySecond = Dictionary(logged.map { (Int64(($0.time + $0.cooked).rounded()), $0) }, uniquingKeysWith: { first, _ in first })
        for report in pulses {
            #expect(report.real.nanoseconds == 0 && report.precision == -13)
            guard let sample = bySecond[report.real.seconds] else {
                Issue.record("chronyd logged no sample for \(report.real.seconds): \(logged)\n\(chronyd.output)")
                continue
            }
            #expect(abs(report.offset - sample.raw) < 1e-6, "PPS offset \(report.offset), chronyd's raw \(sample.raw)")
            #expect(abs(report.clockTime - (sample.time + sample.cooked - sample.raw)) < 5e-6)
        }
        // Each TOFF is its second's first sentence: later than that second's PPS by the simulated
        // receiver's output latency and the epoch's time on the UART (over 50 ms, under a second).
        let pulseClock = Dictionary(pulses.map { ($0.real.seconds, $0.clockTime) }, uniquingKeysWith: { first, _ in first })
        let latencies = arrivals.compactMap { toff in pulseClock[toff.real.seconds].map { toff.clockTime - $0 } }
        #expect(arrivals.allSatisfy { $0.real.nanoseconds == 0 })
        #expect(latencies.count >= 6 && latencies.allSatisfy { $0 > 0.05 && $0 < 0.99 }, "TOFF after PPS by \(latencies)")
        print("gpsd PPS: \(pulses.count) reports matched chronyd's samples, offset \(pulses.first?.offset ?? .nan) s; TOFF late by \(latencies.min() ?? .nan)...\(latencies.max() ?? .nan) s")
    }

    @Test("a client that closes while nothing is sent to it is let go, as gpsd does at the end of a client's input")
    func closedClientsAreLetGo() throws {
        // A TCP peer's close reports no hangup, only the end of its input; before the fix the
        // daemon kept each such client, its descriptor and its subscription, until a write failed.
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let before = try daemonStatus()["clients"] as? Int
        for _ in 0..<20 {
            let client = try endpoint.greetedClient()
            try client.send("?DEVICES;")
            #expect(object(try client.readLine())?["class"] as? String == "DEVICES")
        }
        let deadline = Date().addingTimeInterval(10)
        while try daemonStatus()["clients"] as? Int != before, Date() < deadline { usleep(50_000) }
        #expect(try daemonStatus()["clients"] as? Int == before)
    }

    @Test("a watching gpsd client holds a subscription, shows in status, and ?POLL answers from the last fix, with its satellites")
    func watchHoldsASubscription() throws {
        let endpoint = try Endpoint()
        defer { endpoint.stop() }
        let client = try endpoint.greetedClient()
        #expect(try daemonStatus()["liveSubscriptions"] as? Int == 1)  // waymark watch's alone

        try client.send(#"?WATCH={"enable":true,"json":true};"#)
        while object(try client.readLine())?["class"] as? String != "TPV" {}
        let watching = try daemonStatus()
        #expect(watching["liveSubscriptions"] as? Int == 2)
        let apps = watching["connectedApps"] as? [[String: Any]] ?? []
        #expect(apps.contains { $0["uid"] as? Int == Int(getuid()) && $0["pid"] as? Int == 0 })

        try client.send(#"?WATCH={"enable":false};"#)
        while object(try client.readLine())?["class"] as? String != "WATCH" {}
        let deadline = Date().addingTimeInterval(10)
        while try daemonStatus()["liveSubscriptions"] as? Int != 1, Date() < deadline { usleep(50_000) }
        #expect(try daemonStatus()["liveSubscriptions"] as? Int == 1)

        try client.send("?POLL;")
        var poll: [String: Any]?
        while poll == nil {
            let line = object(try client.readLine())
            if line?["class"] as? String == "POLL" { poll = line }
        }
        let tpv = try #require((poll?["tpv"] as? [[String: Any]])?.first)
        let time = try #require(tpv["time"] as? String)
        // The last fix, or one just before it if a fix came in between.
        #expect(endpoint.waymark.suffix(3).contains { $0.time == time })
        // The client sees the location as it is (no authorization is enforced here), so the sky too.
        let sky = try #require((poll?["sky"] as? [[String: Any]])?.first)
        let prns = try SimulatedSky(scenario: endpoint.scenario).prns
        let satellites = sky["satellites"] as? [[String: Any]] ?? []
        #expect(!satellites.isEmpty && satellites.allSatisfy { prns.contains($0["PRN"] as? Int ?? 0) }, "\(sky)")
    }
}
}

/// A curses screen's text with its escape sequences as spaces.
private func plainText(_ screen: String) -> String {
    screen.replacing(/\x1B(\[[0-9;?]*[A-Za-z]|[()][0-9A-Z]|[=>])/, with: " ")
}

/// waymarkd's `status`, asked on its socket in its own protocol.
private func daemonStatus() throws -> [String: Any] {
    let client = try LineClient(unixSocket: DaemonProcess.socket)
    try client.send(#"{"id":1,"op":"hello","version":2}"# + "\n" + #"{"id":2,"op":"status"}"# + "\n")
    while true {
        let reply = object(try client.readLine())
        if reply?["id"] as? Int == 2, let status = (reply?["result"] as? [String: Any])?["status"] as? [String: Any] { return status }
    }
}

/// A PPS or TOFF report a gpsd client read (raw, or as python3-gps kept it).
private struct TimeReport {
    var kind: String
    var real: (seconds: Int64, nanoseconds: Int64)
    var clock: (seconds: Int64, nanoseconds: Int64)
    var precision: Int?

    init?(_ line: String) {
        guard let report = object(line), let kind = report["class"] as? String, kind == "PPS" || kind == "TOFF",
            let realSeconds = report["real_sec"] as? Int64, let realNanoseconds = report["real_nsec"] as? Int64,
            let clockSeconds = report["clock_sec"] as? Int64, let clockNanoseconds = report["clock_nsec"] as? Int64
        else { return nil }
        self.kind = kind
        real = (realSeconds, realNanoseconds)
        clock = (clockSeconds, clockNanoseconds)
        precision = report["precision"] as? Int
    }

    /// The local time of the event, seconds since 1970.
    var clockTime: Double { Double(clock.seconds) + Double(clock.nanoseconds) / 1e9 }

    /// True minus local time, seconds.
    var offset: Double { Double(real.seconds - clock.seconds) + Double(real.nanoseconds - clock.nanoseconds) / 1e9 }
}

/// A position a gpsd client read.
struct Position {
    var latitude: Double
    var longitude: Double
    var time: String
}

/// Whether a test's feeding thread is to stop.
/// waymarkd on a pseudo-terminal fed a capture's sentences over and over, about 50 a second as
/// a receiver on a UART, serving gpsd's clients on a free port.
final class FedReceiver: @unchecked Sendable {
    /// The capture's sentences.
    let sentences: [String]
    let port: UInt16
    private let daemon: DaemonProcess
    private let lock = NSLock()
    private var done = false

    init(capture name: String) throws {
        let capture = String(decoding: try Fixtures.capture(name), as: UTF8.self)
        sentences = capture.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$") }.map { String($0) }
        let receiver = try PseudoTerminal()
        port = try freePort()
        daemon = try DaemonProcess(["--device", receiver.secondaryPath, "--gpsd-port", "\(port)"])
        Thread { [self] in
            while !isDone {
                for sentence in sentences where !isDone {
                    try? receiver.primary.writeAll(Array((sentence + "\r\n").utf8), patience: .seconds(1))
                    usleep(20_000)
                }
            }
            try? receiver.close()
        }.start()
    }

    private var isDone: Bool { lock.withLock { done } }

    func stop() {
        lock.withLock { done = true }
        daemon.stop()
    }
}

/// Positions in the order `waymark watch` printed them, from its reading thread.
final class Recorded: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Position] = []
    func append(_ position: Position) { lock.withLock { stored.append(position) } }
    var positions: [Position] { lock.withLock { stored } }
}

private func object(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}

/// The `lat`, `lon` and `time` of each TPV line in `text`.
private func positions(in text: String) -> [Position] {
    text.split(whereSeparator: \.isNewline).compactMap { line in
        guard let report = object(String(line)), report["class"] as? String == "TPV", let latitude = report["lat"] as? Double,
            let longitude = report["lon"] as? Double, let time = report["time"] as? String
        else { return nil }
        return Position(latitude: latitude, longitude: longitude, time: time)
    }
}

/// A TCP port free now on 127.0.0.1 (bound and released; the daemon binds it next).
func freePort() throws -> UInt16 {
    let listener = try LoopbackTCPListener(port: 0)
    defer { try? listener.close() }
    return listener.port
}

/// Runs a gpsd client, unmodified (``ClientProgram``), for at most `seconds`.
/// The coordinates a curses screen shows as `47.37743050 N`: whole numbers with 8 decimals
/// followed by the hemisphere (later redraws rewrite only changed digits and are not found).
private func degrees(on screen: String, hemisphere: Character) -> [Double] {
    let characters = Array(screen)
    return characters.indices.compactMap { end -> Double? in
        guard end + 2 < characters.count, characters[end + 1] == " ", characters[end + 2] == hemisphere, end >= 9,
            characters[end - 8] == "."
        else { return nil }
        var start = end - 8
        while start > 0, characters[start - 1].isASCII, characters[start - 1].isNumber { start -= 1 }
        return Double(String(characters[start...end]))
    }
}

private func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], seconds: Double = 20) throws -> String {
    guard let output = try ClientProgram.output(of: executable, arguments, environment: environment, seconds: seconds) else {
        throw DaemonError.didNotStart("\(executable) is not installed (Debian gpsd-clients, python3-gps)")
    }
    return output
}

/// A raw client of a line protocol over TCP on 127.0.0.1 or a Unix socket, for what the
/// Debian clients do not show.
private final class LineClient {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    /// A client of 127.0.0.1:`port` whose reads fail after `patience` seconds without a line.
    convenience init(port: UInt16, patience: Int = 10) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        try self.init(family: AF_INET, address: address, "127.0.0.1:\(port)", patience: patience)
    }

    convenience init(unixSocket path: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        try self.init(family: AF_UNIX, address: address, path, patience: 10)
    }

    private init<Address>(family: Int32, address: Address, _ name: String, patience: Int) throws {
        descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: patience, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = address
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<Address>.size)) == 0 }
        }
        guard connected else {
            close(descriptor)
            throw DaemonError.didNotStart("cannot connect to \(name): errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw DaemonError.didNotStart("send failed") }
    }

    /// The next line (without CR LF); fails after its patience without one.
    func readLine() throws -> String {
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                let line = pending[..<end]
                pending.removeSubrange(...end)
                return String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { throw DaemonError.didNotStart("the peer closed or went silent") }
            pending += buffer[..<count]
        }
    }
}

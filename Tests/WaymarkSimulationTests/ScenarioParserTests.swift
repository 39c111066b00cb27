import Testing
import WaymarkClock
import WaymarkLocation
import WaymarkSimulation

@Suite("Scenario files")
struct ScenarioParserTests {
    @Test("every shipped scenario parses", arguments: ScenarioFiles.names)
    func shipped(name: String) throws {
        let scenario = try ScenarioFiles.scenario(name)
        #expect(!scenario.segments.isEmpty)
        #expect(scenario.name == "\(name).scenario")
    }

    @Test("desk-day has the issue's shape: 8 h, 20 min walking, 40 min driving with 10 stops of 30–90 s")
    func deskDayShape() throws {
        let scenario = try ScenarioFiles.scenario("desk-day")
        #expect(scenario.duration == .seconds(8 * 3_600))
        let walking = scenario.segments.filter { $0.kind == .walk }.reduce(Duration.zero) { $0 + $1.duration }
        #expect(walking == .seconds(20 * 60))
        let drives = scenario.segments.filter { $0.kind == .drive }
        #expect(drives.count == 1)
        #expect(drives.first?.duration == .seconds(40 * 60))
        #expect(drives.first?.plan == .drive(heading: 110, speed: 14, stops: 10, stopLength: .seconds(30) ... .seconds(90), acceleration: 2))
    }

    @Test("blank and comment lines cost nothing but reading: a million of them, CRLF line ends, and the last line without its end")
    func manyBlankAndCommentLines() throws {
        let noise = String(repeating: "\n# a comment\r\n   \r\n", count: 500_000)
        let scenario = try ScenarioParser.parse(noise + "start 2026-11-23T08:00:00Z 47 8 400\r\n" + noise + "desk 1h\r\nwalk 10m", file: "noisy.scenario")
        #expect(scenario.segments.map(\.duration) == [.seconds(3600), .seconds(600)])
        #expect(scenario.segments.map(\.line) == [3_000_002, 3_000_003])
    }

    @Test("a full example: start line, comments, every kind and option")
    func fullExample() throws {
        let text = """
            # a comment line
            start 2026-11-23T08:00:00Z 47.3769 -8.5417 408   # trailing comment

            desk 1h30m typing door-slams=2/h
            still 90s
            walk 1.5h heading=40 speed=1.2
            drive 20m stops=3 stop=20..40s speed=12
            idle-car 500ms
            lift 30s down=9m speed=1
            flight 1h altitude=5000m speed=200 heading=10
            """
        let scenario = try ScenarioParser.parse(text, file: "example.scenario")
        #expect(scenario.startTime == Timestamp(date: CivilDate(year: 2026, month: 11, day: 23), hour: 8, minute: 0, second: 0, nanoseconds: 0))
        #expect(scenario.origin == GeoPoint(latitude: 47.3769, longitude: -8.5417, altitude: 408))
        #expect(scenario.segments.map(\.plan) == [
            .desk(typing: true, doorSlamsPerHour: 2),
            .still,
            .walk(heading: 40, speed: 1.2),
            .drive(heading: nil, speed: 12, stops: 3, stopLength: .seconds(20) ... .seconds(40), acceleration: 2),
            .idleCar,
            .lift(rise: -9, speed: 1, acceleration: 0.8),
            .flight(heading: 10, speed: 200, altitude: 5_000),
        ])
        #expect(scenario.segments.map(\.duration) == [
            .seconds(5_400), .seconds(90), .seconds(5_400), .seconds(1_200), .milliseconds(500), .seconds(30), .seconds(3_600),
        ])
        #expect(scenario.segments.map(\.line) == [4, 5, 6, 7, 8, 9, 10])
    }

    @Test("defaults: walking 1.4 m/s, driving 14 m/s without stops, stops of 30–90 s, lifts at 1.5 m/s")
    func defaults() throws {
        let text = "start 2026-11-23T08:00:00Z 0 0\nwalk 1m\ndrive 5m\ndrive 5m stops=2\nlift 1m up=10m\nflight 1h\ndesk 1m"
        let plans = try ScenarioParser.parse(text, file: "d").segments.map(\.plan)
        #expect(plans == [
            .walk(heading: nil, speed: 1.4),
            .drive(heading: nil, speed: 14, stops: 0, stopLength: .seconds(30) ... .seconds(90), acceleration: 2),
            .drive(heading: nil, speed: 14, stops: 2, stopLength: .seconds(30) ... .seconds(90), acceleration: 2),
            .lift(rise: 10, speed: 1.5, acceleration: 0.8),
            .flight(heading: nil, speed: 230, altitude: 11_000),
            .desk(typing: false, doorSlamsPerHour: 0),
        ])
    }

    @Test("accel= sets how hard a drive pulls off and a lift starts, and shapes their trajectory")
    func acceleration() throws {
        let scenario = try ScenarioParser.parse(Self.start + "drive 2m speed=10 accel=0.5\nlift 30s down=6m accel=1.2\n", file: "accel")
        #expect(scenario.segments.map(\.plan) == [
            .drive(heading: nil, speed: 10, stops: 0, stopLength: .seconds(30) ... .seconds(90), acceleration: 0.5),
            .lift(rise: -6, speed: 1.5, acceleration: 1.2),
        ])
        // 0.5 m/s² takes 20 s to reach 10 m/s: 5 m/s after 10 s.
        let trajectory = Trajectory(scenario: scenario, seed: 1)
        #expect(abs(trajectory.truth(at: .zero + .seconds(10)).speed - 5) < 1e-9)
    }

    static let start = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408\n"

    /// Each mistake with its line and a fragment of the message and of the suggestion.
    static let mistakes: [(text: String, line: Int, message: String, suggestion: String)] = [
        ("", 1, "no start line", "begin the file with `start "),
        ("# only a comment\n", 1, "no start line", "begin the file with"),
        ("desk 1h\n", 1, "'desk' before the start line", "begin the file with `start "),
        (start + start, 2, "a second start line", "keep one start line"),
        ("start 2026-11-23T08:00:00Z 47\n", 1, "needs a time, a latitude, a longitude", "write `start 2026-11-23T08:00:00Z"),
        ("start 2026-13-23T08:00:00Z 47 8\n", 1, "'2026-13-23T08:00:00Z' is not a UTC time", "2026-11-23T08:00:00Z"),
        ("start 2026-11-23T08:00:00 47 8\n", 1, "is not a UTC time", "write it as"),
        ("start 2026-11-23T08:00:00Z 95 8\n", 1, "'95' is not a latitude", "between -85 and 85"),
        // Scripts/fuzz found a start time beyond 2261 trapping in Timestamp.init.
        ("start 4048-11-23T08:00:00Z 47.3769 8.5417 408\ndesk 1h\n", 1, "'4048-11-23T08:00:00Z' is not a UTC time", "2026-11-23T08:00:00Z"),
        ("start 2026-11-23T08:00:00Z 47 east\n", 1, "'east' is not a longitude", "between -180 and 180"),
        ("start 2026-11-23T08:00:00Z 47 8 high\n", 1, "'high' is not an altitude", "metres above sea level"),
        (start, 1, "no segments", "add at least one line"),
        (start + "wlak 10m\n", 2, "unknown segment 'wlak'", "write one of desk, still, walk, drive, idle-car, lift, flight"),
        (start + "walk\n", 2, "'walk' needs a duration", "`walk 10m`"),
        (start + "walk ten\n", 2, "'ten' is not a duration", "such as 1h30m, 90s or 1.5h"),
        (start + "walk 10x\n", 2, "'10x' is not a duration", "h, m, s or ms"),
        (start + "walk 0s\n", 2, "'0s' is shorter than 1 ms", "1 ms or more"),
        (start + "walk 0.000001ms\n", 2, "'0.000001ms' is shorter than 1 ms", "1 ms or more"),
        (start + "walk 1h1h1h1h\n", 2, "'1h1h1h1h' is not a duration", "larger units first"),
        (start + "walk 30m1h\n", 2, "'30m1h' is not a duration", "larger units first"),
        (start + "desk 2778h\n", 2, "'2778h' is longer than 10,000,000 s", "split it into several segments"),
        (start + "desk 2700h\ndesk 2700h\n", 3, "would last more than", "split it into several runs"),
        (start + String(repeating: "still 1s\n", count: ScenarioParser.maximumSegments + 1), ScenarioParser.maximumSegments + 2,
            "more than 10000 segments", "split the scenario"),
        (start + "walk 10m speeed=2\n", 2, "walk has no option 'speeed'", "its options are heading=<degrees from north>, speed=<metres per second>"),
        (start + "idle-car 1m speed=2\n", 2, "idle-car has no option 'speed'", "it takes no options"),
        (start + "walk 10m speed=2 speed=3\n", 2, "'speed' given twice", "keep one"),
        (start + "desk 1h typing=yes\n", 2, "'typing=yes' is written wrongly", "write `typing`"),
        (start + "walk 10m heading\n", 2, "'heading' is written wrongly", "write `heading=<degrees from north>`"),
        (start + "walk 10m speed=fast\n", 2, "'speed=fast' is out of range or not a number", "from 0.1 to 8.0"),
        (start + "walk 10m heading=400\n", 2, "'heading=400' is out of range", "from 0.0 to 360.0"),
        (start + "drive 10m stops=many\n", 2, "'stops=many' is not a count", "a whole number from 0 to 500"),
        (start + "drive 10m stop=90..30s\n", 2, "'stop=90..30s' is not a range of durations", "such as stop=30..90s"),
        (start + "drive 5m stops=10\n", 2, "10 stops of up to 90.0 seconds leave no time to drive", "make the drive longer"),
        (start + "desk 1h door-slams=often\n", 2, "'door-slams=often' is not a rate", "such as door-slams=2/h"),
        (start + "lift 30s\n", 2, "a lift goes either up or down", "`up=12m` or `down=12m`"),
        (start + "lift 30s up=3m down=3m\n", 2, "a lift goes either up or down", "write one of"),
        (start + "lift 5s up=40m\n", 2, "a ride of 40.0 m at 1.5 m/s takes", "make the lift segment at least that long"),
        (start + "lift 10s up=12m accel=0.1\n", 2, "a ride of 12.0 m at 1.5 m/s takes", "make the lift segment at least that long"),
        (start + "drive 10m accel=0\n", 2, "'accel=0' is out of range or not a number", "from 0.1 to 9.8"),
        (start + "lift 30s up=3m accel=12\n", 2, "'accel=12' is out of range or not a number", "from 0.1 to 9.8"),
        (start + "flight 20m\n", 2, "a climb to 11000 m and the descent take longer than the flight", "at least 49m or cruise lower"),
    ]

    @Test("every mistake is reported with its file, line and what to write instead", arguments: mistakes.indices)
    func mistake(index: Int) {
        let mistake = Self.mistakes[index]
        #expect {
            _ = try ScenarioParser.parse(mistake.text, file: "bad.scenario")
        } throws: { error in
            guard let error = error as? ScenarioError else { return false }
            let matches = error.file == "bad.scenario" && error.line == mistake.line
                && error.message.contains(mistake.message) && error.suggestion.contains(mistake.suggestion)
            if !matches { Issue.record("got: \(error)") }
            return matches && error.description.hasPrefix("bad.scenario:\(mistake.line): ")
        }
    }
}

import Foundation
import Testing
import WaymarkLocation
import WaymarkPowerProfile

@testable import WaymarkCLI

/// The tool as people use it: versions, names resolved from anywhere, output for pipes and
/// terminals, numbers without a float's noise.
@Suite("waymark and waymarkd as tools")
struct ToolTests {
    @Test("both binaries print their version")
    func versions() throws {
        let tool = try runWaymark(["--version"])
        #expect(tool.status == 0 && tool.output == "0.1.0\n")
        let daemon = try runWaymark(["--version"], program: "waymarkd")
        #expect(daemon.status == 0 && daemon.output == "waymarkd 0.1.0\n")
    }

    @Test("board and scenario names resolve from any working directory; the summary goes to standard output")
    func namesResolveFromAnywhere() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-power-run-\(getpid())")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try runWaymark(
            ["power-run", "--board", "simulated", "--scenario", "demo", "--output", output.path],
            directory: URL(fileURLWithPath: "/"))
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("GPS energy"))
        #expect(!run.error.contains("GPS energy"))
        // A folder named like them in the working directory (a run's own output, say) hides
        // neither: only a file there is taken for the name.
        try FileManager.default.createDirectory(at: output.appendingPathComponent("demo"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: output.appendingPathComponent("simulated"), withIntermediateDirectories: true)
        let shadowed = try runWaymark(
            ["power-run", "--board", "simulated", "--scenario", "demo", "--output", output.appendingPathComponent("again").path],
            directory: output)
        #expect(shadowed.status == 0, "\(shadowed.error)")
        let doctor = try runWaymark(["doctor", "--board", "no-such-board"], directory: URL(fileURLWithPath: "/"))
        #expect(doctor.status != 0)
        #expect((doctor.output + doctor.error).contains("Board/no-such-board.toml"))
    }

    @Test(
        "a board or scenario named by a file here that the user cannot read says so (it said the shipped Board/NAME.toml did not exist)",
        .enabled(if: geteuid() == 0, "setpriv needs root"))
    func anUnreadableFileHereIsNamed() throws {
        let directory = try CLIFixtures.makeDirectory("unreadable")
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["my-board", "my-day"] {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data("x".utf8), attributes: [.posixPermissions: 0])
        }
        let nobody: UInt32 = 65_534
        let doctor = try runWaymark(["doctor", "--board", "my-board"], directory: directory, user: nobody)
        let daemon = try runWaymark(["--socket", directory.appendingPathComponent("s").path, "--scenario", "my-day"], program: "waymarkd", directory: directory, user: nobody)
        let run = try runWaymark(["power-run", "--scenario", "my-day", "--output", directory.path], directory: directory, user: nobody)
        for (status, error, name) in [(doctor.status, doctor.output + doctor.error, "my-board"), (daemon.status, daemon.error, "my-day"), (run.status, run.error, "my-day")] {
            #expect(status != 0)
            #expect(error.contains("Permission denied") && error.contains(name) && !error.contains("No such file"), "\(error)")
        }
    }

    @Test("an --output that cannot be a directory fails before the run, not after the simulated day")
    func outputCheckedFirst() throws {
        for (output, reason) in [("/dev/null", "it is not a directory"), ("/proc/waymark", "cannot create '/proc/waymark'")] {
            // After the run it was "cannot write '/dev/null/report.json': Not a directory".
            let run = try runWaymark(["power-run", "--scenario", "demo", "--output", output])
            #expect(run.status != 0 && run.error.contains(reason), "\(output): \(run.error)")
        }
    }

    @Test("numbers are written at their resolution, negative ones too")
    func numbers() {
        #expect(PowerRunReport.twoDecimals(-0.5) == "-0.50")
        #expect(PowerRunReport.twoDecimals(-12.345) == "-12.35" || PowerRunReport.twoDecimals(-12.345) == "-12.34")
        #expect(PowerRunReport.twoDecimals(1118.1000000000001) == "1118.10")
        #expect(HumanText.number(47.376912345678, 7) == "47.3769123")
        #expect(HumanText.duration(seconds: 45.9) == "45 s")
        #expect(HumanText.duration(seconds: 725) == "12 min 05 s")
        #expect(HumanText.duration(seconds: 3 * 3_600 + 7 * 60 + 30) == "3 h 07 min")
    }

    @Test("an unknown scenario is refused with the shipped ones named, by waymarkd as by power-run (waymarkd named none)")
    func anUnknownScenarioNamesTheShippedOnes() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-tool-\(getpid()).sock").path
        let daemon = try runWaymark(["--socket", socket, "--scenario", "no-such-day"], program: "waymarkd")
        let run = try runWaymark(["power-run", "--board", "simulated", "--scenario", "no-such-day"])
        for (status, error) in [(daemon.status, daemon.error), (run.status, run.error)] {
            #expect(status != 0)
            #expect(error.contains("cannot read the scenario 'Scenarios/no-such-day.scenario'"))
            #expect(error.contains("the shipped ones are ") && error.contains("desk-day"))
        }
    }

    @Test("a scenario's control bytes are escaped in the message, by waymarkd as by power-run (they reached the terminal raw)")
    func aFilesControlBytesAreEscaped() throws {
        let scenario = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-hostile-\(getpid()).scenario")
        defer { try? FileManager.default.removeItem(at: scenario) }
        try Data("start 2026-11-23T08:00:00Z 47.3769 8.5417 408\n\u{1}\u{1b}]0;owned\u{7}\u{1b}[31mbogus 1\n".utf8).write(to: scenario)
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-tool-\(getpid()).sock").path
        let daemon = try runWaymark(["--socket", socket, "--scenario", scenario.path], program: "waymarkd")
        let run = try runWaymark(["power-run", "--scenario", scenario.path])
        for (status, error) in [(daemon.status, daemon.error), (run.status, run.error)] {
            #expect(status != 0)
            #expect(error.contains(#"unknown segment '\u{1}\u{1b}]0;owned\u{7}\u{1b}[31mbogus'"#), "\(error)")
            #expect(!error.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        }
    }

    @Test("options refused show their own command's usage (power-run's and watch's showed waymark's); --travel without --geofences is refused (it was ignored)", arguments: [
        ["power-run", "--geofences", "0"], ["power-run", "--minimum-interval", "nan"], ["power-run", "--geofences", "50", "--travel", "flying"],
        ["power-run", "--configuration", "bogus"], ["power-run", "--travel", "walking"], ["watch", "--configuration", "bogus"],
        // A supply of no volts, or of nan or 1e308, was multiplied into the energy.
        ["power-report", "--log", "a.csv", "--meter", "b.csv", "--volts=-3"], ["power-report", "--log", "a.csv", "--meter", "b.csv", "--volts", "nan"],
        ["power-report", "--log", "a.csv", "--meter", "b.csv", "--volts", "1e308"],
    ])
    func refusedOptionsShowTheirCommandsUsage(arguments: [String]) throws {
        let result = try runWaymark(arguments)
        #expect(result.status == 64)
        #expect(result.error.contains("Usage: waymark \(arguments[0]) "), "\(result.error)")
    }

    @Test("a negative number is taken as the option's value and refused for what it is (it was \"Missing value\"); durations and a shunt of nan or none are refused", arguments: [
        (["request", "--timeout", "-1"], "--timeout must be"), (["request", "--accuracy", "-5"], "--accuracy must be"),
        (["power-run", "--minimum-interval", "-1"], "--minimum-interval must be"), (["power-run", "--batch", "-2"], "--batch must be"),
        (["power-run", "--geofences", "-50"], "--geofences must be"), (["power-report", "--log", "a", "--meter", "b", "--volts", "-3"], "--volts must be"),
        (["doctor", "--board", "simulated", "--seconds", "-5"], "--seconds must be 1 to 600"), (["doctor", "--board", "simulated", "--seconds", "0"], "--seconds must be 1 to 600"),
        (["power-log", "--output", "x.csv", "--duration", "-1"], "--duration must be"), (["power-log", "--output", "x.csv", "--duration", "nan"], "--duration must be"),
        (["power-log", "--output", "x.csv", "--shunt-ohms", "inf"], "--shunt-ohms must be"), (["power-log", "--output", "x.csv", "--rate", "-1"], "--rate must be"),
    ])
    func negativeNumbersAreValues(arguments: [String], expected: String) throws {
        let result = try runWaymark(arguments)
        #expect(result.status == 64)
        #expect(result.error.contains(expected) && !result.error.contains("Missing value"), "\(result.error)")
    }

    @Test("power-report names the file whose line is wrong (it said only the line)")
    func powerReportNamesTheFile() throws {
        let directory = try CLIFixtures.makeDirectory("report")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("run.csv").path
        let meter = directory.appendingPathComponent("meter.csv").path
        try Data("time,kind,from,state,current_mA,reason\n1.0,transition,off,acquiring,,start\n".utf8).write(to: URL(fileURLWithPath: log))
        try Data("1.0,5.0\n0.5,5.0\n".utf8).write(to: URL(fileURLWithPath: meter))
        let result = try runWaymark(["power-report", "--log", log, "--meter", meter])
        #expect(result.status == 1)
        #expect(result.error.contains("\(meter): line 2: the time goes back"), "\(result.error)")
    }

    @Test("an update from a client without its daemon claims no motion, where it said moving")
    func noMotionWithoutTheDaemon() {
        var diagnostics = Diagnostics()
        diagnostics.daemonUnavailable = true
        #expect(HumanText.line(LocationUpdate(location: nil, diagnostics: diagnostics)) == "no location  daemonUnavailable")
        #expect(HumanText.line(LocationUpdate(location: nil, isStationary: false)) == "no location  moving")
        #expect(HumanText.line(LocationUpdate(location: nil, isStationary: true)) == "no location  stationary")
    }

    @Test("the progress bar fits the terminal, however narrow", arguments: [200, 80, 40, 20, 10, 3, 1])
    func progressBarFits(columns: Int) {
        let line = ProgressBar.line(label: "full-day on Quectel L76 + MPU-6050 board", percent: 42, columns: columns)
        #expect(line.count <= max(columns - 1, 0))
        if columns >= 40 { #expect(line.hasSuffix(" 42%")) }
    }
}

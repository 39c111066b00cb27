import ArgumentParser
import WaymarkBoard
import WaymarkClock
import WaymarkLocation
import WaymarkMonitoring
import WaymarkPowerProfile
import WaymarkProtocol
import WaymarkReceiver
import WaymarkSimulation
import WaymarkSystem

/// `waymark power-run`: a power-profile run of the real engine and power policy against the
/// simulated board, compressed in time.
struct PowerRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power-run",
        abstract: "Simulate a scenario on a board and report what the GPS cost.",
        discussion: """
            Runs the real engine and power policy against the simulated board as fast as the \
            CPU allows, with one live subscription held all the time, and reports energy per \
            receiver state next to the always-on and oracle baselines, resume latencies, metres \
            moved without fixes, false wakes and power cycles. Writes report.json, \
            timeline.csv and timeline.svg to --output (and, for --scenario generated:N, \
            the generated day as generated.scenario).
            """
    )

    @Option(name: .long, help: ArgumentHelp("A board file, or the name of a shipped one (e.g. simulated, quectel-l76-mpu6050).", valueName: "BOARD"))
    var board = "simulated"

    @Option(name: .long, help: ArgumentHelp("A scenario file, the name of a shipped one such as desk-day (an unknown name lists them), or generated:N for the day ScenarioGenerator draws from seed N.", valueName: "SCENARIO"))
    var scenario = "desk-day"

    @Option(name: .long, help: "The live-updates configuration: default, automotiveNavigation, otherNavigation, fitness, airborne.")
    var configuration = "default"

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The subscription's minimum interval between locations (seconds, 0 to 86400).", valueName: "SECONDS"))
    var minimumInterval = 0.0

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Deliver the subscription's locations in batches, each held at most this long (seconds, 0 to 86400).", valueName: "SECONDS"))
    var batch: Double?

    @Option(name: .long, parsing: .unconditional, help: "The simulation's random seed.")
    var seed: UInt64 = 1

    @Flag(name: .long, help: "Run as if the board had no accelerometer (GPS-only stationary detection).")
    var noAccelerometer = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Instead of a live subscription, only geofences: a circle of this radius (metres) around each place the scenario stays at.", valueName: "METRES"))
    var geofences: Double?

    @Option(name: .long, help: "With --geofences, the travel mode whose speed bounds the next fix: walking, cycling, driving (the default).")
    var travel: String?

    @Option(name: .long, help: ArgumentHelp("Where to write report.json, timeline.csv and timeline.svg.", valueName: "DIRECTORY"))
    var output = "power-run"

    func validate() throws {
        guard LiveConfiguration(rawValue: configuration) != nil else {
            throw ValidationError("--configuration must be one of \(LiveConfiguration.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let maximum = DeliveryOptions.maximumInterval.seconds
        guard (0...maximum).contains(minimumInterval) else { throw ValidationError("--minimum-interval must be 0 to \(Int(maximum)) seconds") }
        if let batch, !(0...maximum).contains(batch) { throw ValidationError("--batch must be 0 to \(Int(maximum)) seconds") }
        guard travelMode != nil else { throw ValidationError("--travel must be one of walking, cycling, driving") }
        if let geofences, !CircularRegion.radiusRange.contains(geofences) { throw ValidationError("--geofences must be 1 to 100000 metres") }
        if geofences == nil, travel != nil { throw ValidationError("--travel applies to --geofences only") }
    }

    /// `--travel`'s mode, driving when not given; `nil` for a name that is none.
    private var travelMode: TravelMode? {
        TravelMode.allCases.first { "\($0)" == travel ?? "driving" }
    }

    func run() throws {
        let liveConfiguration = LiveConfiguration(rawValue: configuration) ?? .default
        let boardDefinition = try loadBoard()
        let (scenarioText, scenarioName) = try loadScenario()
        var setup = PowerRunSetup(
            scenario: try ScenarioParser.parse(scenarioText, file: scenarioName), profile: boardDefinition.profile, seed: seed, configuration: liveConfiguration,
            accelerometer: noAccelerometer ? nil : boardDefinition.accelerometer,
            poweredDownState: boardDefinition.poweredDownState)
        setup.options = DeliveryOptions(minimumInterval: .seconds(minimumInterval), batching: batch.map { Batching(timeout: .seconds($0)) })
        if let geofences, let travelMode { setup.consumer = .geofences(radius: geofences, travel: travelMode) }
        try prepareOutput()
        let started = MonotonicInstant.now
        var progress = ProgressBar(label: "\(setup.scenario.name) on \(boardDefinition.name)")
        let report = PowerRun.run(setup) { progress.update($0) }
        progress.finish()
        let elapsed = MonotonicInstant.now - started
        try write(report)
        if scenario.hasPrefix(ScenarioGenerator.namePrefix) { try OutputFile.write(Array(scenarioText.utf8), to: output + "/generated.scenario") }
        try StandardOutput().write(Array(PowerRunSummary(report: report, elapsed: elapsed, output: output).text.utf8))
    }

    /// Makes `--output` before the run, so that one it cannot be fails at once, not after
    /// the simulated day (and after the board and scenario are read, so that a mistyped name
    /// leaves no empty directory behind).
    private func prepareOutput() throws {
        let created: Bool
        do throws(SystemError) {
            created = try FileSystem.makeDirectory(output, permissions: 0o755)
        } catch {
            throw CommandFailure("cannot create '\(output)': \(error.reason)")
        }
        guard created || (try? FileStatus(path: output))?.kind == .directory else {
            throw CommandFailure("cannot write to '\(output)': it is not a directory")
        }
    }

    private func write(_ report: PowerRunReport) throws {
        for (name, bytes) in [("report.json", report.json), ("timeline.csv", report.csv), ("timeline.svg", report.svg)] {
            try OutputFile.write(bytes, to: output + "/" + name)
        }
    }

    /// The scenario's text and the name its errors go by.
    private func loadScenario() throws -> (text: String, name: String) {
        if let seed = try ScenarioGenerator.seed(named: scenario) { return (ScenarioGenerator.text(seed: seed), scenario) }
        let path = ShippedFile.resolve(scenario, directory: "Scenarios", extension: "scenario")
        let bytes: [UInt8]
        do {
            bytes = try ShippedFile.readScenario(path, maximumBytes: ScenarioParser.largestFile)
        } catch {
            throw CommandFailure(error.description)
        }
        return (String(decoding: bytes, as: UTF8.self), path)
    }

    private func loadBoard() throws -> SimulatedBoardSpec {
        let path = ShippedFile.resolve(board, directory: "Board", extension: "toml")
        return SimulatedBoardSpec(try BoardDefinition.load(path: path))
    }
}

import WaymarkAuthorization
import WaymarkBoard
import WaymarkClock
import WaymarkEngine
import WaymarkEventLoop
import WaymarkHardware
import WaymarkGpsd
import WaymarkInput
import WaymarkProtocol
import WaymarkReceiver
import WaymarkSimulation
package import WaymarkSystem
import WaymarkLocation
package import WaymarkMonitoring
import WaymarkStore

/// How `waymarkd` is set up: where it listens and where its locations come from.
package struct DaemonOptions: Sendable {
    /// Where locations come from.
    package enum Source: Sendable {
        /// The simulated board running a scenario file.
        case simulated(scenario: String, receiver: String, seed: UInt64)
        /// A capture replayed at its pace (compressed by ``DaemonOptions/speed``).
        case replay(path: String, repeats: Bool)
        /// A receiver's NMEA stream on a device (a UART, a USB receiver, a pty).
        case device(path: String, baudRate: Int, serial: Bool)
        /// The hardware a board file describes (``BoardSource``); the simulated board file
        /// runs `scenario` (required then) with the board's receiver figures.
        case board(path: String, scenario: String? = nil, seed: UInt64 = 1)
    }

    /// The socket path.
    package var socketPath: String
    /// A listening socket the service manager passed, used instead of ``socketPath``.
    package var activatedSocket: FileDescriptor?
    /// The location source.
    package var source: Source
    /// How many timeline seconds pass per real second (simulations and replays only).
    package var speed: Double
    /// Whether to log to standard error.
    package var verbose: Bool
    /// The policy files' directory (`/etc/waymark/apps.d`; a missing directory is no policy).
    package var policyDirectory: String?
    /// Where relaunch triggers are written (``ServerConfiguration/relaunchDirectory``).
    package var relaunchDirectory: String?
    /// Where authorization is kept; nil: nothing is enforced (a development daemon), and
    /// the daemon says so at start. The monitors are kept in the same store.
    package var authorization: AuthorizationOptions?
    /// The fastest travel the monitors assume between fixes (docs/monitoring.md, "The next
    /// fix"): driving by default, so that no crossing is missed below 151 km/h.
    package var travel: TravelMode = .driving
    /// The gpsd endpoint's TCP port (`--gpsd`, with its Unix socket `NAME-gpsd.sock` beside
    /// ``socketPath``); nil: no gpsd endpoint (the default).
    package var gpsdPort: UInt16?

    /// Creates options.
    package init(
        socketPath: String, activatedSocket: FileDescriptor? = nil, source: Source, speed: Double = 1,
        verbose: Bool = false, authorization: AuthorizationOptions? = nil
    ) {
        self.authorization = authorization
        self.socketPath = socketPath
        self.activatedSocket = activatedSocket
        self.source = source
        self.speed = speed
        self.verbose = verbose
    }
}

/// The daemon: one event loop owning the location source, the agent's timer, the listening
/// socket and every client; SIGTERM and SIGINT end it cleanly, SIGHUP, SIGUSR1 and SIGUSR2
/// are logged and survived, SIGPIPE is ignored (a write to a broken pipe fails with EPIPE);
/// under systemd it reports readiness and feeds the watchdog.
package final class Daemon {
    /// The daemon's version, as `hello` and `status` report it.
    package static let version = WaymarkRelease.version

    private let options: DaemonOptions
    private let loop: EventLoop
    private let server: Server
    private let agent: Agent
    private let timeService: TimeService?
    private let notifier = SystemdNotifier.fromEnvironment()

    /// The signals that end the daemon cleanly.
    static let stoppingSignals: Set<Signal> = [.terminate, .interrupt]
    /// The signals whose default action would kill the daemon but that it takes, logs and
    /// survives: nothing is reloaded.
    static let survivedSignals: Set<Signal> = [.hangup, .user1, .user2]

    /// Sets up the daemon (nothing runs until ``run()``). Call it on the thread that will
    /// run the loop, before any other thread starts: it takes over SIGTERM and SIGINT, which
    /// stop it, and SIGHUP, SIGUSR1 and SIGUSR2, which it logs and survives; it ignores SIGPIPE.
    package init(options: DaemonOptions) throws {
        // A broken pipe is an error on the write that met it. Taken as a signal and logged,
        // it would raise itself again when standard error is the broken pipe (a log reader
        // that went away), and the loop would do nothing else.
        Signal.brokenPipe.ignore()
        self.options = options
        loop = try EventLoop()
        let log: (String) -> Void = options.verbose ? { Daemon.log($0) } : { _ in }
        let (source, receiver) = try Self.makeSource(options.source, log: log)
        let speed = source.summary.isSimulated ? options.speed : 1
        timeService = try TimeService.start(for: options, source: source)
        let timeline = Timeline(speed: speed)
        // One store for authorization and monitors (docs/store.md); without one, monitors
        // live in memory and their events say persistenceUnavailable.
        let database = try options.authorization.map { authorization in
            try StoreUnusable.reading(authorization.storePath) { () throws(StoreError) in try StoreSchema.open(path: authorization.storePath) }
        }
        let monitorStore = database.map(MonitorStore.init(database:))
        monitorStore?.damaged = { Daemon.log("store: a damaged row is left out: \($0)") }
        let monitors = try StoreUnusable.reading(database?.path ?? "") { () throws(StoreError) in
            try MonitorCenter(store: monitorStore, travel: options.travel)
        }
        // Logged without --verbose: what a full disk costs is lost at the next start.
        monitors.storeFailed = { what, error in Daemon.log("store: could not keep \(what), it holds until waymarkd stops: \(error)") }
        agent = Agent(
            loop: loop, source: source, receiver: receiver, timeline: timeline,
            daemonVersion: Daemon.version, monitors: monitors, log: log)
        var configuration = ServerConfiguration(path: options.socketPath, daemonVersion: Daemon.version)
        configuration.activatedSocket = options.activatedSocket
        if let port = options.gpsdPort {
            configuration.gpsd = GpsdEndpoint(
                port: port, socketPath: GpsdEndpoint.socketPath(besideDaemonSocket: options.socketPath),
                device: try Self.gpsdDevice(options.source))
        }
        if let directory = options.relaunchDirectory {
            // The daemon's own directory: only it writes there (a path unit only watches).
            _ = try FileSystem.makeDirectory(directory, permissions: 0o755)
            configuration.relaunchDirectory = directory
        }
        // One set of policies for identities, relaunch and authorization.
        if let directory = options.policyDirectory {
            let files = try ConfigurationDirectory(path: directory, suffix: ".toml").read()
            configuration.policies = try PolicySet(files: files.map { ($0.path, $0.bytes) })
            log("policies: \(configuration.policies.entries.count) entries from \(directory)")
        }
        let authorizer: Authorizer
        if let authorization = options.authorization, let database {
            do {
                authorizer = try authorization.makeAuthorizer(database: database, now: { timeline.now }, log: log)
            } catch let error as StoreError {
                throw StoreUnusable(path: authorization.storePath, error: error)
            }
        } else {
            authorizer = .unenforced()
        }
        if !authorizer.isEnforcing { Daemon.log("no authorization store: every client gets full-accuracy locations (give --store to enforce)") }
        let server = Server(configuration: configuration, agent: agent, authorizer: authorizer, monitors: monitors, log: log)
        self.server = server
        agent.sink = server
        if configuration.gpsd != nil, let stream = source as? any ReceiverBytesSource {
            stream.receiverBytes = { [unowned server] bytes in server.relay(receiverBytes: bytes) }
        }
        if configuration.gpsd != nil { timeService?.samples = { [unowned server] sample in server.relay(time: sample) } }
        try loop.handleSignals(Self.stoppingSignals.union(Self.survivedSignals)) { loop, signal in
            guard Self.stoppingSignals.contains(signal) else {
                return Daemon.log("\(signal) received: ignored (restart the daemon to apply a new configuration)")
            }
            log("\(signal) received: shutting down")
            loop.stop()
        }
    }

    /// Runs until SIGTERM or SIGINT. A failure after the server started listening closes the
    /// socket and removes its file, so no stale socket is left behind.
    package func run() throws {
        Heap.fixReturnThresholds()
        try server.start(on: loop)
        do {
            try agent.start()
        } catch {
            server.stop()  // no socket left behind for clients to find
            throw error
        }
        try? notifier?.send(.ready)
        if let notifier, let watchdog = SystemdNotifier.watchdogInterval() {
            let interval = SystemdNotifier.pingInterval(watchdog: watchdog)
            loop.schedule(after: interval, repeating: interval) { _ in try? notifier.send(.watchdog) }
        }
        let activation = options.activatedSocket == nil ? "" : ", socket from the service manager"
        Daemon.log("waymarkd \(Daemon.version) listening on \(options.socketPath) (\(agent.status().source.description)\(activation))")
        if let port = server.gpsdPort, let gpsd = server.configuration.gpsd {
            Daemon.log("gpsd's clients served on 127.0.0.1:\(port) and \(gpsd.socketPath)")
        }
        do {
            try loop.run()
        } catch {
            server.stop()
            agent.stop()
            timeService?.stop()
            throw error
        }
        try? notifier?.send(.stopping)
        // Clients first: their subscriptions end while the source can still power down.
        server.stop()
        agent.stop()
        timeService?.stop()
        Daemon.log("stopped")
    }

    /// The event loop's wakeup count (for the idle benchmark and tests).
    package var wakeups: Int { Int(loop.remote.wakeups) }

    /// Writes a line to standard error, never waiting for its reader (``StandardErrorLog``).
    package static func log(_ line: String) {
        standardError.write(line)
    }

    private static let standardError = StandardErrorLog(prefix: "waymarkd: ")

    // MARK: - Sources

    static func makeSource(
        _ source: DaemonOptions.Source, log: @escaping (String) -> Void = { _ in }
    ) throws -> (any LocationSource, ReceiverProfile) {
        switch source {
        case .simulated(let scenarioPath, let receiverName, let seed):
            guard let profile = ReceiverProfile.named(receiverName) else {
                throw DaemonError.unknownReceiver(receiverName, known: ReceiverProfile.all.map(\.name))
            }
            return (try simulation(scenarioPath, profile: profile, seed: seed), profile)
        case .board(let path, let scenarioPath, let seed):
            let board = try BoardDefinition.load(path: path)
            let profile = board.receiverProfile
            guard board.isSimulated else { return (try BoardSource(board: board, log: log), profile) }
            guard let scenarioPath else { throw DaemonError.noScenario(board: path) }
            return (try simulation(scenarioPath, profile: profile, seed: seed, accelerometer: board.simulatedAccelerometer ?? .simulatedBoard), profile)
        case .replay(let path, let repeats):
            return (ReplaySource(path: path, repeats: repeats), ReceiverProfile.ubloxM8)
        case .device(let path, let baudRate, let serial):
            let source = StreamSource(path: path, baudRate: baudRate, kind: serial ? .serial : .terminal)
            return (source, ReceiverProfile.ubloxM8)
        }
    }

    /// The receiver as gpsd's DEVICE reports describe it: its device (a scenario's file for
    /// the simulated board), the serial speed when known, a fix each second.
    static func gpsdDevice(_ source: DaemonOptions.Source) throws -> GpsdDevice {
        let activated = Timestamp(nanosecondsSinceEpoch: RealtimeInstant.now.nanosecondsSinceEpoch)
        let (path, bitsPerSecond): (String, Int?)
        switch source {
        case .simulated(let scenario, _, _): (path, bitsPerSecond) = (scenario, nil)
        case .replay(let capture, _): (path, bitsPerSecond) = (capture, nil)
        case .device(let device, let baudRate, let serial): (path, bitsPerSecond) = (device, serial ? baudRate : nil)
        case .board(let file, let scenario, _):
            let board = try BoardDefinition.load(path: file)
            (path, bitsPerSecond) = board.isSimulated ? (scenario ?? file, nil) : (board.uart?.path ?? file, board.uart?.baud)
        }
        return GpsdDevice(path: path, activated: activated, bitsPerSecond: bitsPerSecond, cycle: 1)
    }

    private static func simulation(
        _ scenarioPath: String, profile: ReceiverProfile, seed: UInt64, accelerometer: AccelerometerChip = .simulatedBoard
    ) throws -> SimulatedSource {
        let text =
            if let seed = try ScenarioGenerator.seed(named: scenarioPath) {
                ScenarioGenerator.text(seed: seed)
            } else {
                String(decoding: try ShippedFile.readScenario(scenarioPath, maximumBytes: ScenarioParser.largestFile), as: UTF8.self)
            }
        let scenario = try ScenarioParser.parse(text, file: scenarioPath)
        return SimulatedSource(scenario: scenario, profile: profile, seed: seed, accelerometer: accelerometer)
    }
}

/// What stops the daemon from starting.
package enum DaemonError: Error, CustomStringConvertible {
    /// No receiver profile has that name.
    case unknownReceiver(String, known: [String])
    /// The simulated board file was given without a scenario to run.
    case noScenario(board: String)

    package var description: String {
        switch self {
        case .unknownReceiver(let name, let known):
            "no receiver profile is called '\(name)'; use one of: \(known.joined(separator: ", "))"
        case .noScenario(let board):
            "\(board) is the simulated board: it needs a scenario (--scenario FILE)"
        }
    }
}

import Foundation

/// The real `waymarkd` enforcing authorization (a store and a policy directory of its own,
/// both root's) on a simulated walk, its socket open to every uid, and the apps: processes of
/// other users (Python relaying JSON lines, run with setpriv) and the operator (`waymark
/// auth`, run as root).
final class AuthorizedBoard {
    let directory: URL
    let socket: String
    private var process = Process()
    private var log = Pipe()
    private var apps: [AppProcess] = []
    private var arguments: [String]

    /// Where the daemon writes relaunch triggers, when started `relaunching`.
    var relaunchDirectory: String { directory.appendingPathComponent("relaunch").path }

    /// Starts the daemon with the policy file `policies` (and `extraArguments`, and a relaunch
    /// directory when `relaunching`); the simulated `scenario` (by default an hour's walk) runs
    /// `speed` times faster than real time.
    init(
        policies: String, scenario body: String = "walk 60m\n", speed: Int = 20, relaunching: Bool = false,
        arguments extraArguments: [String] = []
    ) throws {
        let policyDirectory = try PolicyDirectory(prefix: "waymark-auth", policies: policies)
        directory = policyDirectory.directory
        socket = directory.appendingPathComponent("waymark.sock").path
        let scenario = directory.appendingPathComponent("walk.scenario").path
        try ("start 2026-11-22T08:00:00Z 47.3769 8.5417 408\n" + body).write(toFile: scenario, atomically: false, encoding: .utf8)
        arguments = [
            "--socket", socket, "--store", policyDirectory.store,
            "--policies", policyDirectory.policies, "--scenario", scenario, "--speed", "\(speed)", "--verbose",
        ] + extraArguments
        if relaunching {
            try FileManager.default.createDirectory(atPath: relaunchDirectory, withIntermediateDirectories: false)
            arguments += ["--relaunch-directory", relaunchDirectory]
        }
        try launch()
    }

    /// Starts the daemon process and waits for its socket.
    private func launch() throws {
        // A pipe serves one process: its writing end is closed in this process once launched.
        process = Process()
        log = Pipe()
        process.executableURL = DaemonProcess.binary
        process.arguments = arguments
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        var status = stat()
        // Listening: the daemon has set the socket's mode (between bind and listen).
        while Date() < deadline, stat(socket, &status) != 0 || status.st_mode & S_IFMT != S_IFSOCK || !DaemonProcess.connects(to: socket) {
            usleep(20_000)
        }
        // Authorization, not the socket's mode, decides here: every uid may connect.
        guard chmod(socket, 0o666) == 0 else {
            stop()
            throw DaemonError.didNotStart(String(decoding: log.fileHandleForReading.availableData, as: UTF8.self))
        }
    }

    /// Stops the daemon (SIGTERM, or SIGKILL when `killed`) and starts it again on the same
    /// store; the apps' connections end with it.
    func restart(killed: Bool = false) throws {
        if killed {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        } else {
            process.stop()
        }
        try launch()
    }

    /// Stops the apps and the daemon and removes the directory.
    func stop() {
        for app in apps { app.stop() }
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    /// A process of `uid` connected to the daemon, greeted as `appID`.
    func app(uid: uid_t, appID: String, usageDescription: String = "Shows the boat on the chart.", version: Int = 2) throws -> AppProcess {
        let app = try AppProcess(uid: uid, socket: socket)
        apps.append(app)
        try app.hello(appID: appID, usageDescription: usageDescription, version: version)
        return app
    }

    /// Runs `waymark auth ARGUMENTS` as root (an operator) and returns its output.
    @discardableResult
    func auth(_ arguments: String...) throws -> String { try waymark(["auth"] + arguments) }

    /// Runs `waymark ARGUMENTS` as the user `uid` (its groups cleared), in the foreground of a
    /// terminal (`script`: a pseudo-terminal, as a person at a shell) or not; returns its exit
    /// status and what it wrote (standard output and error together).
    func waymark(as uid: uid_t, atTerminal: Bool, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let command = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Self.cli.path] + arguments
        let cli = Process()
        if atTerminal {
            cli.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            cli.arguments = ["--quiet", "--return", "--command", command.map { "'\($0)'" }.joined(separator: " "), "/dev/null"]
        } else {
            // A session of its own: no controlling terminal, even when the tests run at one.
            cli.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            cli.arguments = ["--wait"] + command
        }
        cli.environment = ["WAYMARK_SOCKET": socket, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        cli.standardInput = FileHandle.nullDevice
        cli.standardOutput = output
        cli.standardError = output
        try cli.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        cli.waitUntilExit()
        return (cli.terminationStatus, text)
    }

    private static var cli: URL { DaemonProcess.binary.deletingLastPathComponent().appendingPathComponent("waymark") }

    /// Runs `waymark ARGUMENTS` as root and returns its output; a failure throws with its
    /// standard error.
    func waymark(_ arguments: [String]) throws -> String {
        let cli = Process()
        cli.executableURL = Self.cli
        cli.arguments = arguments
        cli.environment = ["WAYMARK_SOCKET": socket, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        let errors = Pipe()
        cli.standardOutput = output
        cli.standardError = errors
        try cli.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        cli.waitUntilExit()
        guard cli.terminationStatus == 0 else {
            throw DaemonError.didNotStart("waymark \(arguments): " + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        return text
    }
}

/// One app: a process of another user that relays JSON lines between its standard input and
/// output and the daemon's socket. The test sends requests and reads replies and events.
final class AppProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending: [UInt8] = []
    private var lastID = 1

    /// Every `sessionDiagnostics` event seen, per session, in order.
    private(set) var sessionDiagnostics: [Int: [[String]]] = [:]
    /// The diagnostics of every update seen, per subscription, in order.
    private(set) var updateDiagnostics: [Int: [[String]]] = [:]
    /// The locations of every update seen, in order.
    private(set) var locations: [[String: Any]] = []
    /// Every `monitorEvent` seen, in order.
    private(set) var monitorEvents: [[String: Any]] = []
    /// The visit of every `visit` event seen, in order.
    private(set) var visits: [[String: Any]] = []
    /// The `sequence` of every `visit` event seen that has one (a visit kept while away), in order.
    private(set) var visitSequences: [Int] = []

    private static let relay = """
        import os, select, socket, sys
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
        while True:
            r, _, _ = select.select([s, 0], [], [])
            if 0 in r:
                d = os.read(0, 65536)
                if not d: break
                s.sendall(d)
            if s in r:
                d = s.recv(65536)
                if not d: break
                os.write(1, d)
        """

    init(uid: uid_t, socket: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", "-c", Self.relay, socket]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Sends a request (`op` and its members) and returns its reply (events on the way are
    /// recorded).
    @discardableResult
    func request(_ op: String, _ members: [String: Any] = [:]) throws -> [String: Any] {
        let id = try send(op, members)
        return try next { $0["id"] as? Int == id }
    }

    /// Sends a request (`op` and its members) without waiting for its reply; returns its id.
    @discardableResult
    func send(_ op: String, _ members: [String: Any] = [:]) throws -> Int {
        lastID += 1
        var message = members
        message["id"] = lastID
        message["op"] = op
        try input.fileHandleForWriting.write(contentsOf: JSONSerialization.data(withJSONObject: message) + Data("\n".utf8))
        return lastID
    }

    /// Kills the process with SIGKILL, as an app that dies: its connection ends without `bye`.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func hello(appID: String, usageDescription: String, version: Int = 2) throws {
        let reply = try request("hello", ["version": version, "appID": appID, "usageDescription": usageDescription])
        guard reply["result"] != nil else { throw DaemonError.didNotStart("hello: \(reply)") }
    }

    /// The result of a request that must succeed.
    func result(_ op: String, _ members: [String: Any] = [:]) throws -> [String: Any] {
        let reply = try request(op, members)
        guard let result = reply["result"] as? [String: Any] else { throw DaemonError.didNotStart("\(op) failed: \(reply)") }
        return result
    }

    /// The error code of a request that must fail.
    func errorCode(_ op: String, _ members: [String: Any] = [:]) throws -> String? {
        (try request(op, members)["error"] as? [String: Any])?["code"] as? String
    }

    /// Reads messages (recording events) until one satisfies `predicate`, for up to `seconds`.
    @discardableResult
    func next(within seconds: Double = 10, _ predicate: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                guard let message = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { continue }
                record(message)
                if predicate(message) { return message }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw DaemonError.didNotStart("no such message within \(seconds) s") }
            var descriptor = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left * 1000)) > 0 else { continue }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw DaemonError.didNotStart("the app's connection ended") }
            pending += data
        }
    }

    /// Waits until session `session` has had `count` diagnostics events.
    func waitForSessionDiagnostics(_ session: Int, count: Int) throws {
        if (sessionDiagnostics[session]?.count ?? 0) >= count { return }
        try next { _ in (self.sessionDiagnostics[session]?.count ?? 0) >= count }
    }

    /// Reads updates for `seconds` (the stream as it comes).
    func watch(for seconds: Double) {
        _ = try? next(within: seconds) { _ in false }
    }

    private func record(_ message: [String: Any]) {
        switch message["event"] as? String {
        case "sessionDiagnostics":
            guard let session = message["session"] as? Int, let names = message["diagnostics"] as? [String] else { return }
            sessionDiagnostics[session, default: []].append(names)
        case "update":
            guard let subscription = message["subscription"] as? Int, let update = message["update"] as? [String: Any] else { return }
            updateDiagnostics[subscription, default: []].append(update["diagnostics"] as? [String] ?? [])
            if let location = update["location"] as? [String: Any] { locations.append(location) }
        case "monitorEvent": monitorEvents.append(message)
        case "visit":
            if let visit = message["visit"] as? [String: Any] { visits.append(visit) }
            if let sequence = message["sequence"] as? Int { visitSequences.append(sequence) }
        default: break
        }
    }
}

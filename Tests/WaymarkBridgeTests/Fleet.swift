import Foundation
import Glibc

/// The programs of one test, in a mode-0700 directory of their own: the real waymarkd on a
/// simulated scenario, a mosquitto broker, subscribers, and waymark-mqtt between them.
final class Fleet {
    let directory: String
    let broker: Broker
    let certificates: Certificates?
    private(set) var daemon: ChildProcess?
    private(set) var bridge: ChildProcess?

    /// The bridge's outbox database.
    var outboxPath: String { directory + "/state/outbox.sqlite" }
    var bridgeLog: String { directory + "/waymark-mqtt.log" }

    init(tls: Bool = false) throws {
        directory = NSTemporaryDirectory() + "waymark-mqtt-\(getpid())-\(UUID().uuidString.prefix(8))"
        for path in [directory, directory + "/state"] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        certificates = tls ? try Certificates(directory: directory) : nil
        broker = try Broker(directory: directory, certificates: certificates)
    }

    /// The bridge's user on a daemon that enforces authorization.
    static let bridgeUID: uid_t = 1_017
    /// The operator's policy for the bridge (docs/ecosystem.md's, by uid here): in use while it runs.
    static let bridgePolicy = """
        [[app]]
        uid = \(bridgeUID)
        app_id = "org.waymark.mqtt"
        interactive = true

        """
    /// Whether the daemon enforces authorization: the bridge then runs as ``bridgeUID``.
    private(set) var enforcing = false

    /// Starts waymarkd on `scenario` (its statements) run `speed` times faster than real time;
    /// with `enforcing`, with a store (monitors and their events kept until acknowledged) and
    /// the bridge's policy, so that it enforces authorization, its socket open to every uid.
    func startDaemon(_ scenario: String, speed: Int = 10, enforcing: Bool = false) throws {
        let path = directory + "/walk.scenario"
        try scenario.write(toFile: path, atomically: true, encoding: .utf8)
        var arguments = ["--socket", socket, "--scenario", path, "--speed", "\(speed)"]
        self.enforcing = enforcing
        if enforcing {
            let policyDirectory = directory + "/apps.d"
            try FileManager.default.createDirectory(atPath: policyDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            try Self.bridgePolicy.write(toFile: policyDirectory + "/bridge.toml", atomically: true, encoding: .utf8)
            chmod(policyDirectory + "/bridge.toml", 0o644)
            arguments += ["--store", directory + "/waymark.sqlite", "--policies", policyDirectory, "--verbose"]
            chmod(directory, 0o755)
        }
        daemon = try ChildProcess(Self.binary("waymarkd"), arguments, log: directory + "/waymarkd.log")
        try waitUntil("waymarkd to listen", seconds: 10) { FileManager.default.fileExists(atPath: socket) }
        if enforcing {
            // Authorization, not the socket's mode, decides: every uid may connect. The mode is
            // set between bind and listen: wait until it is the daemon's before changing it.
            usleep(200_000)
            chmod(socket, 0o666)
        }
    }

    /// Runs `waymark ARGUMENTS` as root (the operator, `waymark auth …`) and throws if it fails.
    func waymark(_ arguments: String...) throws {
        let cli = Process()
        cli.executableURL = URL(fileURLWithPath: Self.binary("waymark"))
        cli.arguments = arguments
        cli.environment = ["WAYMARK_SOCKET": socket, "PATH": "/usr/bin:/bin"]
        cli.standardOutput = FileHandle.nullDevice
        cli.standardError = FileHandle.nullDevice
        try cli.run()
        cli.waitUntilExit()
        guard cli.terminationStatus == 0 else { throw TestFailure(description: "waymark \(arguments) failed") }
    }

    func stopDaemon() { daemon?.stop() }

    /// Starts waymark-mqtt with an `[mqtt]` table for the broker, plus `settings` lines; on an
    /// enforcing daemon as ``bridgeUID`` (its state directory its own).
    func startBridge(_ settings: String = "", overTLS: Bool = false) throws {
        let port = overTLS ? broker.tlsPort : broker.port
        var table = "[mqtt]\nhost = \"127.0.0.1\"\nport = \(port)\nuser = \"jane\"\ndevice = \"pi\"\nkeepalive = 5\n"
        if overTLS, let certificates {
            let password = directory + "/password"
            try (Broker.password + "\n").write(toFile: password, atomically: true, encoding: .utf8)
            table += """
                ca_file = "\(certificates.ca)"
                cert_file = "\(certificates.client)"
                key_file = "\(certificates.clientKey)"
                username = "\(Broker.user)"
                password_file = "\(password)"

                """
        }
        try (table + settings).write(toFile: directory + "/mqtt.toml", atomically: true, encoding: .utf8)
        let bridgeArguments = [Self.binary("waymark-mqtt"), "--config", directory + "/mqtt.toml", "--state-directory", directory + "/state"]
        let uid = enforcing ? Self.bridgeUID : nil
        let user = uid.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []
        if let uid {
            chmod(directory + "/mqtt.toml", 0o644)
            chown(directory + "/state", uid, gid_t(uid))
        }
        let command = user + bridgeArguments
        bridge = try ChildProcess(
            command[0], Array(command.dropFirst()), environment: ["WAYMARK_SOCKET": socket, "WAYMARK_APP_ID": "org.waymark.mqtt"], log: bridgeLog)
    }

    func stopBridge(_ signal: Int32 = SIGTERM) { bridge?.stop(signal) }

    /// A subscriber to `topic` on the plain listener; with `session`, a persistent session
    /// (clean session off, QoS 1) that the broker keeps across its restarts.
    func subscribe(_ topic: String = "owntracks/#", session: String? = nil, count: Int? = nil) throws -> Subscriber {
        var arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", topic, "-F", "%r %t %p"]
        if let session { arguments += ["-c", "-i", session] }
        if let count { arguments += ["-C", "\(count)"] }
        return Subscriber(process: try ChildProcess("mosquitto_sub", arguments, log: directory + "/mosquitto_sub.log"))
    }

    /// The daemon's log so far.
    var daemonOutput: String { (try? String(contentsOfFile: directory + "/waymarkd.log", encoding: .utf8)) ?? "" }

    /// The bridge's log so far.
    var bridgeOutput: String { (try? String(contentsOfFile: bridgeLog, encoding: .utf8)) ?? "" }

    deinit {
        bridge?.stop(SIGKILL)
        daemon?.stop()
        broker.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var socket: String { directory + "/waymark.sock" }

    /// A program built next to the test bundle.
    static func binary(_ name: String) -> String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent(name).path
    }
}

/// What a `mosquitto_sub -F "%r %t %p"` received: the retained flag, topic and JSON payload.
struct Received {
    let retained: Bool
    let topic: String
    let payload: String
    let json: [String: Any]

    init?(line: String) {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, let object = try? JSONSerialization.jsonObject(with: Data(parts[2].utf8)) as? [String: Any]
        else { return nil }
        (retained, topic, payload, json) = (parts[0] == "1", String(parts[1]), String(parts[2]), object)
    }

    var type: String? { json["_type"] as? String }
    var tst: Int? { json["tst"] as? Int }
    var trigger: String? { json["t"] as? String }
    /// A transition's `event` and `desc`, as `enter Bakery`.
    var transition: String? { type == "transition" ? "\(json["event"] as? String ?? "?") \(json["desc"] as? String ?? "?")" : nil }
}

/// A running `mosquitto_sub`.
struct Subscriber {
    let process: ChildProcess

    var received: [Received] { process.lines.compactMap(Received.init(line:)) }
    var locations: [Received] { received.filter { $0.type == "location" } }
    var transitions: [Received] { received.filter { $0.type == "transition" } }

    func stop() { process.stop() }
}

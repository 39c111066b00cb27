import Foundation
import Glibc
import WaymarkServerTestSupport
import WaymarkSystem

/// The real `waymarkd` built next to the test bundle, run as a child process on a socket in a
/// directory of its own, with its memory read from /proc.
final class Waymarkd {
    let socket: String
    private let directory: String
    private let process = Process()

    /// Starts the daemon with `arguments` (plus `--socket`) and waits until it accepts.
    init(_ arguments: [String], scenario: String? = nil) throws {
        directory = NSTemporaryDirectory() + "waymark-hostile-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = directory + "/waymark.sock"
        var arguments = arguments
        if let scenario {
            // The scenario lives in the daemon's directory and goes with it.
            let path = directory + "/walk.scenario"
            try scenario.write(toFile: path, atomically: true, encoding: .utf8)
            arguments += ["--scenario", path]
        }
        process.executableURL = Self.binary
        process.arguments = ["--socket", socket] + arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        _ = try connect()
    }

    /// The daemon on a simulated walk run `speed` times faster than real time: a fix, and so
    /// an update for a `default` subscription, every second of the walk.
    static func walking(speed: Int = 10) throws -> Waymarkd {
        try Waymarkd(["--speed", "\(speed)"], scenario: walk)
    }

    /// A walk of four hours, east from Zürich.
    static let walk = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408\nwalk 4h heading=90\n"

    /// A new connection, retried while the daemon's listen backlog is full (for up to 10 s).
    func connect() throws -> RawClient {
        let deadline = MonotonicInstant.now + .seconds(10)
        while true {
            do {
                return try RawClient(path: socket)
            } catch {
                guard MonotonicInstant.now < deadline, process.isRunning else { throw error }
                usleep(2_000)
            }
        }
    }

    /// The daemon's resident set size now, the part of it that is anonymous memory (its heap
    /// and stacks, not the code and data mapped from files) and the peak (VmRSS, RssAnon and
    /// VmHWM), in bytes.
    func memory() throws -> (resident: Int, anonymous: Int, peak: Int) {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        func kilobytes(_ field: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
        }
        return (kilobytes("VmRSS"), kilobytes("RssAnon"), kilobytes("VmHWM"))
    }

    var isRunning: Bool { process.isRunning }

    /// How many descriptors the daemon holds open now (/proc/PID/fd).
    func descriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count
    }

    /// Sends SIGTERM, waits for the daemon to exit and removes its directory.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    private static let binary: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("waymarkd")
    }()
}

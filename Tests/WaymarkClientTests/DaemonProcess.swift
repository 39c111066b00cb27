import Foundation

/// The real `waymarkd`, built next to the test bundle, run as a child process on a socket in
/// a temporary directory.
final class DaemonProcess {
    /// This test process's directory; those left by test processes that are gone are removed
    /// when it is first named (a test process cannot remove its own when it ends).
    static let directory: URL = {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
        let prefix = "waymark-integration-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
        return temporary.appendingPathComponent(prefix + "\(getpid())")
    }()
    static var socket: String { ClientLibraryTests.socket }

    private let process = Process()
    let log = Pipe()

    /// Starts the daemon with `arguments` (plus `--socket`) and `environment` added to this
    /// process's, and at most `fileLimit` descriptors if given (prlimit(1) runs it), and waits
    /// for its socket.
    init(_ arguments: [String], environment: [String: String] = [:], fileLimit: Int? = nil) throws {
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        let daemon = [Self.binary.path, "--socket", Self.socket] + arguments
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(fileLimit)", "--"] + daemon
        } else {
            process.executableURL = Self.binary
            process.arguments = Array(daemon.dropFirst())
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            var status = stat()
            if stat(Self.socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK, Self.connects(to: Self.socket) { return }
            usleep(20_000)
        }
        stop()
        throw DaemonError.didNotStart(String(decoding: log.fileHandleForReading.availableData, as: UTF8.self))
    }

    /// Sends SIGTERM and waits for the daemon to exit (see ``Process/stop(within:)``).
    func stop() {
        process.stop()
    }

    deinit { stop() }

    var exitStatus: Int32 { process.terminationStatus }

    /// Whether the daemon still runs.
    var isRunning: Bool { process.isRunning }

    /// The processor time the daemon has used so far, user and system, in seconds.
    var processorSeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        // After the command name in parentheses: state is field 3, utime and stime 14 and 15.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Sends `signal` to the daemon.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// A scenario file written for a test.
    static func scenario(_ body: String) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("test-\(UUID().uuidString).scenario")
        try ("start 2026-11-22T08:00:00Z 47.3769 8.5417 408\n" + body).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Whether a daemon listens at `path` (its socket's mode is set before it listens).
    static func connects(to path: String) -> Bool {
        guard let descriptor = connection(to: path) else { return false }
        close(descriptor)
        return true
    }

    /// A connection to the socket at `path` that says nothing, or nil when none is made.
    static func connection(to path: String) -> Int32? {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
        guard connected else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    static let binary: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("waymarkd")
    }()
}

enum DaemonError: Error {
    case didNotStart(String)
}

/// Runs `body`, failing if it takes longer than `seconds`.
func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw TimeoutError(seconds: seconds)
        }
        group.cancelAll()
        return value
    }
}

struct TimeoutError: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "timed out after \(seconds) s" }
}

extension Process {
    /// Sends SIGTERM and waits for the process to exit. One still running after `seconds` (a
    /// daemon whose loop no longer turns) is killed, so a failing test neither hangs nor
    /// leaves it spinning behind.
    func stop(within seconds: Double = 10) {
        guard isRunning else { return }
        terminate()
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { usleep(10_000) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}

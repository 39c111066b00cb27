import Foundation
import Glibc

/// A program the tests run (mosquitto, mosquitto_sub, waymarkd, waymark-mqtt), its standard
/// output collected line by line, its standard error appended to a log file for failures.
///
/// Spawned with posix_spawn and an empty signal mask with default dispositions: the test's
/// threads (libdispatch's) block signals, and a child inheriting that mask would never see
/// the SIGTERM that stops mosquitto cleanly.
final class ChildProcess: @unchecked Sendable {
    let processIdentifier: pid_t
    private let output = LineCollector()
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `executable` (a path, or a name found in /usr/bin, /usr/sbin) with `arguments`.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], log: String) throws {
        let path = ["", "/usr/bin/", "/usr/sbin/"].map { $0 + executable }.first { access($0, X_OK) == 0 } ?? executable
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw TestFailure(description: "pipe: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw TestFailure(description: "posix_spawn \(path): errno \(spawned)")
        }
        processIdentifier = pid
        let (collector, descriptor) = (output, pipeEnds[0])
        Thread { collector.collect(from: descriptor) }.start()
    }

    /// The complete lines written to standard output so far.
    var lines: [String] { output.lines }

    var isRunning: Bool {
        lock.withLock {
            if exitStatus != nil { return false }
            var status: Int32 = 0
            guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return true }
            exitStatus = status
            return false
        }
    }

    /// Sends `signal` (SIGSTOP, SIGCONT, …) without waiting.
    func send(_ signal: Int32) {
        guard isRunning else { return }
        Glibc.kill(processIdentifier, signal)
    }

    /// Sends `signal` (SIGTERM unless told) and waits for the exit.
    func stop(_ signal: Int32 = SIGTERM) {
        guard isRunning else { return }
        Glibc.kill(processIdentifier, SIGCONT)
        Glibc.kill(processIdentifier, signal)
        var status: Int32 = 0
        waitpid(processIdentifier, &status, 0)
        lock.withLock { exitStatus = status }
    }

    deinit { stop(SIGKILL) }

}

/// A child's standard output as lines, read on a thread of its own until the pipe closes.
private final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    var lines: [String] { lock.withLock { collected } }

    func collect(from descriptor: Int32) {
        defer { close(descriptor) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while case let count = read(descriptor, &buffer, buffer.count), count > 0 {
            pending += buffer.prefix(count)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lock.withLock { collected.append(line) }
            }
        }
    }
}

/// Waits (polling every 50 ms) until `condition` holds, for at most `seconds`.
func waitUntil(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try !condition() {
        guard Date() < deadline else { throw TestFailure(description: "timed out waiting for \(what)") }
        usleep(50_000)
    }
}

/// Why a test's set-up or wait failed.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
}

/// A free TCP port on 127.0.0.1 (bound to port 0 and released).
func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
func accepts(port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// Runs a program to its end and throws if it fails (openssl, mosquitto_passwd).
func run(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/" + executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw TestFailure(description: "\(executable) \(arguments) failed") }
}

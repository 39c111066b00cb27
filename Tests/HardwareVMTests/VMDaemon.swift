import Foundation
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport

/// The real `waymarkd` (`$WAYMARK_DAEMON`, which `Scripts/vm-test` sets) run in the VM on a
/// board file, its log kept in the out dir, and a raw-protocol client talking to it.
final class VMDaemon {
    private let pid: pid_t
    private var exitStatus: Int32?
    let socket: String
    let client: RawClient
    /// Every update the client has read, in order.
    private(set) var updates: [LocationUpdate] = []

    /// Starts `waymarkd --board board` and connects once it listens (TCG is slow: up to a
    /// minute). posix_spawn and waitpid, not Foundation's Process, whose child monitoring
    /// needs a CFSocket the VM's Foundation could not always create.
    init(board: String, name: String) throws {
        let directory = "/tmp/waymark-vm-daemon"
        mkdir(directory, 0o755)
        socket = "\(directory)/\(name).sock"
        let log = "\(VM.environment("WAYMARK_VM_OUT") ?? directory)/waymarkd-\(name).log"
        let arguments = [VM.environment("WAYMARK_DAEMON") ?? "waymarkd", "--board", board, "--socket", socket, "--verbose"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw VMDaemonError.didNotStart(log: "posix_spawn: error \(spawned)") }
        pid = child
        var connected: RawClient?
        for _ in 0..<600 where connected == nil {
            connected = try? RawClient(path: socket)
            if connected == nil { usleep(100_000) }
        }
        guard let connected else {
            kill(child, SIGKILL)
            waitpid(child, nil, 0)
            throw VMDaemonError.didNotStart(log: log)
        }
        client = connected
        try client.hello(appID: "org.waymark.vm-test")
    }

    /// SIGTERM, then waits (at most 30 s, then SIGKILL); the exit status, -1 if it was killed.
    @discardableResult
    func stop() -> Int32 {
        if let exitStatus { return exitStatus }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let exited = HostGPS.waitFor(30) { waitpid(pid, &status, WNOHANG) == pid }
        if !exited {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        let code = exited && status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
        exitStatus = code
        return code
    }

    deinit { stop() }

    /// The daemon's status report.
    func status() throws -> StatusReport? {
        guard case .success(.status(let report)) = try client.request(.status).outcome else { return nil }
        return report
    }

    /// Reads updates until one satisfies `condition` (returned) or `seconds` pass (`nil`).
    func nextUpdate(within seconds: Double, where condition: (LocationUpdate) -> Bool) -> LocationUpdate? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard case .event(.update(let event))? = try? client.readMessage(seconds: 1) else { continue }
            updates.append(event.update)
            if condition(event.update) { return event.update }
        }
        return nil
    }

    /// Whether no update comes within `seconds`.
    func staysQuiet(for seconds: Double) -> Bool {
        nextUpdate(within: seconds) { _ in true } == nil
    }
}

enum VMDaemonError: Error {
    case didNotStart(log: String)
}

/// The host's end of ttyS1 (`Scripts/vm/uart-check.py`): what the GPS sends, and markers
/// that name the section of the guest's UART output the host checks next.
enum HostGPS {
    /// `still`, `moving` or `silent`: read by the host from the out dir before each epoch.
    static func send(_ mode: String) {
        guard let out = VM.environment("WAYMARK_VM_OUT") else { return }
        _ = FileManager.default.createFile(atPath: "\(out)/gps", contents: Data(mode.utf8))
    }

    /// Writes `WAYMARK-DAEMON-<name>` on the UART (no daemon may hold it open).
    static func mark(_ name: String) throws {
        let port = try FileHandle(forWritingTo: URL(fileURLWithPath: VM.uart))
        try port.write(contentsOf: Data("WAYMARK-DAEMON-\(name)\r\n".utf8))
        try port.close()
    }

    /// Waits (polling every 50 ms) until `condition` holds, for at most `seconds`.
    static func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(50_000)
        }
        return true
    }
}

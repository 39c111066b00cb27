import Foundation
import Testing
import WaymarkEventLoop
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem

@testable import Waymark
import WaymarkTestFixtures

/// How the client finds the daemon and decides to believe it (`docs/protocol.md`, "Connecting").
@Suite(.ownThread, .timeLimit(.minutes(1)))
struct ConnectingTests {
    @Test(.enabled(if: geteuid() == 0, "setpriv needs root"))
    func aDaemonAnotherUserRunsIsNotBelieved() async throws {
        // Another user listens where the client looks, in a directory anyone may add to.
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        #expect(chmod(directory.path, 0o1777) == 0)
        let path = directory.socket()
        let impostor = try Impostor(uid: 4242, at: path)
        defer { impostor.stop() }
        let error = await #expect(throws: WaymarkError.self) { try await status(from: [path]) }
        guard case .daemonUnavailable(let reason)? = error else { return }
        #expect(reason.hasPrefix("connect(\"\(path)\"): Operation not permitted (errno 1)"))
        #expect(reason.contains("the process listening there runs as uid 4242"))
    }

    @Test func aClientThatCannotConnectSaysWhyForEveryPath() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let missing = directory.path + "/run/waymark.sock"
        let stale = directory.socket("stale.sock")
        try UnixListener(path: stale).descriptor.close()
        let error = await #expect(throws: WaymarkError.self) { try await status(from: [missing, stale]) }
        #expect(error == .daemonUnavailable(
            "connect(\"\(missing)\"): No such file or directory (errno 2); then connect(\"\(stale)\"): Connection refused (errno 111)"))
    }

    /// Asks for the daemon's status at `paths` as the library does; a daemon that does not
    /// answer within 5 s is a ``TimeoutError``.
    private func status(from paths: [String]) async throws -> StatusReport {
        let core = ClientCore(loop: try EventLoop(), paths: { paths }, trust: .current(), appID: nil)
        let pending = PendingReply<ReplyResult>()
        core.call(.status, pending)
        let deadline = Task {
            try await Task.sleep(for: .seconds(5))
            pending.resume(with: .failure(TimeoutError(seconds: 5)))
        }
        defer { deadline.cancel() }
        guard case .status(let report) = try await withCheckedThrowingContinuation({ pending.wait(with: $0) }) else {
            throw WaymarkError.unexpectedResult(.status)
        }
        return report
    }
}

/// A process of another user listening on a Unix socket and never answering (Python, run
/// with setpriv), and its socket file removed at ``stop()``.
private final class Impostor {
    private let process = Process()
    private let input = Pipe()
    private let path: String

    init(uid: uid_t, at path: String) throws {
        self.path = path
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", "-c",
            "import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(64); "
                + "print('listening', flush=True); sys.stdin.read()",
            path,
        ]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = output.fileHandleForReading.availableData
        guard String(decoding: line, as: UTF8.self).hasPrefix("listening") else {
            stop()
            throw DaemonError.didNotStart("the impostor did not listen")
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        unlink(path)
    }
}

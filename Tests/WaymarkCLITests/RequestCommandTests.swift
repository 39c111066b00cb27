import Foundation
import Testing

@Suite("waymark request")
struct RequestCommandTests {
    @Test("the timeout's range is the protocol's (docs/protocol.md: from 0.001 to 600 seconds; 1e-300 reached the daemon as 0)", arguments: ["601", "0", "3600", "-1", "nan", "1e-300", "0.0009"])
    func timeoutOutsideTheProtocolsRange(timeout: String) throws {
        let result = try runWaymark(["request", "--timeout=\(timeout)"])
        #expect(result.status != 0)
        #expect(result.error.contains("--timeout must be from 0.001 to 600 seconds"))
    }

    @Test("an accuracy that JSON cannot carry is refused (inf was sent as null, read as 0: the best)", arguments: ["inf", "1e309", "-1", "nan"])
    func accuracyOutsideTheProtocolsRange(accuracy: String) throws {
        let result = try runWaymark(["request", "--accuracy=\(accuracy)"])
        #expect(result.status != 0)
        #expect(result.error.contains("--accuracy must be a finite number of metres, at least 0"))
    }

    @Test("a daemon that stopped answering fails the request at its timeout and 2 s, not 30 s later (a status after it waited the library's patience)")
    func aStalledDaemonFailsAtTheTimeout() throws {
        let directory = try CLIFixtures.makeDirectory("stalled")
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("w.sock").path
        let daemon = Process()
        daemon.executableURL = CLIFixtures.binary.deletingLastPathComponent().appendingPathComponent("waymarkd")
        daemon.arguments = ["--socket", socket]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            kill(daemon.processIdentifier, SIGCONT)
            daemon.terminate()
            daemon.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline { usleep(20_000) }
        usleep(200_000)
        kill(daemon.processIdentifier, SIGSTOP)
        let started = Date()
        let result = try runWaymark(["request", "--timeout", "1"], environment: ["WAYMARK_SOCKET": socket])
        let waited = Date().timeIntervalSince(started)
        #expect(result.status == 1)
        #expect(result.error.contains("no answer to requestLocation within 3.0 seconds"), "\(result.error)")
        #expect(waited < 20, "waited \(waited) s")  // 3 s; it was 33
    }
}

import Foundation
import Testing

/// waymark-mqtt's options, checked before it reads anything.
@Suite("waymark-mqtt's options")
struct BridgeOptionTests {
    @Test("an empty --state-directory is refused (the outbox was made in /)")
    func anEmptyStateDirectoryIsRefused() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fleet.binary("waymark-mqtt"))
        process.arguments = ["--config", "/nonexistent/mqtt.toml", "--state-directory", ""]
        let log = Pipe()
        process.standardError = log
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        let message = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("--state-directory takes a directory"))
    }

    @Test("SIGTERM ends it while its settings file is a FIFO no one writes (the signals were blocked for the loop before the read, which waited for ever)")
    func aSettingsReadThatWaitsCanBeEnded() throws {
        let fifo = NSTemporaryDirectory() + "waymark-mqtt-fifo-\(getpid())"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let bridge = try ChildProcess(
            Fleet.binary("waymark-mqtt"), ["--config", fifo, "--state-directory", NSTemporaryDirectory()], log: "/dev/null")
        usleep(300_000)
        #expect(bridge.isRunning)
        bridge.send(SIGTERM)
        try waitUntil("waymark-mqtt to end", seconds: 5) { !bridge.isRunning }
    }
}

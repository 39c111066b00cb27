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
}

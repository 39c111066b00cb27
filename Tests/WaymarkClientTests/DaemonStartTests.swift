import Foundation
import Testing
import WaymarkServerTestSupport
import WaymarkTestFixtures

/// `waymarkd` start-up failures.
@Suite(.ownThread) struct DaemonStartTests {
    @Test func aFailureAfterListeningLeavesNoSocketBehind() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        // The replay is read once the socket listens: a missing file fails the start then.
        let process = Process()
        process.executableURL = DaemonProcess.binary
        process.arguments = ["--socket", directory.socket(), "--replay", directory.path + "/missing.nmea"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.socket()))
    }

    @Test("a --speed too small to keep time with (1e-300 trapped once a client subscribed) is refused")
    func aSpeedTooSmallIsRefused() throws {
        for speed in ["1e-300", "0.0009", "0", "nan"] {
            let process = Process()
            process.executableURL = DaemonProcess.binary
            process.arguments = ["--socket", "/nonexistent/waymark.sock", "--speed", speed]
            let log = Pipe()
            process.standardError = log
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "--speed \(speed)")
            let message = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(message.contains("--speed takes a number from 0.001 to 10000"))
        }
    }
}

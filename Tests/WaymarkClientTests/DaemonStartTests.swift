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
}

import Glibc
import Testing
import WaymarkDrivers
import WaymarkSystem

@testable import WaymarkInput
import WaymarkTestFixtures

/// `waymarkd --device PATH`: a device that is not there yet is waited for, not fatal.
@Suite(.serialized, .ownThread)
struct StreamSourceTests {
    @Test(arguments: [ReceiverPortKind.terminal, .serial])
    func aMissingDeviceIsReportedOnceWithItsPath(kind: ReceiverPortKind) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/gps"
        let source = StreamSource(path: path, baudRate: 9600, kind: kind)
        defer { source.stop() }
        let harness = try SourceHarness()
        try harness.start(source)
        try harness.run(for: .milliseconds(1_200))
        #expect(harness.lostReasons.count == 1)
        #expect(harness.lostReasons.first?.hasPrefix("cannot open \(path): ") == true)
        #expect(harness.lostReasons.first?.contains("(\"\(path)\"): No such file or directory (errno 2)") == true)
    }

    @Test func aDeviceThatAppearsLaterIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/gps"
        let source = StreamSource(path: path, baudRate: 9600, kind: .terminal)
        defer { source.stop() }
        let harness = try SourceHarness()
        try harness.start(source)
        try harness.run(for: .milliseconds(300))
        #expect(harness.lostReasons.count == 1)
        // udev makes the node a moment later (a USB receiver plugged in, a slow boot).
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        #expect(symlink(pty.secondaryPath, path) == 0)
        #expect(try harness.resumeFeeding(from: pty.primary, timeout: .seconds(6)))
        #expect(harness.lostReasons.count == 1)
    }
}

import Glibc
import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkSystem

@testable import WaymarkInput
import WaymarkProtocol
import WaymarkReceiver
import WaymarkLocation
import WaymarkTestFixtures

/// The board source's receiver side on a pseudo-terminal: rate detection, the vendor baud
/// switch, power commands, and recovery from a closed port, silence and garbage.
@Suite(.serialized, .ownThread)
struct BoardSourceReceiverTests {
    @Test func detectsTheRateFromChecksummedSentencesAfterGarbage() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let source = try BoardSource(board: testBoard(path: pty.secondaryPath), detectionWindow: .seconds(5))
        let harness = try SourceHarness()
        try harness.start(source)
        defer { source.stop() }
        #expect(source.summary.description.contains("finding its baud rate"))
        // What a receiver at another rate looks like: bytes, no sentence.
        let garbage = (0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37 | 0x80) }
        _ = try garbage.withUnsafeBytes { try pty.primary.write($0) }
        try harness.run(timeout: .seconds(3)) { terminalRate(pty.secondary) == 115200 }
        #expect(terminalRate(pty.secondary) == 115200)
        harness.feed = pty.primary
        #expect(try harness.run { harness.fixCount >= 2 })
        #expect(source.summary.kind == "board")
        #expect(source.summary.description.contains("at 115200 baud"))
        #expect(harness.lostReasons.isEmpty)
    }

    @Test func switchesTheReceiverToTheFasterRateWithItsVendorCommand() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let board = try testBoard(path: pty.secondaryPath, family: "mediatek", candidates: [9600], switchTo: 57600)
        let source = try BoardSource(board: board)
        let harness = try SourceHarness()
        try harness.start(source)
        defer { source.stop() }
        harness.feed = pty.primary
        var written: [UInt8] = []
        #expect(try harness.run { written += drain(pty.primary); return harness.fixCount >= 2 })
        #expect(written == ReceiverCommands.pmtkSetBaudRate(57600))
        #expect(terminalRate(pty.secondary) == 57600)
        #expect(source.summary.description.contains("at 57600 baud"))
    }

    @Test func pmtkStandbyFollowsTheEngine() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let board = try testBoard(path: pty.secondaryPath, family: "mediatek", baud: "9600", strategy: "pmtk-standby")
        let source = try BoardSource(board: board)
        #expect(source.poweredDownState == .standby)
        let harness = try SourceHarness()
        try harness.start(source)
        defer { source.stop() }
        // Woken when the port opens, then put where the engine starts: down.
        #expect(drain(pty.primary) == ReceiverCommands.pmtkWake + ReceiverCommands.pmtkStandby)
        source.setReceiverPower(on: true, reason: "test")
        #expect(drain(pty.primary) == ReceiverCommands.pmtkWake)
        source.setReceiverPower(on: true, reason: "again")
        source.setReceiverPower(on: false, reason: "test")
        #expect(drain(pty.primary) == ReceiverCommands.pmtkStandby)
    }

    @Test func afterAPowerUpTheReceiverMeasuresAt5HzUntilItsFirstFix() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let board = try testBoard(path: pty.secondaryPath, family: "mediatek", baud: "115200", strategy: "pmtk-standby")
        // Woken, told to predict orbits (EASY) and 5 Hz once it talked, 1 Hz at its first fix,
        // and nothing more.
        #expect(
            try writtenAfterPowerUp(board, pty: pty) == ReceiverCommands.pmtkWake + ReceiverCommands.pmtkEnableEASY
                + ReceiverCommands.pmtkSetFixInterval(milliseconds: 200) + ReceiverCommands.pmtkSetFixInterval(milliseconds: 1000))
    }

    @Test func aSlowLinkGetsNoFasterRate() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let board = try testBoard(path: pty.secondaryPath, family: "ublox", baud: "9600", strategy: "ubx-backup")
        // Its orbit prediction is enabled all the same: the link's speed does not matter for it.
        #expect(try writtenAfterPowerUp(board, pty: pty) == ReceiverCommands.ubxWake + ReceiverCommands.ubxEnableAssistNowAutonomous)
    }

    /// Starts a source for `board` (its receiver put down at once: nobody needs it), powers the
    /// receiver up and feeds it until three fixes came; returns what the source wrote then.
    private func writtenAfterPowerUp(_ board: BoardDefinition, pty: PseudoTerminal) throws -> [UInt8] {
        let source = try BoardSource(board: board)
        let harness = try SourceHarness()
        try harness.start(source)
        defer { source.stop() }
        _ = drain(pty.primary)
        source.setReceiverPower(on: true, reason: "test")
        harness.feed = pty.primary
        var written: [UInt8] = []
        #expect(try harness.run { written += drain(pty.primary); return harness.fixCount >= 3 })
        return written + drain(pty.primary)
    }

    @Test func ubxBackupWakesOnRXAndWaitsForTheRateBeforePoweringDown() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let board = try testBoard(path: pty.secondaryPath, family: "ublox", candidates: [9600], strategy: "ubx-backup")
        let source = try BoardSource(board: board)
        #expect(source.poweredDownState == .backup)
        let harness = try SourceHarness()
        try harness.start(source)
        defer { source.stop() }
        #expect(drain(pty.primary) == ReceiverCommands.ubxWake)
        harness.feed = pty.primary
        var written: [UInt8] = []
        try harness.run { written += drain(pty.primary); return !written.isEmpty }
        #expect(written == ReceiverCommands.ubxBackup(wakeOn: .uartRX))
    }

    @Test func reconnectsAfterThePortGoesAwayAndReportsTheLossOnce() throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/gps"
        let first = try PseudoTerminal()
        #expect(symlink(first.secondaryPath, link) == 0)
        let source = try BoardSource(board: testBoard(path: link, baud: "9600"))
        defer { source.stop() }
        let harness = try SourceHarness()
        #expect(try harness.startStreaming(source, from: first.primary))
        // Unplugged: the pty's device side closes, and the path is gone for a while.
        harness.feed = nil
        try first.close()
        unlink(link)
        try harness.run(for: .milliseconds(1_800))
        #expect(harness.lostReasons.count == 1)
        #expect(source.summary.description.contains("not connected: "), "\(source.summary.description)")
        // Plugged in again (another pty behind the same name).
        let second = try PseudoTerminal()
        defer { try? second.close() }
        #expect(symlink(second.secondaryPath, link) == 0)
        #expect(try harness.resumeFeeding(from: second.primary, timeout: .seconds(6)))
        #expect(harness.lostReasons.count == 1)
    }

    @Test func aSilentReceiverIsLostOnceThenRecovers() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let source = try BoardSource(board: testBoard(path: pty.secondaryPath, baud: "9600"), silenceTimeout: .milliseconds(300))
        defer { source.stop() }
        let harness = try SourceHarness()
        #expect(try harness.startStreaming(source, from: pty.primary))
        harness.feed = nil
        try harness.run(for: .seconds(2))
        #expect(harness.lostReasons.count == 1)
        #expect(harness.lostReasons.first?.contains("no bytes") == true)
        #expect(try harness.resumeFeeding(from: pty.primary))
        #expect(harness.lostReasons.count == 1)
    }

    @Test func aBurstOfGarbageIsReportedAndTheRateFoundAgain() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let source = try BoardSource(board: testBoard(path: pty.secondaryPath, candidates: [9600, 115200]))
        defer { source.stop() }
        let harness = try SourceHarness()
        #expect(try harness.startStreaming(source, from: pty.primary))
        harness.feed = nil
        let garbage = [UInt8](repeating: 0xA5, count: 1024)
        for _ in 0..<5 {
            _ = try garbage.withUnsafeBytes { try pty.primary.write($0) }
            try harness.run(for: .milliseconds(30))
        }
        #expect(harness.lostReasons.count == 1)
        #expect(harness.lostReasons.first?.contains("no valid NMEA") == true)
        #expect(try harness.resumeFeeding(from: pty.primary))
    }

    @Test func aBoardWithoutAUARTIsRefused() throws {
        let board = try BoardDefinition.parse(
            "name = \"sim\"\nsimulated = true\n[receiver]\nmodel = \"m\"\nfamily = \"ublox\"\n"
                + "[receiver.current_ma]\nacquisition = 1\ntracking = 1\nstandby = 1\nbackup = 1\n[power]\nstrategy = \"none\"\n",
            file: "sim.toml")
        #expect(throws: BoardSourceError.self) { try BoardSource(board: board) }
    }
}

/// A directory under /tmp, removed with its contents at the end of the test.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/waymark-daemon-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError(errno: errno, call: "mkdtemp") }
        path = String(cString: made)
    }

    deinit {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}

import Glibc
import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkSystem

@testable import WaymarkInput
import WaymarkProtocol
import WaymarkLocation
import WaymarkTestFixtures

/// Receiver faults that the other board-source tests do not cover, each with what the source
/// reports and how long it takes to recover (`docs/reliability.md`, "Receiver faults", records
/// the figures this suite prints).
@Suite(.serialized, .ownThread)
struct ReceiverFaultTests {
    @Test func aReceiverThatChangesItsRateMidStreamIsFoundAtItsNewRate() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let source = try BoardSource(board: testBoard(path: pty.secondaryPath, candidates: [9600, 38400]))
        defer { source.stop() }
        let harness = try SourceHarness()
        #expect(try harness.startStreaming(source, from: pty.primary))
        #expect(terminalRate(pty.secondary) == 9600)
        // The receiver now talks at 38,400 baud (a reset to another default, a command from
        // another program): the port at 9,600 receives what the UART makes of that.
        let secondary = pty.secondary
        harness.line = { bytes in
            let rate = terminalRate(secondary) ?? 9600
            return rate == 38400 ? bytes : UARTLine.received(bytes, sentAt: 38400, readAt: rate)
        }
        let switched = MonotonicInstant.now
        let before = harness.fixCount
        #expect(try harness.run(timeout: .seconds(20)) { harness.fixCount >= before + 2 })
        let recovery = MonotonicInstant.now - switched
        #expect(harness.lostReasons.count == 1)
        #expect(harness.lostReasons.first?.contains("no valid NMEA") == true)
        #expect(terminalRate(pty.secondary) == 38400)
        #expect(source.summary.description.contains("at 38400 baud"))
        print("receiver fault: rate change 9600 -> 38400 baud mid-stream: recovered in \(recovery) (pty-paced)")
    }

    @Test func aReceiverThatSendsOnlyTextIsNotLostAndItsFixesResumeAtOnce() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let source = try BoardSource(
            board: testBoard(path: pty.secondaryPath, baud: "9600"), silenceTimeout: .milliseconds(300))
        defer { source.stop() }
        let harness = try SourceHarness()
        #expect(try harness.startStreaming(source, from: pty.primary))
        // Only text for ten silence timeouts (an antenna or boot-loop message, say).
        let text = ReceiverCommands.nmeaSentence("GPTXT,01,01,01,ANTENNA OPEN")
        harness.line = { _ in text }
        let fixes = harness.fixCount
        try harness.run(for: .seconds(3))
        #expect(harness.fixCount <= fixes + 1)  // at most the epoch already on the wire
        #expect(harness.lostReasons.isEmpty)
        harness.line = { $0 }
        let resumed = MonotonicInstant.now
        #expect(try harness.run { harness.fixCount >= fixes + 2 })
        print("receiver fault: text only for 3 s: not lost; fixes resumed in \(MonotonicInstant.now - resumed)")
    }

    @Test func aGarbageBurstInsideTheStreamCostsOnlyTheEpochsItHit() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let source = try BoardSource(board: testBoard(path: pty.secondaryPath, baud: "9600"))
        defer { source.stop() }
        let harness = try SourceHarness()
        #expect(try harness.startStreaming(source, from: pty.primary))
        // Line noise: a run of random bytes inside every fourth epoch, shorter than the
        // garbage budget: the sentences it hits fail their checksums, the others pass.
        var generator = SystemRandomNumberGenerator()
        var epoch = 0
        harness.line = { bytes in
            epoch += 1
            guard epoch % 4 == 0 else { return bytes }
            let cut = Int.random(in: 0..<bytes.count, using: &generator)
            return Array(bytes[..<cut]) + (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) } + bytes[cut...]
        }
        let before = harness.fixCount
        try harness.run(for: .seconds(2))
        #expect(harness.lostReasons.isEmpty)
        #expect(harness.fixCount - before >= 40)
    }
}

import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkSystem
import WaymarkHardware

/// Power strategies by their effect: bytes read back from a real pseudo-terminal, line
/// levels from a recording output. The VM tests check the same on the 8250 UART and gpio-sim.
@Suite struct PowerControlTests {
    final class RecordingOutput: DigitalOutput {
        var levels: [Bool] = []
        func setActive(_ active: Bool) throws(SystemError) { levels.append(active) }
    }

    /// A port on a pty's secondary, and what arrives at the primary.
    final class PtyPort {
        let terminal: PseudoTerminal
        let port: TerminalPort

        init() throws {
            terminal = try PseudoTerminal()
            port = try TerminalPort(descriptor: terminal.secondary, path: terminal.secondaryPath)
        }

        func received() throws -> [UInt8] {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            while let count = try buffer.withUnsafeMutableBytes({ try terminal.primary.read(into: $0) }), count > 0 {
                bytes += buffer[..<count]
            }
            return bytes
        }

        deinit { try? terminal.close() }
    }

    @Test func gpioEnableDrivesTheLine() throws {
        let line = RecordingOutput()
        let power = GPIOEnablePower(line: line)
        try power.powerDown()
        try power.powerUp()
        #expect(line.levels == [false, true])
    }

    @Test func pmtkStandbyWritesTheCommands() throws {
        let pty = try PtyPort()
        let power = PMTKStandbyPower(port: pty.port)
        try power.powerDown()
        #expect(String(decoding: try pty.received(), as: UTF8.self) == "$PMTK161,0*28\r\n")
        try power.powerUp()
        #expect(String(decoding: try pty.received(), as: UTF8.self) == "$PMTK000*32\r\n")
    }

    @Test func pmtkBackupLowersForceOnBeforeTheCommandAndRaisesItToWake() throws {
        let pty = try PtyPort()
        /// Records each level with the bytes the port had written when it was set.
        final class OrderedOutput: DigitalOutput {
            let pty: PtyPort
            var events: [String] = []
            init(_ pty: PtyPort) { self.pty = pty }
            func setActive(_ active: Bool) throws(SystemError) {
                let written = (try? pty.received()) ?? []
                if !written.isEmpty { events.append(String(decoding: written, as: UTF8.self)) }
                events.append(active ? "FORCE_ON high" : "FORCE_ON low")
            }
        }
        let forceOn = OrderedOutput(pty)
        let power = PMTKBackupPower(port: pty.port, forceOn: forceOn)
        try power.powerDown()
        forceOn.events.append(String(decoding: try pty.received(), as: UTF8.self))
        try power.powerUp()
        #expect(forceOn.events == ["FORCE_ON low", "$PMTK225,4*2F\r\n", "FORCE_ON high"])
    }

    @Test func ubxBackupWakesByUARTWithoutExtint() throws {
        let pty = try PtyPort()
        let power = UBXBackupPower(port: pty.port)
        try power.powerDown()
        #expect(try pty.received() == ReceiverCommands.ubxBackup(wakeOn: .uartRX))
        try power.powerUp()
        #expect(try pty.received() == [0xFF, 0xFF, 0xFF, 0xFF])
    }

    @Test func ubxBackupUsesExtintWhenWired() throws {
        let pty = try PtyPort()
        let extint = RecordingOutput()
        let power = UBXBackupPower(port: pty.port, extint: extint)
        try power.powerDown()
        try power.powerUp()
        #expect(try pty.received() == ReceiverCommands.ubxBackup(wakeOn: [.uartRX, .extint0]))
        #expect(extint.levels == [false, true])
    }

    @Test func theMarkerTogglesAtEveryTransition() throws {
        let marker = RecordingOutput()
        let power = MarkedPowerControl(NoPowerControl(), marker: marker)
        try power.powerDown()
        try power.powerUp()
        try power.powerDown()
        #expect(marker.levels == [true, false, true])
        #expect(power.strategy == .none)
    }
}

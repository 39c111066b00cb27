import Glibc
import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkSystem

@testable import WaymarkInput
import WaymarkHardware
import WaymarkTestFixtures

/// An enable line that cuts the receiver's supply (the Adafruit Ultimate GPS's EN pin): the
/// receiver boots at its factory rate after every power-up, and the board source must find it
/// there and move it to the fast rate again, at once.
@Suite(.serialized, .ownThread)
struct PowerCycleRateTests {
    /// The enable line, recorded.
    final class EnableLine: GPSPowerControl {
        let strategy = PowerStrategy.gpioEnable
        var isOn = true
        func powerDown() throws(SystemError) { isOn = false }
        func powerUp() throws(SystemError) { isOn = true }
    }

    /// A MediaTek receiver on the wire: talks at its factory 9,600 baud after power-up until
    /// `$PMTK251,57600` reaches it, silent while its supply is cut.
    final class Receiver {
        var rate = 9600
        var commands: [UInt8] = []
        /// Epochs it sent (one a second on a real receiver; the feed sends one every 20 ms).
        var epochs = 0
    }

    @Test func afterAnEnableLinePowerCycleTheFastRateIsRestoredAtOnce() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let board = try testBoard(
            path: pty.secondaryPath, family: "mediatek", model: "Adafruit Ultimate GPS (MT3339)", candidates: [9600, 57600],
            switchTo: 57600, strategy: "gpio-enable",
            gpio: "[gpio]\nchip = [\"test\"]\n[gpio.enable]\nline = \"GPIO17\"")
        let enable = EnableLine()
        let source = try BoardSource(
            board: board, silenceTimeout: .seconds(3), detectionWindow: .seconds(2), log: { _ in },
            openAccelerometer: { _ in throw SystemError(errno: ENODEV, call: "open") }, power: enable)
        defer { source.stop() }
        let harness = try SourceHarness()
        let receiver = Receiver()
        let secondary = pty.secondary
        let primary = pty.primary
        let switchCommand = ReceiverCommands.pmtkSetBaudRate(57600)
        harness.line = { bytes in
            receiver.commands += drain(primary)
            if receiver.commands.ends(with: switchCommand) { receiver.rate = 57600 }
            guard enable.isOn else { return [] }
            receiver.epochs += 1
            let portRate = terminalRate(secondary) ?? 9600
            return portRate == receiver.rate ? bytes : UARTLine.received(bytes, sentAt: receiver.rate, readAt: portRate)
        }
        try harness.start(source)
        harness.feed = pty.primary
        source.setReceiverPower(on: true, reason: "test")
        #expect(try harness.run { harness.fixCount >= 2 && terminalRate(secondary) == 57600 })
        #expect(receiver.rate == 57600)

        // Still: the supply is cut, and with it the receiver's rate.
        source.setReceiverPower(on: false, reason: "test")
        #expect(!enable.isOn)
        receiver.rate = 9600
        receiver.commands = []
        try harness.run(for: .milliseconds(200))

        // Moving again: it boots at 9,600 baud; the source finds it there and moves it to 57,600.
        let before = harness.fixCount
        receiver.epochs = 0
        source.setReceiverPower(on: true, reason: "test")
        #expect(try harness.run(timeout: .seconds(3)) { harness.fixCount >= before + 1 })
        // One epoch at 9,600 baud to find the rate (a real receiver's start-up message), the
        // next at 57,600 decoded: not the garbage budget's worth of epochs read at the old rate.
        #expect(receiver.epochs <= 4)
        #expect(receiver.commands.starts(with: switchCommand))
        #expect(receiver.rate == 57600 && terminalRate(secondary) == 57600)
        #expect(harness.lostReasons.isEmpty)
        print("enable-line power cycle: the first fix at 57600 baud \(receiver.epochs) epochs after power-up")
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

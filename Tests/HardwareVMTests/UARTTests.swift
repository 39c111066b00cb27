import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkSystem

/// libserialport on the VM's 8250 UART (ttyS1). The host (Scripts/vm/uart-check.py) streams
/// NMEA into it and checks, byte for byte, what these tests write: a baud switch, PMTK
/// standby and wake, UBX-CFG-PRT, UBX backup and wake, then a done marker.
@Suite(.serialized, .enabled(if: VM.isInside, "runs inside the qemu VM (Scripts/vm-test)"))
struct UARTTests {
    static let doneMarker = Array("WAYMARK-UART-DONE\r\n".utf8)

    @Test func detectsTheBaudRateThenSendsTheVendorCommands() throws {
        let port = try SerialPort(path: VM.uart, baudRate: 115200)
        defer { try? port.close() }
        var detector = BaudDetector(candidates: [115200, 9600], requiredSentences: 3)
        // The emulated UART does not time bits, so every rate reads clean NMEA: the first
        // candidate is detected. The decision path is the real one.
        var decision = BaudDetector.Decision.listening
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = MonotonicInstant.now + .seconds(60)
        while case .listening = decision, MonotonicInstant.now < deadline {
            guard VM.waitReadable(port.descriptor, milliseconds: 2000) else {
                decision = detector.silence()
                continue
            }
            guard let count = try buffer.withUnsafeMutableBytes({ try port.read(into: $0) }) else { continue }
            #expect(count > 0, "ttyS1 reported end of file")
            decision = detector.consume(buffer[..<count])
        }
        #expect(decision == .detected(115200))

        // Switch the receiver, then the port.
        try port.writeAll(ReceiverCommands.pmtkSetBaudRate(115200))
        try port.setBaudRate(115200)
        #expect(port.baudRate == 115200)

        let pmtk = PMTKStandbyPower(port: port)
        try pmtk.powerDown()
        try pmtk.powerUp()
        try port.writeAll(ReceiverCommands.ubxSetBaudRate(115200))
        let ubx = UBXBackupPower(port: port)
        try ubx.powerDown()
        try ubx.powerUp()
        try port.writeAll(Self.doneMarker)
    }
}

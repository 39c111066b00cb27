import Glibc
import Testing
import WaymarkDrivers
import WaymarkSystem

/// ``TerminalPort`` on real pseudo-terminals and pipes: what the daemon's host-side tests use
/// in place of libserialport.
@Suite struct PortTests {
    @Test func aPtyCarriesBytesBothWaysAndTakesBaudRates() throws {
        let terminal = try PseudoTerminal()
        defer { try? terminal.close() }
        let port = try TerminalPort(path: terminal.secondaryPath, baudRate: 9600)
        defer { try? port.close() }
        try port.setBaudRate(115200)
        #expect(port.baudRate == 115200)
        let nmea = Array("$GPTXT,01,01,02,hello*49\r\n".utf8)
        _ = try nmea.withUnsafeBytes { try terminal.primary.write($0) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        #expect(Array(buffer[..<(count ?? 0)]) == nmea)
        let none = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        #expect(none == nil)
        try port.writeAll(Array("$PMTK000*32\r\n".utf8))
    }

    @Test func anUnsupportedRateIsRefused() throws {
        let terminal = try PseudoTerminal()
        defer { try? terminal.close() }
        let port = try TerminalPort(descriptor: terminal.secondary, path: terminal.secondaryPath)
        #expect(throws: SystemError.self) { try port.setBaudRate(12345) }
    }

    @Test func aPipeReportsItsEnd() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(fcntl(ends[0], F_SETFL, O_NONBLOCK) == 0)
        let port = try TerminalPort(descriptor: FileDescriptor(rawValue: ends[0]), path: "pipe")
        defer { try? port.close() }
        try port.setBaudRate(4800)  // a pipe has no rate; accepted and remembered
        #expect(write(ends[1], "$", 1) == 1)
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 8)
        let first = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        let end = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
        #expect(first == 1)
        #expect(end == 0)
    }

    @Test func libserialportRefusesAPtyWithAClearError() throws {
        let terminal = try PseudoTerminal()
        defer { try? terminal.close() }
        #expect(throws: SystemError.self) { try SerialPort(path: terminal.secondaryPath, baudRate: 9600) }
    }
}

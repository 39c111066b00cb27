import Foundation
import Testing
import WaymarkTestFixtures

/// The built `waymark nmea decode -` as a child process on pipes, fed a little at a time as a
/// live port or `gpspipe -r` feeds it.
private final class StreamingDecode {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private var pending: [UInt8] = []

    init() throws {
        process.executableURL = CLIFixtures.binary
        process.arguments = ["nmea", "decode", "-"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func write(_ lines: [String]) {
        input.fileHandleForWriting.write(Data(lines.joined().utf8))
    }

    /// The next line of output, or `nil` when none arrives within `seconds`.
    func readLine(within seconds: Int32) -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, seconds * 1000) == 1 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            pending += chunk[..<count]
        }
    }

    func finish() throws {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// One second of a MediaTek-style receiver (GGA GSA RMC VTG) with a checksum on each line.
private func mediaTekEpoch(second: Int) -> [String] {
    let time = "1200" + (second < 10 ? "0" : "") + String(second) + ".000"
    return [
        "$GPGGA,\(time),4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
        "$GPGSA,A,3,04,05,09,12,24,25,29,31,,,,,1.6,0.9,1.3",
        "$GPRMC,\(time),A,4807.0380,N,01131.0000,E,0.00,0.0,230394,,,A",
        "$GPVTG,0.0,T,,M,0.00,N,0.00,K,A",
    ].map(withChecksum)
}

/// Adds `*hh\r\n` to a sentence written without its checksum.
private func withChecksum(_ line: String) -> String {
    let sum = line.utf8.dropFirst().reduce(UInt8(0), ^)
    let hex = Array("0123456789ABCDEF")
    return line + "*" + String(hex[Int(sum >> 4)]) + String(hex[Int(sum & 15)]) + "\r\n"
}

@Suite("waymark nmea decode on a stream", .ownThread, .timeLimit(.minutes(1)))
struct DecodeStreamingTests {
    @Test("each epoch's TPV comes out as the epoch completes, before more input is written")
    func streams() throws {
        let decode = try StreamingDecode()
        defer { try? decode.finish() }
        // Three epochs teach the decoder the receiver's cycle (the VTG ends it)...
        decode.write((0..<3).flatMap(mediaTekEpoch))
        for second in 0..<3 {
            let line = try #require(decode.readLine(within: 10), "no TPV for second \(second)")
            #expect(line.contains("T12:00:0\(second).000Z"))
        }
        // ...then every epoch is answered on its own last sentence, with nothing more written.
        for second in 3..<6 {
            decode.write(mediaTekEpoch(second: second))
            let line = try #require(decode.readLine(within: 10), "no TPV for second \(second)")
            #expect(line.contains("T12:00:0\(second).000Z"))
        }
    }
}

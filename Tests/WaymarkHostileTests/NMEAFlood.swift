import Glibc
import WaymarkSystem

/// A receiver that never pauses: RMC and GGA sentences one second of receiver time apart,
/// written as fast as the line takes them.
struct NMEAFlood {
    private var second = 0
    private var pending: [UInt8] = []

    /// Writes what the descriptor takes now, waiting up to 10 ms for room.
    mutating func write(to descriptor: FileDescriptor) {
        if pending.isEmpty { pending = nextEpoch() }
        let written = pending.withUnsafeBytes { Glibc.write(descriptor.rawValue, $0.baseAddress, $0.count) }
        if written > 0 {
            pending.removeFirst(written)
        } else {
            var request = pollfd(fd: descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
            _ = poll(&request, 1, 10)
        }
    }

    private mutating func nextEpoch() -> [UInt8] {
        second = (second + 1) % 86_400
        let time = String(format2(second / 3_600)) + format2(second / 60 % 60) + format2(second % 60) + ".00"
        return Array((Self.sentence("GPRMC,\(time),A,4722.614,N,00832.502,E,0.5,90.0,231126,,,A")
            + Self.sentence("GPGGA,\(time),4722.614,N,00832.502,E,1,08,0.9,408.0,M,47.0,M,,")).utf8)
    }

    private func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `$body*CS\r\n` with the body's checksum.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let hex = Array("0123456789ABCDEF")
        return "$\(body)*\(hex[Int(checksum >> 4)])\(hex[Int(checksum & 0x0F)])\r\n"
    }
}

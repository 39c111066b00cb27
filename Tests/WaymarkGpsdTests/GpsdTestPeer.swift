import Foundation
import Glibc
import WaymarkGpsd
import WaymarkJSON
import WaymarkLocation
import WaymarkTestFixtures

/// Serves one gpsd client over TCP on 127.0.0.1 from a ``GpsdSession``, for the tests that
/// run gpsd's own clients against the protocol core: the greeting on connect, the replies to
/// what the client sends, and, once it watches, the reports of `locations`. The socket
/// handling is the test's; every byte the client reads is the session's.
final class GpsdTestPeer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let locations: [Location]

    init(locations: [Location]) throws {
        self.locations = locations
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 4) == 0 else { throw GpsdTestFailure("cannot listen on 127.0.0.1: errno \(errno)") }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    /// Accepts one client and serves it until it closes or `seconds` pass.
    func serveOneClient(for seconds: Double) {
        guard waitReadable(listener, seconds: seconds) else { return }
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        defer { close(client) }
        let now = Timestamp(nanosecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1e9))
        var session = GpsdSession(
            device: GpsdDevice(path: "/dev/ttyAMA0", activated: now, bitsPerSecond: 9600, cycle: 1), release: "waymark test")
        var out = JSONBuffer()
        session.writeGreeting(to: &out)
        write(out.bytes, to: client)
        var reported = false
        let deadline = Date().addingTimeInterval(seconds)
        var bytes = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            if session.wantsLocations && !reported {
                out.removeAll()
                for location in locations { session.writeReports(for: location, into: &out) }
                write(out.bytes, to: client)
                reported = true
            }
            guard waitReadable(client, seconds: 0.2) else { continue }
            let count = bytes.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            out.removeAll()
            bytes.withUnsafeBytes { session.receive(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            while session.answerNextCommand(latest: locations.last, now: now, into: &out) {}
            write(out.bytes, to: client)
        }
    }

    private func write(_ bytes: [UInt8], to descriptor: Int32) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            written += count
        }
    }

    private func waitReadable(_ descriptor: Int32, seconds: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(seconds * 1000)) > 0
    }
}

struct GpsdTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs `executable` with `arguments` while `peer` serves one client, and returns its
/// standard output; `nil` when the program is not installed.
func runClient(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], against peer: GpsdTestPeer, seconds: Double = 10,
    atTerminal: Bool = false
) throws -> String? {
    guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
    let served = Thread { peer.serveOneClient(for: seconds) }
    served.start()
    // The peer closes the connection after `seconds`, which ends every client; the margin
    // only bounds a client that would not end.
    return try atTerminal
        ? ClientProgram.screen(of: executable, arguments, environment: environment, seconds: seconds + 5)
        : ClientProgram.output(of: executable, arguments, environment: environment, seconds: seconds + 5)
}

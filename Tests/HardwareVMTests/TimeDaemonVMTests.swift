import Foundation
import Testing
import WaymarkSystem

/// The real `waymarkd` in the VM, its PPS from a real GPIO edge: the test raises gpio-sim's
/// `pps` line at the start of each second (20 times) (the kernel stamps the edge) and then writes that
/// second's RMC and GGA into a pty the board file names as the receiver's UART. The daemon
/// must send chronyd's SOCK refclock (a datagram socket the test binds) one sample per paired
/// edge whose wall-clock time lies between the test's clock reads around the edge and whose
/// true time (time plus offset) is exactly the second the NMEA named. Runs from
/// `Scripts/vm-test` with the daemon suites (it needs `WAYMARK_DAEMON`).
@Suite(.serialized, .enabled(if: VM.isInside && VM.environment("WAYMARK_DAEMON") != nil, "runs in the VM (Scripts/vm-test)"))
struct TimeDaemonVMTests {
    /// How many edges the test plays: with 12, between 0 and 7 were paired in eight runs.
    static let edgeCount = 20

    /// `struct sock_sample` of chrony's refclock_sock.c on LP64: timeval, offset, pulse, leap, pad, magic.
    struct SockSample {
        var seconds: Int64
        var microseconds: Int64
        var offset: Double
        var magic: Int32
        init?(_ bytes: [UInt8]) {
            guard bytes.count == 40 else { return nil }
            func load<T>(_ at: Int, _: T.Type) -> T { bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: T.self) } }
            seconds = load(0, Int64.self)
            microseconds = load(8, Int64.self)
            offset = load(16, Double.self)
            magic = load(36, Int32.self)
        }
        /// The wall-clock time of the edge, in seconds.
        var wall: Double { Double(seconds) + Double(microseconds) / 1e6 }
    }

    @Test func aGPIOEdgeIsPairedWithItsSecondAndSentToChrony() throws {
        let directory = "/tmp/waymark-vm-time"
        mkdir(directory, 0o755)
        // The receiver's side of the UART: a pty.
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let secondary = pty.secondaryPath
        // chronyd's side: a datagram socket bound where the board file's [chrony] points.
        let socketPath = "\(directory)/pps.sock"
        unlink(socketPath)
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(receiver >= 0)
        defer { close(receiver) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in Array(socketPath.utf8).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(receiver, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        // The VM board's name and receiver, its UART the pty, only the PPS line, no power control.
        let vmBoard = try String(contentsOfFile: "\(DaemonVMTests.root)/Board/qemu-vm.toml", encoding: .utf8)
        let board = vmBoard.components(separatedBy: "[uart]")[0] + """
            [uart]
            path = "\(secondary)"
            baud = 9600
            [gpio]
            chip = "\(VM.gpioLabel)"
            [gpio.pps]
            line = "pps"
            [power]
            strategy = "none"
            [chrony]
            socket = "\(socketPath)"
            """
        try board.write(toFile: "\(directory)/board.toml", atomically: true, encoding: .utf8)
        VM.setPull(SimLine.pps, up: false)
        let daemon = try VMDaemon(board: "\(directory)/board.toml", name: "time")
        defer { daemon.stop() }

        // One edge and epoch a second, at whole seconds of the monotonic clock.
        var edges: [(before: Double, after: Double, utc: Int64)] = []
        let firstUTC: Int64 = 1_780_000_000  // 2026-05-28 20:26:40 UTC
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_sec += 1
        deadline.tv_nsec = 0
        for second in 0..<Self.edgeCount {
            Self.wait(until: deadline)
            let before = Date().timeIntervalSince1970
            VM.setPull(SimLine.pps, up: true)
            let after = Date().timeIntervalSince1970
            let utc = firstUTC + Int64(second)
            edges.append((before, after, utc))
            let bytes = Self.epoch(utc)
            _ = try? bytes.withUnsafeBytes { try pty.primary.write($0) }
            usleep(100_000)
            VM.setPull(SimLine.pps, up: false)
            deadline.tv_sec += 1
        }
        usleep(500_000)
        var samples: [SockSample] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { break }
            if let sample = SockSample(Array(buffer[..<count])) { samples.append(sample) }
        }
        daemon.stop()  // it logs what the pairer made of the edges and epochs
        let log = (try? String(contentsOfFile: "\(VM.environment("WAYMARK_VM_OUT") ?? "/tmp/waymark-vm-daemon")/waymarkd-time.log", encoding: .utf8)) ?? ""
        // The first edge only arms the pairer. Under TCG the edges' stamps stray milliseconds
        // from the second, so the pairer (200 µs plus 500 ppm, a Pi's interrupt latency) rightly
        // refuses most as jitter or duplicates (the log's last line counts the verdicts): the
        // path must carry some, each of them exact.
        #expect(!samples.isEmpty, "no samples\n\(log)")
        for sample in samples {
            #expect(sample.magic == 0x534f_434b)
            let edge = edges.first { sample.wall >= $0.before - 0.000_001 && sample.wall <= $0.after + 0.000_001 }
            #expect(edge != nil, "sample at \(sample.wall) s matches no edge: \(edges)")
            if let edge {
                let trueTime = sample.wall + sample.offset
                #expect(abs(trueTime - Double(edge.utc)) < 0.000_01, "true time \(trueTime), the epoch named \(edge.utc)")
            }
        }
        print("VM PPS: \(samples.count) samples from \(Self.edgeCount) edges, offsets \(samples.map(\.offset))")
    }

    /// Sleeps until 20 ms before `deadline` on the monotonic clock, then spins to it: a TCG guest
    /// wakes from a sleep milliseconds late, more than the pairer's limits for a pulse.
    static func wait(until deadline: timespec) {
        var early = deadline
        early.tv_nsec = 0
        early.tv_sec -= 1
        early.tv_nsec = 980_000_000
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &early, nil)
        var now = timespec()
        repeat { clock_gettime(CLOCK_MONOTONIC, &now) } while now.tv_sec < deadline.tv_sec
    }

    /// RMC and GGA of the second `utc` (seconds since 1970), with a fix.
    static func epoch(_ utc: Int64) -> [UInt8] {
        let day = utc / 86_400
        let secondOfDay = utc % 86_400
        // 2026-05-28 is day 20601 since 1970; the test stays within it.
        precondition(day == 20_601)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = two(secondOfDay / 3600) + two(secondOfDay / 60 % 60) + two(secondOfDay % 60) + ".00"
        return sentence("GPRMC,\(time),A,4807.038,N,01131.000,E,0.0,0.0,280526,,,A")
            + sentence("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    }

    static func sentence(_ body: String) -> [UInt8] {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(checksum, radix: 16, uppercase: true)
        return Array("$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n".utf8)
    }
}

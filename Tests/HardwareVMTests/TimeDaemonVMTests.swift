import Foundation
import Testing
import WaymarkSystem

/// The real `waymarkd` in the VM, its PPS from a real kernel-stamped edge: the test makes an
/// edge at the start of each second (20 times) and then writes that second's RMC and GGA into
/// a pty the board file names as the receiver's UART. The edge is gpio-sim's `pps` line
/// pulled up (a `[gpio.pps]` edge event), or a strobe on QEMU's parallel port, whose ACK
/// interrupt `pps_parport` stamps as a kernel PPS event (`[pps] device`, /dev/ppsN). The
/// daemon must send chronyd's SOCK refclock (a datagram socket the test binds) one sample per
/// paired edge whose wall-clock time lies between the test's clock reads around the edge and
/// whose true time (time plus offset) is exactly the second the NMEA named. Runs from
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
        VM.setPull(SimLine.pps, up: false)
        try Self.playEdges(
            name: "time", pulse: "[gpio]\nchip = \"\(VM.gpioLabel)\"\n[gpio.pps]\nline = \"pps\"", sentencesAfter: 0,
            raise: { VM.setPull(SimLine.pps, up: true) }, lower: { VM.setPull(SimLine.pps, up: false) })
    }

    /// The kernel's PPS device, read without waiting (fetched about 10 ms after the expected
    /// edge): the sentences follow the edge 150 ms later, as a receiver's do (tens to hundreds
    /// of milliseconds), so the edge is known before its second's epoch.
    @Test func aKernelPPSEdgeIsPairedWithItsSecondAndSentToChrony() throws {
        let device = try #require(ParallelPortPPS.load(), "no pps_parport device")
        let port = try ParallelPortPPS()
        try Self.playEdges(
            name: "kernel-time", pulse: "[pps]\ndevice = \"\(device)\"", sentencesAfter: 150_000, raise: port.strobe, lower: {})
    }

    /// Starts the daemon on a board whose UART is a pty, whose PPS is `pulse` (a board file
    /// table) and whose `[chrony]` socket the test binds; then, at whole seconds of the
    /// monotonic clock, makes an edge with `raise` (its wall-clock time read around it),
    /// writes that second's epoch `sentencesAfter` µs later, and calls `lower` 100 ms after the
    /// edge; and checks the samples the daemon sent.
    static func playEdges(
        name: String, pulse: String, sentencesAfter: UInt32, raise: () -> Void, lower: () -> Void
    ) throws {
        let directory = "/tmp/waymark-vm-\(name)"
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
        // The VM board's name and receiver, its UART the pty, only the PPS, no power control.
        let vmBoard = try String(contentsOfFile: "\(DaemonVMTests.root)/Board/qemu-vm.toml", encoding: .utf8)
        let board = vmBoard.components(separatedBy: "[uart]")[0] + """
            [uart]
            path = "\(secondary)"
            baud = 9600
            \(pulse)
            [power]
            strategy = "none"
            [chrony]
            socket = "\(socketPath)"
            """
        try board.write(toFile: "\(directory)/board.toml", atomically: true, encoding: .utf8)
        let daemon = try VMDaemon(board: "\(directory)/board.toml", name: name)
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
            raise()
            let after = Date().timeIntervalSince1970
            let utc = firstUTC + Int64(second)
            edges.append((before, after, utc))
            if sentencesAfter > 0 { usleep(sentencesAfter) }
            let bytes = Self.epoch(utc)
            _ = try? bytes.withUnsafeBytes { try pty.primary.write($0) }
            usleep(100_000 - min(sentencesAfter, 100_000))
            lower()
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
        let log = (try? String(contentsOfFile: "\(VM.environment("WAYMARK_VM_OUT") ?? "/tmp/waymark-vm-daemon")/waymarkd-\(name).log", encoding: .utf8)) ?? ""
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
        print("VM PPS (\(name)): \(samples.count) samples from \(Self.edgeCount) edges, offsets \(samples.map(\.offset))")
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

/// QEMU's PC parallel port (`Scripts/vm/run` gives the VM one at 0x378, IRQ 7) as a kernel PPS
/// source: with `parport_pc` and `pps_parport` loaded, each strobe the guest writes raises the
/// port's ACK interrupt, which `pps_parport` stamps (`pps_get_ts` in the handler) as an assert
/// event of its /dev/ppsN. The strobe is written to the port's control register through
/// /dev/port.
final class ParallelPortPPS {
    private let port: Int32

    /// Loads the modules (from the host's /lib/modules, the same kernel) and returns the
    /// device whose name is `pps_parport`, or `nil` when none appears.
    static func load() -> String? {
        var system = utsname()
        uname(&system)
        let release = withUnsafeBytes(of: system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let modules = "/lib/modules/\(release)/kernel/drivers"
        for (module, parameters) in [("parport/parport.ko", []), ("parport/parport_pc.ko", ["io=0x378", "irq=7"]), ("pps/clients/pps_parport.ko", [])] {
            // posix_spawn, not Process: Foundation's Process hangs in the VM (no CFSocket pair).
            let argv: [UnsafeMutablePointer<CChar>?] = (["/sbin/insmod", "\(modules)/\(module)"] + parameters).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            guard posix_spawn(&pid, "/sbin/insmod", nil, nil, argv, environ) == 0 else { continue }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        let sources = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/pps")) ?? []
        return sources.sorted().first { source in
            (try? String(contentsOfFile: "/sys/class/pps/\(source)/name", encoding: .utf8))?.hasPrefix("pps_parport") == true
        }.map { "/dev/\($0)" }
    }

    init() throws {
        port = open("/dev/port", O_RDWR)
        try #require(port >= 0, "cannot open /dev/port")
    }

    deinit { close(port) }

    /// Strobe on, then off with the interrupt enabled (control 0x1d, 0x1c: interrupt enable,
    /// select, init, strobe): QEMU raises IRQ 7 as the strobe falls; reading the status
    /// register lowers it for the next edge.
    func strobe() {
        for control: UInt8 in [0x1d, 0x1c] { _ = withUnsafeBytes(of: control) { pwrite(port, $0.baseAddress, 1, 0x37a) } }
        var status: UInt8 = 0
        _ = pread(port, &status, 1, 0x379)
    }
}

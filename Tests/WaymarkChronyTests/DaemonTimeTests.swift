import CWaymarkChrony
import Foundation
import Testing
import WaymarkTestFixtures

/// The real `waymarkd` on the simulated board with a `[chrony]` table, read by the real
/// chronyd (`-x`: no clock control) through its SOCK refclock, its two NTP SHM units read back
/// by the test, while a
/// `waymark watch` client keeps the simulated receiver on (a walk, so it never pauses).
///
/// The simulated receiver's clock truth is the scenario's: UTC is the scenario's start time
/// plus the time since the daemon started its timeline. The test writes a scenario starting at
/// the whole second before it starts the daemon, so true minus local time is the same for
/// every edge and lies between the scenario start minus the wall clock when the daemon had
/// started and when it was being started. The PPS samples chronyd logged must all show it
/// within the jitter of the host's clock reads, chronyd must select the SOCK source with a
/// standard deviation within that jitter, the PPS SHM unit must hold the same offset and the
/// NMEA unit one late by the simulated receiver's output latency plus the epoch's time on the
/// UART (over 50 ms, under a second).
extension RealChronyd {
@Suite struct DaemonTimeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binaries: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory
    }()

    @Test(.enabled(if: Chronyd.unavailable == nil, "\(Chronyd.unavailable ?? "")"), .timeLimit(.minutes(3)))
    func chronydSelectsTheDaemonsPPS() async throws {
        let chronyd = try Chronyd()
        defer { chronyd.stop() }
        let directory = chronyd.directory
        let unit = try #require(Chronyd.freeSHMUnits(count: 2), "no two free NTP SHM units")
        defer { [unit, unit + 1].forEach(Chronyd.removeSHMSegment) }
        // docs/ecosystem.md's chrony.conf: the SOCK source preferred, the same PPS samples in the
        // next SHM unit, the NMEA-only unit noselect.
        let started = try await chronyd.start(
            [
                "refclock SOCK \(directory)/pps.sock refid PPS poll 2 prefer", "refclock SHM \(unit + 1) refid SHM1 poll 2",
                "refclock SHM \(unit) refid NMEA poll 2 offset 0.110 delay 0.2 noselect",
            ], waitFor: "\(directory)/pps.sock")
        #expect(started, "chronyd did not create its SOCK socket\n\(chronyd.output)")

        let board = try String(contentsOf: Self.root.appendingPathComponent("Board/simulated.toml"), encoding: .utf8)
        try (board + "\n[chrony]\nsocket = \"\(directory)/pps.sock\"\nshm = \(unit)\n")
            .write(toFile: "\(directory)/board.toml", atomically: true, encoding: .utf8)
        let start = Int64(Date().timeIntervalSince1970.rounded(.down))
        let startText = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(start)))
        try "start \(startText) 47.3769 8.5417 408\nwalk 10m heading=90\n"
            .write(toFile: "\(directory)/walk.scenario", atomically: true, encoding: .utf8)
        let socket = ["WAYMARK_SOCKET=\(directory)/waymark.sock"]
        let before = Date().timeIntervalSince1970
        let daemon = try #require(
            Chronyd.spawn(
                [Self.binaries.appendingPathComponent("waymarkd").path, "--board", "\(directory)/board.toml", "--scenario",
                 "\(directory)/walk.scenario", "--verbose"],
                output: "\(directory)/waymarkd.out", environment: socket))
        defer { Chronyd.stop(daemon) }
        #expect(await Chronyd.waitForFile("\(directory)/waymark.sock", seconds: 30), "waymarkd did not listen")
        let after = Date().timeIntervalSince1970
        let client = try #require(
            Chronyd.spawn(
                [Self.binaries.appendingPathComponent("waymark").path, "watch", "--json"], output: "\(directory)/watch.out",
                environment: socket))
        defer { Chronyd.stop(client) }

        // A cold start (about half a minute to the first fix), then four polls of 4 s.
        var sources: [String: [String]] = [:]
        var statistics: [String: [String]] = [:]
        for _ in 0..<150 {
            try await Task.sleep(for: .seconds(1))
            sources = chronyd.rows("sources")
            statistics = chronyd.rows("sourcestats")
            let sampled = ["PPS", "SHM1"].allSatisfy { (Int(statistics[$0]?[1] ?? "") ?? 0) >= 4 }
            if sources["PPS"]?[1] == "*" && sampled { break }
        }
        Chronyd.stop(daemon)
        let log = "chronyd:\n\(chronyd.output)\nwaymarkd:\n" + ((try? String(contentsOfFile: "\(directory)/waymarkd.out", encoding: .utf8)) ?? "")
        let samples = chronyd.refclockSamples()
        // True minus local time: the scenario's start minus the wall clock at the timeline's origin.
        let earliest = Double(start) - after
        let latest = Double(start) - before
        let pulse = samples["PPS", default: []].map(\.raw)
        try #require(pulse.count >= 4, "\(pulse.count) PPS samples in refclocks.log\n\(log)")
        let offset = pulse[0]
        let raw = pulse
        #expect(raw.allSatisfy { $0 >= earliest - 0.001 && $0 <= latest + 0.001 }, "PPS raw offsets \(raw) outside \(earliest)...\(latest)")
        let spread = (raw.max() ?? 0) - (raw.min() ?? 0)
        #expect(spread < 0.000_2, "PPS raw offsets spread \(spread) s: \(raw)")
        let stats = try #require(statistics["PPS"], "no PPS in chronyc sourcestats: \(statistics)\n\(log)")
        let deviation = try #require(Double(stats[7]))
        #expect(deviation < 0.000_1, "PPS deviation \(deviation)")
        print("chronyd PPS: \(raw.count) samples, raw offset \(offset) s, spread \(Int((spread * 1e6).rounded())) µs, deviation \(Int((deviation * 1e6).rounded())) µs")
        // The SHM units, read back: the PPS unit holds the last PPS sample (the same offset), the
        // NMEA unit the last NMEA-only one, late by the output latency and the epoch's bytes.
        let pulseUnit = try #require(Self.lastSample(unit: unit + 1), "no SHM unit \(unit + 1)")
        #expect(pulseUnit.mode == 1 && pulseUnit.precision == -13)
        #expect(abs(pulseUnit.offset - offset) < 0.000_002, "SHM \(unit + 1) offset \(pulseUnit.offset), PPS \(offset)")
        let nmeaUnit = try #require(Self.lastSample(unit: unit), "no SHM unit \(unit)")
        #expect(nmeaUnit.mode == 1 && nmeaUnit.precision == -1)
        let latency = offset - nmeaUnit.offset
        #expect(latency > 0.05 && latency < 0.99, "NMEA late by \(latency) s")
        print("SHM \(unit + 1): offset \(pulseUnit.offset) s; SHM \(unit): NMEA late by \(Int((latency * 1e3).rounded())) ms")
        #expect(sources["PPS"]?[1] == "*", "the preferred SOCK source is not the one selected: \(sources)\n\(log)")
        #expect(sources["PPS"].map { $0[5] != "0" } == true, "PPS unreachable: \(sources)")
        // The same samples through SHM agree to the logged digits: selectable beside SOCK, never a
        // falseticker, and chronyd never lacked a majority (it did while the SOCK offset carried
        // the nanoseconds tv leaves out: 0 to 1 µs apart, wider than both sources' intervals).
        // Each SHM1 sample is one SOCK got: for the same pulse (the log's time plus its cooked
        // offset, chronyd's true time of the sample, agree to a millisecond; the logged time
        // alone moves by the offset when chronyd starts correcting its estimate, so a SOCK and
        // an SHM sample of one pulse can be logged either side of that), with the same raw
        // offset to the log's seven digits.
        let socketSamples = samples["PPS", default: []], shared = samples["SHM1", default: []]
        let unmatched = shared.filter { sample in
            !socketSamples.contains {
                abs(($0.time + $0.cooked) - (sample.time + sample.cooked)) < 0.001 && abs($0.raw - sample.raw) < 2e-7
            }
        }
        #expect(shared.count >= 4 && unmatched.isEmpty, "SHM1 samples unlike SOCK's: \(unmatched); SOCK: \(socketSamples)")
        #expect(["+", "-", "*"].contains(sources["SHM1"]?[1] ?? "none"), "SHM1 not selectable: \(sources)\n\(log)")
        #expect(!chronyd.output.contains("no majority"), "chronyd lacked a majority\n\(log)")
    }

    /// The last sample in NTP SHM `unit` (true minus system time), with the segment's mode and
    /// precision; chronyd clears `valid` once it read it, the times stay.
    static func lastSample(unit: UInt8) -> (offset: Double, mode: Int32, precision: Int32)? {
        let id = shmget(key_t(0x4e54_5030) + key_t(unit), 0, 0)
        guard id >= 0, let base = shmat(id, nil, SHM_RDONLY), base != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        defer { shmdt(base) }
        let time = base.load(as: waymark_shm_time.self)
        let clock = Double(time.clockTimeStampSec) + Double(time.clockTimeStampNSec) / 1e9
        let receive = Double(time.receiveTimeStampSec) + Double(time.receiveTimeStampNSec) / 1e9
        return (clock - receive, time.mode, time.precision)
    }
}
}

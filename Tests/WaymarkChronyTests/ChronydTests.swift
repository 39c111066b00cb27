import Foundation
import Testing
import WaymarkClock
import WaymarkSystem
import WaymarkTime
@testable import WaymarkChrony

private let chronyd = ["/usr/sbin/chronyd", "/sbin/chronyd"].first { FileManager.default.isExecutableFile(atPath: $0) }
private let chronyc = ["/usr/bin/chronyc", "/bin/chronyc"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// The real chronyd, without control of the clock (`-x`), reading a SOCK refclock and an NTP
/// SHM refclock that this test feeds at 1 Hz with PPS samples: edges on the host's clocks as if
/// true time were 3 ms ahead of the host's wall clock, with ±50 µs of jitter, paired by
/// ``PulsePairer`` with the second that follows. chronyd's refclocks.log must show every raw
/// offset at +3 ms within the jitter, and its corrected (virtual, `-x`) clock then at zero
/// within the jitter; chronyc must show both sources reachable and selectable, the SOCK one
/// selected, with a standard deviation within the jitter.
@Suite struct ChronydTests {
    static let trueTimeAhead: Int64 = 3_000_000

    @Test(
        .enabled(if: chronyd != nil && chronyc != nil, "chronyd and chronyc are not installed (Debian package chrony)"),
        .enabled(if: getuid() == 0, "chronyd runs only as root"),
        .timeLimit(.minutes(1)))
    func chronydSelectsTheSourcesAtTheSyntheticOffset() throws {
        let directory = try #require(makeTemporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let unit = try #require(freeSHMUnit(), "no free NTP SHM unit")
        defer { removeSHMSegment(unit: unit) }
        try """
            refclock SOCK \(directory)/gps.sock refid GPS poll 2 prefer
            refclock SHM \(unit) refid SHM poll 2
            cmdport 0
            bindcmdaddress \(directory)/chronyd.sock
            pidfile \(directory)/chronyd.pid
            logdir \(directory)
            log refclocks
            """.write(toFile: "\(directory)/chrony.conf", atomically: true, encoding: .utf8)
        let daemon = try #require(
            spawn([chronyd!, "-x", "-d", "-u", "root", "-f", "\(directory)/chrony.conf"], output: "\(directory)/chronyd.out"))
        defer { stop(daemon) }
        #expect(waitForFile("\(directory)/gps.sock"), "chronyd did not create its SOCK socket")

        let socket = try ChronySocketWriter(path: "\(directory)/gps.sock")
        defer { socket.close() }
        let memory = try NTPSharedMemoryWriter(unit: unit)
        defer { memory.close() }
        var pairer = PulsePairer()
        var sources: [String: [String]] = [:]
        var statistics: [String: [String]] = [:]
        for second in 0..<45 {
            if let sample = nextPulseSample(count: second, pairer: &pairer) {
                #expect(try socket.send(sample))
                #expect(memory.put(sample))
            }
            guard second >= 12 else { continue }
            sources = chronycRows("sources", directory: directory)
            statistics = chronycRows("sourcestats", directory: directory)
            let selected = sources["GPS"]?[1] == "*" && sources["SHM"].map { ["*", "+", "-"].contains($0[1]) } == true
            let sampled = ["GPS", "SHM"].allSatisfy { (Int(statistics[$0]?[1] ?? "") ?? 0) >= 4 }
            if selected && sampled { break }
        }
        let log = (try? String(contentsOfFile: "\(directory)/chronyd.out", encoding: .utf8)) ?? ""
        let samples = refclockSamples(directory: directory)
        for name in ["GPS", "SHM"] {
            // The raw offsets chrony decoded are the synthetic +3 ms (true minus local) within the
            // ±50 µs of jitter (and the microsecond of a timeval).
            let raw = samples[name, default: []].map(\.raw)
            #expect(raw.count >= 8, "\(name): \(raw.count) samples in refclocks.log\n\(log)")
            #expect(raw.allSatisfy { abs($0 - 0.003) <= 0.000_051 }, "\(name) raw offsets \(raw)")
            // With -x chronyd corrects a virtual clock: once it selected the source, the offsets
            // it measures against that clock (cooked) are the jitter around zero.
            let cooked = samples[name, default: []].suffix(3).map(\.cooked)
            #expect(cooked.allSatisfy { abs($0) < 0.000_2 }, "\(name) last cooked offsets \(cooked)")
            // -c sources: mode, state, name, stratum, poll, reach, last rx, adjusted offset, measured offset, error.
            let row = try #require(sources[name], "no \(name) in chronyc sources: \(sources)\n\(log)")
            // *: selected, +: combined with it, -: selectable but left out of the combination.
            #expect(["*", "+", "-"].contains(row[1]), "\(name) not selectable: \(row)")
            #expect(row[5] != "0", "\(name) unreachable: \(row)")
            // -c sourcestats: name, samples, runs, span, frequency, skew, offset, deviation.
            let stats = try #require(statistics[name], "no \(name) in chronyc sourcestats: \(statistics)")
            #expect((Int(stats[1]) ?? 0) >= 4, "\(name) samples: \(stats)")
            let deviation = try #require(Double(stats[7]))
            #expect(deviation < 0.000_1, "\(name) deviation \(deviation)")
            let worst = raw.map { abs($0 - 0.003) }.max() ?? 0
            print("chronyd \(name): \(raw.count) samples, raw offsets 3 ms ± \(Int((worst * 1e6).rounded())) µs, state \(row[1]), deviation \(Int((deviation * 1e6).rounded())) µs")
        }
        #expect(sources["GPS"]?[1] == "*", "the preferred SOCK source is not the one selected: \(sources)")
    }

    /// chronyd's refclocks.log: each source's samples (raw: true minus local time as sent;
    /// cooked: against chronyd's corrected clock), in order; the filter's lines are left out.
    private func refclockSamples(directory: String) -> [String: [(raw: Double, cooked: Double)]] {
        let text = (try? String(contentsOfFile: "\(directory)/refclocks.log", encoding: .utf8)) ?? ""
        var samples: [String: [(raw: Double, cooked: Double)]] = [:]
        for line in text.split(separator: "\n") {
            // Date, time, refid, DP, L, P, raw offset, cooked offset, dispersion.
            let fields = line.split(separator: " ")
            guard fields.count == 9, let raw = Double(fields[6]), let cooked = Double(fields[7]) else { continue }
            samples[String(fields[2]), default: []].append((raw, cooked))
        }
        return samples
    }

    /// Waits for true time's next second, then plays a PPS edge at its start on the host's
    /// clocks (3 ms early on the wall clock, the `count`th of a ±50 µs jitter pattern) and its
    /// epoch 120 ms later. The sample, or `nil` when the pairer (rightly) gives none.
    private func nextPulseSample(count: Int, pairer: inout PulsePairer) -> TimeSample? {
        let second: Int64 = 1_000_000_000
        let trueNow = RealtimeInstant.now.nanosecondsSinceEpoch + Self.trueTimeAhead
        let trueSecond = (trueNow / second + 1) * second
        let jitter = Int64((count * 37) % 101 - 50) * 1000
        let edgeWall = trueSecond - Self.trueTimeAhead + jitter
        let arrivalWall = edgeWall + 120_000_000
        let wait = arrivalWall - RealtimeInstant.now.nanosecondsSinceEpoch
        if wait > 0 { usleep(useconds_t(wait / 1000)) }
        let clocks = ClockReading(
            monotonic: Instant(nanoseconds: MonotonicInstant.now.nanoseconds),
            realtimeNanoseconds: RealtimeInstant.now.nanosecondsSinceEpoch)
        let edge = clocks.monotonic + .nanoseconds(edgeWall - clocks.realtimeNanoseconds)
        _ = pairer.pulse(at: edge, clocks: clocks)
        let epoch = EpochTime(utcNanoseconds: trueSecond, firstSentenceAt: clocks.monotonic, clocks: clocks, hasFix: true)
        guard case .paired(let sample) = pairer.epoch(epoch) else { return nil }
        return sample
    }

    /// chronyc's machine-readable rows of `command`, by source name.
    private func chronycRows(_ command: String, directory: String) -> [String: [String]] {
        let output = "\(directory)/chronyc.out"
        guard let process = spawn([chronyc!, "-c", "-h", "\(directory)/chronyd.sock", command], output: output) else { return [:] }
        var status: Int32 = 0
        waitpid(process, &status, 0)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let name = command == "sources" ? 2 : 0
            if fields.count > name { rows[fields[name]] = fields }
        }
        return rows
    }

    /// Starts `arguments` with stdout and stderr to the file `output`, with no signal blocked
    /// (the test runner's mask would keep chronyd from seeing SIGTERM).
    private func spawn(_ arguments: [String], output: String) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let strings = arguments.map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        var pid: pid_t = 0
        return posix_spawn(&pid, arguments[0], &actions, &attributes, strings, environ) == 0 ? pid : nil
    }

    /// SIGTERM, and SIGKILL if it has not exited 5 s later.
    private func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(50_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    private func makeTemporaryDirectory() -> String? {
        var template = Array("/tmp/waymark-chrony.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        return String(cString: made)
    }

    private func waitForFile(_ path: String) -> Bool {
        for _ in 0..<100 {
            if FileManager.default.fileExists(atPath: path) { return true }
            usleep(50_000)
        }
        return false
    }

    /// The first NTP SHM unit from 2 up that has no segment (0 and 1 are gpsd's).
    private func freeSHMUnit() -> UInt8? {
        (2...UInt8.max).first { shmget(key_t(0x4e54_5030) + key_t($0), 0, 0) == -1 && errno == ENOENT }
    }

    private func removeSHMSegment(unit: UInt8) {
        let id = shmget(key_t(0x4e54_5030) + key_t(unit), 0, 0)
        if id >= 0 { _ = shmctl(id, IPC_RMID, nil) }
    }
}

import Foundation
import Testing
import WaymarkTestFixtures
import WaymarkClock
import WaymarkSystem
import WaymarkTime
@testable import WaymarkChrony

/// The real chronyd, without control of the clock (`-x`), reading a SOCK refclock and an NTP
/// SHM refclock that this test feeds at 1 Hz with PPS samples: edges on the host's clocks as if
/// true time were 3 ms ahead of the host's wall clock, with ±50 µs of jitter, paired by
/// ``PulsePairer`` with the second that follows. chronyd's refclocks.log must show every raw
/// offset at +3 ms within the jitter, and its corrected (virtual, `-x`) clock then at zero
/// within the jitter; chronyc must show both sources reachable and selectable, the SOCK one
/// selected, with a standard deviation within the jitter.
extension RealChronyd {
@Suite struct ChronydTests {
    static let trueTimeAhead: Int64 = 3_000_000

    @Test(.enabled(if: Chronyd.unavailable == nil, "\(Chronyd.unavailable ?? "")"), .timeLimit(.minutes(1)))
    func chronydSelectsTheSourcesAtTheSyntheticOffset() async throws {
        let chronyd = try Chronyd()
        defer { chronyd.stop() }
        let directory = chronyd.directory
        let unit = try #require(Chronyd.freeSHMUnits(), "no free NTP SHM unit")
        defer { Chronyd.removeSHMSegment(unit: unit) }
        let started = try await chronyd.start(
            ["refclock SOCK \(directory)/gps.sock refid GPS poll 2 prefer", "refclock SHM \(unit) refid SHM poll 2"],
            waitFor: "\(directory)/gps.sock")
        #expect(started, "chronyd did not create its SOCK socket")

        let socket = try ChronySocketWriter(path: "\(directory)/gps.sock")
        defer { socket.close() }
        let memory = try NTPSharedMemoryWriter(unit: unit)
        defer { memory.close() }
        var pairer = PulsePairer()
        var sources: [String: [String]] = [:]
        var statistics: [String: [String]] = [:]
        for second in 0..<45 {
            if let sample = try await nextPulseSample(count: second, pairer: &pairer) {
                #expect(try socket.send(sample))
                #expect(memory.put(sample))
            }
            guard second >= 12 else { continue }
            sources = chronyd.rows("sources")
            statistics = chronyd.rows("sourcestats")
            let selected = sources["GPS"]?[1] == "*" && sources["SHM"].map { ["*", "+", "-"].contains($0[1]) } == true
            let sampled = ["GPS", "SHM"].allSatisfy { (Int(statistics[$0]?[1] ?? "") ?? 0) >= 4 }
            if selected && sampled { break }
        }
        let log = chronyd.output
        let samples = chronyd.refclockSamples()
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

    /// Waits for true time's next second, then plays a PPS edge at its start on the host's
    /// clocks (3 ms early on the wall clock, the `count`th of a ±50 µs jitter pattern) and its
    /// epoch 120 ms later. The sample, or `nil` when the pairer (rightly) gives none.
    private func nextPulseSample(count: Int, pairer: inout PulsePairer) async throws -> TimeSample? {
        let second: Int64 = 1_000_000_000
        let trueNow = RealtimeInstant.now.nanosecondsSinceEpoch + Self.trueTimeAhead
        let trueSecond = (trueNow / second + 1) * second
        let jitter = Int64((count * 37) % 101 - 50) * 1000
        let edgeWall = trueSecond - Self.trueTimeAhead + jitter
        let arrivalWall = edgeWall + 120_000_000
        let wait = arrivalWall - RealtimeInstant.now.nanosecondsSinceEpoch
        if wait > 0 { try await Task.sleep(for: .nanoseconds(wait)) }
        let clocks = ClockReading(
            monotonic: Instant(nanoseconds: MonotonicInstant.now.nanoseconds),
            realtimeNanoseconds: RealtimeInstant.now.nanosecondsSinceEpoch)
        let edge = clocks.monotonic + .nanoseconds(edgeWall - clocks.realtimeNanoseconds)
        _ = pairer.pulse(at: edge, clocks: clocks)
        let epoch = EpochTime(utcNanoseconds: trueSecond, firstSentenceAt: clocks.monotonic, clocks: clocks, hasFix: true)
        guard case .paired(let sample) = pairer.epoch(epoch) else { return nil }
        return sample
    }
}
}

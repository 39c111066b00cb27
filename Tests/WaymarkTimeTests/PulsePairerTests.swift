import Testing
import WaymarkClock
@testable import WaymarkTime

/// A receiver whose pulses start each UTC second and whose sentences follow 120 ms later, on
/// a host whose wall clock runs `wallAhead` ahead of true time (its monotonic clock started
/// `boot` before the first second).
private struct Host {
    let firstSecond: Int64 = 1_790_000_000  // 2026-09-21, seconds since 1970
    var wallAhead: Int64 = 3_000_000  // the host's wall clock is 3 ms ahead of UTC
    let boot: Int64 = 5_000_000_000

    /// The monotonic instant of true second `second` (counted from the first), plus `late` ns.
    func instant(_ second: Int64, late: Int64 = 0) -> Instant {
        Instant(nanoseconds: boot + second * 1_000_000_000 + late)
    }

    /// Both clocks read at `instant`.
    func clocks(at instant: Instant) -> ClockReading {
        ClockReading(
            monotonic: instant,
            realtimeNanoseconds: firstSecond * 1_000_000_000 + instant.nanoseconds - boot + wallAhead)
    }

    func utc(_ second: Int64) -> Int64 { (firstSecond + second) * 1_000_000_000 }

    func epoch(_ second: Int64, latency: Int64 = 120_000_000, fix: Bool = true, fraction: Int64 = 0) -> EpochTime {
        let arrival = instant(second, late: latency + fraction)
        return EpochTime(
            utcNanoseconds: utc(second) + fraction, firstSentenceAt: arrival, clocks: clocks(at: arrival), hasFix: fix)
    }

    /// An edge of second `second`, read 50 µs later.
    func pulse(_ second: Int64, late: Int64 = 0, into pairer: inout PulsePairer) -> PulsePairer.EdgeVerdict {
        let edge = instant(second, late: late)
        return pairer.pulse(at: edge, clocks: clocks(at: edge + .microseconds(50)))
    }
}

@Suite struct PulsePairerTests {
    @Test func pairsEachEdgeWithTheSecondThatFollowsAndMeasuresTheWallClock() throws {
        let host = Host()
        var pairer = PulsePairer()
        #expect(host.pulse(0, into: &pairer) == .armed)
        #expect(pairer.epoch(host.epoch(0)) == .noPulse)
        for second in Int64(1)...5 {
            #expect(host.pulse(second, late: 30_000, into: &pairer) == .accepted)
            guard case .paired(let sample) = pairer.epoch(host.epoch(second)) else {
                Issue.record("second \(second) not paired")
                return
            }
            #expect(sample.referenceNanoseconds == host.utc(second))
            // Wall clock 3 ms ahead, edge read 30 µs late: true minus local = -3.030 ms.
            #expect(sample.offsetNanoseconds == -3_030_000)
            #expect(sample.source == .pulse)
        }
    }

    @Test func rejectsDuplicateEdgesAndKeepsThePulseBeforeThem() {
        let host = Host()
        var pairer = PulsePairer()
        _ = host.pulse(0, into: &pairer)
        #expect(host.pulse(1, into: &pairer) == .accepted)
        #expect(host.pulse(1, late: 100_000_000, into: &pairer) == .duplicate)  // the falling edge
        guard case .paired(let sample) = pairer.epoch(host.epoch(1)) else {
            Issue.record("the first edge lost its pairing")
            return
        }
        #expect(sample.systemNanoseconds == host.clocks(at: host.instant(1)).realtimeNanoseconds)
        #expect(host.pulse(2, into: &pairer) == .accepted)
    }

    @Test func rejectsJitterBeyondTheBoundAndRearms() {
        let host = Host()
        var pairer = PulsePairer()
        _ = host.pulse(0, into: &pairer)
        // 200 µs of jitter plus 500 ppm of 1 s: 700 µs is within, 800 µs is not.
        #expect(host.pulse(1, late: 700_000, into: &pairer) == .accepted)
        #expect(host.pulse(2, late: 1_500_000, into: &pairer) == .jitter)
        #expect(pairer.epoch(host.epoch(2)) == .noPulse)
        #expect(host.pulse(3, late: 1_500_000, into: &pairer) == .accepted)  // measured from the rejected edge
    }

    @Test func missingPulsesLeaveTheirEpochsUnpairedAndTheNextEdgeCounts() {
        let host = Host()
        var pairer = PulsePairer()
        _ = host.pulse(0, into: &pairer)
        #expect(host.pulse(1, into: &pairer) == .accepted)
        guard case .paired = pairer.epoch(host.epoch(1)) else { Issue.record("second 1"); return }
        #expect(pairer.epoch(host.epoch(2)) == .noPulse)
        #expect(pairer.epoch(host.epoch(3)) == .noPulse)
        #expect(host.pulse(4, late: 1_000_000, into: &pairer) == .accepted)  // 3 s: 200 µs + 1.5 ms allowed
        guard case .paired(let sample) = pairer.epoch(host.epoch(4)) else { Issue.record("second 4"); return }
        #expect(sample.referenceNanoseconds == host.utc(4))
        #expect(host.pulse(20, into: &pairer) == .armed)  // longer than the longest gap
    }

    @Test func anEdgeWithoutItsEpochDoesNotPairWithTheNextSecond() {
        let host = Host()
        var pairer = PulsePairer()
        _ = host.pulse(0, into: &pairer)
        #expect(host.pulse(1, into: &pairer) == .accepted)
        // Second 1's sentences are lost; second 2's arrive 1.12 s after the edge.
        #expect(pairer.epoch(host.epoch(2)) == .late)
        #expect(pairer.epoch(host.epoch(2)) == .noPulse)
    }

    @Test func epochsBeforeTheEdgeOrBetweenSecondsLeaveItWaiting() {
        let host = Host()
        var pairer = PulsePairer()
        _ = host.pulse(0, into: &pairer)
        _ = host.pulse(1, into: &pairer)
        // A 5 Hz receiver: the 0.8 s epoch's sentences arrive at 0.92 s, before the edge of 1 s.
        #expect(pairer.epoch(host.epoch(0, fraction: 800_000_000)) == .beforePulse)
        // The whole second's sentences are lost; 1.2 s does not name the edge.
        #expect(pairer.epoch(host.epoch(1, fraction: 200_000_000)) == .subsecond)
        #expect(pairer.epoch(host.epoch(1, fraction: 400_000_000)) == .subsecond)
        _ = host.pulse(2, into: &pairer)
        #expect(pairer.epoch(host.epoch(1, fraction: 800_000_000)) == .beforePulse)
        guard case .paired(let sample) = pairer.epoch(host.epoch(2)) else {
            Issue.record("second 2")
            return
        }
        #expect(sample.referenceNanoseconds == host.utc(2))
    }

    @Test func epochsWithoutAFixPairWithNothing() {
        let host = Host()
        var pairer = PulsePairer()
        _ = host.pulse(0, into: &pairer)
        _ = host.pulse(1, into: &pairer)
        #expect(pairer.epoch(host.epoch(1, fix: false)) == .noFix)
        #expect(pairer.epoch(host.epoch(1)) == .noPulse)
        #expect(host.epoch(1, fix: false).nmeaSample == nil)
    }

    @Test func absurdTimesNeverTrap() {
        var pairer = PulsePairer()
        let extremes: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
        for edge in extremes {
            for realtime in extremes {
                let clocks = ClockReading(monotonic: Instant(nanoseconds: realtime), realtimeNanoseconds: realtime)
                _ = pairer.pulse(at: Instant(nanoseconds: edge), clocks: clocks)
                for utc in extremes {
                    let epoch = EpochTime(
                        utcNanoseconds: utc, firstSentenceAt: Instant(nanoseconds: edge &+ 1), clocks: clocks, hasFix: true)
                    _ = pairer.epoch(epoch)
                    _ = epoch.nmeaSample
                }
            }
        }
        let far = ClockReading(monotonic: Instant(nanoseconds: .min), realtimeNanoseconds: .max)
        #expect(far.realtimeNanoseconds(at: Instant(nanoseconds: .max)) == nil)
        #expect(TimeSample(systemNanoseconds: .min, referenceNanoseconds: .max, source: .nmea, leap: .none) == nil)
    }

    @Test func nmeaSampleIsTheEpochAgainstItsFirstSentence() throws {
        var host = Host()
        host.wallAhead = -2_000_000  // wall clock 2 ms behind
        var epoch = host.epoch(7, latency: 250_000_000)
        epoch.leap = .insert
        let sample = try #require(epoch.nmeaSample)
        // UTC 7 s against a wall clock reading 7.250 - 0.002 s: offset -248 ms, the latency.
        #expect(sample.offsetNanoseconds == -248_000_000)
        #expect(sample.source == .nmea)
        #expect(sample.leap == .insert)
        #expect(host.epoch(7, fraction: 500_000_000).nmeaSample == nil)
    }
}

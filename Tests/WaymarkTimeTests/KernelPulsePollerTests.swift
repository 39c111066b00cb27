import Testing
import WaymarkClock
import WaymarkTime

/// A kernel PPS source on a host whose wall clock is `wallAhead` ahead of its monotonic clock
/// plus `offset`: edges at whole wall-clock seconds, fetches whenever the test says.
private struct Source {
    static let second: Int64 = 1_000_000_000
    /// Wall-clock nanoseconds at monotonic zero.
    let offset: Int64 = 1_790_000_000 * second - 5 * second
    var sequence: UInt32 = 0
    var edge: Int64 = 0  // wall clock

    func clocks(at monotonic: Int64) -> ClockReading {
        ClockReading(monotonic: Instant(nanoseconds: monotonic), realtimeNanoseconds: monotonic + offset)
    }

    /// The kernel stamps an edge at monotonic `at`.
    mutating func pulse(at monotonic: Int64) {
        sequence &+= 1
        edge = monotonic + offset
    }

    func fetch(_ poller: inout KernelPulsePoller, at monotonic: Int64) -> (edge: Instant?, next: Instant) {
        let (seconds, nanoseconds) = splitSeconds(edge)
        return poller.fetched(sequence: sequence, seconds: seconds, nanoseconds: Int32(nanoseconds), clocks: clocks(at: monotonic))
    }
}

@Suite struct KernelPulsePollerTests {
    let second = Source.second
    let ms: Int64 = 1_000_000

    @Test("a new sequence number is an edge, mapped to the monotonic timeline exactly; the same one is none")
    func newEdges() {
        var source = Source()
        var poller = KernelPulsePoller()
        #expect(source.fetch(&poller, at: 10 * second).edge == nil)  // nothing captured yet
        source.pulse(at: 10 * second + 400 * ms)
        let found = source.fetch(&poller, at: 10 * second + 700 * ms)
        #expect(found.edge == Instant(nanoseconds: 10 * second + 400 * ms))
        #expect(source.clocks(at: 0).realtimeNanoseconds(at: found.edge!) == source.edge)
        #expect(source.fetch(&poller, at: 10 * second + 800 * ms).edge == nil)
    }

    @Test("paced once a second just after the expected edge; a miss is retried every 50 ms for 300 ms")
    func pacing() {
        var source = Source()
        var poller = KernelPulsePoller()
        // Before any edge: once a second, at any phase.
        #expect(source.fetch(&poller, at: 20 * second + 123 * ms).next == Instant(nanoseconds: 21 * second + 123 * ms))
        source.pulse(at: 21 * second)
        // Found 123 ms late: the next fetch is 10 ms after the next edge.
        #expect(source.fetch(&poller, at: 21 * second + 123 * ms).next == Instant(nanoseconds: 22 * second + 10 * ms))
        source.pulse(at: 22 * second)
        #expect(source.fetch(&poller, at: 22 * second + 10 * ms) == (Instant(nanoseconds: 22 * second), Instant(nanoseconds: 23 * second + 10 * ms)))
        // The next edge is 120 µs late: not there yet, retried 50 ms on.
        #expect(source.fetch(&poller, at: 23 * second + 10 * ms) == (nil, Instant(nanoseconds: 23 * second + 60 * ms)))
        source.pulse(at: 23 * second + 20 * ms)
        #expect(source.fetch(&poller, at: 23 * second + 60 * ms) == (Instant(nanoseconds: 23 * second + 20 * ms), Instant(nanoseconds: 24 * second + 30 * ms)))
        // A missing pulse: retries until 300 ms past, then the next second's.
        #expect(source.fetch(&poller, at: 24 * second + 280 * ms).next == Instant(nanoseconds: 24 * second + 330 * ms))
        #expect(source.fetch(&poller, at: 24 * second + 330 * ms).next == Instant(nanoseconds: 25 * second + 30 * ms))
    }

    @Test("hostile or stale stamps are no edge: before a restart, in the future, bad nanoseconds, overflowing seconds")
    func refusedStamps() {
        var poller = KernelPulsePoller()
        let clocks = Source().clocks(at: 100 * second)
        let now = clocks.realtimeNanoseconds
        func fetch(_ sequence: UInt32, _ wall: Int64, nanoseconds: Int32? = nil) -> Instant? {
            let (seconds, fraction) = splitSeconds(wall)
            return poller.fetched(sequence: sequence, seconds: seconds, nanoseconds: nanoseconds ?? Int32(fraction), clocks: clocks).edge
        }
        #expect(fetch(1, now - 3 * second) == nil)  // older than 2 s: from before the daemon looked
        #expect(fetch(2, now + 1) == nil)  // after the fetch
        #expect(fetch(3, now - 100 * ms, nanoseconds: -1) == nil)
        #expect(fetch(4, now - 100 * ms, nanoseconds: 1_000_000_000) == nil)
        #expect(poller.fetched(sequence: 5, seconds: .max, nanoseconds: 0, clocks: clocks).edge == nil)
        #expect(poller.fetched(sequence: 6, seconds: .min, nanoseconds: 999_999_999, clocks: clocks).edge == nil)
        #expect(fetch(7, now - 2 * second) == Instant(nanoseconds: 98 * second))  // 2 s old is still fresh
        // The sequence number wraps: any change is a new edge.
        #expect(fetch(0, now - 100 * ms) == nil)  // 0: nothing captured
        #expect(fetch(.max, now - 50 * ms) == Instant(nanoseconds: 100 * second - 50 * ms))
    }

    @Test("the clocks' mapping and its inverse agree, and overflow gives nil")
    func clockMapping() {
        let clocks = ClockReading(monotonic: Instant(nanoseconds: 5 * second), realtimeNanoseconds: 1_790_000_000 * second)
        let instant = Instant(nanoseconds: 7 * second + 123)
        #expect(clocks.instant(atRealtime: clocks.realtimeNanoseconds(at: instant)!) == instant)
        #expect(clocks.instant(atRealtime: .min) == nil)
        #expect(ClockReading(monotonic: Instant(nanoseconds: .max), realtimeNanoseconds: 0).instant(atRealtime: 1) == nil)
    }
}

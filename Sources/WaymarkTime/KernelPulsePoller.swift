package import WaymarkClock

/// Reads a kernel PPS source (`/dev/ppsN`) by polling, pure: the kernel stamps each edge in
/// its interrupt handler on `CLOCK_REALTIME` and keeps only the newest, and the event loop
/// cannot wait for it (the device's poll(2) is always ready on Linux 6.1), so the daemon
/// fetches it on a timer and hands each fetch here.
///
/// * **Edges.** A fetch whose sequence number differs from the last one's is a new edge; its
///   stamp is mapped to the monotonic timeline with the clocks read at the fetch (the same
///   mapping turns it back into wall-clock time for chrony, exactly). An edge is reported
///   only when fresh: stamped at most ``freshness`` before the fetch, not after it, with a
///   valid nanosecond field, so a stale edge from before a restart or an absurd stamp is
///   never paired.
/// * **Pacing.** A receiver pulses at each UTC second and sends that second's sentences tens
///   to hundreds of milliseconds later, and the pairer needs the edge before them. So once an
///   edge is known, the next fetch is ``afterEdge`` after the edge one second on; a fetch
///   that finds none is retried every ``retry`` until ``retryWindow`` after the expected edge
///   (the pulse may be a little late), then waits for the next second's. Before the first
///   edge, fetches are once a second. Every edge found re-anchors the phase.
package struct KernelPulsePoller: Sendable {
    /// How long after the expected edge a fetch is made.
    package static let afterEdge = Duration.milliseconds(10)
    /// How soon a fetch that found no edge is retried, within ``retryWindow``.
    package static let retry = Duration.milliseconds(50)
    /// How late after the expected edge one is still looked for.
    package static let retryWindow = Duration.milliseconds(300)
    /// The oldest edge reported: a fetch is at most a second late before the first edge.
    package static let freshness = Duration.seconds(2)

    private var lastSequence: UInt32?
    private var lastEdge: Instant?

    /// A poller that has fetched nothing yet.
    package init() {}

    /// Takes what a fetch found (the source's newest assert: its sequence number, 0 before
    /// the first, and its `CLOCK_REALTIME` stamp) with the clocks read right after it. Returns
    /// the new edge on the monotonic timeline, if there is one, and when to fetch next.
    package mutating func fetched(sequence: UInt32, seconds: Int64, nanoseconds: Int32, clocks: ClockReading) -> (edge: Instant?, next: Instant) {
        let now = clocks.monotonic
        var edge: Instant?
        if sequence != 0 && sequence != lastSequence {
            lastSequence = sequence
            edge = fresh(seconds: seconds, nanoseconds: nanoseconds, clocks: clocks)
        }
        if let edge { lastEdge = edge }
        return (edge, nextFetch(after: now))
    }

    private func fresh(seconds: Int64, nanoseconds: Int32, clocks: ClockReading) -> Instant? {
        guard (0..<1_000_000_000).contains(nanoseconds) else { return nil }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (realtime, sumOverflow) = whole.addingReportingOverflow(Int64(nanoseconds))
        guard !overflow, !sumOverflow, let edge = clocks.instant(atRealtime: realtime) else { return nil }
        let (age, ageOverflow) = clocks.monotonic.nanoseconds.subtractingReportingOverflow(edge.nanoseconds)
        guard !ageOverflow, age >= 0, age <= Self.freshness.nanoseconds else { return nil }
        return edge
    }

    private func nextFetch(after now: Instant) -> Instant {
        let second: Int64 = 1_000_000_000
        // lastEdge is never after now and at most `freshness` before the fetch that found it.
        guard let lastEdge, now.nanoseconds >= lastEdge.nanoseconds else { return now + .seconds(1) }
        let elapsed = now.nanoseconds - lastEdge.nanoseconds
        let whole = elapsed / second
        if whole >= 1 && elapsed - whole * second < Self.retryWindow.nanoseconds { return now + Self.retry }
        return Instant(nanoseconds: lastEdge.nanoseconds + (whole + 1) * second) + Self.afterEdge
    }
}

package import WaymarkClock

/// Pairs PPS edges with the UTC seconds they start, and rejects the edges that cannot be
/// trusted. Pure: every event carries its instants.
///
/// A receiver raises its PPS line at the start of each UTC second and then sends that
/// second's sentences, so an edge belongs to the first whole-second epoch whose first
/// sentence arrives after it, within ``Limits/window``. An edge is kept only when it falls a
/// whole number of seconds after the previous one, within ``Limits/jitter`` plus the local
/// clock's possible frequency error: an edge closer than that to the previous one is a
/// duplicate (a bounce, the other edge of the pulse), and the first edge after a start or a
/// gap longer than ``Limits/longestGap`` only re-arms the check. Epochs without a fix pair
/// with nothing.
package struct PulsePairer: Sendable {
    /// The bounds on what is accepted.
    package struct Limits: Hashable, Sendable {
        /// How far an edge may stray from a whole number of seconds after the previous one,
        /// beyond the clock's frequency error (interrupt latency: tens of microseconds on a
        /// Raspberry Pi; a receiver's own PPS error is far below it).
        package var jitter: Duration
        /// The largest frequency error of the local clock: the kernel slews at most
        /// 500 ppm (`MAXFREQ`), so `n` seconds measure `n ± 0.5 ms`.
        package var frequencyTolerance: Duration
        /// The latest an epoch's first sentence may arrive after the edge it pairs with.
        package var window: Duration
        /// The longest run of missing edges after which the previous edge is still a
        /// reference for the jitter check.
        package var longestGap: Duration

        /// Limits for a GPIO edge on a Raspberry Pi class board.
        package static let gpio = Limits(
            jitter: .microseconds(200), frequencyTolerance: .microseconds(500), window: .milliseconds(990),
            longestGap: .seconds(8))

        /// Bounds on pairing.
        package init(jitter: Duration, frequencyTolerance: Duration, window: Duration, longestGap: Duration) {
            self.jitter = jitter
            self.frequencyTolerance = frequencyTolerance
            self.window = window
            self.longestGap = longestGap
        }
    }

    /// What became of an edge.
    package enum EdgeVerdict: Hashable, Sendable {
        /// It waits for the epoch it starts.
        case accepted
        /// The first edge, or the first after a long gap: it arms the jitter check.
        case armed
        /// Too close after the previous edge.
        case duplicate
        /// Off a whole number of seconds by more than the limits allow.
        case jitter
        /// Before the previous edge, or too far from it to measure.
        case outOfOrder
    }

    /// What became of an epoch: a sample, or why it paired with no edge.
    package enum EpochVerdict: Hashable, Sendable {
        /// A sample.
        case paired(TimeSample)
        /// No accepted edge waits (missing pulse).
        case noPulse
        /// The epoch is a fraction of a second: the edge waits for the whole one.
        case subsecond
        /// The epoch arrived before the waiting edge (it belongs to the previous second).
        case beforePulse
        /// The epoch arrived later than ``Limits/window`` after the edge.
        case late
        /// The receiver had no fix.
        case noFix
        /// The times overflow.
        case absurd
    }

    /// The limits in force.
    package let limits: Limits
    private var reference: Instant?
    private var waiting: (edge: Instant, clocks: ClockReading)?

    /// A pairer with `limits`.
    package init(limits: Limits = .gpio) {
        self.limits = limits
    }

    /// An edge seen at `edge` on the monotonic timeline (libgpiod's timestamp), with the
    /// clocks read when it was read.
    package mutating func pulse(at edge: Instant, clocks: ClockReading) -> EdgeVerdict {
        let verdict = judge(edge)
        switch verdict {
        case .accepted:
            reference = edge
            waiting = (edge, clocks)
        case .armed, .jitter, .outOfOrder:
            reference = edge
            waiting = nil
        case .duplicate:
            break
        }
        return verdict
    }

    /// An epoch's time: a PPS sample when it is the second the waiting edge starts.
    package mutating func epoch(_ epoch: EpochTime) -> EpochVerdict {
        guard let (edge, clocks) = waiting else { return .noPulse }
        let (delay, overflow) = epoch.firstSentenceAt.nanoseconds.subtractingReportingOverflow(edge.nanoseconds)
        if overflow { return .absurd }
        if delay <= 0 { return .beforePulse }
        if delay > limits.window.nanoseconds {
            waiting = nil
            return .late
        }
        if !epoch.isWholeSecond { return .subsecond }
        waiting = nil
        guard epoch.hasFix else { return .noFix }
        guard let system = clocks.realtimeNanoseconds(at: edge),
            let sample = TimeSample(
                systemNanoseconds: system, referenceNanoseconds: epoch.utcNanoseconds, source: .pulse, leap: epoch.leap)
        else { return .absurd }
        return .paired(sample)
    }

    private func judge(_ edge: Instant) -> EdgeVerdict {
        guard let reference else { return .armed }
        let (interval, overflow) = edge.nanoseconds.subtractingReportingOverflow(reference.nanoseconds)
        if overflow || interval < 0 { return .outOfOrder }
        let second: Int64 = 1_000_000_000
        if interval > limits.longestGap.nanoseconds + second / 2 { return .armed }
        let seconds = (interval + second / 2) / second
        let tolerance = limits.jitter.nanoseconds + seconds * limits.frequencyTolerance.nanoseconds
        if seconds == 0 || interval < second - tolerance { return .duplicate }
        return abs(interval - seconds * second) <= tolerance ? .accepted : .jitter
    }
}

import WaymarkClock

/// Typing on the desk the device lies on: a keystroke every 0.2 s (±0.06 s), each a 20 ms
/// bump of 3–25 mg on z. Generated on demand from the keystroke's number, since an
/// afternoon of typing is tens of thousands of them.
struct Keystrokes: Hashable, Sendable {
    static let period = Duration.milliseconds(200)
    static let jitter = 0.06
    static let length = Duration.milliseconds(20)
    static let amplitudes = 3.0...25.0

    /// The stretch of typing.
    var span: Range<Instant>
    var seed: UInt64

    /// The largest keystroke.
    var maximumAmplitude: Double { Self.amplitudes.upperBound }

    /// Keystroke `index` (counted from the start of the span).
    func pulse(_ index: Int64) -> Pulse {
        let bits = SimulationRandom.hash(seed: seed, stream: .keystrokes, index: span.lowerBound.nanoseconds &+ index)
        let jitter = (SimulationRandom.unit(bits) * 2 - 1) * Self.jitter
        let offset = Self.period * (Double(index) + 0.5 + jitter)
        let amplitude = Self.amplitudes.lowerBound
            + (Self.amplitudes.upperBound - Self.amplitudes.lowerBound) * SimulationRandom.unit(SimulationRandom.mix(bits))
        return Pulse(start: span.lowerBound + offset, length: Self.length, axis: .z, amplitude: amplitude, shape: .halfSine)
    }

    /// The numbers of the keystrokes that may overlap `range`.
    func indices(overlapping range: Range<Instant>) -> Range<Int64> {
        let period = Self.period.nanoseconds
        let count = (span.upperBound - span.lowerBound).nanoseconds / period - 1
        let low = max(0, (range.lowerBound - span.lowerBound).nanoseconds / period - 1)
        let high = min(count, (range.upperBound - span.lowerBound).nanoseconds / period + 1)
        return low..<max(low, high)
    }

    /// The keystroke (if any) under way at `instant`.
    func value(at instant: Instant) -> Double {
        indices(overlapping: instant..<(instant + .nanoseconds(1))).reduce(0) { $0 + pulse($1).value(at: instant) }
    }

    /// The largest keystroke among those that may overlap `range`.
    func maximumAmplitude(overlapping range: Range<Instant>) -> Double {
        indices(overlapping: range).reduce(0) { max($0, abs(pulse($1).amplitude)) }
    }
}

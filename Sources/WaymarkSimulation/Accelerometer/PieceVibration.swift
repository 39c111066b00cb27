import WaymarkClock

/// Everything that shakes the device during one trajectory piece, with an upper bound of
/// its magnitude so that quiet stretches can be skipped without sampling them.
struct PieceVibration: Sendable {
    /// Standard deviation of the sensor noise, mg (per axis).
    static let noiseSigma = 1.5

    var tones: [Tone] = []
    /// Discrete events, sorted by start.
    var pulses: [Pulse] = []
    var keystrokes: Keystrokes?

    /// The most the noise and the steady tones can add on any axis, mg.
    var steadyBound: Double {
        SimulationRandom.bellBound * Self.noiseSigma + tones.reduce(0) { $0 + abs($1.amplitude) }
    }

    /// Deviation from rest on each axis at `instant`, `time` seconds into the piece, with
    /// `noise` (three unit bell values) scaled by ``noiseSigma``.
    func deviation(at instant: Instant, time: Double, noise: (Double, Double, Double)) -> (Double, Double, Double) {
        var axes = (noise.0 * Self.noiseSigma, noise.1 * Self.noiseSigma, noise.2 * Self.noiseSigma)
        for tone in tones { add(tone.value(at: time), on: tone.axis, to: &axes) }
        for pulse in pulses where pulse.start <= instant && instant < pulse.end {
            add(pulse.value(at: instant), on: pulse.axis, to: &axes)
        }
        if let keystrokes { axes.2 += keystrokes.value(at: instant) }
        return axes
    }

    /// Stretches of `window` where the deviation may reach `threshold`; everywhere else
    /// it provably stays below. Sorted by start; they may overlap.
    func hotIntervals(in window: Range<Instant>, threshold: Double) -> [Range<Instant>] {
        let steady = steadyBound
        if steady >= threshold { return [window] }
        var hot: [Range<Instant>] = []
        let nearby = pulses.filter { $0.start < window.upperBound && $0.end > window.lowerBound }
        for pulse in nearby {
            let others = nearby.reduce(0) { $1 != pulse && $1.span.overlaps(pulse.span) ? $0 + abs($1.amplitude) : $0 }
            let keys = keystrokes?.maximumAmplitude(overlapping: pulse.span) ?? 0
            if abs(pulse.amplitude) + steady + others + keys >= threshold {
                hot.append(pulse.span.clamped(to: window))
            }
        }
        let loudestPulse = nearby.reduce(0) { max($0, abs($1.amplitude)) }
        if let keystrokes, keystrokes.maximumAmplitude + steady + loudestPulse >= threshold {
            for index in keystrokes.indices(overlapping: window) {
                let key = keystrokes.pulse(index)
                let others = nearby.reduce(0) { $1.span.overlaps(key.span) ? $0 + abs($1.amplitude) : $0 }
                if abs(key.amplitude) + steady + others >= threshold {
                    hot.append(key.span.clamped(to: window))
                }
            }
        }
        return hot.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
    }

    private func add(_ value: Double, on axis: Axis, to axes: inout (Double, Double, Double)) {
        switch axis {
        case .x: axes.0 += value
        case .y: axes.1 += value
        case .z: axes.2 += value
        }
    }
}

import WaymarkClock

/// The three axes of the device frame.
enum Axis: Int, Sendable {
    case x = 0, y, z
}

/// A steady oscillation on one axis: gait, engine, road, airframe.
struct Tone: Hashable, Sendable {
    var axis: Axis
    /// Peak amplitude, mg.
    var amplitude: Double
    /// Frequency, Hz.
    var frequency: Double
    /// Phase at the piece's start, turns.
    var phase = 0.0

    /// The value `time` seconds after the piece's start.
    func value(at time: Double) -> Double {
        amplitude * Trigonometry.sine(turns: frequency * time + phase)
    }
}

/// A short event on one axis: a keystroke, a door slam, a gust of turbulence, or the
/// sustained push of speeding up or braking.
struct Pulse: Hashable, Sendable {
    /// How the pulse is shaped over its length.
    enum Shape: Hashable, Sendable {
        /// One smooth bump (keystroke).
        case halfSine
        /// A ringing that dies away linearly (door slam), at a frequency in Hz.
        case ringing(Double)
        /// An oscillation under a half-sine envelope (turbulence), at a frequency in Hz.
        case burst(Double)
        /// A plateau reached and left over `edge` seconds (acceleration, braking).
        case plateau(edge: Double)
    }

    var start: Instant
    var length: Duration
    var axis: Axis
    /// Peak value, mg (signed: braking is negative).
    var amplitude: Double
    var shape: Shape

    var end: Instant { start + length }
    var span: Range<Instant> { start..<end }

    /// The value at `instant` (zero outside the pulse).
    func value(at instant: Instant) -> Double {
        guard instant >= start, instant < end else { return 0 }
        let time = (instant - start).seconds
        let total = length.seconds
        switch shape {
        case .halfSine:
            return amplitude * Trigonometry.sine(turns: time / total / 2)
        case .ringing(let frequency):
            return amplitude * (1 - time / total) * Trigonometry.sine(turns: frequency * time)
        case .burst(let frequency):
            return amplitude * Trigonometry.sine(turns: time / total / 2) * Trigonometry.sine(turns: frequency * time)
        case .plateau(let edge):
            return amplitude * min(1, time / edge, (total - time) / edge)
        }
    }
}

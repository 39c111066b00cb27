import WaymarkClock

/// Draws each piece's vibration from the seed. The magnitudes and their sources are listed
/// in `docs/simulation.md`.
struct VibrationBuilder {
    /// What stays the same for a whole segment (one car, one walker).
    private struct SegmentTraits {
        var gaitAmplitude: Double
        var gaitFrequency: Double
        var engineAmplitude: Double
        var engineFrequency: Double
    }

    private var random: SimulationRandom
    private let seed: UInt64
    private var traits: [SegmentTraits] = []

    init(seed: UInt64) {
        self.seed = seed
        random = SimulationRandom(seed: seed, stream: .vibration)
    }

    mutating func vibration(of piece: TrajectoryPiece) -> PieceVibration {
        while traits.count <= piece.segment {
            traits.append(
                SegmentTraits(
                    gaitAmplitude: random.uniform(250...380), gaitFrequency: random.uniform(1.7...1.95),
                    engineAmplitude: random.uniform(20...50), engineFrequency: random.uniform(25...30)))
        }
        let trait = traits[piece.segment]
        var vibration = PieceVibration()
        switch piece.activity {
        case .desk:
            if case .desk(let typing, let slamsPerHour) = piece.plan {
                if typing { vibration.keystrokes = Keystrokes(span: piece.start..<piece.end, seed: seed) }
                vibration.pulses = events(in: piece, perHour: slamsPerHour) { random in
                    Pulse(start: .zero, length: .milliseconds(80), axis: .z, amplitude: random.uniform(100...300), shape: .ringing(25))
                }
            }
        case .standing:
            break
        case .walking:
            vibration.tones = [
                Tone(axis: .z, amplitude: trait.gaitAmplitude, frequency: trait.gaitFrequency),
                Tone(axis: .x, amplitude: trait.gaitAmplitude / 2, frequency: trait.gaitFrequency, phase: 0.25),
                Tone(axis: .y, amplitude: trait.gaitAmplitude * 0.3, frequency: trait.gaitFrequency / 2),
            ]
        case .carIdling:
            vibration.tones = [Tone(axis: .z, amplitude: trait.engineAmplitude, frequency: trait.engineFrequency)]
        case .driving:
            vibration.tones = [
                Tone(axis: .z, amplitude: trait.engineAmplitude, frequency: trait.engineFrequency),
                Tone(axis: .z, amplitude: 25, frequency: 12),
                Tone(axis: .y, amplitude: 40, frequency: 0.08),
            ]
        case .liftRiding:
            vibration.tones = [Tone(axis: .z, amplitude: 5, frequency: 20)]
        case .flying:
            vibration.tones = [Tone(axis: .z, amplitude: 8, frequency: 45)]
            vibration.pulses = events(in: piece, perHour: 4) { random in
                Pulse(
                    start: .zero, length: .seconds(random.uniform(2...8)), axis: .z, amplitude: random.uniform(30...150),
                    shape: .burst(1.5))
            }
        }
        vibration.pulses = (vibration.pulses + pushes(of: piece)).sorted { $0.start < $1.start }
        return vibration
    }

    /// Events at a rate per hour, at seeded times: the count is the expected count rounded
    /// up or down at random (so a rate of 1/h over 3 h gives exactly 3).
    private mutating func events(
        in piece: TrajectoryPiece, perHour rate: Double, make: (inout SimulationRandom) -> Pulse
    ) -> [Pulse] {
        let expected = rate * piece.duration / 3_600
        let count = Int(expected + random.uniform(0...0.999_999))
        return (0..<count).map { _ in
            var pulse = make(&random)
            let latest = max(0, piece.duration - pulse.length.seconds)
            pulse.start = piece.start + .seconds(random.uniform(0...latest))
            return pulse
        }
    }

    /// The push of speeding up and of braking, on x (z in a lift), from the truth's speed
    /// profile, reached over 0.1 s (0.5 s in a lift: lifts start smoothly).
    private func pushes(of piece: TrajectoryPiece) -> [Pulse] {
        guard let profile = piece.profile, profile.rampTime > 0 else { return [] }
        var axis = Axis.x
        var sign = 1.0
        var edge = 0.1
        if case .vertical(_, let direction) = piece.motion {
            axis = .z
            sign = direction
            edge = 0.5
        }
        let ramp = Duration.seconds(profile.rampTime)
        let milliG = profile.acceleration / Self.standardGravity * 1_000 * sign
        let shape = Pulse.Shape.plateau(edge: min(edge, profile.rampTime / 2))
        return [
            Pulse(start: piece.start, length: ramp, axis: axis, amplitude: milliG, shape: shape),
            Pulse(start: piece.start + .seconds(profile.duration - profile.rampTime), length: ramp, axis: axis, amplitude: -milliG, shape: shape),
        ]
    }

    /// Standard gravity, m/s².
    static let standardGravity = 9.806_65
}

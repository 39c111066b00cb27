/// The simulation's deterministic randomness: a SplitMix64 generator for sequential draws
/// and a stateless hash for draws addressed by an index (a sample number, an epoch second),
/// so that a value never depends on the order in which a caller asks for it.
struct SimulationRandom: RandomNumberGenerator, Sendable {
    /// Independent streams derived from one seed, one per model.
    enum Stream: UInt64 {
        case trajectory = 1
        case vibration = 2
        case accelerometerNoise = 3
        case keystrokes = 4
        case receiver = 5
        case receiverStarts = 6
        case sky = 7
        case scenarioGenerator = 8
    }

    private var state: UInt64

    /// A generator for one stream of one seed.
    init(seed: UInt64, stream: Stream) {
        state = Self.mix(seed ^ (stream.rawValue &* 0xD1B5_4A32_D192_ED03))
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniform value in `range`.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Self.unit(next())
    }

    /// SplitMix64's finaliser: a bijective mix of 64 bits.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 64 random bits addressed by a seed, a stream and an index.
    static func hash(seed: UInt64, stream: Stream, index: Int64, salt: UInt64 = 0) -> UInt64 {
        mix(mix(seed ^ (stream.rawValue &* 0xD1B5_4A32_D192_ED03)) ^ mix(UInt64(bitPattern: index) &+ salt &* 0x9E37_79B9_7F4A_7C15))
    }

    /// A uniform value in [0, 1) from the top 53 bits.
    static func unit(_ bits: UInt64) -> Double {
        Double(bits >> 11) * 0x1.0p-53
    }

    /// A bell-shaped value with mean 0 and standard deviation 1, bounded to ±√12 ≈ ±3.46
    /// (Irwin–Hall: the sum of four uniforms taken from the four 16-bit parts of `bits`).
    /// The bound is what lets the accelerometer model prove a stretch of noise below a
    /// threshold without sampling it.
    static func bell(_ bits: UInt64) -> Double {
        var sum = 0.0
        for shift in stride(from: 0, to: 64, by: 16) {
            sum += Double((bits >> UInt64(shift)) & 0xFFFF) / 65_535
        }
        return (sum - 2) * bellScale
    }

    /// The largest magnitude ``bell(_:)`` returns.
    static let bellBound = 2 * bellScale
    /// 1 / the standard deviation of a sum of four uniforms (√(4/12)).
    private static let bellScale = 1.732_050_807_568_877_2
}

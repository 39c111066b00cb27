/// SplitMix64, a small seedable generator with its own arithmetic, so that a seed always
/// gives the same corpus (the standard library's `random(in:using:)` may change between releases).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `0 ..< 1`.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * unit()
    }

    /// A uniform integer in `low ... high`.
    mutating func integer(_ low: Int, _ high: Int) -> Int {
        low + Int(next() % UInt64(high - low + 1))
    }

    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// Zero-mean triangular noise in `-amplitude ..< amplitude`, peaked at zero.
    mutating func noise(_ amplitude: Double) -> Double {
        (unit() - unit()) * amplitude
    }
}

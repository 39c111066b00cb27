/// The receiver's position error: a first-order Gauss–Markov process per axis (north,
/// east, up), so that successive fixes wander together as real ones do instead of jumping
/// independently. Correlation time about 50 s; drawn afresh at each start.
struct PositionNoise: Sendable {
    /// Correlation from one second to the next (τ ≈ 50 s).
    static let correlation = 0.98
    private static let innovation = (1 - correlation * correlation).squareRoot()

    private(set) var north = 0.0
    private(set) var east = 0.0
    private(set) var up = 0.0

    /// Draws the stationary error (for a fresh start) from three unit bell values.
    mutating func restart(_ unit: (Double, Double, Double)) {
        north = unit.0
        east = unit.1
        up = unit.2
    }

    /// One second's step with three unit bell values.
    mutating func advance(_ unit: (Double, Double, Double)) {
        north = Self.correlation * north + Self.innovation * unit.0
        east = Self.correlation * east + Self.innovation * unit.1
        up = Self.correlation * up + Self.innovation * unit.2
    }
}

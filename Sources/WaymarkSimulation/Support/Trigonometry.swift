/// Sine and cosine of angles given in turns (1 turn = 360°), computed here rather than by
/// the C library so that every platform produces the same bits (the simulation's output is
/// compared byte for byte) and no libc import is needed in the pure core.
///
/// Every angle the simulation uses is naturally in turns (frequency × time, degrees / 360),
/// which makes the range reduction exact.
enum Trigonometry {
    /// sin(2π · `turns`), absolute error below 1e-13.
    static func sine(turns: Double) -> Double {
        var fraction = turns - turns.rounded()  // [-0.5, 0.5]
        if fraction > 0.25 {
            fraction = 0.5 - fraction
        } else if fraction < -0.25 {
            fraction = -0.5 - fraction
        }
        let x = fraction * 2 * Double.pi  // [-π/2, π/2]
        let square = x * x
        // Taylor series to x^19; the first omitted term is below 4e-14 on [-π/2, π/2].
        var sum = 1.0
        var divisor = 19.0
        while divisor > 1 {
            sum = 1 - square / (divisor * (divisor - 1)) * sum
            divisor -= 2
        }
        return x * sum
    }

    /// cos(2π · `turns`).
    static func cosine(turns: Double) -> Double {
        sine(turns: turns + 0.25)
    }

    /// sin of an angle in degrees.
    static func sine(degrees: Double) -> Double { sine(turns: degrees / 360) }

    /// cos of an angle in degrees.
    static func cosine(degrees: Double) -> Double { cosine(turns: degrees / 360) }
}

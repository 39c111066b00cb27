/// A decimal number exactly as a receiver printed it: an integer significand and the count
/// of digits after the decimal point.
///
/// Keeping the printed digits (rather than a `Double` rounded on the way in) makes every
/// conversion exact to the last printed digit: ``doubleValue`` performs a single, correctly
/// rounded IEEE division of two exactly representable integers.
public struct NMEADecimal: Hashable, Sendable, CustomStringConvertible {
    /// The digits as an integer, sign included (`-12.50` is `-1250`).
    public var significand: Int64
    /// How many of the digits follow the decimal point (`-12.50` has 2).
    public var scale: UInt8

    /// Creates a decimal from its significand and scale.
    @inlinable
    public init(significand: Int64, scale: UInt8) {
        self.significand = significand
        self.scale = scale
    }

    /// The nearest `Double` to the printed value (exact rounding while the significand has
    /// at most 15 digits, which covers every NMEA field).
    @inlinable
    public var doubleValue: Double {
        Double(significand) / NMEADecimal.powerOfTen(scale)
    }

    /// The integer part, truncated toward zero.
    @inlinable
    public var integerPart: Int64 {
        significand / Int64(NMEADecimal.powerOfTenInt(scale))
    }

    /// The decimal as printed, e.g. `"-12.50"`.
    public var description: String {
        guard scale > 0 else { return String(significand) }
        let magnitude = significand.magnitude
        let divisor = UInt64(NMEADecimal.powerOfTenInt(scale))
        var fraction = String(magnitude % divisor)
        while fraction.count < Int(scale) { fraction = "0" + fraction }
        return (significand < 0 ? "-" : "") + String(magnitude / divisor) + "." + fraction
    }

    /// 10^`exponent` as a `Double`; exact for every exponent up to 22.
    @inlinable
    public static func powerOfTen(_ exponent: UInt8) -> Double {
        Double(powerOfTenInt(exponent))
    }

    /// 10^`exponent` as an integer, for exponents up to 18 (larger ones saturate at 10^18).
    @inlinable
    public static func powerOfTenInt(_ exponent: UInt8) -> Int64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        default: 1_000_000_000_000_000_000
        }
    }
}

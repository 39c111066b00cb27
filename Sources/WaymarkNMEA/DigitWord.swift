/// Reads the digits at the start of a field eight bytes at a time (SWAR), so that a short
/// number costs a few arithmetic instructions instead of a loop with a branch per digit.
///
/// A word holds up to eight bytes of a sentence body as a little-endian integer, the first
/// byte lowest; bytes past the end of the body are zero, which no digit is. The functions
/// here take the word's *values*: every byte exclusive-ored with `0`, which turns a digit
/// into its value and any other byte into something above 9.
@usableFromInline
enum DigitWord {
    /// The values of a word's bytes: each digit becomes 0–9, anything else stays above 9.
    @inlinable @inline(__always)
    static func values(_ word: UInt64) -> UInt64 {
        word ^ 0x3030_3030_3030_3030
    }

    /// How many of the bytes, from the first, are digits (8 if all are).
    @inlinable @inline(__always)
    static func leadingDigitCount(_ values: UInt64) -> Int {
        // A byte above 9 has a high nibble, or gets one when 6 is added. Only such a byte
        // can carry into the next one, which does not move the first of them.
        let nonDigits = ((values &+ 0x0606_0606_0606_0606) | values) & 0xF0F0_F0F0_F0F0_F0F0
        return nonDigits.trailingZeroBitCount &>> 3
    }

    /// Whether every byte of the values is a digit (0–9).
    @inlinable @inline(__always)
    static func areDigits(_ values: UInt64) -> Bool {
        // As in `leadingDigitCount`: a carry only ever comes from a byte that is no digit.
        ((values &+ 0x0606_0606_0606_0606) | values) & 0xF0F0_F0F0_F0F0_F0F0 == 0
    }

    /// The number made of the first `count` values, which must be digits; `count` is 1 to 4.
    @inlinable @inline(__always)
    static func value(_ values: UInt64, digits count: Int) -> Int32 {
        // Move the digits to the top of the low four bytes, behind zeros, then combine
        // neighbours: tens and units in bytes 0 and 2, then thousands and hundreds.
        let aligned = UInt32(truncatingIfNeeded: values &<< UInt64(32 &- 8 &* count))
        let pairs = (aligned &* 10) &+ (aligned &>> 8)
        return Int32(truncatingIfNeeded: (pairs & 0xFF) &* 100 &+ ((pairs &>> 16) & 0xFF))
    }

    /// The number made of the first `count` values, which must be digits; `count` is 1 to 8.
    @inlinable @inline(__always)
    static func longValue(_ values: UInt64, digits count: Int) -> Int {
        // The same in three rounds: pairs, then groups of four, then all eight.
        var combined = values &<< UInt64(64 &- 8 &* count)
        combined = ((combined &* 10) &+ (combined &>> 8)) & 0x00FF_00FF_00FF_00FF
        combined = ((combined &* 100) &+ (combined &>> 16)) & 0x0000_FFFF_0000_FFFF
        combined = ((combined &* 10_000) &+ (combined &>> 32)) & 0xFFFF_FFFF
        return Int(truncatingIfNeeded: combined)
    }

    /// The value at `index` (0 to 7).
    @inlinable @inline(__always)
    static func byte(_ values: UInt64, at index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: values &>> UInt64(8 &* index))
    }

    /// A comma's value.
    @inlinable
    static var comma: UInt8 { UInt8(ascii: ",") ^ UInt8(ascii: "0") }
}

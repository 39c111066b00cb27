/// Reads the digits at the start of a field eight bytes at a time (SWAR), so that a short
/// number costs a few arithmetic instructions instead of a loop with a branch per digit.
///
/// A word holds up to eight bytes of a sentence body as a little-endian integer, the first
/// byte lowest; bytes past the end of the body are zero, which no digit is.
@usableFromInline
enum DigitWord {
    @usableFromInline static let topBits: UInt64 = 0x8080_8080_8080_8080

    /// How many of the word's bytes, from the first, are ASCII digits (8 if all are).
    @inlinable @inline(__always)
    static func leadingDigitCount(_ word: UInt64) -> Int {
        // A byte's top bit ends up set in `atLeastZero` when it is `0` or above, in
        // `aboveNine` when it is above `9`; no byte carries into the next.
        let atLeastZero = (word | topBits) &- 0x3030_3030_3030_3030
        let aboveNine = (word & ~topBits) &+ 0x4646_4646_4646_4646
        let nonDigit = (~atLeastZero | aboveNine | word) & topBits
        return nonDigit.trailingZeroBitCount &>> 3
    }

    /// The value of the word's first `count` bytes, which must be digits; `count` is 1 to 4.
    @inlinable @inline(__always)
    static func value(_ word: UInt64, digits count: Int) -> Int32 {
        // Move the digits to the top of the low four bytes, behind leading zeros, then
        // combine neighbours: tens and units in bytes 0 and 2, then thousands and hundreds.
        let aligned = UInt32(truncatingIfNeeded: (word & 0x0F0F_0F0F) &<< UInt64(32 &- 8 &* count))
        let pairs = (aligned &* 10) &+ (aligned &>> 8)
        return Int32(truncatingIfNeeded: (pairs & 0xFF) &* 100 &+ ((pairs &>> 16) & 0xFF))
    }

    /// The byte at `index` (0 to 7) of the word.
    @inlinable @inline(__always)
    static func byte(_ word: UInt64, at index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: word &>> UInt64(8 &* index))
    }
}

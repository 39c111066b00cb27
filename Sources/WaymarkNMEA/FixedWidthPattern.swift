/// A run of fields in fixed widths, such as the standard's `nn,ee,aaa,ss,` for a satellite
/// of a GSV or `hhmmss.s` for a time, matched and converted as one word instead of field by
/// field or digit by digit. Most receivers print exactly the standard's widths; anything
/// else goes field by field.
@usableFromInline
struct FixedWidthPattern {
    /// The pattern's bytes, the first lowest: `0` where a digit goes, and the separator
    /// (`,` or `.`) where one goes.
    @usableFromInline let bytes: UInt64
    /// The pattern's separator bytes, all ones.
    @usableFromInline let separators: UInt64
    /// The bytes the pattern covers, all ones.
    @usableFromInline let covered: UInt64

    @inlinable
    init(bytes: UInt64, separators: UInt64, covered: UInt64 = ~0) {
        self.bytes = bytes
        self.separators = separators
        self.covered = covered
    }

    /// The digit values (see ``DigitWord``) of `word` where the pattern has digits, zero
    /// elsewhere; nil unless the word has digits and separators where the pattern has them.
    @inlinable @inline(__always)
    func values(_ word: UInt64) -> UInt64? {
        let values = (word ^ bytes) & covered
        return values & separators == 0 && DigitWord.areDigits(values) ? values : nil
    }

    /// Each byte of digit values plus ten times the byte before it: two neighbouring digits
    /// as a number (no byte carries, since the pattern's separators are zero).
    @inlinable @inline(__always)
    static func pairs(_ values: UInt64) -> UInt64 {
        values &* 10 &+ values &>> 8
    }
}

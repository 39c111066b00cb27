extension FixedWidthPattern {
    /// A GSA satellite number in the standard's width and its comma: `00,`.
    @inlinable
    static var twoDigitNumber: FixedWidthPattern { FixedWidthPattern(bytes: 0x2C_3030, separators: 0xFF_0000, covered: 0xFF_FFFF) }
}

extension FieldReader {
    /// Steps over up to `limit` empty fields at once (a GSA lists twelve satellite fields,
    /// mostly empty) and says how many it stepped over.
    @inlinable @inline(__always)
    mutating func skipEmptyFields(atMost limit: Int) -> Int {
        guard end - position >= 8 else {
            guard limit > 0, position < end, position.pointee == UInt8(ascii: ",") else { return 0 }
            position += 1
            return 1
        }
        // Commas become zero bytes; the leading ones are the empty fields.
        let commas = word(at: position) ^ 0x2C2C_2C2C_2C2C_2C2C
        let run = min(commas.trailingZeroBitCount &>> 3, limit)
        position += run
        return run
    }

    /// Reads a two-digit number followed by a comma, the standard's width for a GSA
    /// satellite; nil, with the position unchanged, for anything else.
    @inlinable @inline(__always)
    mutating func twoDigitNumber() -> Int? {
        guard end - position >= 8, let values = FixedWidthPattern.twoDigitNumber.values(word(at: position)) else {
            return nil
        }
        position += 3
        return Int(truncatingIfNeeded: FixedWidthPattern.pairs(values) & 0xFF)
    }
}

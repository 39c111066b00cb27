extension FixedWidthPattern {
    /// A GSA satellite number in the standard's width and its comma: `00,`.
    @inlinable
    static var twoDigitNumber: FixedWidthPattern { FixedWidthPattern(bytes: 0x2C_3030, separators: 0xFF_0000, covered: 0xFF_FFFF) }
    /// Two of them: `00,00,`.
    @inlinable
    static var twoDigitNumbers: FixedWidthPattern {
        FixedWidthPattern(bytes: 0x2C30_302C_3030, separators: 0xFF00_00FF_0000, covered: 0xFFFF_FFFF_FFFF)
    }
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

    /// Reads two two-digit numbers, each followed by a comma; nil, with the position
    /// unchanged, for anything else.
    @inlinable @inline(__always)
    mutating func twoDigitNumbers() -> (Int, Int)? {
        guard end - position >= 8, let values = FixedWidthPattern.twoDigitNumbers.values(word(at: position)) else {
            return nil
        }
        position += 6
        let pairs = FixedWidthPattern.pairs(values)
        return (Int(truncatingIfNeeded: pairs & 0xFF), Int(truncatingIfNeeded: pairs &>> 24 & 0xFF))
    }

    /// Reads the body's last field when it is a single decimal digit, as a GSA's system id
    /// is; nil, with the position unchanged, for anything else.
    @inlinable @inline(__always)
    mutating func lastDigit() -> Int? {
        guard end - position == 1 else { return nil }
        let digit = position.pointee &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        position += 2
        return Int(digit)
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

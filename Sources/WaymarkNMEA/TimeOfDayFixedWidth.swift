extension FixedWidthPattern {
    /// A time of day with at least a tenth of a second: `000000.0`.
    @inlinable
    static var clock: FixedWidthPattern { FixedWidthPattern(bytes: 0x302E_3030_3030_3030, separators: 0x00FF_0000_0000_0000) }
}

extension FieldReader {
    /// Reads a time of day printed `hhmmss.f` with up to seven more fraction digits, as two
    /// words; nil, with the position unchanged, for anything else (an out-of-range time among
    /// them), which ``Field/timeOfDay`` then takes.
    @inlinable @inline(__always)
    mutating func fixedWidthTimeOfDay() -> TimeOfDay? {
        guard end - position >= 16, let clock = FixedWidthPattern.clock.values(word(at: position)) else { return nil }
        let more = DigitWord.values(word(at: position + 8))
        let moreDigits = DigitWord.leadingDigitCount(more)
        guard moreDigits < 8, DigitWord.byte(more, at: moreDigits) == DigitWord.comma else { return nil }
        // Hours, minutes and seconds in bytes 0, 2 and 4; the first fraction digit in byte 7.
        let pairs = FixedWidthPattern.pairs(clock)
        let hour = UInt8(truncatingIfNeeded: pairs)
        let minute = UInt8(truncatingIfNeeded: pairs &>> 16)
        let second = UInt8(truncatingIfNeeded: pairs &>> 32)
        guard hour < 24, minute < 60, second <= 60 else { return nil }
        // The fraction's digits padded with zeros to eight: tenths to hundred-millionths.
        let moreValues = more & ((1 &<< UInt64(8 &* moreDigits)) &- 1)
        let fraction = DigitWord.longValue(clock &>> 56 | moreValues &<< 8, digits: 8)
        position += 9 &+ moreDigits
        return TimeOfDay(hour: hour, minute: minute, second: second, nanoseconds: Int32(truncatingIfNeeded: fraction &* 10))
    }
}

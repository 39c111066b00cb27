/// The standard's fixed widths for one satellite of a GSV: `nn,ee,aaa,ss,` when the
/// satellite is tracked, `nn,ee,aaa,,` when it is not. Most receivers print exactly these, so
/// a whole satellite is checked and converted as two words instead of four fields.
@usableFromInline
struct GSVFixedWidth {
    /// The pattern's bytes, the first lowest: `0` where a digit goes, `,` where a comma goes.
    @usableFromInline let bytes: UInt64
    /// The pattern's comma bytes, all ones.
    @usableFromInline let commas: UInt64
    /// The bytes the pattern covers, all ones.
    @usableFromInline let covered: UInt64

    @inlinable
    init(bytes: UInt64, commas: UInt64, covered: UInt64 = ~0) {
        self.bytes = bytes
        self.commas = commas
        self.covered = covered
    }

    /// Bytes 0–7 of a satellite: `00,00,00`.
    @inlinable
    static var head: GSVFixedWidth { GSVFixedWidth(bytes: 0x3030_2C30_302C_3030, commas: 0x0000_FF00_00FF_0000) }
    /// Bytes 5–12 of a tracked satellite: `,000,00,`.
    @inlinable
    static var trackedTail: GSVFixedWidth { GSVFixedWidth(bytes: 0x2C30_302C_3030_302C, commas: 0xFF00_00FF_0000_00FF) }
    /// Bytes 5–10 of a satellite not tracked: `,000,,`.
    @inlinable
    static var untrackedTail: GSVFixedWidth {
        GSVFixedWidth(bytes: 0x2C2C_3030_302C, commas: 0xFFFF_0000_00FF, covered: 0xFFFF_FFFF_FFFF)
    }

    /// The digit values of `word` where the pattern has digits, zero elsewhere; nil unless
    /// the word has digits and commas where the pattern has them.
    @inlinable @inline(__always)
    func values(_ word: UInt64) -> UInt64? {
        let values = (word ^ bytes) & covered
        return values & commas == 0 && DigitWord.areDigits(values) ? values : nil
    }
}

extension FieldReader {
    /// Reads one satellite printed in the standard's fixed widths (see ``GSVFixedWidth``),
    /// with at least one field after it; nil, with the position unchanged, for anything else,
    /// which the field-by-field readers then take. A strength of -1 means not tracked.
    @inlinable @inline(__always)
    mutating func fixedWidthSatellite() -> SatelliteInView? {
        guard end - position >= 13, let head = GSVFixedWidth.head.values(word(at: position)) else { return nil }
        let tailWord = word(at: position + 5)
        let tracked = GSVFixedWidth.trackedTail.values(tailWord)
        guard let tail = tracked ?? GSVFixedWidth.untrackedTail.values(tailWord) else { return nil }
        // Neighbouring digits combined (the commas are zero, so nothing carries): number in
        // byte 0 and elevation in byte 3 of the head; azimuth's tens and units in byte 2 and
        // the strength in byte 5 of the tail.
        let headPairs = head &* 10 &+ head &>> 8
        let tailPairs = tail &* 10 &+ tail &>> 8
        position += tracked == nil ? 11 : 13
        return SatelliteInView(
            rawNumber: Int32(truncatingIfNeeded: headPairs & 0xFF),
            elevation: Int32(truncatingIfNeeded: headPairs &>> 24 & 0xFF),
            azimuth: Int32(truncatingIfNeeded: (head &>> 48 & 0xFF) &* 100 &+ (tailPairs &>> 16 & 0xFF)),
            signalStrength: tracked == nil ? -1 : Int32(truncatingIfNeeded: tailPairs &>> 40 & 0xFF))
    }
}

extension FixedWidthPattern {
    /// A GSV's message count, message number and satellites in view: `0,0,00,`.
    @inlinable
    static var listHeader: FixedWidthPattern {
        FixedWidthPattern(bytes: 0x2C_3030_2C30_2C30, separators: 0xFF_0000_FF00_FF00, covered: 0xFF_FFFF_FFFF_FFFF)
    }
    /// Bytes 0–7 of a GSV satellite: `00,00,00`.
    @inlinable
    static var satelliteHead: FixedWidthPattern { FixedWidthPattern(bytes: 0x3030_2C30_302C_3030, separators: 0x0000_FF00_00FF_0000) }
    /// Bytes 5–12 of a tracked GSV satellite: `,000,00,`.
    @inlinable
    static var trackedSatelliteTail: FixedWidthPattern {
        FixedWidthPattern(bytes: 0x2C30_302C_3030_302C, separators: 0xFF00_00FF_0000_00FF)
    }
    /// Bytes 5–10 of a GSV satellite not tracked: `,000,,`.
    @inlinable
    static var untrackedSatelliteTail: FixedWidthPattern {
        FixedWidthPattern(bytes: 0x2C2C_3030_302C, separators: 0xFFFF_0000_00FF, covered: 0xFFFF_FFFF_FFFF)
    }
}

extension FieldReader {
    /// Reads a GSV's first three fields printed in the standard's widths, `c,n,ss,`; nil,
    /// with the position unchanged, for anything else.
    @inlinable @inline(__always)
    mutating func fixedWidthListHeader() -> (messageCount: Int, messageNumber: Int, satellitesInView: Int)? {
        guard end - position >= 8, let values = FixedWidthPattern.listHeader.values(word(at: position)) else { return nil }
        position += 7
        return (
            Int(truncatingIfNeeded: values & 0xFF), Int(truncatingIfNeeded: values &>> 16 & 0xFF),
            Int(truncatingIfNeeded: FixedWidthPattern.pairs(values) &>> 32 & 0xFF)
        )
    }

    /// Reads the body's last field when it is a single hexadecimal digit, as a GSV's signal id
    /// is; nil, with the position unchanged, for anything else.
    @inlinable @inline(__always)
    mutating func lastHexDigit() -> Int? {
        guard end - position == 1, let value = Field.hexValue(position.pointee) else { return nil }
        position += 2
        return value
    }

    /// Reads one GSV satellite printed in the standard's fixed widths, `nn,ee,aaa,ss,` or
    /// `nn,ee,aaa,,` (not tracked: strength -1), with at least one field after it; nil, with
    /// the position unchanged, for anything else, which the field-by-field readers then take.
    @inlinable @inline(__always)
    mutating func fixedWidthSatellite() -> SatelliteInView? {
        guard end - position >= 13, let head = FixedWidthPattern.satelliteHead.values(word(at: position)) else {
            return nil
        }
        let tailWord = word(at: position + 5)
        let tracked = FixedWidthPattern.trackedSatelliteTail.values(tailWord)
        guard let tail = tracked ?? FixedWidthPattern.untrackedSatelliteTail.values(tailWord) else { return nil }
        // Number in byte 0 and elevation in byte 3 of the head; azimuth's tens and units in
        // byte 2 and the strength in byte 5 of the tail.
        let headPairs = FixedWidthPattern.pairs(head)
        let tailPairs = FixedWidthPattern.pairs(tail)
        position += tracked == nil ? 11 : 13
        return SatelliteInView(
            rawNumber: Int32(truncatingIfNeeded: headPairs & 0xFF),
            elevation: Int32(truncatingIfNeeded: headPairs &>> 24 & 0xFF),
            azimuth: Int32(truncatingIfNeeded: (head &>> 48 & 0xFF) &* 100 &+ (tailPairs &>> 16 & 0xFF)),
            signalStrength: tracked == nil ? -1 : Int32(truncatingIfNeeded: tailPairs &>> 40 & 0xFF))
    }
}

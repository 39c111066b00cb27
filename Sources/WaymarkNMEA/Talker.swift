/// The two-letter talker identifier that opens a sentence's address field.
public enum Talker: Hashable, Sendable {
    /// GPS (`GP`).
    case gps
    /// GLONASS (`GL`).
    case glonass
    /// Galileo (`GA`).
    case galileo
    /// BeiDou (`GB`, or `BD` from older receivers).
    case beidou
    /// QZSS (`GQ`, or `QZ` from older receivers).
    case qzss
    /// NavIC / IRNSS (`GI`, or `IN`).
    case navic
    /// A combination of constellations (`GN`).
    case combined
    /// Any other talker (marine instruments, proprietary prefixes).
    case other(UInt8, UInt8)

    /// Reads a talker from its two letters.
    @inlinable @inline(__always)
    public init(_ first: UInt8, _ second: UInt8) {
        switch (first, second) {
        case (UInt8(ascii: "G"), UInt8(ascii: "P")): self = .gps
        case (UInt8(ascii: "G"), UInt8(ascii: "L")): self = .glonass
        case (UInt8(ascii: "G"), UInt8(ascii: "A")): self = .galileo
        case (UInt8(ascii: "G"), UInt8(ascii: "B")), (UInt8(ascii: "B"), UInt8(ascii: "D")): self = .beidou
        case (UInt8(ascii: "G"), UInt8(ascii: "Q")), (UInt8(ascii: "Q"), UInt8(ascii: "Z")): self = .qzss
        case (UInt8(ascii: "G"), UInt8(ascii: "I")), (UInt8(ascii: "I"), UInt8(ascii: "N")): self = .navic
        case (UInt8(ascii: "G"), UInt8(ascii: "N")): self = .combined
        default: self = .other(first, second)
        }
    }
}

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

    /// The constellation a single-system talker stands for; `nil` for `GN` and others.
    public var constellation: Constellation? {
        switch self {
        case .gps: .gps
        case .glonass: .glonass
        case .galileo: .galileo
        case .beidou: .beidou
        case .qzss: .qzss
        case .navic: .navic
        case .combined, .other: nil
        }
    }
}

/// A satellite navigation system.
public enum Constellation: Int, Hashable, Sendable, CaseIterable {
    /// GPS (USA).
    case gps = 0
    /// SBAS augmentation satellites (WAAS, EGNOS, MSAS, …).
    case sbas = 1
    /// Galileo (EU).
    case galileo = 2
    /// BeiDou (China).
    case beidou = 3
    /// QZSS (Japan).
    case qzss = 5
    /// GLONASS (Russia).
    case glonass = 6
    /// NavIC / IRNSS (India).
    case navic = 7

    /// The NMEA 4.10 GNSS system identifier (GSA/GSV), or `nil` for SBAS, which has none.
    public init?(systemID: Int) {
        switch systemID {
        case 1: self = .gps
        case 2: self = .glonass
        case 3: self = .galileo
        case 4: self = .beidou
        case 5: self = .qzss
        case 6: self = .navic
        default: return nil
        }
    }

    /// Infers the system from an NMEA satellite number, for sentences that carry no system
    /// identifier (the common NMEA 2.x/3.x numbering: GPS 1–32, SBAS 33–64 and 120–158,
    /// GLONASS 65–96, QZSS 193–202, BeiDou 201–237 and 401–437, Galileo 301–336).
    public init?(satelliteNumber: Int) {
        switch satelliteNumber {
        case 1...32: self = .gps
        case 33...64, 120...158: self = .sbas
        case 65...96: self = .glonass
        case 193...200: self = .qzss
        case 201...237, 401...437: self = .beidou
        case 301...336: self = .galileo
        default: return nil
        }
    }

    /// A short lowercase name, as used in JSON output.
    public var name: String {
        switch self {
        case .gps: "gps"
        case .sbas: "sbas"
        case .galileo: "galileo"
        case .beidou: "beidou"
        case .qzss: "qzss"
        case .glonass: "glonass"
        case .navic: "navic"
        }
    }
}

package import WaymarkLocation

/// Which satellite an NMEA satellite number names: its constellation, its number within the
/// constellation (the satellite's own PRN or slot, which gpsd calls `svid`), and gpsd's `PRN`
/// for it (docs/gpsd.md, "SKY").
///
/// NMEA 0183 before 4.10 numbers every system in one range (GPS 1–32, SBAS 33–64 and
/// 120–158, GLONASS 65–96, QZSS 193–200, BeiDou 201–237 and 401–463, Galileo 301–336); a
/// single-system talker or an NMEA 4.10 system id says the system, and then its own numbers
/// (1–36 and so on) are used too. gpsd's `PRN` is the pre-4.10 number of the satellite
/// (GLONASS 64 + slot, QZSS 192 +, Galileo 300 +, BeiDou 400 +, NavIC 500 +, SBAS as
/// printed), as gpsd 3.22's NMEA driver computes it.
package struct SatelliteIdentity: Hashable, Sendable {
    /// The satellite's system.
    package let constellation: Constellation
    private let storedNumber: UInt8
    private let storedPRN: Int16

    /// The satellite's number within its constellation (gpsd's `svid`).
    package var number: Int { Int(storedNumber) }
    /// gpsd's `PRN` for it.
    package var prn: Int { Int(storedPRN) }

    /// The satellite `number` names in a sentence of `system` (a single-system talker's, or an
    /// NMEA 4.10 system id's; `nil` for a combined talker, which numbers all systems in one
    /// range); `nil` when the number names no satellite.
    @inline(__always)
    package init?(number: Int, system: Constellation?) {
        switch system {
        case .glonass:
            switch number {
            case 1...32: self.init(.glonass, number, prn: 64 + number)
            case 65...96: self.init(.glonass, number - 64, prn: number)
            default: return nil
            }
        case .galileo:
            switch number {
            case 1...36: self.init(.galileo, number, prn: 300 + number)
            case 301...336: self.init(.galileo, number - 300, prn: number)
            default: return nil
            }
        case .beidou:
            switch number {
            case 1...63: self.init(.beidou, number, prn: 400 + number)
            case 201...237: self.init(.beidou, number - 200, prn: number + 200)
            case 401...463: self.init(.beidou, number - 400, prn: number)
            default: return nil
            }
        case .qzss:
            switch number {
            case 1...10: self.init(.qzss, number, prn: 192 + number)
            case 193...202: self.init(.qzss, number - 192, prn: number)
            default: return nil
            }
        case .navic:
            guard (1...14).contains(number) else { return nil }
            self.init(.navic, number, prn: 500 + number)
        case .gps, .sbas, nil:
            self.init(commonNumber: number)
        }
    }

    /// The satellite a number of the common pre-4.10 range names.
    @inline(__always)
    private init?(commonNumber number: Int) {
        switch number {
        case 1...32: self.init(.gps, number, prn: number)
        case 33...64: self.init(.sbas, number + 87, prn: number)
        case 65...96: self.init(.glonass, number - 64, prn: number)
        case 120...158: self.init(.sbas, number, prn: number)
        case 193...200: self.init(.qzss, number - 192, prn: number)
        case 201...237: self.init(.beidou, number - 200, prn: number + 200)
        case 301...336: self.init(.galileo, number - 300, prn: number)
        case 401...463: self.init(.beidou, number - 400, prn: number)
        default: return nil
        }
    }

    @inline(__always)
    init(_ constellation: Constellation, _ number: Int, prn: Int) {
        self.constellation = constellation
        storedNumber = UInt8(truncatingIfNeeded: number)
        storedPRN = Int16(truncatingIfNeeded: prn)
    }

    /// Every satellite's place in one dense range, for sets: GPS 1–32, SBAS 120–158, Galileo
    /// 1–36, BeiDou 1–63, QZSS 1–10, GLONASS 1–32, NavIC 1–14 in turn.
    @inline(__always)
    var index: Int {
        switch constellation {
        case .gps: number - 1
        case .sbas: 32 + number - 120
        case .galileo: 71 + number - 1
        case .beidou: 107 + number - 1
        case .qzss: 170 + number - 1
        case .glonass: 180 + number - 1
        case .navic: 212 + number - 1
        }
    }
}

/// A set of satellites (the ones an epoch's GSA sentences say were used), kept in 256 bits.
package struct SatelliteSet: Hashable, Sendable {
    private var words = InlineArray<4, UInt64>(repeating: 0)

    /// The empty set.
    package init() {}

    /// Adds a satellite.
    @inline(__always)
    package mutating func insert(_ satellite: SatelliteIdentity) {
        let index = satellite.index
        words[index >> 6] |= 1 << UInt64(index & 63)
    }

    /// Whether the set holds `satellite`.
    package func contains(_ satellite: SatelliteIdentity) -> Bool {
        let index = satellite.index
        return words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    package static func == (lhs: SatelliteSet, rhs: SatelliteSet) -> Bool {
        (0..<4).allSatisfy { lhs.words[$0] == rhs.words[$0] }
    }

    package func hash(into hasher: inout Hasher) {
        for index in 0..<4 { hasher.combine(words[index]) }
    }
}

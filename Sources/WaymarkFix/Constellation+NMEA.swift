package import WaymarkLocation
package import WaymarkNMEA

extension Talker {
    /// The constellation a single-system talker stands for; `nil` for `GN` and others.
    package var constellation: Constellation? {
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

extension Constellation {
    /// The NMEA 4.10 GNSS system identifier (GSA/GSV), or `nil` for SBAS, which has none.
    package init?(systemID: Int) {
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
    package init?(satelliteNumber: Int) {
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
}

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
    /// identifier (the common pre-4.10 numbering that ``SatelliteIdentity`` reads).
    package init?(satelliteNumber: Int) {
        guard let identity = SatelliteIdentity(number: satelliteNumber, system: nil) else { return nil }
        self = identity.constellation
    }
}

/// GNS — multi-constellation fix data (NMEA 3.0+): like GGA, with a mode per constellation.
public struct GNS: Hashable, Sendable {
    /// UTC time of the fix.
    public var time: TimeOfDay?
    /// Latitude.
    public var latitude: NMEACoordinate?
    /// Longitude.
    public var longitude: NMEACoordinate?
    /// Mode indicators, one per constellation in the order GPS, GLONASS, Galileo, BeiDou,
    /// QZSS, NavIC (receivers print between one and six).
    public var modes: InlineArray<6, ModeIndicator?>
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// Horizontal dilution of precision.
    public var hdop: NMEADecimal?
    /// Altitude above mean sea level, metres.
    public var altitude: NMEADecimal?
    /// Geoid separation, metres.
    public var geoidSeparation: NMEADecimal?
    /// Age of differential corrections in seconds.
    public var differentialAge: NMEADecimal?
    /// Differential reference station identifier.
    public var differentialStation: Int?
    /// Navigation status (NMEA 4.10+).
    public var navigationStatus: UInt8?

    /// The best of the per-constellation modes: valid if any constellation has a fix.
    public var bestMode: ModeIndicator? {
        var best: ModeIndicator?
        for index in modes.indices {
            guard let mode = modes[index] else { continue }
            if best == nil || best == .notValid { best = mode }
        }
        return best
    }

    public static func == (lhs: GNS, rhs: GNS) -> Bool {
        lhs.time == rhs.time && lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude
            && (0..<6).allSatisfy { lhs.modes[$0] == rhs.modes[$0] } && lhs.satellitesUsed == rhs.satellitesUsed
            && lhs.hdop == rhs.hdop && lhs.altitude == rhs.altitude && lhs.geoidSeparation == rhs.geoidSeparation
            && lhs.differentialAge == rhs.differentialAge && lhs.differentialStation == rhs.differentialStation
            && lhs.navigationStatus == rhs.navigationStatus
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(time)
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(altitude)
    }

    /// Creates an empty sentence; set the fields to describe.
    public init() {
        modes = InlineArray(repeating: nil)
    }

    init(_ fields: inout FieldReader) {
        time = fields.timeOfDay()
        latitude = fields.latitude()
        longitude = fields.longitude()
        modes = InlineArray(repeating: nil)
        let modeField = fields.next()
        for index in 0..<min(modeField.bytes.count, 6) {
            modes[index] = ModeIndicator(rawValue: modeField.bytes[index])
        }
        satellitesUsed = fields.integer()
        hdop = fields.decimal()
        altitude = fields.decimal()
        geoidSeparation = fields.decimal()
        differentialAge = fields.decimal()
        differentialStation = fields.integer()
        navigationStatus = fields.character()
    }
}

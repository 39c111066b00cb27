/// GGA — fix data: time, position, fix quality, satellites used, HDOP, altitude.
public struct GGA: Hashable, Sendable {
    /// UTC time of the fix.
    public var time: TimeOfDay?
    /// Latitude.
    public var latitude: NMEACoordinate?
    /// Longitude.
    public var longitude: NMEACoordinate?
    /// Fix quality: 0 invalid, 1 GNSS, 2 DGNSS, 3 PPS, 4 RTK fixed, 5 RTK float,
    /// 6 dead reckoning, 7 manual, 8 simulator.
    public var quality: Int?
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// Horizontal dilution of precision.
    public var hdop: NMEADecimal?
    /// Antenna altitude above mean sea level, metres.
    public var altitude: NMEADecimal?
    /// Geoid separation (ellipsoid height minus mean sea level height), metres.
    public var geoidSeparation: NMEADecimal?
    /// Age of differential corrections in seconds.
    public var differentialAge: NMEADecimal?
    /// Differential reference station identifier.
    public var differentialStation: Int?

    /// Creates an empty sentence; set the fields to describe.
    public init() {}

    init(_ fields: inout FieldReader) {
        time = fields.timeOfDay()
        latitude = fields.latitude()
        longitude = fields.longitude()
        quality = fields.unsigned()
        satellitesUsed = fields.integer()
        hdop = fields.decimal()
        altitude = fields.decimal()
        fields.skip(1)  // unit, always M
        geoidSeparation = fields.decimal()
        fields.skip(1)  // unit, always M
        differentialAge = fields.decimal()
        differentialStation = fields.integer()
    }
}

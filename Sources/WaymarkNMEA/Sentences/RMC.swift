/// RMC — recommended minimum data: time, date, position, speed and course over ground.
public struct RMC: Hashable, Sendable {
    /// UTC time of the fix.
    public var time: TimeOfDay?
    /// `A` valid, `V` warning (no fix).
    public var status: UInt8?
    /// Latitude.
    public var latitude: NMEACoordinate?
    /// Longitude.
    public var longitude: NMEACoordinate?
    /// Speed over ground in knots.
    public var speedKnots: NMEADecimal?
    /// Course over ground in degrees from true north.
    public var course: NMEADecimal?
    /// UTC date.
    public var date: NMEADate?
    /// Magnetic variation in degrees, east positive.
    public var magneticVariation: NMEADecimal?
    /// Mode indicator (NMEA 2.3+).
    public var mode: ModeIndicator?
    /// Navigation status (NMEA 4.10+): `S` safe, `C` caution, `U` unsafe, `V` not valid.
    public var navigationStatus: UInt8?

    /// Whether the receiver flags the data valid (``ModeIndicator/positionIsUsable(status:mode:)``).
    public var isValid: Bool { ModeIndicator.positionIsUsable(status: status, mode: mode) }

    /// Creates an empty sentence; set the fields to describe.
    public init() {}

    init(_ fields: inout FieldReader) {
        time = fields.timeOfDay()
        status = fields.character()
        latitude = fields.latitude()
        longitude = fields.longitude()
        speedKnots = fields.decimal()
        course = fields.decimal()
        date = fields.date()
        let variation = fields.decimal()
        let variationSide = fields.character()
        if let variation {
            magneticVariation = variationSide == UInt8(ascii: "W")
                ? NMEADecimal(significand: -variation.significand, scale: variation.scale) : variation
        }
        mode = fields.character().flatMap(ModeIndicator.init(rawValue:))
        navigationStatus = fields.character()
    }
}

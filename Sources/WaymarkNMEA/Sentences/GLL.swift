/// GLL — geographic position: latitude, longitude, time, status.
public struct GLL: Hashable, Sendable {
    /// Latitude.
    public var latitude: NMEACoordinate?
    /// Longitude.
    public var longitude: NMEACoordinate?
    /// UTC time of the position.
    public var time: TimeOfDay?
    /// `A` valid, `V` not valid.
    public var status: UInt8?
    /// Mode indicator (NMEA 2.3+).
    public var mode: ModeIndicator?

    /// Whether the receiver flags the position valid (``ModeIndicator/positionIsUsable(status:mode:)``).
    public var isValid: Bool { ModeIndicator.positionIsUsable(status: status, mode: mode) }

    /// Creates an empty sentence; set the fields to describe.
    public init() {}

    init(_ fields: inout FieldReader) {
        latitude = fields.latitude()
        longitude = fields.longitude()
        time = fields.timeOfDay()
        status = fields.character()
        mode = fields.character().flatMap(ModeIndicator.init(rawValue:))
    }
}

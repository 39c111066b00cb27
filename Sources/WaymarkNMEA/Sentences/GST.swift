/// GST — pseudorange error statistics: the receiver's own 1-sigma position error estimates.
public struct GST: Hashable, Sendable {
    /// UTC time of the associated fix.
    public var time: TimeOfDay?
    /// RMS of the pseudorange residuals, metres.
    public var rangeRMS: NMEADecimal?
    /// Standard deviation of the error ellipse's semi-major axis, metres.
    public var semiMajor: NMEADecimal?
    /// Standard deviation of the error ellipse's semi-minor axis, metres.
    public var semiMinor: NMEADecimal?
    /// Orientation of the semi-major axis, degrees from true north.
    public var orientation: NMEADecimal?
    /// Standard deviation of the latitude error, metres.
    public var latitudeError: NMEADecimal?
    /// Standard deviation of the longitude error, metres.
    public var longitudeError: NMEADecimal?
    /// Standard deviation of the altitude error, metres.
    public var altitudeError: NMEADecimal?

    /// Creates an empty sentence; set the fields to describe.
    public init() {}

    init(_ fields: inout FieldReader) {
        time = fields.timeOfDay()
        rangeRMS = fields.decimal()
        semiMajor = fields.decimal()
        semiMinor = fields.decimal()
        orientation = fields.decimal()
        latitudeError = fields.decimal()
        longitudeError = fields.decimal()
        altitudeError = fields.decimal()
    }
}

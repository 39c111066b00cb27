/// VTG — course and speed over ground.
public struct VTG: Hashable, Sendable {
    /// Course over ground, degrees true.
    public var courseTrue: NMEADecimal?
    /// Course over ground, degrees magnetic.
    public var courseMagnetic: NMEADecimal?
    /// Speed over ground in knots.
    public var speedKnots: NMEADecimal?
    /// Speed over ground in kilometres per hour.
    public var speedKilometresPerHour: NMEADecimal?
    /// Mode indicator (NMEA 2.3+).
    public var mode: ModeIndicator?

    /// Creates an empty sentence; set the fields to describe.
    public init() {}

    init(_ fields: inout FieldReader) {
        courseTrue = fields.decimal()
        let second = fields.next()
        if second.isEmpty || second.character == UInt8(ascii: "T") {
            // NMEA 2.x and later: every value is followed by its unit letter.
            courseMagnetic = fields.decimal()
            fields.skip(1)
            speedKnots = fields.decimal()
            fields.skip(1)
            speedKilometresPerHour = fields.decimal()
            fields.skip(1)
            mode = fields.character().flatMap(ModeIndicator.init(rawValue:))
        } else {
            // NMEA 1.5: course true, course magnetic, knots, km/h without unit letters.
            courseMagnetic = fields.accept(second.decimal)
            speedKnots = fields.decimal()
            speedKilometresPerHour = fields.decimal()
        }
    }
}

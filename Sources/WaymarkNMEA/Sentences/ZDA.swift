/// ZDA — UTC time and date with a four-digit year, and the local zone.
public struct ZDA: Hashable, Sendable {
    /// UTC time.
    public var time: TimeOfDay?
    /// UTC date (always with its century).
    public var date: NMEADate?
    /// Local zone hours.
    public var zoneHours: Int?
    /// Local zone minutes.
    public var zoneMinutes: Int?

    /// Creates an empty sentence; set the fields to describe.
    public init() {}

    init(_ fields: inout FieldReader) {
        time = fields.timeOfDay()
        let day = fields.unsigned()
        let month = fields.unsigned()
        let year = fields.unsigned()
        if let day, let month, let year {
            if (1...31).contains(day), (1...12).contains(month), year >= 1980 {
                date = NMEADate(day: day, month: month, year: year, hasCentury: true)
            } else {
                fields.isMalformed = true
            }
        }
        zoneHours = fields.read { field in
            guard let first = field.character, first == UInt8(ascii: "-") else { return field.integer }
            return field.decimal.map { Int($0.integerPart) }
        }
        zoneMinutes = fields.unsigned()
    }
}

extension Parsed {
    /// Transforms a parsed value, keeping absence and malformation.
    @inlinable
    func map<Other>(_ transform: (Value) -> Other) -> Parsed<Other> {
        switch self {
        case .absent: .absent
        case .malformed: .malformed
        case .value(let value): .value(transform(value))
        }
    }
}

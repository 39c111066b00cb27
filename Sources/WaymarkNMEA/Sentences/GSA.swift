/// GSA — the satellites used in the solution, the fix type and the dilutions of precision.
public struct GSA: Hashable, Sendable {
    /// The most satellite numbers one GSA carries (the standard's 12; some receivers send
    /// more, which are kept up to this bound).
    public static let capacity = 24

    /// `M` manual or `A` automatic 2D/3D selection.
    public var selection: UInt8?
    /// Fix type: 1 none, 2 2D, 3 3D.
    public var fixType: Int?
    /// Numbers of the satellites used.
    public var satellites: InlineArray<24, UInt16>
    /// How many entries of ``satellites`` are filled.
    public var satelliteCount: Int
    /// Position dilution of precision.
    public var pdop: NMEADecimal?
    /// Horizontal dilution of precision.
    public var hdop: NMEADecimal?
    /// Vertical dilution of precision.
    public var vdop: NMEADecimal?
    /// GNSS system identifier (NMEA 4.10+): 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC.
    public var systemID: Int?

    /// Whether the sentence had at least the standard's 17 fields. Some receivers send a
    /// shortened GSA (`$GPGSA,A,1,,,,`) whose fix type cannot be trusted.
    public var isComplete: Bool

    /// The satellites used, as an array (allocates).
    public var usedSatellites: [UInt16] { (0..<satelliteCount).map { satellites[$0] } }

    public static func == (lhs: GSA, rhs: GSA) -> Bool {
        lhs.selection == rhs.selection && lhs.fixType == rhs.fixType && lhs.usedSatellites == rhs.usedSatellites
            && lhs.pdop == rhs.pdop && lhs.hdop == rhs.hdop && lhs.vdop == rhs.vdop && lhs.systemID == rhs.systemID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fixType)
        hasher.combine(usedSatellites)
        hasher.combine(systemID)
    }

    /// Creates a sentence from the satellites used; other fields are set afterwards.
    public init(satellites used: [UInt16] = []) {
        satellites = InlineArray(repeating: 0)
        satelliteCount = min(used.count, GSA.capacity)
        isComplete = true
        for index in 0..<satelliteCount { satellites[index] = used[index] }
    }

    init(_ fields: inout FieldReader) {
        selection = fields.character()
        fixType = fields.unsigned()
        // The standard has 12 satellite fields, three DOPs and (4.10+) a system id; some
        // receivers print more satellite fields. The DOPs are found from the end.
        satellites = InlineArray(repeating: 0)
        satelliteCount = 0
        let remaining = fields.remainingFieldCount
        isComplete = remaining >= 15
        let satelliteFields = remaining == 16 ? 12 : max(remaining - 3, 0)
        var fieldsLeft = satelliteFields
        while fieldsLeft > 0 {
            // Runs of empty fields at once; then numbers, two at a time or one, in the
            // standard's width if they can.
            let empty = fields.skipEmptyFields(atMost: fieldsLeft)
            fieldsLeft -= empty
            guard empty == 0 else { continue }
            if fieldsLeft >= 2, let (first, second) = fields.twoDigitNumbers() {
                fieldsLeft -= 2
                add(first)
                add(second)
                continue
            }
            fieldsLeft -= 1
            if let number = fields.twoDigitNumber() ?? fields.integer() { add(number) }
        }
        if remaining >= 3 {
            pdop = fields.decimal()
            hdop = fields.decimal()
            vdop = fields.decimal()
        }
        // NMEA 4.10's system id is one digit. A field there that is no whole number (SiRF-TriG
        // prints a TDOP, `1.2`) names no system: it is left unread, as a field past the
        // standard's are, and the satellites, fix type and DOPs stay.
        if remaining == 16, let id = fields.lastDigit() ?? fields.next().unsigned.value { systemID = id }
    }

    /// Keeps a satellite number read from the sentence, unless it is zero, beyond a UInt16,
    /// or beyond ``capacity``.
    @inline(__always)
    private mutating func add(_ number: Int) {
        guard satelliteCount < GSA.capacity, number > 0, number <= Int(UInt16.max) else { return }
        satellites[satelliteCount] = UInt16(number)
        satelliteCount += 1
    }
}

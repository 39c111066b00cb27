/// One satellite in view, as a GSV sentence describes it.
public struct SatelliteInView: Hashable, Sendable {
    /// The satellite number (NMEA numbering; its meaning depends on the talker and version).
    public var number: Int
    /// Elevation in degrees, 0–90.
    public var elevation: Int?
    /// Azimuth in degrees from true north, 0–359.
    public var azimuth: Int?
    /// Carrier-to-noise density in dB-Hz; `nil` when not tracked.
    public var signalStrength: Int?

    /// Creates a satellite description.
    public init(number: Int, elevation: Int? = nil, azimuth: Int? = nil, signalStrength: Int? = nil) {
        self.number = number
        self.elevation = elevation
        self.azimuth = azimuth
        self.signalStrength = signalStrength
    }
}

/// GSV — satellites in view, up to four per sentence, split over several sentences.
public struct GSV: Hashable, Sendable {
    /// How many sentences make up the full list.
    public var messageCount: Int?
    /// This sentence's number within the list, from 1.
    public var messageNumber: Int?
    /// Total satellites in view.
    public var satellitesInView: Int?
    /// The satellites this sentence describes.
    public var satellites: InlineArray<4, SatelliteInView>
    /// How many entries of ``satellites`` are filled.
    public var satelliteCount: Int
    /// Signal identifier (NMEA 4.10+), e.g. 1 for GPS L1 C/A.
    public var signalID: Int?

    /// Whether this is the last sentence of its list.
    public var isLast: Bool { messageNumber != nil && messageNumber == messageCount }

    /// The described satellites, as an array (allocates).
    public var described: [SatelliteInView] { (0..<satelliteCount).map { satellites[$0] } }

    public static func == (lhs: GSV, rhs: GSV) -> Bool {
        lhs.messageCount == rhs.messageCount && lhs.messageNumber == rhs.messageNumber
            && lhs.satellitesInView == rhs.satellitesInView && lhs.described == rhs.described
            && lhs.signalID == rhs.signalID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(messageNumber)
        hasher.combine(described)
    }

    /// Creates a sentence describing up to four satellites; other fields are set afterwards.
    public init(satellites described: [SatelliteInView] = []) {
        satellites = InlineArray(repeating: SatelliteInView(number: 0))
        satelliteCount = min(described.count, 4)
        for index in 0..<satelliteCount { satellites[index] = described[index] }
    }

    init(_ fields: inout FieldReader) {
        messageCount = fields.unsigned()
        messageNumber = fields.unsigned()
        satellitesInView = fields.unsigned()
        satellites = InlineArray(repeating: SatelliteInView(number: 0))
        satelliteCount = 0
        var rest = InlineArray<17, Field>(repeating: .empty)
        var count = 0
        while !fields.isAtEnd && count < 17 {
            rest[count] = fields.next()
            count += 1
        }
        if count % 4 == 1 {
            signalID = fields.accept(rest[count - 1].decimal.map { Int($0.integerPart) })
        }
        var group = 0
        while group + 3 < count && satelliteCount < 4 {
            if let number = fields.accept(rest[group].integer) {
                satellites[satelliteCount] = SatelliteInView(
                    number: number,
                    elevation: fields.accept(rest[group + 1].integer),
                    azimuth: fields.accept(rest[group + 2].integer),
                    signalStrength: fields.accept(rest[group + 3].integer))
                satelliteCount += 1
            }
            group += 4
        }
    }
}

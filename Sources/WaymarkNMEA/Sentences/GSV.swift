/// One satellite in view, as a GSV sentence describes it.
public struct SatelliteInView: Hashable, Sendable {
    // Compact storage (a GSV carries four of these), with -1 standing for "not reported".
    @usableFromInline var storedNumber: Int16
    @usableFromInline var storedElevation: Int16
    @usableFromInline var storedAzimuth: Int16
    @usableFromInline var storedSignalStrength: Int16

    /// Creates a satellite description.
    public init(number: Int, elevation: Int? = nil, azimuth: Int? = nil, signalStrength: Int? = nil) {
        self.init(
            rawNumber: Int32(clamping: number), elevation: elevation.map { Int32(clamping: $0) } ?? -1,
            azimuth: azimuth.map { Int32(clamping: $0) } ?? -1,
            signalStrength: signalStrength.map { Int32(clamping: $0) } ?? -1)
    }

    @inlinable
    init(rawNumber: Int32, elevation: Int32, azimuth: Int32, signalStrength: Int32) {
        storedNumber = Int16(truncatingIfNeeded: rawNumber)
        storedElevation = Int16(truncatingIfNeeded: elevation)
        storedAzimuth = Int16(truncatingIfNeeded: azimuth)
        storedSignalStrength = Int16(truncatingIfNeeded: signalStrength)
    }

    /// The satellite number (NMEA numbering; its meaning depends on the talker and version).
    public var number: Int { Int(storedNumber) }
    /// Elevation in degrees, 0–90; `nil` when not reported or below the horizon (negative).
    public var elevation: Int? { storedElevation < 0 ? nil : Int(storedElevation) }
    /// Azimuth in degrees from true north, 0–359.
    public var azimuth: Int? { storedAzimuth < 0 ? nil : Int(storedAzimuth) }
    /// Carrier-to-noise density in dB-Hz; `nil` when not tracked.
    public var signalStrength: Int? { storedSignalStrength < 0 ? nil : Int(storedSignalStrength) }
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
        if let header = fields.fixedWidthListHeader() {
            (messageCount, messageNumber, satellitesInView) = header
        } else {
            messageCount = fields.unsigned()
            messageNumber = fields.unsigned()
            satellitesInView = fields.unsigned()
        }
        satellites = InlineArray(repeating: SatelliteInView(number: 0))
        satelliteCount = 0
        // Satellites in the standard's fixed widths, a whole one at a time; then, field by
        // field, groups of four fields; a single field left over at the end is the signal id.
        var groups = 0
        while groups < 4, let satellite = fields.fixedWidthSatellite() {
            groups += 1
            add(satellite)
        }
        // Usually all that is left is a one-digit signal id: nothing to count.
        if let signal = fields.lastHexDigit() {
            signalID = signal
            return
        }
        let remaining = fields.remainingFieldCount
        for _ in 0..<min(remaining / 4, 4 - groups) {
            let number = fields.smallInteger()
            let elevation = fields.elevation()
            let azimuth = fields.smallInteger()
            let strength = fields.smallInteger()
            add(SatelliteInView(rawNumber: number, elevation: elevation, azimuth: azimuth, signalStrength: strength))
        }
        if remaining % 4 == 1 {
            // Fields past the standard's sixteen are skipped.
            let fieldsAfterHeader = remaining + 4 * groups
            if fieldsAfterHeader > 17 { fields.skip(fieldsAfterHeader - 17) }
            signalID = fields.hexDigit()
        }
    }

    /// Keeps a satellite read from the sentence, unless its number is missing or zero.
    @inline(__always)
    private mutating func add(_ satellite: SatelliteInView) {
        guard satellite.storedNumber > 0 else { return }
        satellites[satelliteCount] = satellite
        satelliteCount += 1
    }
}

extension FieldReader {
    /// Reads a GSV elevation like ``smallInteger()``, except that a negative one (a satellite
    /// below the horizon, which some receivers print and the standard's 0–90° cannot hold)
    /// is unknown, -1, like an empty field, rather than malformed: the sentence's other
    /// satellites, and its list, stay.
    @inlinable @inline(__always)
    mutating func elevation() -> Int32 {
        guard position < end, position.pointee == UInt8(ascii: "-") else { return smallInteger() }
        position += 1
        // A sign alone, or followed by anything but a number, is still malformed.
        if smallInteger() < 0 { isMalformed = true }
        return -1
    }
}

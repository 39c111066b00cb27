public import WaymarkNMEA

/// The dimension of a position fix, numbered as gpsd's `mode`.
public enum FixMode: Int, Hashable, Comparable, Sendable {
    /// No fix: the position (if any) is not valid.
    case noFix = 1
    /// Horizontal fix only.
    case twoDimensional = 2
    /// Horizontal and vertical fix.
    case threeDimensional = 3

    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How a fix was obtained, numbered as gpsd's TPV `status`.
public enum FixQuality: Int, Hashable, Sendable {
    /// Unknown or no fix.
    case unknown = 0
    /// An autonomous GNSS fix.
    case autonomous = 1
    /// Differential corrections (SBAS, DGPS) applied.
    case differential = 2
    /// RTK with integer ambiguities fixed.
    case rtkFixed = 3
    /// RTK float solution.
    case rtkFloat = 4
    /// Dead reckoning only.
    case deadReckoning = 5
    /// GNSS combined with dead reckoning.
    case gnssDeadReckoning = 6
    /// Time only (surveyed-in timing receivers).
    case timeOnly = 7
    /// Produced by a simulator.
    case simulated = 8

    /// The quality a GGA/GNS quality number stands for.
    init(ggaQuality: Int) {
        switch ggaQuality {
        case 1: self = .autonomous
        case 2, 3, 9: self = .differential
        case 4: self = .rtkFixed
        case 5: self = .rtkFloat
        case 6: self = .deadReckoning
        case 8: self = .simulated
        default: self = .unknown
        }
    }

    /// The quality a mode indicator stands for.
    init(mode: ModeIndicator) {
        switch mode {
        case .autonomous, .precise: self = .autonomous
        case .differential: self = .differential
        case .rtkFixed: self = .rtkFixed
        case .rtkFloat: self = .rtkFloat
        case .estimated: self = .deadReckoning
        case .simulator: self = .simulated
        case .manual, .notValid: self = .unknown
        }
    }
}

/// Satellites in view and used, per constellation.
public struct SatelliteCounts: Hashable, Sendable {
    /// Satellites in view, indexed by ``Constellation/rawValue``.
    public var inView: InlineArray<8, Int>
    /// Satellites used in the solution, indexed by ``Constellation/rawValue``.
    public var used: InlineArray<8, Int>

    /// No satellites.
    public init() {
        inView = InlineArray(repeating: 0)
        used = InlineArray(repeating: 0)
    }

    /// Total satellites in view.
    public var totalInView: Int { (0..<8).reduce(0) { $0 + inView[$1] } }
    /// Total satellites used.
    public var totalUsed: Int { (0..<8).reduce(0) { $0 + used[$1] } }

    /// Satellites in view of one constellation.
    public func inView(_ constellation: Constellation) -> Int { inView[constellation.rawValue] }
    /// Satellites used of one constellation.
    public func used(_ constellation: Constellation) -> Int { used[constellation.rawValue] }

    public static func == (lhs: SatelliteCounts, rhs: SatelliteCounts) -> Bool {
        (0..<8).allSatisfy { lhs.inView[$0] == rhs.inView[$0] && lhs.used[$0] == rhs.used[$0] }
    }

    public func hash(into hasher: inout Hasher) {
        for index in 0..<8 {
            hasher.combine(inView[index])
            hasher.combine(used[index])
        }
    }
}

/// The 1-sigma errors of a speed and course derived from two positions.
public struct DerivedVelocity: Hashable, Sendable {
    /// Speed error, metres per second.
    public var speedError: Double
    /// Course error, degrees; `nil` when the speed is too small against its error to give a course.
    public var courseError: Double?

    /// Creates the errors of a derived velocity.
    public init(speedError: Double, courseError: Double?) {
        self.speedError = speedError
        self.courseError = courseError
    }
}

/// Everything one measurement epoch told about position, velocity and time, merged from all
/// of the epoch's sentences (see `docs/epochs.md` for the merge rules).
public struct Fix: Hashable, Sendable {
    /// UTC time of the epoch, when both a time of day and a date are known.
    public var time: Timestamp?
    /// UTC time of day as the receiver printed it (known even without a date).
    public var timeOfDay: TimeOfDay?
    /// Fix dimension. Usually the receiver's own (``receiverMode``); a GSA 2D fix from four
    /// or more satellites with an altitude and a vertical DOP is 3D (see `docs/epochs.md`).
    public var mode: FixMode = .noFix
    /// The fix type the receiver printed in its GSA, or `nil` when the epoch had no complete GSA.
    public var receiverMode: FixMode?
    /// How the fix was obtained.
    public var quality: FixQuality = .unknown
    /// Latitude in degrees, north positive.
    public var latitude: Double?
    /// Longitude in degrees, east positive.
    public var longitude: Double?
    /// Altitude above mean sea level, metres.
    public var altitudeMSL: Double?
    /// Geoid separation reported by the receiver (ellipsoid minus mean sea level), metres.
    public var geoidSeparation: Double?
    /// Speed over ground, metres per second.
    public var speed: Double?
    /// Course over ground, degrees from true north.
    public var course: Double?
    /// Set when ``speed`` and ``course`` were derived from this and the previous epoch's
    /// positions because the epoch carried neither (``VelocityDeriver``).
    public var derivedVelocity: DerivedVelocity?
    /// Magnetic variation, degrees, east positive.
    public var magneticVariation: Double?
    /// Position dilution of precision.
    public var pdop: Double?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Vertical dilution of precision.
    public var vdop: Double?
    /// Receiver's 1-sigma latitude error (GST), metres.
    public var latitudeError: Double?
    /// Receiver's 1-sigma longitude error (GST), metres.
    public var longitudeError: Double?
    /// Receiver's 1-sigma altitude error (GST), metres.
    public var altitudeError: Double?
    /// Satellites used in the solution, as GGA/GNS report the total.
    public var satellitesUsed: Int?
    /// Satellites in view and used per constellation (GSV, GSA).
    public var satellites = SatelliteCounts()
    /// Age of differential corrections, seconds.
    public var differentialAge: Double?

    /// An empty fix.
    public init() {}

    /// Ellipsoidal (WGS 84) altitude: mean sea level altitude plus the geoid separation.
    public var altitudeHAE: Double? {
        guard let altitudeMSL, let geoidSeparation else { return nil }
        return altitudeMSL + geoidSeparation
    }

    /// Whether the fix carries a usable horizontal position.
    public var hasPosition: Bool { mode >= .twoDimensional && latitude != nil && longitude != nil }
}

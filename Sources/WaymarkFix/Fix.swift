public import WaymarkLocation
public import WaymarkNMEA

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

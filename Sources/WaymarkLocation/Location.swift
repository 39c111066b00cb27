/// Where the location came from.
public struct SourceInformation: Hashable, Sendable, Codable {
    /// Whether the location was produced by a simulation (replay of a capture, the simulated
    /// board) rather than a live receiver.
    public var isSimulatedBySoftware: Bool
    /// Whether an external accessory produced it (always true for a receiver on a UART).
    public var isProducedByAccessory: Bool

    /// Creates source information.
    public init(isSimulatedBySoftware: Bool, isProducedByAccessory: Bool = true) {
        self.isSimulatedBySoftware = isSimulatedBySoftware
        self.isProducedByAccessory = isProducedByAccessory
    }
}

/// Dilutions of precision reported by the receiver.
public struct DilutionOfPrecision: Hashable, Sendable, Codable {
    /// Horizontal DOP.
    public var horizontal: Double?
    /// Vertical DOP.
    public var vertical: Double?
    /// Position (3D) DOP.
    public var position: Double?

    /// Creates a set of DOPs.
    public init(horizontal: Double? = nil, vertical: Double? = nil, position: Double? = nil) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.position = position
    }
}

/// A location with every field of Core Location's `CLLocation` that a GNSS receiver can
/// give, plus the receiver's fix details.
///
/// As in Core Location, a negative accuracy means the value it qualifies is unknown, and
/// `course` and `speed` are negative when unknown.
public struct Location: Hashable, Sendable {
    /// Latitude in degrees, north positive (WGS 84).
    public var latitude: Double
    /// Longitude in degrees, east positive (WGS 84).
    public var longitude: Double
    /// Altitude above mean sea level, metres (0 when ``verticalAccuracy`` is negative).
    public var altitude: Double
    /// Height above the WGS 84 ellipsoid, metres (altitude plus the receiver's geoid separation).
    public var ellipsoidalAltitude: Double
    /// Radius of uncertainty of the coordinate, metres (1 sigma).
    public var horizontalAccuracy: Double
    /// Uncertainty of the altitudes, metres (1 sigma); negative when there is no altitude.
    public var verticalAccuracy: Double
    /// Speed over ground, metres per second; negative when unknown.
    public var speed: Double
    /// Whether ``speed`` and ``course`` were derived from successive positions because the
    /// receiver sent none, rather than measured by the receiver (Doppler).
    public var isVelocityDerived: Bool
    /// Uncertainty of the speed, metres per second; negative when unknown.
    public var speedAccuracy: Double
    /// Course over ground, degrees from true north; negative when unknown.
    public var course: Double
    /// Uncertainty of the course, degrees; negative when unknown.
    public var courseAccuracy: Double
    /// When the receiver measured the location (UTC from its date and time).
    public var timestamp: Timestamp
    /// Whether the location is simulated.
    public var sourceInformation: SourceInformation
    /// Fix dimension.
    public var mode: FixMode
    /// The fix type the receiver printed in its GSA (`nil` without one); ``mode`` is 3D
    /// when the receiver says 2D but solved an altitude from four or more satellites.
    public var receiverMode: FixMode?
    /// How the fix was obtained.
    public var quality: FixQuality
    /// Dilutions of precision.
    public var dilution: DilutionOfPrecision
    /// Satellites in view and used, per constellation.
    public var satellites: SatelliteCounts

    /// The speed the receiver measured, or -1 when it measured none. A speed derived from
    /// positions tells nothing the positions do not (and reads their jitter as motion), so
    /// motion decisions use this one and judge positions by their distance.
    public var measuredSpeed: Double { isVelocityDerived ? -1 : speed }
}

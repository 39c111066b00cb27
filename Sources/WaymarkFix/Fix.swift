package import WaymarkLocation
package import WaymarkNMEA

/// The 1-sigma errors of a speed and course derived from two positions.
package struct DerivedVelocity: Hashable, Sendable {
    /// Speed error, metres per second.
    package var speedError: Double
    /// Course error, degrees; `nil` when the speed is too small against its error to give a course.
    package var courseError: Double?

    /// Creates the errors of a derived velocity.
    package init(speedError: Double, courseError: Double?) {
        self.speedError = speedError
        self.courseError = courseError
    }
}

/// Everything one measurement epoch told about position, velocity and time, merged from all
/// of the epoch's sentences (see `docs/epochs.md` for the merge rules).
package struct Fix: Hashable, Sendable {
    /// UTC time of the epoch, when both a time of day and a date are known.
    package var time: Timestamp?
    /// UTC time of day as the receiver printed it (known even without a date).
    package var timeOfDay: TimeOfDay?
    /// Fix dimension. Usually the receiver's own (``receiverMode``); a GSA 2D fix from four
    /// or more satellites with an altitude and a vertical DOP is 3D (see `docs/epochs.md`).
    package var mode: FixMode = .noFix
    /// The fix type the receiver printed in its GSA, or `nil` when the epoch had no complete GSA.
    package var receiverMode: FixMode?
    /// How the fix was obtained.
    package var quality: FixQuality = .unknown
    /// Latitude in degrees, north positive.
    package var latitude: Double?
    /// Longitude in degrees, east positive.
    package var longitude: Double?
    /// Altitude above mean sea level, metres.
    package var altitudeMSL: Double?
    /// Geoid separation reported by the receiver (ellipsoid minus mean sea level), metres.
    package var geoidSeparation: Double?
    /// Speed over ground, metres per second.
    package var speed: Double?
    /// Course over ground, degrees from true north.
    package var course: Double?
    /// Set when ``speed`` and ``course`` were derived from this and the previous epoch's
    /// positions because the epoch carried neither (``VelocityDeriver``).
    package var derivedVelocity: DerivedVelocity?
    /// Magnetic variation, degrees, east positive.
    package var magneticVariation: Double?
    /// Position dilution of precision.
    package var pdop: Double?
    /// Horizontal dilution of precision.
    package var hdop: Double?
    /// Vertical dilution of precision.
    package var vdop: Double?
    /// Receiver's 1-sigma latitude error (GST), metres.
    package var latitudeError: Double?
    /// Receiver's 1-sigma longitude error (GST), metres.
    package var longitudeError: Double?
    /// Receiver's 1-sigma altitude error (GST), metres.
    package var altitudeError: Double?
    /// Satellites used in the solution, as GGA/GNS report the total.
    package var satellitesUsed: Int?
    /// Satellites in view and used per constellation (GSV, GSA).
    package var satellites = SatelliteCounts()
    /// Each satellite in view, from the receiver's last complete GSV lists (maybe of an
    /// earlier epoch: receivers send them every few cycles), and those this epoch's GSA used.
    package var sky = SkyView()
    /// Age of differential corrections, seconds.
    package var differentialAge: Double?

    /// An empty fix.
    package init() {}

    /// Ellipsoidal (WGS 84) altitude: mean sea level altitude plus the geoid separation.
    package var altitudeHAE: Double? {
        guard let altitudeMSL, let geoidSeparation else { return nil }
        return altitudeMSL + geoidSeparation
    }

    /// Whether the fix carries a usable horizontal position.
    package var hasPosition: Bool { mode >= .twoDimensional && latitude != nil && longitude != nil }
}

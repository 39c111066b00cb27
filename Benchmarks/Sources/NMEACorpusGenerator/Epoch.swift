/// What the receiver reports for one one-second epoch.
struct Epoch {
    enum Fix {
        case none, twoD, threeD
    }

    /// The sky of one constellation: what GSA and GSV print.
    struct Constellation {
        let talker: StaticString
        let systemID: Int
        let signalID: Int
        let satellites: [SatelliteView]
        /// Ids of the satellites used in the fix, at most 12.
        let used: [Int]
    }

    var fix: Fix
    var differential: Bool
    var clock: UTCClock
    /// Degrees.
    var latitude: Double
    var longitude: Double
    /// Metres above mean sea level, and of the geoid above the ellipsoid.
    var altitude: Double
    var geoidSeparation: Double
    /// Metres per second over ground; course in degrees true, `nil` when too slow to tell.
    var speed: Double
    var course: Double?
    var pdop: Double
    var hdop: Double
    var vdop: Double
    var constellations: [Constellation]

    /// Satellites used over all constellations.
    var usedCount: Int {
        constellations.reduce(0) { $0 + $1.used.count }
    }
}

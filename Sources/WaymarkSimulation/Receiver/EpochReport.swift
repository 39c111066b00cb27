import WaymarkLocation
import WaymarkNMEA

/// What the receiver knows at one measurement epoch, before it is written as sentences.
struct EpochReport {
    /// One constellation's view of the sky.
    struct Sky {
        var talker: Talker
        var inView: [SatelliteInView]
        /// Satellites used in the fix (empty without a fix).
        var used: [UInt16]
    }

    /// A position solution.
    struct Solution {
        var position: GeoPoint
        var speed: Double
        /// Course over ground; nil while too slow for a heading.
        var course: Double?
        var hdop: Double
        var vdop: Double
        /// 1-sigma errors (north, east, up), metres, for GST.
        var errors: (north: Double, east: Double, up: Double)
        var satellitesUsed: Int

        var pdop: Double { (hdop * hdop + vdop * vdop).squareRoot() }
    }

    /// UTC time of the epoch; nil while the receiver does not know the time (cold start).
    var time: Timestamp?
    var solution: Solution?
    var sky: [Sky]
}

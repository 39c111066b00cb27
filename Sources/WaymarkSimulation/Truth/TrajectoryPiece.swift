import WaymarkClock

/// A stretch of the trajectory with one activity and one closed-form motion.
struct TrajectoryPiece: Sendable {
    /// How the device moves during the piece.
    enum Motion: Hashable, Sendable {
        /// Not moving.
        case still
        /// Along the ground on a constant heading.
        case ground(SpeedProfile)
        /// Up (`direction` 1) or down (-1).
        case vertical(SpeedProfile, direction: Double)
        /// Along a constant heading while climbing, cruising and descending.
        case flight(SpeedProfile, FlightProfile)
    }

    var start: Instant
    var end: Instant
    /// Index of the scenario segment it belongs to.
    var segment: Int
    /// The segment's plan (its kind and options).
    var plan: Segment.Plan
    var activity: Activity
    var origin: GeoPoint
    /// Heading of travel (or the last one, when still), degrees.
    var heading: Double
    var motion: Motion
    /// Distance travelled since the scenario's start when the piece begins, metres.
    var distanceAtStart: Double

    /// Seconds since the piece began, for an instant inside it.
    func elapsed(_ instant: Instant) -> Double {
        (instant - start).seconds
    }

    var duration: Double { (end - start).seconds }

    var kind: SegmentKind { plan.kind }

    /// The speed profile of a moving piece.
    var profile: SpeedProfile? {
        switch motion {
        case .still: nil
        case .ground(let profile), .vertical(let profile, _), .flight(let profile, _): profile
        }
    }

    /// Position `time` seconds into the piece.
    func position(at time: Double) -> GeoPoint {
        switch motion {
        case .still:
            return origin
        case .ground(let profile):
            return origin.moved(distance: profile.distance(at: time), heading: heading)
        case .vertical(let profile, let direction):
            return origin.offset(north: 0, east: 0, up: direction * profile.distance(at: time))
        case .flight(let profile, let flight):
            var point = origin.moved(distance: profile.distance(at: time), heading: heading)
            point.altitude += flight.height(at: time, duration: duration)
            return point
        }
    }

    /// Distance travelled within the piece after `time` seconds (vertical for a lift).
    func distance(at time: Double) -> Double {
        profile?.distance(at: time) ?? 0
    }

    /// Horizontal speed `time` seconds into the piece, m/s.
    func speed(at time: Double) -> Double {
        switch motion {
        case .still, .vertical: 0
        case .ground(let profile), .flight(let profile, _): profile.speed(at: time)
        }
    }

    /// Vertical speed `time` seconds into the piece, m/s (up positive).
    func verticalSpeed(at time: Double) -> Double {
        switch motion {
        case .still, .ground: 0
        case .vertical(let profile, let direction): direction * profile.speed(at: time)
        case .flight(_, let flight): flight.verticalSpeed(at: time, duration: duration)
        }
    }
}

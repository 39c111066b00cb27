import WaymarkClock

/// Turns a scenario's segments into trajectory pieces, drawing the details a scenario
/// leaves open (the order of stop lengths, leg lengths, turns) from the seed.
struct TrajectoryBuilder {
    private(set) var pieces: [TrajectoryPiece] = []
    private var random: SimulationRandom
    private var instant = Instant.zero
    private var position: GeoPoint
    private var heading = 0.0
    private var distance = 0.0

    init(origin: GeoPoint, seed: UInt64) {
        position = origin
        random = SimulationRandom(seed: seed, stream: .trajectory)
    }

    mutating func add(_ segment: Segment, index: Int) {
        let seconds = segment.duration.seconds
        switch segment.plan {
        case .desk:
            append(segment, index, .desk, .still, duration: segment.duration)
        case .still:
            append(segment, index, .standing, .still, duration: segment.duration)
        case .idleCar:
            append(segment, index, .carIdling, .still, duration: segment.duration)
        case .walk(let newHeading, let speed):
            heading = newHeading ?? heading
            let profile = SpeedProfile(duration: seconds, speed: speed, acceleration: SpeedProfile.walkingAcceleration)
            append(segment, index, .walking, .ground(profile), duration: segment.duration)
        case .drive(let newHeading, let speed, let stops, let stopLength, let acceleration):
            addDrive(
                segment, index, heading: newHeading ?? heading, speed: speed, stops: stops, stopLength: stopLength,
                acceleration: acceleration)
        case .lift(let rise, let speed, let acceleration):
            let ride = SpeedProfile.ride(distance: abs(rise), speed: speed, acceleration: acceleration)
            let wait = (segment.duration - ride.duration) / 2
            append(segment, index, .standing, .still, duration: wait)
            append(segment, index, .liftRiding, .vertical(ride.profile, direction: rise < 0 ? -1 : 1), duration: ride.duration)
            append(segment, index, .standing, .still, duration: segment.duration - ride.duration - wait)
        case .flight(let newHeading, let speed, let altitude):
            heading = newHeading ?? heading
            let profile = SpeedProfile(duration: seconds, speed: speed, acceleration: SpeedProfile.flightAcceleration)
            append(segment, index, .flying, .flight(profile, FlightProfile(cruiseAltitude: altitude)), duration: segment.duration)
        }
    }

    /// Legs separated by stops. Stop lengths spread evenly over the range (so their total
    /// is exact: n × the range's middle) in an order drawn from the seed; the driving time
    /// is split into legs of seeded lengths (0.6–1.4 of the average), each leg turning up
    /// to 60° from the drive's heading.
    private mutating func addDrive(
        _ segment: Segment, _ index: Int, heading base: Double, speed: Double, stops: Int,
        stopLength: ClosedRange<Duration>, acceleration: Double
    ) {
        let low = stopLength.lowerBound.nanoseconds
        let span = stopLength.upperBound.nanoseconds - low
        var stopLengths = (0..<Int64(stops)).map { stop in
            Duration.nanoseconds(low + (stops == 1 ? span / 2 : span * stop / Int64(stops - 1)))
        }
        if !stopLengths.isEmpty {
            // Integer division loses a nanosecond here and there: the shortest stop takes
            // them back so that the total is exact.
            let exactTotal = Duration.nanoseconds(Int64(stops) * (2 * low + span) / 2)
            stopLengths[0] += exactTotal - stopLengths.reduce(.zero, +)
        }
        stopLengths.shuffle(using: &random)
        let driving = segment.duration - stopLengths.reduce(.zero, +)
        let weights = (0...stops).map { _ in random.uniform(0.6...1.4) }
        let totalWeight = weights.reduce(0, +)
        var remaining = driving
        for leg in 0...stops {
            let share = Double(driving.nanoseconds) * weights[leg] / totalWeight
            let length = leg == stops ? remaining : .nanoseconds(Int64(share.rounded()))
            remaining -= length
            heading = leg == 0 ? base : (base + random.uniform(-60...60) + 360).truncatingRemainder(dividingBy: 360)
            let profile = SpeedProfile(duration: length.seconds, speed: speed, acceleration: acceleration)
            append(segment, index, .driving, .ground(profile), duration: length)
            if leg < stops {
                append(segment, index, .carIdling, .still, duration: stopLengths[leg])
            }
        }
        heading = base
    }

    private mutating func append(
        _ segment: Segment, _ index: Int, _ activity: Activity, _ motion: TrajectoryPiece.Motion, duration: Duration
    ) {
        guard duration > .zero else { return }
        let piece = TrajectoryPiece(
            start: instant, end: instant + duration, segment: index, plan: segment.plan, activity: activity,
            origin: position, heading: heading, motion: motion, distanceAtStart: distance)
        let length = piece.duration
        position = piece.position(at: length)
        distance += piece.distance(at: length)
        instant = piece.end
        pieces.append(piece)
    }
}

package import WaymarkClock
package import WaymarkLocation

/// The ground truth of a scenario: position, speed, course, whether the device is truly
/// moving, and the segment, at any instant, in O(log n) from precomputed piece boundaries.
///
/// The timeline's origin (`Instant.zero`) is the scenario's start; past the end the device
/// stays where the last segment left it.
package struct Trajectory: Sendable {
    /// The scenario it was built from.
    package let scenario: Scenario
    /// The end of the scenario.
    package let end: Instant
    /// The stretches during which the device is truly moving (adjacent moving segments
    /// merged), in order.
    package let movingIntervals: [Range<Instant>]
    /// Distance travelled over the whole scenario, metres.
    package let totalDistance: Double
    let pieces: [TrajectoryPiece]

    /// Builds the trajectory; `seed` decides what the scenario leaves open (stop order, leg
    /// lengths, turns).
    package init(scenario: Scenario, seed: UInt64) {
        self.scenario = scenario
        var builder = TrajectoryBuilder(origin: scenario.origin, seed: seed)
        for (index, segment) in scenario.segments.enumerated() {
            builder.add(segment, index: index)
        }
        precondition(!builder.pieces.isEmpty, "a scenario needs at least one segment")
        pieces = builder.pieces
        end = pieces.last?.end ?? .zero
        var intervals: [Range<Instant>] = []
        for piece in pieces where piece.activity.isMoving {
            if let last = intervals.last, last.upperBound == piece.start {
                intervals[intervals.count - 1] = last.lowerBound..<piece.end
            } else {
                intervals.append(piece.start..<piece.end)
            }
        }
        movingIntervals = intervals
        totalDistance = pieces.last.map { $0.distanceAtStart + $0.distance(at: $0.duration) } ?? 0
    }

    /// The instants at which the device starts to move after being still.
    package var motionStarts: [Instant] { movingIntervals.map(\.lowerBound) }

    /// How long the device is truly moving in total.
    package var movingTime: Duration {
        movingIntervals.reduce(.zero) { $0 + ($1.upperBound - $1.lowerBound) }
    }

    /// UTC time at an instant of the timeline.
    package func utc(at instant: Instant) -> Timestamp {
        scenario.startTime.adding(nanoseconds: instant.nanoseconds)
    }

    /// The truth at an instant.
    package func truth(at instant: Instant) -> Truth {
        let piece = pieces[pieceIndex(at: instant)]
        let time = min(max(piece.elapsed(instant), 0), piece.duration)
        let moving = piece.activity.isMoving && instant >= piece.start && instant < piece.end
        return Truth(
            instant: instant, position: piece.position(at: time), speed: piece.speed(at: time),
            verticalSpeed: piece.verticalSpeed(at: time), course: piece.heading, isMoving: moving,
            kind: piece.kind, activity: piece.activity, segment: piece.segment,
            distance: piece.distanceAtStart + piece.distance(at: time))
    }

    /// Distance travelled from the start to `instant`, metres.
    package func distance(at instant: Instant) -> Double {
        truth(at: instant).distance
    }

    /// Index of the piece that contains `instant` (the first or last one outside the scenario).
    func pieceIndex(at instant: Instant) -> Int {
        var low = 0
        var high = pieces.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if pieces[middle].start <= instant { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

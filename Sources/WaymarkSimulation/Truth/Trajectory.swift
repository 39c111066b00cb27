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
    /// The stretches during which no satellite signal reaches the device
    /// (``SegmentKind/blocksSatelliteSignals``), merged, in order.
    package let signalBlockedIntervals: [Range<Instant>]
    /// The stretches during which the device truly moves and a receiver could fix: the moving
    /// intervals without the signal-blocked ones, in order. Movement no receiver can fix is
    /// no power policy's loss; the resume and fix measures and the oracle count these.
    package let fixableMovingIntervals: [Range<Instant>]
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
        movingIntervals = Self.merged(pieces.filter(\.activity.isMoving))
        signalBlockedIntervals = Self.merged(pieces.filter(\.kind.blocksSatelliteSignals))
        fixableMovingIntervals = Self.merged(pieces.filter { $0.activity.isMoving && !$0.kind.blocksSatelliteSignals })
        totalDistance = pieces.last.map { $0.distanceAtStart + $0.distance(at: $0.duration) } ?? 0
    }

    /// The spans of adjacent pieces, merged.
    private static func merged(_ pieces: [TrajectoryPiece]) -> [Range<Instant>] {
        var intervals: [Range<Instant>] = []
        for piece in pieces {
            if let last = intervals.last, last.upperBound == piece.start {
                intervals[intervals.count - 1] = last.lowerBound..<piece.end
            } else {
                intervals.append(piece.start..<piece.end)
            }
        }
        return intervals
    }

    /// The instants at which the device starts to move after being still.
    package var motionStarts: [Instant] { movingIntervals.map(\.lowerBound) }

    /// The instants from which the device moves where a receiver could fix, after being still
    /// or out of the signal's reach (a walk out of a lift starts here).
    package var fixableMotionStarts: [Instant] { fixableMovingIntervals.map(\.lowerBound) }

    /// When the satellite signal reaches the device again: `instant` itself unless it falls in
    /// a signal-blocked stretch, else that stretch's end.
    package func signalReturn(atOrAfter instant: Instant) -> Instant {
        guard let blocked = lastSignalBlockedInterval(startingAtOrBefore: instant), blocked.contains(instant) else {
            return instant
        }
        return blocked.upperBound
    }

    /// The last signal-blocked stretch that starts at or before `instant` (O(log n)).
    package func lastSignalBlockedInterval(startingAtOrBefore instant: Instant) -> Range<Instant>? {
        var low = 0
        var high = signalBlockedIntervals.count
        while low < high {
            let middle = (low + high) / 2
            if signalBlockedIntervals[middle].lowerBound <= instant { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? signalBlockedIntervals[low - 1] : nil
    }

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

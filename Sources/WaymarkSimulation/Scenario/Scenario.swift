package import WaymarkLocation

/// A scenario: where and when it begins, and what the device does, segment by segment.
/// Written as a `.scenario` file (see `docs/simulation.md`) and read by ``ScenarioParser``.
package struct Scenario: Hashable, Sendable {
    /// The file name the scenario was read from (for messages).
    package var name: String
    /// UTC time at the timeline's origin (`Instant.zero`).
    package var startTime: Timestamp
    /// Where the device is at the start.
    package var origin: GeoPoint
    /// What the device does, in order.
    package var segments: [Segment]

    /// Creates a scenario.
    package init(name: String, startTime: Timestamp, origin: GeoPoint, segments: [Segment]) {
        self.name = name
        self.startTime = startTime
        self.origin = origin
        self.segments = segments
    }

    /// The sum of the segments' durations.
    package var duration: Duration {
        segments.reduce(.zero) { $0 + $1.duration }
    }
}

/// The kinds of segment a scenario file can name.
package enum SegmentKind: String, Hashable, Sendable, CaseIterable {
    /// On a desk: still, perhaps with typing nearby and the odd door slam.
    case desk
    /// Held still by someone standing, seated or resting.
    case still
    /// Carried by someone walking.
    case walk
    /// In a car that drives, with stops (traffic lights) on the way.
    case drive
    /// In a car standing with its engine running.
    case idleCar = "idle-car"
    /// In a lift.
    case lift
    /// In an aircraft: take-off, climb, cruise, descent, landing.
    case flight

    /// Whether no satellite signal reaches the device for the whole segment. A lift car is a
    /// steel box in a concrete shaft: GNSS signals, which reach open ground at about
    /// -130 dBm, arrive far below the receivers' tracking sensitivity (about -160 dBm), so no
    /// receiver, whatever its power policy, can track or fix there.
    package var blocksSatelliteSignals: Bool { self == .lift }
}

/// One line of a scenario: a kind of activity for a duration, with its options.
package struct Segment: Hashable, Sendable {
    /// What happens, with the options that kind takes.
    package enum Plan: Hashable, Sendable {
        /// Still on a desk; `typing` adds keystroke bumps, door slams come at the given rate.
        case desk(typing: Bool, doorSlamsPerHour: Double)
        /// Held still by someone standing, seated or resting.
        case still
        /// Walking at `speed` m/s on `heading` (nil: keep the previous heading).
        case walk(heading: Double?, speed: Double)
        /// Driving at up to `speed` m/s with `stops` stops whose lengths spread over
        /// `stopLength`, pulling off and braking at `acceleration` m/s²; the duration
        /// includes the stops.
        case drive(heading: Double?, speed: Double, stops: Int, stopLength: ClosedRange<Duration>, acceleration: Double)
        /// Standing in a car with the engine running.
        case idleCar
        /// A lift ride of `rise` metres (negative: down) at up to `speed` m/s, starting and
        /// stopping at `acceleration` m/s², centred in the segment; the rest of the segment is
        /// spent waiting in the lift.
        case lift(rise: Double, speed: Double, acceleration: Double)
        /// A flight at `speed` m/s cruising at `altitude` metres.
        case flight(heading: Double?, speed: Double, altitude: Double)
    }

    /// What happens.
    package var plan: Plan
    /// How long it lasts.
    package var duration: Duration
    /// The line of the scenario file it came from (1-based).
    package var line: Int

    /// Creates a segment.
    package init(plan: Plan, duration: Duration, line: Int) {
        self.plan = plan
        self.duration = duration
        self.line = line
    }

    /// The kind of segment.
    package var kind: SegmentKind { plan.kind }
}

extension Segment.Plan {
    /// The kind of segment the plan is for.
    package var kind: SegmentKind {
        switch self {
        case .desk: .desk
        case .still: .still
        case .walk: .walk
        case .drive: .drive
        case .idleCar: .idleCar
        case .lift: .lift
        case .flight: .flight
        }
    }
}

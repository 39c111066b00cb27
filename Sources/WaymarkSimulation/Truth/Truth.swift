package import WaymarkClock

/// Ground truth at one instant: where the device really is and what it is really doing.
package struct Truth: Hashable, Sendable {
    /// The instant described.
    package var instant: Instant
    /// True position.
    package var position: GeoPoint
    /// Horizontal speed, m/s.
    package var speed: Double
    /// Vertical speed, m/s, up positive.
    package var verticalSpeed: Double
    /// Heading of travel (the last one while still), degrees from true north.
    package var course: Double
    /// Whether the device is truly being moved (not merely vibrating).
    package var isMoving: Bool
    /// The scenario segment's kind.
    package var kind: SegmentKind
    /// The finer activity within the segment.
    package var activity: Activity
    /// Index of the scenario segment.
    package var segment: Int
    /// Distance travelled since the scenario's start, metres (vertical in lifts).
    package var distance: Double
}

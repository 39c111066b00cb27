public import WaymarkClock

/// Ground truth at one instant: where the device really is and what it is really doing.
public struct Truth: Hashable, Sendable {
    /// The instant described.
    public var instant: Instant
    /// True position.
    public var position: GeoPoint
    /// Horizontal speed, m/s.
    public var speed: Double
    /// Vertical speed, m/s, up positive.
    public var verticalSpeed: Double
    /// Heading of travel (the last one while still), degrees from true north.
    public var course: Double
    /// Whether the device is truly being moved (not merely vibrating).
    public var isMoving: Bool
    /// The scenario segment's kind.
    public var kind: SegmentKind
    /// The finer activity within the segment.
    public var activity: Activity
    /// Index of the scenario segment.
    public var segment: Int
    /// Distance travelled since the scenario's start, metres (vertical in lifts).
    public var distance: Double
}

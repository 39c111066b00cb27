public import WaymarkSystem

/// Software debounce for libgpiod v1, which has none: an edge is accepted unless it comes
/// within ``period`` of the last accepted one (a lock-out, enough for an accelerometer's
/// interrupt or a switch). Pure.
public struct EdgeDebouncer: Hashable, Sendable {
    /// The lock-out after an accepted edge.
    public let period: Duration
    private var lastAccepted: MonotonicInstant?

    /// A debouncer with a lock-out of `period`.
    public init(period: Duration) {
        self.period = period
    }

    /// Whether an edge at `instant` counts.
    public mutating func accept(_ instant: MonotonicInstant) -> Bool {
        if let lastAccepted, instant - lastAccepted < period { return false }
        lastAccepted = instant
        return true
    }
}

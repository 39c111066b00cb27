package import WaymarkSystem

/// Software debounce for libgpiod v1, which has none: an edge is accepted unless it comes
/// within ``period`` of the last accepted one (a lock-out, enough for an accelerometer's
/// interrupt or a switch). Pure.
package struct EdgeDebouncer: Hashable, Sendable {
    /// The lock-out after an accepted edge.
    package let period: Duration
    private var lastAccepted: MonotonicInstant?

    /// A debouncer with a lock-out of `period`.
    package init(period: Duration) {
        self.period = period
    }

    /// Whether an edge at `instant` counts.
    package mutating func accept(_ instant: MonotonicInstant) -> Bool {
        if let lastAccepted, instant - lastAccepted < period { return false }
        lastAccepted = instant
        return true
    }
}

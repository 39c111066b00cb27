import WaymarkClock

/// Exponential backoff for reopening a port that vanished or went silent: 0.5 s, 1 s, 2 s, …
/// up to a ceiling, back to the start after a success. Pure; the daemon schedules the timer.
package struct Backoff: Hashable, Sendable {
    /// The first delay.
    package let initial: Duration
    /// The longest delay.
    package let maximum: Duration
    private var next: Duration

    /// Backoff from `initial`, doubling up to `maximum`.
    package init(initial: Duration = .milliseconds(500), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
        next = initial
    }

    /// The delay before the next attempt; each call doubles the following one.
    package mutating func nextDelay() -> Duration {
        let delay = next
        next = min(next * 2, maximum)
        return delay
    }

    /// Call after a success: the next failure waits ``initial`` again.
    package mutating func reset() {
        next = initial
    }
}

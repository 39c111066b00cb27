package import WaymarkClock
package import WaymarkSystem

/// Maps the event loop's clock (`CLOCK_MONOTONIC`) to the engine's timeline, optionally
/// compressed: with `speed` 10, ten seconds of a simulated scenario pass in one second.
package struct Timeline: Sendable {
    /// How many timeline seconds pass per second of the monotonic clock.
    package let speed: Double
    private let monotonicOrigin: MonotonicInstant
    private let origin: Instant

    /// A timeline whose `origin` is now.
    package init(speed: Double = 1, origin: Instant = .zero, now: MonotonicInstant = .now) {
        precondition(speed > 0, "a timeline runs forward")
        self.speed = speed
        self.origin = origin
        monotonicOrigin = now
    }

    /// The timeline instant at a monotonic instant.
    package func instant(at monotonic: MonotonicInstant) -> Instant {
        let elapsed = Double((monotonic - monotonicOrigin).nanoseconds)
        return origin + .nanoseconds(Int64(saturating: elapsed * speed))
    }

    /// The monotonic instant at which the timeline reaches `instant`.
    package func monotonic(at instant: Instant) -> MonotonicInstant {
        let elapsed = Double((instant - origin).nanoseconds) / speed
        return monotonicOrigin + .nanoseconds(Int64(saturating: elapsed))
    }

    /// The timeline instant now.
    package var now: Instant { instant(at: .now) }
}

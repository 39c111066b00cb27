import WaymarkClock
/// The wait before the next attempt to reach the broker: doubling from ``first`` to
/// ``longest`` while attempts fail, back to ``first`` once one succeeds. Each wait is drawn
/// between half and all of its nominal value, so that a fleet cut off together does not come
/// back together on a restarted broker.
package struct ReconnectBackoff: Sendable {
    /// The wait after the first failure.
    package static let first = Duration.milliseconds(500)
    /// The longest wait.
    package static let longest = Duration.seconds(30)

    private var nominal = first

    /// A backoff at its first wait.
    package init() {}

    /// The wait before the next attempt, with the jitter `random` draws; the next one is longer.
    package mutating func nextDelay(using random: inout some RandomNumberGenerator) -> Duration {
        let milliseconds = nominal.nanoseconds / 1_000_000
        let delay = Duration.milliseconds(Int64.random(in: (milliseconds / 2)...milliseconds, using: &random))
        nominal = min(nominal * 2, Self.longest)
        return delay
    }

    /// Back to the first wait: an attempt succeeded.
    package mutating func reset() {
        nominal = Self.first
    }
}

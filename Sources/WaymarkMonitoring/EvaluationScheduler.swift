package import WaymarkClock
package import WaymarkLocation

/// The fastest a device plausibly moves in each kind of travel, metres per second: the
/// scheduler assumes it to bound how soon a border could be reached.
package enum TravelMode: Hashable, Sendable, CaseIterable {
    /// On foot, running included: 3 m/s (10.8 km/h; a brisk walk is 1.5–2 m/s).
    case walking
    /// By bicycle: 12 m/s (43 km/h).
    case cycling
    /// By car or train on the road network: 42 m/s (151 km/h).
    case driving

    /// The plausible maximum speed, metres per second.
    package var maximumSpeed: Double {
        switch self {
        case .walking: 3
        case .cycling: 12
        case .driving: 42
        }
    }
}

/// When the receiver must give the monitor its next fix: no border can be crossed before.
///
/// From the last fix, the nearest watched border is at least `|distance − radius| − accuracy`
/// away; at the travel mode's maximum speed it cannot be reached sooner than that margin over
/// the speed. The wait is kept within ``minimumWait`` … ``maximumWait``. No fix is needed
/// with no circle to watch. While the device is stationary no crossing is possible: the
/// engine holds the demand until the accelerometer sees motion (`EngineEvent.fixNeeded`).
package enum EvaluationScheduler {
    /// The shortest wait: the receiver's fix interval (1 Hz), for a fix on or near a border.
    package static let minimumWait = Duration.seconds(1)
    /// The longest wait, so that a wrong travel mode (a walk that became a drive) or a missed
    /// stationary end is corrected within 10 minutes.
    package static let maximumWait = Duration.seconds(600)

    /// The instant the next fix is needed, or `nil` when none is (nothing to watch). `last` is
    /// the last fix, taken at `fixInstant` on the core's timeline. One pass over the records,
    /// copying none: the daemon plans after every change to any app's conditions.
    package static func nextFix(
        after last: Location, at fixInstant: Instant, watching monitors: some Sequence<Monitor>, travel: TravelMode
    ) -> Instant? {
        var nearest: Double?
        for monitor in monitors {
            for record in monitor.records where record.lastEvent.state != .unmonitored {
                guard case .circularGeographic(let region) = record.condition else { continue }
                let distance = abs(region.signedDistanceToBorder(of: last))
                if nearest.map({ distance < $0 }) ?? true { nearest = distance }
            }
        }
        guard let nearest else { return nil }
        return fixInstant + wait(margin: margin(from: last, nearest: nearest), speed: travel.maximumSpeed)
    }

    /// The next fix for a condition farther than any travel in ``maximumWait``, after a fix at
    /// `fixInstant`: what a consumer that needs only the engine's stationarity asks (visit
    /// monitoring).
    package static func farFromEveryBorder(after fixInstant: Instant) -> Instant {
        fixInstant + maximumWait
    }

    /// The distance in metres that can certainly be travelled without crossing the border
    /// `nearest` metres from `location`, or `nil` when the fix cannot bound it.
    static func margin(from location: Location, nearest: Double) -> Double? {
        guard let accuracy = Accuracy.decisive(location), nearest.isFinite else { return nil }
        return max(0, nearest - accuracy)
    }

    /// The wait for `margin` metres at `speed`, within the bounds.
    static func wait(margin: Double?, speed: Double) -> Duration {
        guard let margin else { return minimumWait }
        let seconds = min(max(margin / speed, minimumWait.seconds), maximumWait.seconds)
        return .nanoseconds(Int64(seconds * 1e9))
    }
}

package import WaymarkReceiver
package import WaymarkClock

/// The simulated board: a scenario's truth, the accelerometer that feels it and the GNSS
/// receiver that measures it, behind one question — what happens next before an instant?
///
/// The daemon drives it from its event loop (live, or compressed in time) and a power-run
/// drives it as fast as the CPU allows; both issue the receiver's power commands and arm
/// the accelerometer's activity interrupt through it.
package struct SimulatedBoard: Sendable {
    /// Something the board produces.
    package enum Event: Hashable, Sendable {
        /// One epoch of NMEA bytes, at the instant its last byte leaves the receiver.
        case nmea(Instant, [UInt8])
        /// The accelerometer's activity interrupt fired (it is disarmed until armed again).
        case activity(Instant)

        /// When the event happens.
        package var instant: Instant {
            switch self {
            case .nmea(let instant, _), .activity(let instant): instant
            }
        }
    }

    /// The ground truth.
    package let trajectory: Trajectory
    /// The accelerometer.
    package let accelerometer: AccelerometerModel
    /// The receiver (power commands go to it directly).
    package var receiver: SimulatedReceiver
    /// The armed activity interrupt, if any.
    package private(set) var activitySetting: ActivityInterruptSetting?
    /// When the armed interrupt will fire, once found.
    private var activityInstant: Instant?
    /// Until when the armed interrupt is known not to fire. It is looked for a stretch at a
    /// time (``activityStretch``): a paused device is re-armed every few seconds (its
    /// glances), and looking to the scenario's end each time cost a holiday's days each time.
    private var activitySearchedUntil = Instant.zero
    private var activityArmedAt = Instant.zero

    /// How far ahead the armed interrupt is looked for at a time.
    static let activityStretch = Duration.seconds(60)

    /// A board running `scenario` with a receiver of `profile`; everything random comes
    /// from `seed`.
    package init(scenario: Scenario, profile: ReceiverProfile, seed: UInt64, baudRate: Int = 115_200) {
        trajectory = Trajectory(scenario: scenario, seed: seed)
        accelerometer = AccelerometerModel(trajectory: trajectory, seed: seed)
        receiver = SimulatedReceiver(profile: profile, trajectory: trajectory, seed: seed, baudRate: baudRate)
    }

    /// The truth at an instant.
    package func truth(at instant: Instant) -> Truth {
        trajectory.truth(at: instant)
    }

    /// Arms the activity interrupt at `instant` (the device's state then is its reference).
    /// It fires at most once, no later than the scenario's end.
    package mutating func armActivity(_ setting: ActivityInterruptSetting, at instant: Instant) {
        activitySetting = setting
        activityInstant = nil
        activityArmedAt = instant
        activitySearchedUntil = instant
        searchActivity(before: instant + Self.activityStretch)
    }

    /// Looks for the armed interrupt up to `limit` (and no further than the scenario's end).
    private mutating func searchActivity(before limit: Instant) {
        guard let setting = activitySetting, activityInstant == nil else { return }
        let end = min(limit, trajectory.end)
        guard activitySearchedUntil < end else { return }
        // A run of samples above the threshold may straddle the stretches' border.
        let overlap = Duration.nanoseconds(setting.requiredSamples * setting.grid.period)
        let start = max(activityArmedAt, activitySearchedUntil - overlap)
        activityInstant = accelerometer.nextActivity(from: start, before: end, setting: setting)
        activitySearchedUntil = end
    }

    /// Disarms the activity interrupt.
    package mutating func disarmActivity() {
        activitySetting = nil
        activityInstant = nil
    }

    /// When the next event may happen (without taking it); nil when nothing more will. With
    /// the interrupt armed and not found yet, that is where the search stopped: ``next(before:)``
    /// then looks further, and may find nothing.
    package var nextEventInstant: Instant? {
        mutating get {
            let searched = activitySetting != nil && activityInstant == nil && activitySearchedUntil < trajectory.end
            return [activityInstant, searched ? activitySearchedUntil : nil, receiver.peekEpoch()?.instant].compactMap { $0 }.min()
        }
    }

    /// The earliest event before `limit`, taken; nil when nothing happens before it.
    package mutating func next(before limit: Instant) -> Event? {
        while activityInstant == nil, activitySetting != nil, activitySearchedUntil < min(limit, trajectory.end) {
            searchActivity(before: activitySearchedUntil + Self.activityStretch)
        }
        let epochInstant = receiver.peekEpoch()?.instant
        if let activity = activityInstant, activity < limit, epochInstant.map({ activity <= $0 }) ?? true {
            disarmActivity()
            return .activity(activity)
        }
        guard let epoch = receiver.nextEpoch(before: limit) else { return nil }
        return .nmea(epoch.instant, epoch.bytes)
    }
}

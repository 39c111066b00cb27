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
    /// When the armed interrupt will fire (computed when armed).
    private var activityInstant: Instant?

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
        activityInstant = accelerometer.nextActivity(from: instant, before: trajectory.end, setting: setting)
    }

    /// Disarms the activity interrupt.
    package mutating func disarmActivity() {
        activitySetting = nil
        activityInstant = nil
    }

    /// When the next event will happen (without taking it); nil when nothing more will.
    package var nextEventInstant: Instant? {
        mutating get {
            [activityInstant, receiver.peekEpoch()?.instant].compactMap { $0 }.min()
        }
    }

    /// The earliest event before `limit`, taken; nil when nothing happens before it.
    package mutating func next(before limit: Instant) -> Event? {
        let epochInstant = receiver.peekEpoch()?.instant
        if let activity = activityInstant, activity < limit, epochInstant.map({ activity <= $0 }) ?? true {
            disarmActivity()
            return .activity(activity)
        }
        guard let epoch = receiver.nextEpoch(before: limit) else { return nil }
        return .nmea(epoch.instant, epoch.bytes)
    }
}

package import WaymarkReceiver
package import WaymarkClock
import WaymarkEngine
import WaymarkSimulation

/// What a power-profile run measured, with the always-on and oracle baselines computed from
/// the same scenario.
package struct PowerRunReport: Sendable {
    /// Time and energy in one receiver state.
    package struct StateEnergy: Sendable {
        /// The state.
        package var state: String
        /// Time spent in it.
        package var seconds: Double
        /// Energy spent in it, mWh.
        package var milliwattHours: Double
    }

    /// One event of the run, in order (updates, power changes, interrupts).
    package struct LogEntry: Hashable, Sendable {
        /// When.
        package var instant: Instant
        /// What.
        package var event: String
    }

    /// One point of the timeline: the state of things at a whole second.
    package struct TimelinePoint: Sendable {
        /// Seconds since the scenario's start.
        package var second: Int
        /// The receiver's state.
        package var state: ReceiverPowerState
        /// The receiver's current, mA.
        package var current: Double
        /// The device's true speed, m/s.
        package var speed: Double
        /// Whether the device truly moves.
        package var isMoving: Bool
        /// Whether a location was delivered within the last two seconds.
        package var hasFix: Bool
        /// Whether satellite signals reach the device (not in a lift).
        package var hasSignal: Bool

        /// Moving where a receiver could fix, without a location: what the headline's metres
        /// without fixes count.
        package var isMissed: Bool { isMoving && hasSignal && !hasFix }
    }

    /// The setup that ran.
    package let setup: PowerRunSetup
    /// The scenario's length.
    package let duration: Duration
    /// Energy per receiver state.
    package let energyByState: [StateEnergy]
    /// Energy of the receiver over the run, mWh.
    package let energy: Double
    /// The receiver on all the time (one cold start, then tracking), mWh.
    package let alwaysOnEnergy: Double
    /// The receiver on exactly while the device truly moves, plus each restart's time to
    /// first fix at acquisition current, and backup current the rest of the time, mWh.
    package let oracleEnergy: Double
    /// Motion start to the first location update after it, for every motion start that is a
    /// resume: after the run's first location. A motion start is where the device starts to
    /// move where a receiver could fix (`Trajectory.fixableMovingIntervals`): a lift ride,
    /// which no receiver can fix, is not one; the walk out of it is.
    package let resumeLatencies: [Duration]
    /// Distance the device truly moved, where a receiver could fix, while no location was
    /// delivered, after the run's first location, metres.
    package let metresWithoutFixes: Double
    /// The run's first start, when the device moves before the run's first location.
    package let firstStart: FirstStart?

    /// A run's first start. No power policy shortens it: the receiver has no ephemeris yet (a
    /// cold start, which the oracle pays too), so it is reported apart from the resumes.
    package struct FirstStart: Sendable {
        /// From the first motion start to the first location.
        package let latency: Duration
        /// Distance moved before the first location, metres.
        package let metres: Double
    }
    /// Motion interrupts that turned out to be vibration.
    package let falseWakes: Int
    /// Hours the scenario spends on a desk (to express false wakes per desk hour).
    package let deskHours: Double
    /// Times the receiver was powered up from a down state.
    package let powerCycles: Int
    /// Times the device truly started moving.
    package let motionStarts: Int
    /// Updates delivered to the subscription.
    package let updates: Int
    /// The share of the run the accelerometer measured in normal mode (for the end of movement,
    /// a wake's window, the watch and the glances of a paused device) rather than waiting in
    /// low power for its wake: its cost, which the GPS energy leaves out.
    package let accelerometerSampledFraction: Double
    /// Windows of samples read from the chip per hour of the run (the daemon's FIFO reads).
    package let accelerometerReadsPerHour: Double
    /// Everything that happened, in order.
    package let log: [LogEntry]
    /// The run second by second.
    package let timeline: [TimelinePoint]

    init(setup: PowerRunSetup, trajectory: Trajectory, engine: Engine, recorder: RunRecorder, end: Instant) {
        self.setup = setup
        duration = end - Instant.zero
        let ledger = engine.ledger
        energyByState = ReceiverPowerState.allCases.map { state in
            StateEnergy(
                state: state.rawValue, seconds: ledger.time(in: state, at: end).seconds,
                milliwattHours: ledger.energy(in: state, at: end))
        }
        energy = ledger.totalEnergy(at: end)
        let baselines = Baselines(profile: setup.profile, trajectory: trajectory)
        alwaysOnEnergy = baselines.alwaysOn
        oracleEnergy = baselines.oracle
        let fixes = recorder.movingFixInstants
        // Without any location the run has no first start: every motion start counts as a resume.
        let firstLocation = recorder.deliveries.first(where: \.hasLocation)?.instant ?? .zero
        let latencies = trajectory.fixableMotionStarts.map { start in
            (start, Self.firstIndex(in: fixes, atOrAfter: start).map { fixes[$0] - start })
        }
        resumeLatencies = latencies.compactMap { $0.0 >= firstLocation ? $0.1 : nil }
        if let first = trajectory.fixableMotionStarts.first, first < firstLocation {
            firstStart = FirstStart(
                latency: firstLocation - first,
                metres: Self.metresWithoutFixes(trajectory: trajectory, fixes: fixes, in: .zero..<firstLocation))
        } else {
            firstStart = nil
        }
        falseWakes = engine.counters.falseWakes
        deskHours = Self.deskHours(trajectory)
        powerCycles = ledger.powerCycles
        motionStarts = trajectory.motionStarts.count
        updates = recorder.deliveries.count
        let hours = (end - Instant.zero).seconds / 3_600
        accelerometerSampledFraction = hours > 0 ? recorder.accelerometerSampling.seconds / (hours * 3_600) : 0
        accelerometerReadsPerHour = hours > 0 ? Double(recorder.accelerometerReads) / hours : 0
        log = recorder.log
        timeline = Self.timeline(trajectory: trajectory, ledger: ledger, profile: setup.profile, fixes: fixes, end: end)
        metresWithoutFixes = Self.metresWithoutFixes(trajectory: trajectory, fixes: fixes, in: firstLocation..<end)
    }

    /// The resume latency below which a share `quantile` of motion starts fall.
    package func resumeLatency(quantile: Double) -> Duration? {
        let sorted = resumeLatencies.sorted()
        guard !sorted.isEmpty else { return nil }
        let index = min(sorted.count - 1, Int((quantile * Double(sorted.count)).rounded(.up)) - 1)
        return sorted[max(0, index)]
    }

    /// False wakes per hour on a desk.
    package var falseWakesPerDeskHour: Double { deskHours > 0 ? Double(falseWakes) / deskHours : 0 }

    // MARK: - Derived measures

    static func firstIndex(in instants: [Instant], atOrAfter instant: Instant) -> Int? {
        var low = 0
        var high = instants.count
        while low < high {
            let middle = (low + high) / 2
            if instants[middle] < instant { low = middle + 1 } else { high = middle }
        }
        return low < instants.count ? low : nil
    }

    /// Whether a location was delivered within the two seconds before `instant`.
    static func hasFix(_ fixes: [Instant], near instant: Instant) -> Bool {
        guard let index = firstIndex(in: fixes, atOrAfter: instant - .seconds(2)) else { return false }
        return fixes[index] <= instant
    }

    /// Distance moved where a receiver could fix, without a location, within `window`.
    static func metresWithoutFixes(trajectory: Trajectory, fixes: [Instant], in window: Range<Instant>) -> Double {
        var metres = 0.0
        for interval in trajectory.fixableMovingIntervals {
            var second = max(interval.lowerBound, window.lowerBound)
            while second < min(interval.upperBound, window.upperBound) {
                let next = min(second + .seconds(1), interval.upperBound)
                if !hasFix(fixes, near: next) {
                    metres += trajectory.distance(at: next) - trajectory.distance(at: second)
                }
                second = next
            }
        }
        return metres
    }

    static func deskHours(_ trajectory: Trajectory) -> Double {
        var seconds = 0.0
        var instant = Instant.zero
        while instant < trajectory.end {
            if trajectory.truth(at: instant).kind == .desk { seconds += 10 }
            instant = instant + .seconds(10)
        }
        return seconds / 3_600
    }

    static func timeline(
        trajectory: Trajectory, ledger: PowerLedger, profile: ReceiverProfile, fixes: [Instant], end: Instant
    ) -> [TimelinePoint] {
        var points: [TimelinePoint] = []
        points.reserveCapacity(Int(end.seconds) + 1)
        var transitionIndex = 0
        var state = ledger.transitions.first?.from ?? ledger.state
        for second in 0...Int(end.seconds) {
            let instant = Instant.zero + .seconds(second)
            while transitionIndex < ledger.transitions.count, ledger.transitions[transitionIndex].instant <= instant {
                state = ledger.transitions[transitionIndex].to
                transitionIndex += 1
            }
            let truth = trajectory.truth(at: min(instant, end))
            points.append(
                TimelinePoint(
                    second: second, state: state, current: profile.current(in: state), speed: truth.speed,
                    isMoving: truth.isMoving, hasFix: hasFix(fixes, near: instant),
                    hasSignal: trajectory.signalReturn(atOrAfter: instant) == instant))
        }
        return points
    }
}

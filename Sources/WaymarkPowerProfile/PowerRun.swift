package import WaymarkHardware
package import WaymarkReceiver
import WaymarkClock
import WaymarkEngine
package import WaymarkLocation
import WaymarkMotion
package import WaymarkSimulation

/// What a power-profile run simulates.
package struct PowerRunSetup: Sendable {
    /// The scenario the device lives through.
    package var scenario: Scenario
    /// The receiver on the simulated board.
    package var profile: ReceiverProfile
    /// Everything random comes from this seed.
    package var seed: UInt64
    /// The live-updates configuration of the one subscription that runs all day.
    package var configuration: LiveConfiguration
    /// Its delivery options (a minimum interval lets the receiver sleep between fixes).
    package var options = DeliveryOptions()
    /// The board's accelerometer (`nil`: none, GPS-only stationary detection); its motion
    /// wake samples at the chip's own low-power rate.
    package var accelerometer: AccelerometerChip?
    /// The state the board's power strategy puts the receiver in; `nil` when it cannot.
    package var poweredDownState: ReceiverPowerState?
    /// Who needs locations: one live subscription (`configuration`), or geofences only.
    package var consumer: PowerRunConsumer = .liveUpdates

    /// Whether the board has an accelerometer.
    package var hasAccelerometer: Bool { accelerometer != nil }

    /// Creates a setup.
    package init(
        scenario: Scenario, profile: ReceiverProfile, seed: UInt64 = 1, configuration: LiveConfiguration = .default,
        accelerometer: AccelerometerChip? = .simulatedBoard, poweredDownState: ReceiverPowerState? = .backup
    ) {
        self.scenario = scenario
        self.profile = profile
        self.seed = seed
        self.configuration = configuration
        self.accelerometer = accelerometer
        self.poweredDownState = poweredDownState
    }
}

/// Runs the real engine and power policy against the simulated board, as fast as the CPU
/// allows: one live subscription is held for the whole scenario, the receiver's NMEA goes
/// through the real decoder, the engine's power commands reach the simulated receiver (with the
/// measurement intervals of ``FirstFixRate``, as a board source sends them) and its
/// accelerometer commands the simulated chip.
package enum PowerRun {
    /// The subscription's number.
    static let subscription: SubscriptionID = 1

    /// Runs a setup; `progress` is told the fraction done now and then.
    package static func run(_ setup: PowerRunSetup, progress: (Double) -> Void = { _ in }) -> PowerRunReport {
        var board = SimulatedBoard(scenario: setup.scenario, profile: setup.profile, seed: setup.seed)
        let end = board.trajectory.end
        var engine = Engine(settings: settings(for: setup), start: .zero)
        var host = SimulatedReceiverHost(profile: setup.profile, date: setup.scenario.startTime.date)
        var recorder = RunRecorder()
        var actions: [EngineAction] = []
        var sampling: (rate: Double, since: Instant, started: Instant, handOver: Duration)?
        var now = Instant.zero
        var reported = 0.0

        func apply(_ actions: [EngineAction], at now: Instant) {
            for action in actions {
                switch action {
                case .deliver(let update, _):
                    recorder.delivered(update, at: now)
                case .deliverBatch(let updates, _, _):
                    for update in updates { recorder.delivered(update, at: now) }
                case .complete:
                    break
                case .receiverPower(let on, let reason):
                    recorder.log(now, on ? "receiver on (\(reason))" : "receiver off (\(reason))")
                    host.setPower(on: on, downState: setup.poweredDownState ?? .off, receiver: &board.receiver, at: now)
                case .accelerometer(let command):
                    board.disarmActivity()
                    if let window = sampling { recorder.sampled(from: window.started, to: now) }
                    sampling = nil
                    switch command {
                    case .sample(let rate, let wake, let handOver):
                        sampling = (rate, now, now, handOver)
                        if let wake { board.armActivity(.singleSample(threshold: wake, outputDataRate: rate), at: now) }
                    case .armMotionWake(let threshold):
                        board.armActivity(.singleSample(threshold: threshold, outputDataRate: setup.accelerometer?.wakeRate ?? AccelerometerChip.requestedWakeRate), at: now)
                    case .idle: break
                    }
                }
            }
        }

        func feed(_ event: EngineEvent) {
            actions.removeAll(keepingCapacity: true)
            engine.handle(event, at: now, actions: &actions)
            apply(actions, at: now)
        }

        var geofences = GeofenceConsumer(setup.consumer, trajectory: board.trajectory)
        func observe() {
            guard let demand = geofences?.observe(engine, at: now, log: { recorder.log(now, $0) }) else { return }
            actions.removeAll(keepingCapacity: true)
            engine.handle(.fixNeeded(at: demand), at: now, actions: &actions)
            apply(actions, at: now)
        }

        if geofences == nil { feed(.startLiveUpdates(subscription, setup.configuration, setup.options)) } else { feed(.fixNeeded(at: .zero)) }
        while now < end {
            let sampleDue = sampling.map { $0.since + $0.handOver }
            let candidates = [board.nextEventInstant, engine.nextDeadline, sampleDue].compactMap { $0 }
            guard let next = candidates.min(), next < end else { break }
            now = max(now, next)
            if let event = board.next(before: now + .nanoseconds(1)) {
                switch event {
                case .nmea(_, let bytes):
                    for fix in host.receive(bytes, receiver: &board.receiver, at: now) {
                        feed(.fix(fix))
                        observe()
                    }
                case .activity:
                    recorder.log(now, "motion interrupt")
                    feed(.motionInterrupt)
                }
            } else if let due = sampleDue, due <= now, let window = sampling {
                let samples = board.accelerometer.samples(from: window.since, to: now, outputDataRate: window.rate)
                sampling = (window.rate, now, window.started, window.handOver)
                recorder.readAccelerometer()
                feed(.accelerometerSamples(samples.map { WaymarkMotion.AccelerationSample(x: $0.x, y: $0.y, z: $0.z) }, rate: window.rate))
            } else if let deadline = engine.nextDeadline, deadline <= now {
                feed(.tick)
                observe()
            }  // else the board only looked further for the armed interrupt
            if now.seconds - reported >= end.seconds / 100 {
                reported = now.seconds
                progress(now.seconds / end.seconds)
            }
        }
        progress(1)
        if let window = sampling { recorder.sampled(from: window.started, to: max(now, window.started)) }
        return PowerRunReport(setup: setup, trajectory: board.trajectory, engine: engine, recorder: recorder, end: end)
    }

    /// The engine settings for a setup's receiver and board.
    static func settings(for setup: PowerRunSetup) -> EngineSettings {
        EngineSettings(
            receiver: setup.profile, poweredDownState: setup.poweredDownState, isSimulated: true,
            hasAccelerometer: setup.hasAccelerometer)
    }
}

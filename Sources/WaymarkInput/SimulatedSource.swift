package import WaymarkReceiver
package import WaymarkClock
package import WaymarkEngine
package import WaymarkEventLoop
package import WaymarkLocation
import WaymarkMotion
package import WaymarkSimulation

/// The simulated board as a location source: a scenario's receiver and accelerometer,
/// driven by the event loop's timers on a (possibly compressed) timeline. The receiver's
/// NMEA bytes go through the real decoder; power commands and measurement intervals reach
/// the simulated receiver (``SimulatedReceiverHost``), and
/// the accelerometer's activity interrupt and samples come from the scenario's motion.
package final class SimulatedSource: LocationSource {
    /// Interrupt setting armed on `armMotionWake`: fires on a single sample (as the
    /// ADXL345 does) at the chip's low-power rate.
    static let wakeOutputDataRate = 50.0
    /// How often sample windows are handed over while sampling.
    static let sampleWindow = Duration.milliseconds(500)

    private var board: SimulatedBoard
    private let scenarioName: String
    private var host: SimulatedReceiverHost
    private var loop: EventLoop?
    private var timeline: Timeline?
    private var events: ((EngineEvent) -> Void)?
    private var eventTimer: TimerID?
    private var sampleTimer: TimerID?
    private var sampledUntil = Instant.zero
    private var sampleRate = 25.0
    private var ended = false

    /// A source running `scenario` with a receiver of `profile`.
    package init(scenario: Scenario, profile: ReceiverProfile, seed: UInt64) {
        board = SimulatedBoard(scenario: scenario, profile: profile, seed: seed)
        scenarioName = scenario.name
        host = SimulatedReceiverHost(profile: profile, date: scenario.startTime.date)
    }

    package var summary: StatusReport.Source {
        StatusReport.Source(
            kind: "simulated", description: "simulated board: \(board.receiver.profile.name), scenario \(scenarioName)",
            isSimulated: true)
    }

    package var poweredDownState: ReceiverPowerState? { .backup }
    package var hasAccelerometer: Bool { true }

    /// Where the scenario is now (ground truth), for status and tests.
    package func truth(at instant: Instant) -> Truth { board.truth(at: instant) }

    package func start(on loop: EventLoop, timeline: Timeline, events: @escaping (EngineEvent) -> Void) throws {
        self.loop = loop
        self.timeline = timeline
        self.events = events
        planNextEvent()
    }

    package func setReceiverPower(on: Bool, reason: String) {
        guard let timeline else { return }
        host.setPower(on: on, downState: .backup, receiver: &board.receiver, at: timeline.now)
        planNextEvent()
    }

    package func setAccelerometer(_ command: AccelerometerCommand) {
        guard let timeline, let loop else { return }
        let now = timeline.now
        if let sampleTimer { loop.cancel(sampleTimer) }
        sampleTimer = nil
        board.disarmActivity()
        switch command {
        case .sample(let rate):
            sampleRate = rate
            sampledUntil = now
            let interval = Duration.nanoseconds(Int64(Double(Self.sampleWindow.nanoseconds) / timeline.speed))
            sampleTimer = loop.schedule(after: interval, repeating: interval) { [unowned self] _ in
                self.deliverSamples()
            }
        case .armMotionWake(let threshold):
            let setting = ActivityInterruptSetting(
                threshold: threshold, minimumDuration: .zero, outputDataRate: Self.wakeOutputDataRate)
            board.armActivity(setting, at: now)
        case .idle:
            break
        }
        planNextEvent()
    }

    package func stop() {
        if let eventTimer { loop?.cancel(eventTimer) }
        if let sampleTimer { loop?.cancel(sampleTimer) }
        eventTimer = nil
        sampleTimer = nil
        events = nil
    }

    // MARK: - Driving the board

    /// Keeps one timer at the board's next event; none when nothing will happen.
    private func planNextEvent() {
        guard let loop, let timeline else { return }
        if let eventTimer { loop.cancel(eventTimer) }
        eventTimer = nil
        guard let next = board.nextEventInstant else {
            if !ended && timeline.now >= board.trajectory.end { scenarioEnded() }
            return
        }
        eventTimer = loop.schedule(at: timeline.monotonic(at: next)) { [unowned self] _ in
            self.eventTimer = nil
            self.dispatchDueEvents()
        }
    }

    private func dispatchDueEvents() {
        guard let timeline else { return }
        let now = timeline.now
        while let event = board.next(before: now + .nanoseconds(1)) {
            switch event {
            case .nmea(_, let bytes):
                for fix in host.receive(bytes, receiver: &board.receiver, at: now) { events?(.fix(fix)) }
            case .activity:
                events?(.motionInterrupt)
            }
        }
        planNextEvent()
    }

    private func deliverSamples() {
        guard let timeline else { return }
        let now = timeline.now
        let samples = board.accelerometer.samples(from: sampledUntil, to: now, outputDataRate: sampleRate)
        sampledUntil = now
        events?(.accelerometerSamples(samples.map { WaymarkMotion.AccelerationSample(x: $0.x, y: $0.y, z: $0.z) }, rate: sampleRate))
    }

    private func scenarioEnded() {
        ended = true
        events?(.receiverLost(reason: "the scenario \(scenarioName) has ended"))
    }
}

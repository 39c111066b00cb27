package import WaymarkHardware
package import WaymarkReceiver
package import WaymarkClock
package import WaymarkEngine
package import WaymarkEventLoop
package import WaymarkLocation
import WaymarkMotion
package import WaymarkSimulation
import WaymarkSystem
package import WaymarkTime

/// The simulated board as a location source: a scenario's receiver and accelerometer,
/// driven by the event loop's timers on a (possibly compressed) timeline. The receiver's
/// NMEA bytes go through the real decoder; power commands and measurement intervals reach
/// the simulated receiver (``SimulatedReceiverHost``), and
/// the accelerometer's activity interrupt and samples come from the scenario's motion.
///
/// Its clock truth is the scenario's: UTC is the scenario's start time plus the timeline's
/// elapsed time. With a ``TimeEventSource/timeEvents`` listener the receiver raises a
/// simulated PPS line at the start of every UTC second while it is on, stamped exactly (as
/// the kernel stamps a real edge), and each epoch's time goes with the reading of the clocks
/// taken when its bytes were delivered.
package final class SimulatedSource: TimeEventSource {
    /// The rate of the interrupt armed on `armMotionWake`: the simulated chip's low-power
    /// rate (with `sample(rate:wake:)` it is armed at the sampling rate).
    private let wakeRate: Double

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
    package var timeEvents: ((TimeEvent) -> Void)?
    private var arrivals = EpochArrivals()
    private var pulseTimer: TimerID?
    /// The scenario instant of the next PPS edge.
    private var nextPulse = Instant.zero
    /// The scenario's start, in nanoseconds since the Unix epoch (its clock truth).
    private let startNanoseconds: Int64

    /// A source running `scenario` with a receiver of `profile` and an `accelerometer` chip
    /// (its motion wake samples at the chip's low-power rate).
    package init(scenario: Scenario, profile: ReceiverProfile, seed: UInt64, accelerometer: AccelerometerChip = .simulatedBoard) {
        wakeRate = accelerometer.wakeRate
        board = SimulatedBoard(scenario: scenario, profile: profile, seed: seed)
        scenarioName = scenario.name
        startNanoseconds = scenario.startTime.nanosecondsSinceEpoch
        host = SimulatedReceiverHost(profile: profile, date: scenario.startTime.date)
    }

    package var summary: StatusReport.Source {
        StatusReport.Source(
            kind: "simulated", description: "simulated board: \(board.receiver.profile.name), scenario \(scenarioName)",
            isSimulated: true)
    }

    package var poweredDownState: ReceiverPowerState? { .backup }
    package var hasAccelerometer: Bool { true }

    /// The scenario's UTC: its start plus the timeline's elapsed time.
    package func fixClock(at instant: Instant) -> Timestamp? {
        let (date, overflow) = startNanoseconds.addingReportingOverflow(instant.nanoseconds)
        return overflow ? nil : Timestamp(nanosecondsSinceEpoch: date)
    }

    /// Where the scenario is now (ground truth), for status and tests.
    package func truth(at instant: Instant) -> Truth { board.truth(at: instant) }

    package func start(on loop: EventLoop, timeline: Timeline, events: @escaping (EngineEvent) -> Void) throws {
        self.loop = loop
        self.timeline = timeline
        self.events = events
        pacePulses()
        planNextEvent()
    }

    package func setReceiverPower(on: Bool, reason: String) {
        guard let timeline else { return }
        host.setPower(on: on, downState: .backup, receiver: &board.receiver, at: timeline.now)
        pacePulses()
        planNextEvent()
    }

    package func setAccelerometer(_ command: AccelerometerCommand) {
        guard let timeline, let loop else { return }
        let now = timeline.now
        if let sampleTimer { loop.cancel(sampleTimer) }
        sampleTimer = nil
        board.disarmActivity()
        switch command {
        case .sample(let rate, let wake, let handOver):
            sampleRate = rate
            sampledUntil = now
            let interval = Duration.nanoseconds(Int64(Double(handOver.nanoseconds) / timeline.speed))
            sampleTimer = loop.schedule(after: interval, repeating: interval) { [unowned self] _ in
                self.deliverSamples()
            }
            if let wake { board.armActivity(.singleSample(threshold: wake, outputDataRate: rate), at: now) }
        case .armMotionWake(let threshold):
            board.armActivity(.singleSample(threshold: threshold, outputDataRate: wakeRate), at: now)
        case .idle:
            break
        }
        planNextEvent()
    }

    package func stop() {
        if let eventTimer { loop?.cancel(eventTimer) }
        if let sampleTimer { loop?.cancel(sampleTimer) }
        if let pulseTimer { loop?.cancel(pulseTimer) }
        eventTimer = nil
        sampleTimer = nil
        pulseTimer = nil
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
            case .nmea(let instant, let bytes):
                emitPulses(upTo: instant)
                let read = ClockReading.now
                for fix in host.receive(bytes, receiver: &board.receiver, at: now) {
                    events?(.fix(fix))
                    if let epoch = arrivals.epochTime(of: fix, chunkRead: read) { timeEvents?(.epoch(epoch)) }
                }
                arrivals.decoded(chunkRead: read, inProgress: host.epochInProgress)
            case .activity:
                events?(.motionInterrupt)
            }
        }
        planNextEvent()
    }

    // MARK: - PPS

    /// Runs the PPS timer only while the receiver is on (only then does it raise the line), so
    /// that a board whose receiver sleeps wakes nothing each second.
    private func pacePulses() {
        guard let loop, let timeline else { return }
        let raising = timeEvents != nil && board.receiver.commandedState.isOn
        if raising, pulseTimer == nil { startPulses(on: loop, timeline: timeline) }
        if !raising, let pulseTimer {
            loop.cancel(pulseTimer)
            self.pulseTimer = nil
        }
    }

    /// Schedules the PPS edges from now on: at every scenario instant where UTC is a whole second.
    private func startPulses(on loop: EventLoop, timeline: Timeline) {
        let second: Int64 = 1_000_000_000
        let intoSecond = ((startNanoseconds % second) + second) % second
        let first = intoSecond == 0 ? 0 : second - intoSecond
        let now = timeline.now.nanoseconds
        let elapsed = now > first ? (now - first + second - 1) / second : 0
        nextPulse = Instant(nanoseconds: first + elapsed * second)
        let interval = Duration.nanoseconds(Int64(Double(second) / timeline.speed))
        pulseTimer = loop.schedule(at: timeline.monotonic(at: nextPulse), repeating: interval) { [unowned self] _ in
            guard let timeline = self.timeline else { return }
            self.emitPulses(upTo: timeline.now)
        }
    }

    /// Reports the edges up to `instant` (the receiver raises them only while it is on).
    private func emitPulses(upTo instant: Instant) {
        guard let timeEvents, let timeline else { return }
        while nextPulse <= instant {
            let edge = nextPulse
            nextPulse = edge + .seconds(1)
            guard board.receiver.commandedState.isOn else { continue }
            timeEvents(.pulse(edge: Instant(nanoseconds: timeline.monotonic(at: edge).nanoseconds), clocks: .now))
        }
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

package import WaymarkReceiver
import WaymarkClock
package import WaymarkEngine
package import WaymarkFix
package import WaymarkEventLoop
package import WaymarkInput
package import WaymarkLocation
import WaymarkProtocol
package import WaymarkSystem
import WaymarkMonitoring

/// The daemon's core on the event loop: hands what clients ask for and what the source
/// reports to the pure ``Engine``, and carries out the engine's actions — updates to
/// clients through the server, power and accelerometer commands to the source. It keeps at
/// most one timer: the engine's next deadline.
package final class Agent: AgentService {
    private let loop: EventLoop
    private let source: any LocationSource
    private let timeline: Timeline
    private let daemonVersion: String
    private let startedAt: Instant
    /// The wall clock when the timeline was at ``startedAt``, to date transitions.
    private let wallClockAtStart = RealtimeInstant.now
    private var engine: Engine
    private var deadlineTimer: TimerID?
    private var deadline: Instant?
    /// What clients that left this turn held, for the engine on the next turn.
    private var departed: (subscriptions: Set<SubscriptionID>, requests: Set<RequestID>) = ([], [])
    private let log: (String) -> Void
    /// Every app's monitors: evaluated on each new fix, whose next fix is the engine's demand.
    private let monitors: MonitorCenter
    private var monitorPlan = FixDemandPlan()
    /// The last fix the monitors evaluated and when, to date requests on the fixes' clock.
    private var monitorFix: (location: Location, instant: Instant)?
    private var isPlanningMonitors = false
    /// Whether the engine was told to look for stops (for visit monitoring).
    private var restChecks = false
    /// Whether the engine said stationary at the last look, for the visit detector.
    private var wasStationary = false
    /// The timer at the visit detector's arrival, and that arrival's date.
    private var visitTimer: (id: TimerID, due: Timestamp)?

    /// Where updates and answers go (the server); set before the source starts.
    package weak var sink: (any UpdateSink)?
    /// The satellites of the source's last fix, taken before the engine delivers its updates.
    package private(set) var sky = SkyView()

    /// Creates the agent for `source`; the engine's receiver figures come from `receiver`.
    /// `monitors` are every app's, shared with the server.
    package init(
        loop: EventLoop, source: any LocationSource, receiver: ReceiverProfile, timeline: Timeline,
        daemonVersion: String, monitors: MonitorCenter, log: @escaping (String) -> Void = { _ in }
    ) {
        self.monitors = monitors
        self.loop = loop
        self.source = source
        self.timeline = timeline
        self.daemonVersion = daemonVersion
        self.log = log
        let settings = EngineSettings(
            receiver: receiver, poweredDownState: source.poweredDownState, isSimulated: source.summary.isSimulated,
            hasAccelerometer: source.hasAccelerometer)
        startedAt = timeline.now
        engine = Engine(settings: settings, start: startedAt)
        monitors.date = { [unowned self] in monitorDate() }
    }

    /// Starts the source; its events flow into the engine from now on. The monitors and visit
    /// services the store kept are planned at once: with no fix yet, they need one now.
    package func start() throws {
        try source.start(on: loop, timeline: timeline) { [unowned self] event in
            report(event)
            if case .fix(let fix) = event { sky = fix.sky }
            feed(event)
        }
        monitorsChanged()
    }

    /// Stops the source and the deadline timer.
    package func stop() {
        if let deadlineTimer { loop.cancel(deadlineTimer) }
        deadlineTimer = nil
        source.stop()
    }

    /// The engine, for status and tests.
    package var engineState: Engine { engine }

    // MARK: - AgentService

    package func clientConnected(_ client: ClientID, credentials: PeerCredentials) {
        log("client \(client) connected: pid \(credentials.pid), uid \(credentials.uid), gid \(credentials.gid)")
    }

    package func clientIdentified(_ client: ClientID, appID: String?) {
        log("client \(client) is \(appID ?? "an unnamed app")")
    }

    package func clientDisconnected(_ client: ClientID, releasing subscriptions: Set<SubscriptionID>, _ requests: Set<RequestID>) {
        guard !subscriptions.isEmpty || !requests.isEmpty else { return }
        if departed.subscriptions.isEmpty && departed.requests.isEmpty {
            loop.schedule(after: .zero) { [weak self] _ in self?.releaseDeparted() }
        }
        departed.subscriptions.formUnion(subscriptions)
        departed.requests.formUnion(requests)
    }

    /// Ends what the clients that left during the last turn held, in one engine event: when
    /// thousands leave together, each costs what it held, not a pass over everyone's.
    private func releaseDeparted() {
        let released = departed
        departed = ([], [])
        feed(.release(subscriptions: released.subscriptions, requests: released.requests))
    }

    package func startLiveUpdates(_ subscription: SubscriptionID, configuration: LiveConfiguration, options: DeliveryOptions) {
        feed(.startLiveUpdates(subscription, configuration, options))
    }

    package func stopLiveUpdates(_ subscription: SubscriptionID) {
        feed(.stopLiveUpdates(subscription))
    }

    package func requestLocation(_ request: RequestID, desiredAccuracy: Double, timeout: Duration) {
        // The client's timeout is real time; a compressed timeline passes faster.
        let scaled = Duration.nanoseconds(Int64(Double(timeout.nanoseconds) * timeline.speed))
        feed(.requestLocation(request, desiredAccuracy: desiredAccuracy, timeout: scaled))
    }

    package func cancelRequest(_ request: RequestID) {
        feed(.cancelRequest(request))
    }

    package func lastKnownLocation() -> LastKnownLocation? {
        guard let location = engine.lastLocation, let received = engine.lastLocationReceived else { return nil }
        return LastKnownLocation(location: location, age: timeline.now - received)
    }

    package func monitorsChanged() {
        planMonitors(evaluating: false)
        scheduleDeadline()
    }

    package func status() -> StatusReport {
        let now = timeline.now
        let ledger = engine.ledger
        var diagnostics = Diagnostics()
        diagnostics.locationUnavailable = engine.isReceiverOn && engine.lastLocation == nil
        return StatusReport(
            daemonVersion: daemonVersion,
            uptime: (now - startedAt).seconds,
            source: source.summary,
            receiverPowerState: ledger.state.rawValue,
            receiverPowerSince: (ledger.since - startedAt).seconds,
            lastLocation: engine.lastLocation,
            isStationary: engine.isStationary,
            clients: 0, liveSubscriptions: engine.subscriptionCount, pendingRequests: engine.pendingRequestCount,
            diagnostics: diagnostics,
            powerLedger: ReceiverPowerState.allCases.map { state in
                StatusReport.PowerLedgerEntry(
                    state: state.rawValue, seconds: ledger.time(in: state, at: now).seconds,
                    milliwattHours: ledger.energy(in: state, at: now))
            },
            transitions: ledger.transitions.count,
            recentTransitions: ledger.transitions.suffix(StatusReport.recentTransitionLimit).map { transition in
                StatusReport.PowerTransition(
                    time: wallClockSeconds(at: transition.instant), from: transition.from.rawValue,
                    to: transition.to.rawValue, reason: transition.reason)
            },
            motionDetection: engine.accelerometerFailure.map { "gps-only: \($0)" } ?? "accelerometer",
            eventLoop: StatusReport.EventLoopCounts(timers: loop.pendingTimerCount, descriptors: loop.registeredDescriptorCount))
    }

    /// Seconds since the Unix epoch at a timeline instant (a compressed timeline's instants
    /// are spread back out to the wall clock's pace).
    private func wallClockSeconds(at instant: Instant) -> Double {
        Double(wallClockAtStart.nanosecondsSinceEpoch) / 1e9 + (instant - startedAt).seconds / timeline.speed
    }

    // MARK: - Engine

    /// Logs what a source reports that the operator should know of; the engine gets every
    /// event as it is.
    private func report(_ event: EngineEvent) {
        switch event {
        case .accelerometerFailed(let reason): log("accelerometer failed: \(reason); stationary detection continues on the GPS alone")
        case .receiverLost(let reason): log("receiver lost: \(reason)")
        default: break
        }
    }

    private func feed(_ event: EngineEvent) {
        run(event, at: timeline.now)
        planMonitors(evaluating: true)
        scheduleDeadline()
    }

    // MARK: - Monitors

    /// Evaluates every app's monitors on a fix they have not seen (when `evaluating`), hands
    /// their events to the server, and moves the engine's fix demand to the monitors' next
    /// fix when it changed (docs/monitoring.md, "The next fix"); the engine holds it while
    /// the device is stationary.
    private func planMonitors(evaluating: Bool) {
        guard !isPlanningMonitors else { return }
        isPlanningMonitors = true
        defer { isPlanningMonitors = false }
        let now = timeline.now
        var change: Instant??
        let newFix = evaluating ? monitorPlan.newFix(engine.lastLocation) : nil
        if evaluating { feedVisits(newFix) }
        if let location = newFix {
            monitorFix = (location, now)
            sink?.deliver(monitors.evaluate(location))
            change = monitorPlan.change(to: monitors.nextFix(after: location, at: now))
        } else if !evaluating {
            // A condition added or removed.
            let next = monitors.nextFix(after: monitorFix?.location, at: monitorFix?.instant ?? now)
            change = monitorPlan.change(to: next.map { max($0, now) })
        } else {
            change = monitorPlan.retryIfDropped(engineDemand: engine.fixDemand, at: now)
        }
        if monitors.watchesVisits != restChecks {
            restChecks = monitors.watchesVisits
            run(.restChecks(restChecks), at: now)
        }
        guard let change else { return }
        run(.fixNeeded(at: change), at: now)
    }

    /// Tells the visit detector each new fix and each change of the engine's stationarity, in
    /// time order, hands the arrivals and departures to the server, and keeps one timer at its
    /// arrival (docs/monitoring.md, "Visits").
    private func feedVisits(_ newFix: Location?) {
        if let newFix { recordVisits(.location(newFix)) }
        if engine.isStationary != wasStationary {
            wasStationary = engine.isStationary
            recordVisits(wasStationary ? .stationaryStarted(monitorDate()) : .stationaryEnded(monitorDate()))
        }
        scheduleVisitTimer()
    }

    private func recordVisits(_ input: VisitInput) {
        let visits = monitors.visitInput(input)
        if !visits.isEmpty { sink?.deliver(visits: visits) }
    }

    private func scheduleVisitTimer() {
        let due = monitors.visitArrivalDue
        guard due != visitTimer?.due else { return }
        if let visitTimer { loop.cancel(visitTimer.id) }
        visitTimer = nil
        guard let due else { return }
        // The arrival is due at most the minimum dwell after a stillness that began by now
        // (fix dates are the receiver's, as untrusted as any input: no wait beyond that).
        let (left, overflow) = due.nanosecondsSinceEpoch.subtractingReportingOverflow(monitorDate().nanosecondsSinceEpoch)
        let wait = min(Duration.nanoseconds(overflow ? 0 : max(0, left)), VisitDetector.minimumDwell)
        let id = loop.schedule(at: timeline.monotonic(at: timeline.now + wait)) { [unowned self] _ in
            visitTimer = nil
            recordVisits(.tick(monitorDate()))
            scheduleVisitTimer()
        }
        visitTimer = (id, due)
    }

    /// Now on the fixes' clock: the last fix's date advanced by the time since it (before any
    /// fix, the source's own clock truth, else the system clock), so that a condition added
    /// now is not newer than the next fix.
    private func monitorDate() -> Timestamp {
        guard let fix = monitorFix else {
            return source.fixClock(at: timeline.now) ?? Timestamp(nanosecondsSinceEpoch: RealtimeInstant.now.nanosecondsSinceEpoch)
        }
        let elapsed = (timeline.now - fix.instant).nanoseconds
        let (date, overflow) = fix.location.timestamp.nanosecondsSinceEpoch.addingReportingOverflow(max(0, elapsed))
        return Timestamp(nanosecondsSinceEpoch: overflow ? .max : date)
    }

    /// Hands `event` to the engine and carries out what it decides. The actions live for this
    /// call only: a fix for thousands of subscriptions is an action each (300 bytes apiece),
    /// and an array kept between events kept that capacity for the rest of the run.
    private func run(_ event: EngineEvent, at now: Instant) {
        var actions: [EngineAction] = []
        engine.handle(event, at: now, actions: &actions)
        perform(actions)
    }

    private func perform(_ actions: [EngineAction]) {
        for action in actions {
            switch action {
            case .deliver(let update, let subscription):
                sink?.send(update, subscription: subscription)
            case .deliverBatch(let updates, let overflow, let subscription):
                sink?.send(batch: updates, overflow: overflow, subscription: subscription)
            case .complete(let request, let result):
                sink?.send(result, request: request)
            case .receiverPower(let on, let reason):
                log("receiver \(on ? "on" : "off"): \(reason)")
                source.setReceiverPower(on: on, reason: reason)
            case .accelerometer(let command):
                source.setAccelerometer(command)
            }
        }
    }

    /// Keeps exactly one timer, at the engine's next deadline; none when it has none.
    private func scheduleDeadline() {
        let next = engine.nextDeadline
        guard next != deadline else { return }
        if let deadlineTimer { loop.cancel(deadlineTimer) }
        deadlineTimer = nil
        deadline = next
        guard let next else { return }
        deadlineTimer = loop.schedule(at: timeline.monotonic(at: next)) { [unowned self] _ in
            self.deadlineTimer = nil
            self.deadline = nil
            self.feed(.tick)
        }
    }
}

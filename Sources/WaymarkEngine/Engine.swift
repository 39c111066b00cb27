package import WaymarkClock
import WaymarkFix
package import WaymarkLocation
import WaymarkMotion
import WaymarkReceiver

/// The decisions of the location agent, as a pure state machine: which update each live
/// subscription gets, when it pauses because the device is stationary and when it resumes,
/// how one-shot requests converge, when the receiver is powered and what the accelerometer
/// does. It is fed timestamped events and answers with actions; it never reads a clock.
///
/// The rules are in `docs/semantics.md`; in short:
/// * An unpaused subscription gets every fix with a position, whatever its accuracy (which
///   the location carries), with `isStationary == false`.
/// * Once the device has shown no movement for the configuration's dwell, it gets exactly one
///   update with a location and `isStationary == true`, then nothing until the device moves.
/// * When no fix can be had it gets one update with no location and `locationUnavailable`,
///   and another only after a location was delivered again (no flicker).
/// * A request is answered with the first location as accurate as it asks, once the
///   accuracy stops improving, or at its timeout, whichever comes first.
/// * The receiver is powered exactly while someone needs fixes; while every subscription is
///   paused it is down and the accelerometer's motion wake is armed. A fix demand
///   (``EngineEvent/fixNeeded(at:)``) with no subscription powering the receiver is held the
///   same way: once the accelerometer has been calm for the default configuration's dwell,
///   the device is stationary and the demand waits for motion. On the interrupt the
///   receiver is powered at once; the next half second of samples tells movement (resume)
///   from vibration (a false wake: power down again). A paused device is also sampled, with
///   the wake still armed, until it has been calm for the dwell (an engine running or typing
///   keeps it sampled), and once calm it is glanced at, sampled for half a second every
///   ``EngineSettings/pushGlanceInterval``: a push too gentle for the wake powers the receiver
///   as it rises, and resumes the subscriptions once sustained (``PushDetector``).
package struct Engine: Sendable {
    /// Counts for the power report and the status.
    package struct Counters: Hashable, Sendable {
        /// Motion interrupts that led to a resume.
        package var motionWakes = 0
        /// Motion interrupts that turned out to be vibration.
        package var falseWakes = 0
        /// Receiver wakes without an accelerometer, to look for movement.
        package var gpsOnlyWakes = 0
        /// Updates delivered.
        package var updates = 0
    }

    /// The settings the engine runs with.
    package let settings: EngineSettings
    /// Time in each receiver state, transitions and energy.
    package private(set) var ledger: PowerLedger
    /// Counts for reports.
    package private(set) var counters = Counters()
    /// The newest location, delivered or not.
    package private(set) var lastLocation: Location?
    /// When the engine got ``lastLocation``.
    package private(set) var lastLocationReceived: Instant?
    /// Why stationary detection runs on the GPS alone, if it does.
    package private(set) var accelerometerFailure: String?

    /// Fixes count as flowing while the last one is younger than this.
    static let fixesFlowing = Duration.seconds(2)
    /// A fix this young is fresh enough to answer a request at once: one measurement interval
    /// (1 s) and half of one more for the epoch's bytes and the decoder.
    static let freshFix = Duration.milliseconds(1_500)

    private var subscriptions: [LiveSubscription] = []
    private var requests: [PendingRequest] = []
    private var receiverOn = false
    private var receiverOnSince: Instant
    private var lastUsableFix: Instant?
    /// How the accuracy has evolved since the receiver was powered up or regained its fix.
    private var convergence = Convergence()
    private var locationAvailable = true
    private var lastAccelerometerMovement: Instant
    private var accelerometer = AccelerometerCommand.idle
    private var motion: MotionClassifier
    /// Watches a paused device that vibrates for a gentle push.
    private var push: PushDetector
    /// Whether the sample windows now go to ``push``: a paused device is watched with samples
    /// as well as with the wake until it has shown nothing beyond noise for ``demandDwell``
    /// (an engine running or typing keeps the watch on; a device on a quiet shelf ends it).
    private var judgingPush = false
    /// While watched: since when the windows have shown nothing beyond noise.
    private var quietSince: Instant?
    /// The watch of this pause ended (``judgingPush``); a wake or a resume starts another.
    private var watchEnded = false
    /// Once the watch ended: when the device is glanced at, watched again for one span with
    /// its rest reference kept (``EngineSettings/pushGlanceInterval``).
    private var nextGlance: Instant?
    /// Whether the watch is a glance: it ends after one calm span, and becomes a whole watch
    /// once something shakes the device (an engine started meanwhile) or a wake is confirmed.
    private var glancing = false
    /// Whether the watch began as a glance, so its rest reference is the pause's: a push across
    /// gravity is then the push detector's to see, and what else the classifier calls movement
    /// without firing the wake is a push along gravity, a lift, where no receiver fixes.
    private var watchBeganAsGlance = false
    private var confirmingWake = false
    /// Whether the wake being confirmed is a rising push rather than the interrupt.
    private var wakeIsPush = false
    /// Whether a rising push powers the receiver in this watch: until one rose and faded. A
    /// device rocked slowly (a bus boarding, a car someone gets into) would otherwise power it
    /// on every sway; the rest of such a watch waits for the sustained push, as before.
    private var risingPowers = true
    private var gpsOnlyNextWake: Instant?
    private var gpsOnlyChecking = false
    private var orbitUpkeep: OrbitUpkeep
    private var demand = FixDemand()
    /// With no subscription powering the receiver: the last fix showed the device at rest and
    /// the accelerometer has been calm for ``demandDwell`` since, while a fix demand was held,
    /// so the demand waits for motion (no border can be crossed by a device that does not
    /// move). A calm accelerometer alone is not rest: a car on a smooth road is calm.
    private var demandStill = false
    /// Whether the demand's consumer needs to know when the device stops
    /// (``EngineEvent/restChecks(_:)``).
    private var checksRest = false
    /// The last accelerometer movement whose calm spell has had its rest check: after a fix
    /// in motion, a demand cannot learn that the device stopped (a calm accelerometer alone is
    /// not rest), so, when ``checksRest``, once the chip has been calm for ``restCheckCalm`` the
    /// demand is served at once, a single fix per calm spell, which tells rest from a smooth ride.
    private var restCheckedAfter: Instant?
    /// How long the accelerometer must be calm before the next rest check: ``demandDwell`` at
    /// first, doubled by each check until a fix shows rest, up to ``restCheckCalmLimit``. A car
    /// on a smooth road is calm for a few seconds over and over: without the doubling each of
    /// those spells cost a power cycle (2,228 in the 93-minute commute).
    private var restCheckCalm: Duration?
    /// The demand the consumer asked for, while a rest check serves it early: it is asked
    /// again if the check finds no fix.
    private var demandBeforeRestCheck: Instant?
    /// The instant of the event being handled (or the last one), for the demand's rules.
    private var lastEventInstant: Instant

    /// The instant a consumer needs its next fix (``EngineEvent/fixNeeded(at:)``), if any; nil
    /// also once a due demand found no fix (``FixDemand``).
    package var fixDemand: Instant? { demand.instant }

    /// Creates an engine at `start` with the receiver down.
    package init(settings: EngineSettings, start: Instant) {
        self.settings = settings
        motion = settings.classifier
        push = settings.pushDetector
        orbitUpkeep = OrbitUpkeep(receiver: settings.receiver, acquisitionTimeout: settings.acquisitionTimeout)
        ledger = PowerLedger(receiver: settings.receiver, state: settings.poweredDownState ?? .acquiring, start: start)
        receiverOnSince = start
        lastEventInstant = start
        lastAccelerometerMovement = start
        receiverOn = settings.poweredDownState == nil
        if settings.hasAccelerometer == false { accelerometerFailure = "no accelerometer on this board" }
    }

    /// Whether the device is currently considered stationary: every subscription that powers
    /// the receiver (not a passive listener) is paused; with none, a fix demand waits: the
    /// last fix showed rest and the accelerometer has been calm since.
    /// Read on every event and every fix: it copies no subscription (a filtered copy of
    /// thousands of them was the largest short-lived allocation of a crowded daemon).
    package var isStationary: Bool {
        guard subscriptions.contains(where: { !$0.isPassive }) else { return demandStill }
        return subscriptions.allSatisfy { $0.isPassive || $0.isPaused }
    }

    /// Whether the accelerometer decides for a fix demand: one is held, the chip works, and
    /// no subscription powers the receiver (its own dwell decides then).
    private var demandWatchesMotion: Bool {
        hasAccelerometer && demand.instant != nil && !subscriptions.contains { !$0.isPassive }
    }

    /// How long the accelerometer must be calm before a fix demand waits for motion: the
    /// default configuration's stationary dwell.
    private var demandDwell: Duration {
        ConfigurationProfile(.default, hotStart: settings.receiver.hotStart).stationaryDwell
    }

    /// Whether the last fix showed the device at rest: its speed known and below the default
    /// configuration's stationary speed.
    private var lastFixShowsRest: Bool {
        guard let speed = lastLocation?.speed, speed >= 0 else { return false }
        return speed < ConfigurationProfile(.default, hotStart: settings.receiver.hotStart).stationarySpeed
    }

    /// Live subscriptions.
    package var subscriptionCount: Int { subscriptions.count }
    /// Requests waiting for a location.
    package var pendingRequestCount: Int { requests.count }
    /// Whether the receiver is powered (as commanded).
    package var isReceiverOn: Bool { receiverOn }

    /// The next instant the engine needs a ``EngineEvent/tick``, if any. `nil` means the engine
    /// is idle until something happens: no timer at all.
    package var nextDeadline: Instant? {
        var deadlines: [Instant] = requests.map(\.deadline)
        if receiverOn, locationAvailable, needsFixes {
            deadlines.append(availabilityDeadline)
        }
        if hasAccelerometer, receiverOn || dutyCycleWake != nil {
            // While fixes flow, stationarity is decided at each fix; a tick is needed only if
            // they stop (or never came: then after a cold start's worth of time), or while the
            // receiver sleeps between the fixes a duty cycle takes.
            let quietSince = lastUsableFix.map { $0 + Self.fixesFlowing } ?? receiverOnSince + settings.acquisitionTimeout
            for subscription in subscriptions where subscription.needsFixes && subscription.profile.accelerometerAlonePauses {
                deadlines.append(max(subscription.accelerometerDwellEnd(after: lastAccelerometerMovement), quietSince))
            }
        }
        if let gpsOnlyNextWake { deadlines.append(gpsOnlyNextWake) }
        if hasAccelerometer, watchEnded, let nextGlance { deadlines.append(nextGlance) }
        if !receiverOn, let wake = dutyCycleWake, wake > lastEventInstant { deadlines.append(wake) }
        if let due = demand.deadline(after: lastEventInstant) { deadlines.append(due) }
        if demandWatchesMotion, !demandStill, lastFixShowsRest { deadlines.append(lastAccelerometerMovement + demandDwell) }
        if let check = restCheck { deadlines.append(check) }
        if let giveUp = demandGiveUp { deadlines.append(giveUp) }
        deadlines.append(contentsOf: subscriptions.compactMap(\.deliveryDeadline))
        if keepsOrbitPrediction, let upkeep = orbitUpkeep.nextDeadline(isOn: receiverOn) { deadlines.append(upkeep) }
        return deadlines.min()
    }

    /// Handles one event at `now`, appending what must be done to `actions`.
    package mutating func handle(_ event: EngineEvent, at now: Instant, actions: inout [EngineAction]) {
        lastEventInstant = now
        switch event {
        case .fix(let fix): handle(fix, at: now, actions: &actions)
        case .motionInterrupt: motionInterrupt(at: now, actions: &actions)
        case .accelerometerSamples(let samples, let rate):
            // A watched device moves on a push or on what the classifier calls movement: a push
            // already under way when the watch began is in the rest reference, not in the
            // classifier's gravity, which follows the device from before.
            let pushed = judgingPush ? push.judge(samples, rate: rate, noiseFloor: motion.noiseFloor) : .still
            var classified = motion.classify(samples, rate: rate)
            if classified == .moving, judgingPush, watchBeganAsGlance, !confirmingWake { classified = .vibration }
            samplesArrived(pushed == .moving ? .moving : classified, pushRising: judgingPush && push.isRising, at: now)
        case .accelerometerFailed(let reason):
            accelerometerFailure = reason
            confirmingWake = false
        case .accelerometerRecovered:
            guard settings.hasAccelerometer, accelerometerFailure != nil else { break }
            accelerometerFailure = nil
            // What the chip saw while it failed is unknown: its stillness starts now, a paused
            // device is watched afresh, and the command it missed is sent again (the power
            // policy below finds it changed).
            lastAccelerometerMovement = max(lastAccelerometerMovement, now)
            gpsOnlyNextWake = nil
            accelerometer = .idle
            judgingPush = false
            watchAfresh()
        case .receiverLost:
            lastUsableFix = nil
            markUnavailable(at: now, actions: &actions)
        case .startLiveUpdates(let number, let configuration, let options):
            subscriptions.removeAll { $0.number == number }
            let subscription = LiveSubscription(
                number: number, configuration: configuration, options: options, hotStart: settings.receiver.hotStart, now: now)
            subscriptions.append(subscription)
            lastAccelerometerMovement = max(lastAccelerometerMovement, now)
            if receiverOn && !locationAvailable {
                announceUnavailable(toSubscriptionAt: subscriptions.count - 1, at: now, actions: &actions)
            }
        case .stopLiveUpdates(let number):
            subscriptions.removeAll { $0.number == number }
        case .requestLocation(let number, let desiredAccuracy, let timeout):
            startRequest(number, desiredAccuracy: desiredAccuracy, timeout: timeout, at: now, actions: &actions)
        case .cancelRequest(let number):
            requests.removeAll { $0.number == number }
        case .release(let ended, let cancelled):
            subscriptions.removeAll { ended.contains($0.number) }
            requests.removeAll { cancelled.contains($0.number) }
        case .restChecks(let wanted):
            checksRest = wanted
        case .fixNeeded(let instant):
            // A new demand's stillness is judged from now on.
            if demand.instant == nil { lastAccelerometerMovement = max(lastAccelerometerMovement, now) }
            demand.set(instant)
            demandBeforeRestCheck = nil
            if instant == nil { demandStill = false }
        case .tick:
            tick(at: now, actions: &actions)
        }
        applyPowerPolicy(at: now, actions: &actions)
    }

    // MARK: - Fixes

    private mutating func handle(_ fix: Fix, at now: Instant, actions: inout [EngineAction]) {
        guard receiverOn, let location = Location(fix: fix, isSimulated: settings.isSimulated) else { return }
        lastLocation = location
        if lastFixShowsRest { restCheckCalm = nil }
        lastLocationReceived = now
        lastUsableFix = now
        orbitUpkeep.fixArrived(at: now)
        ledger.enter(.tracking, at: now, reason: locationAvailable ? "first fix" : "fix regained")
        locationAvailable = true
        if location.horizontalAccuracy >= 0 { convergence.observe(location.horizontalAccuracy) }
        if gpsOnlyChecking { finishGPSOnlyCheck(with: location, at: now) }
        for index in subscriptions.indices {
            let moving = subscriptions[index].observe(location, at: now)
            if moving, subscriptions[index].isPaused, !hasAccelerometer {
                subscriptions[index].isPaused = false
            }
            deliver(location, toSubscriptionAt: index, at: now, actions: &actions)
        }
        for index in requests.indices.reversed() {
            if let result = requests[index].offer(location, converged: convergence.isConverged) {
                actions.append(.complete(requests[index].number, result))
                requests.remove(at: index)
            }
        }
    }

    private mutating func deliver(_ location: Location, toSubscriptionAt index: Int, at now: Instant, actions: inout [EngineAction]) {
        // Read in place, never copied: a copy alive while `emit` changes the subscription
        // would make its held batch shared, and so copied whole at every fix.
        guard !subscriptions[index].isPaused else { return }
        let stationary = !subscriptions[index].isPassive && isStationary(subscriptions[index], at: now)
        emit(LocationUpdate(location: location, isStationary: stationary), toSubscriptionAt: index, at: now, actions: &actions)
        if stationary { subscriptions[index].isPaused = true }
    }

    /// Hands an update to a subscription through its delivery options (filters, batch).
    private mutating func emit(_ update: LocationUpdate, toSubscriptionAt index: Int, at now: Instant, actions: inout [EngineAction]) {
        if update.location != nil { subscriptions[index].announcedUnavailable = false }
        guard let output = subscriptions[index].offer(update, at: now) else { return }
        send(output, to: subscriptions[index].number, actions: &actions)
    }

    private mutating func send(_ output: DeliveryGate.Output, to number: SubscriptionID, actions: inout [EngineAction]) {
        switch output {
        case .single(let update): actions.append(.deliver(update, to: number))
        case .batch(let updates, let overflow): actions.append(.deliverBatch(updates, overflow: overflow, to: number))
        }
        counters.updates += 1
    }

    /// Whether a subscription's device has shown no movement for its dwell.
    private func isStationary(_ subscription: LiveSubscription, at now: Instant) -> Bool {
        subscription.isStill(at: now, lastAccelerometerMovement: hasAccelerometer ? lastAccelerometerMovement : nil)
    }

    // MARK: - Motion

    private var hasAccelerometer: Bool { settings.hasAccelerometer && accelerometerFailure == nil }

    private mutating func motionInterrupt(at now: Instant, actions: inout [EngineAction]) {
        guard hasAccelerometer, subscriptions.contains(where: \.isPaused) || demandStill else { return }
        // The sample windows decide whether this is motion (``wakingForResume``).
        confirmingWake = true
        wakeIsPush = false
    }

    /// Whether a motion interrupt powers the receiver before its sample window decides: for a
    /// paused subscription, whose resume waits for a fix, the hot start runs meanwhile. A fix
    /// demand held still waits for the verdict: its next fix can wait the window, and in a
    /// tram or a car every vibration the window judges calm cost a power cycle that never got
    /// a fix (1,082 on the 93-minute commute for a visits consumer).
    private var wakingForResume: Bool {
        confirmingWake && subscriptions.contains(where: \.isPaused)
    }

    /// Takes the verdict on the latest samples. A wake is confirmed by movement, and is false
    /// once the classifier has judged a whole span since it began with no push still rising.
    /// A push rising on a paused device powers the receiver at once, as the interrupt does: a
    /// gentle pull-off is too soft for the wake, and waiting for the push to be sustained
    /// would leave its first second without a fix (`docs/power.md`).
    private mutating func samplesArrived(_ verdict: MotionVerdict, pushRising: Bool, at now: Instant) {
        guard hasAccelerometer else { return }
        if judgingPush, verdict == .still {
            let since = quietSince ?? now
            quietSince = since
            // A glance ends once it has judged a whole span calm; a watch after the dwell.
            if glancing ? motion.hasJudgedSpan : now - since >= demandDwell && motion.hasJudgedSpan {
                watchEnded = true
                glancing = false
                nextGlance = now + settings.pushGlanceInterval
            }
        } else {
            quietSince = nil
            glancing = false
        }
        if verdict == .moving {
            lastAccelerometerMovement = now
            if confirmingWake { counters.motionWakes += 1 }
            confirmingWake = false
            demandStill = false
            for index in subscriptions.indices where subscriptions[index].isPaused {
                subscriptions[index].isPaused = false
                subscriptions[index].lastGPSMovement = now
                subscriptions[index].anchor = nil
            }
        } else if confirmingWake {
            guard !pushRising, motion.hasJudgedSpan else { return }
            counters.falseWakes += 1
            confirmingWake = false
            if wakeIsPush { risingPowers = false }
        } else if pushRising, risingPowers, subscriptions.contains(where: \.isPaused) {
            confirmingWake = true
            wakeIsPush = true
        }
    }

    // MARK: - Requests

    private mutating func startRequest(
        _ number: RequestID, desiredAccuracy: Double, timeout: Duration, at now: Instant, actions: inout [EngineAction]
    ) {
        var request = PendingRequest(number: number, desiredAccuracy: desiredAccuracy, deadline: now + timeout)
        // A fresh fix answers at once if it is accurate enough or the accuracy has converged;
        // otherwise it is where the request's convergence starts.
        if receiverOn, let lastLocation, let lastUsableFix, now - lastUsableFix <= Self.freshFix,
            let result = request.offer(lastLocation, converged: convergence.isConverged)
        {
            actions.append(.complete(number, result))
            return
        }
        requests.append(request)
    }

    // MARK: - Deadlines

    /// Whether the receiver's orbit prediction is worth keeping (``OrbitUpkeep``): only for
    /// subscriptions, which resume after stillness, and only when the receiver can be powered
    /// down at all. A request or a last subscription that ends releases the receiver at once.
    private var keepsOrbitPrediction: Bool {
        settings.poweredDownState != nil && subscriptions.contains { !$0.isPassive }
    }

    private var needsFixes: Bool {
        liveSubscriptionsNeedFixes || !requests.isEmpty || gpsOnlyChecking || wakingForResume
            || (!isStationary && demand.needsReceiver(at: lastEventInstant, isOn: receiverOn, hotStart: settings.receiver.hotStart))
    }

    /// Whether the running subscriptions need the receiver now: one does not tolerate it down
    /// between fixes, or the next fix they want is a hot start away (``dutyCycleWake``).
    private var liveSubscriptionsNeedFixes: Bool {
        guard let wake = dutyCycleWake else { return subscriptions.contains(where: \.needsFixes) }
        return lastEventInstant >= wake
    }

    /// Duty-cycling while moving: when every running subscription accepts a location only
    /// every so often (a minimum interval at least the receiver's break-even,
    /// ``ReceiverProfile/dutyCycleBreakEven(downState:measurementInterval:)``), the instant to
    /// power the receiver for the next fix one of them accepts: a hot start before it. `nil`
    /// when one needs every fix, none runs, or the board cannot power the receiver down.
    private var dutyCycleWake: Instant? {
        guard let breakEven = dutyCycleBreakEven else { return nil }
        var earliest: Instant?
        for subscription in subscriptions where subscription.needsFixes {
            guard subscription.minimumInterval >= breakEven, let next = subscription.nextWantedFix else { return nil }
            earliest = min(earliest ?? next, next)
        }
        return earliest.map { $0 - settings.receiver.hotStart }
    }

    /// The receiver's duty-cycle break-even on this board, with its usual one measurement a second.
    private var dutyCycleBreakEven: Duration? {
        settings.poweredDownState.flatMap { settings.receiver.dutyCycleBreakEven(downState: $0, measurementInterval: .seconds(1)) }
    }

    /// When a missing fix becomes "location unavailable": the unavailability delay after the
    /// last fix, or after a hot start's worth of grace once the receiver was powered up.
    private var availabilityDeadline: Instant {
        let powerUpGrace = receiverOnSince + settings.receiver.hotStart + settings.unavailableAfter
        guard let lastUsableFix, lastUsableFix >= receiverOnSince else { return powerUpGrace }
        return max(lastUsableFix + settings.unavailableAfter, powerUpGrace)
    }

    /// When a due demand that finds no fix is dropped: the time a cold start takes after the
    /// receiver was powered or gave its last fix, whichever is later.
    private var demandGiveUp: Instant? {
        guard receiverOn, let instant = demand.instant, instant <= lastEventInstant else { return nil }
        return max(lastUsableFix ?? receiverOnSince, receiverOnSince) + settings.acquisitionTimeout
    }

    /// When the demand's rest check falls due: the accelerometer calm for ``restCheckCalm``
    /// after the last fix showed motion (``restCheckedAfter``).
    private var restCheck: Instant? {
        guard checksRest, demandWatchesMotion, !demandStill, lastLocation != nil, !lastFixShowsRest,
            restCheckedAfter != lastAccelerometerMovement
        else { return nil }
        return lastAccelerometerMovement + (restCheckCalm ?? demandDwell)
    }

    /// The longest calm a rest check waits for: 2 minutes. A stop shorter than a visit's
    /// 5 minutes needs no check, and one found 2 minutes in still completes its arrival.
    private static let restCheckCalmLimit = Duration.seconds(120)

    private mutating func tick(at now: Instant, actions: inout [EngineAction]) {
        if let giveUp = demandGiveUp, giveUp <= now {
            demand.set(demandBeforeRestCheck)
            demandBeforeRestCheck = nil
        }
        if let check = restCheck, check <= now {
            restCheckedAfter = lastAccelerometerMovement
            restCheckCalm = min((restCheckCalm ?? demandDwell) * 2, Self.restCheckCalmLimit)
            if let due = demand.instant, due > now {
                demandBeforeRestCheck = due
                demand.set(now)
            }
        }
        for index in requests.indices.reversed() where requests[index].deadline <= now {
            actions.append(.complete(requests[index].number, requests[index].timedOut()))
            requests.remove(at: index)
        }
        if receiverOn, locationAvailable, needsFixes, availabilityDeadline <= now {
            markUnavailable(at: now, actions: &actions)
        }
        if hasAccelerometer {
            pauseOnCalmAccelerometer(at: now, actions: &actions)
        }
        if hasAccelerometer, watchEnded, let glance = nextGlance, glance <= now {
            watchEnded = false
            glancing = true
            nextGlance = nil
        }
        if demandWatchesMotion, !demandStill, lastFixShowsRest, now >= lastAccelerometerMovement + demandDwell { demandStill = true }
        if gpsOnlyChecking, availabilityDeadline <= now {
            gpsOnlyChecking = false  // no fix to judge by: look again at the next wake
        }
        for index in subscriptions.indices {
            if let output = subscriptions[index].deliverDue(at: now) { send(output, to: subscriptions[index].number, actions: &actions) }
        }
        if let wake = gpsOnlyNextWake, wake <= now {
            gpsOnlyNextWake = nil
            gpsOnlyChecking = true
            counters.gpsOnlyWakes += 1
        }
    }

    /// Pauses subscriptions whose dwell has passed on a calm accelerometer while no fix comes
    /// to carry the stationary update (indoors, say): they get the last known location, or
    /// none with `locationUnavailable`, and `isStationary == true`.
    private mutating func pauseOnCalmAccelerometer(at now: Instant, actions: inout [EngineAction]) {
        if let lastUsableFix, now - lastUsableFix < Self.fixesFlowing { return }
        // Give a receiver without any fix the time a cold start takes before giving up.
        if lastUsableFix == nil, now - receiverOnSince < settings.acquisitionTimeout { return }
        for index in subscriptions.indices {
            let subscription = subscriptions[index]
            guard subscription.needsFixes, subscription.profile.accelerometerAlonePauses,
                now >= subscription.accelerometerDwellEnd(after: lastAccelerometerMovement)
            else { continue }
            var diagnostics = Diagnostics()
            diagnostics.locationUnavailable = lastLocation == nil
            let update = LocationUpdate(location: lastLocation, isStationary: true, diagnostics: diagnostics)
            emit(update, toSubscriptionAt: index, at: now, actions: &actions)
            subscriptions[index].isPaused = true
        }
    }

    private mutating func markUnavailable(at now: Instant, actions: inout [EngineAction]) {
        if receiverOn { ledger.enter(.acquiring, at: now, reason: "fix lost") }
        convergence = Convergence()
        guard locationAvailable else { return }
        locationAvailable = false
        for index in subscriptions.indices where !subscriptions[index].isPaused {
            announceUnavailable(toSubscriptionAt: index, at: now, actions: &actions)
        }
    }

    private mutating func announceUnavailable(toSubscriptionAt index: Int, at now: Instant, actions: inout [EngineAction]) {
        guard !subscriptions[index].announcedUnavailable else { return }
        var diagnostics = Diagnostics()
        diagnostics.locationUnavailable = true
        emit(LocationUpdate(location: nil, diagnostics: diagnostics), toSubscriptionAt: index, at: now, actions: &actions)
        subscriptions[index].announcedUnavailable = true
    }

    // MARK: - GPS-only stationary detection

    private mutating func finishGPSOnlyCheck(with location: Location, at now: Instant) {
        gpsOnlyChecking = false
        let moved = subscriptions.contains { subscription in
            guard !subscription.isPassive else { return false }
            guard let anchor = subscription.anchor else { return true }
            return location.distance(from: anchor) > settings.gpsOnlyMovedDistance
                || subscription.speedShowsMovement(location)
        }
        if moved {
            for index in subscriptions.indices {
                subscriptions[index].isPaused = false
                subscriptions[index].lastGPSMovement = now
            }
        }
    }

    // MARK: - Power

    /// Powers the receiver exactly while someone needs fixes, and sets the accelerometer to
    /// what the situation needs.
    private mutating func applyPowerPolicy(at now: Instant, actions: inout [EngineAction]) {
        // Asked at every event (not only when no one needs fixes): it ends a hold whose time passed.
        let forPrediction = keepsOrbitPrediction && orbitUpkeep.needsReceiver(at: now, isOn: receiverOn)
        let needed = needsFixes || forPrediction
        if needed && !receiverOn {
            receiverOn = true
            receiverOnSince = now
            locationAvailable = true
            convergence = Convergence()
            ledger.enter(.acquiring, at: now, reason: powerUpReason)
            actions.append(.receiverPower(on: true, reason: powerUpReason))
        } else if !needed && receiverOn, let downState = settings.poweredDownState {
            receiverOn = false
            orbitUpkeep.poweredDown(at: now)
            let reason =
                subscriptions.isEmpty && requests.isEmpty && !demandStill
                ? "no one needs fixes" : dutyCycleWake != nil ? "duty cycle until the next wanted fix" : "stationary"
            ledger.enter(downState, at: now, reason: reason)
            actions.append(.receiverPower(on: false, reason: reason))
        }
        let paused = subscriptions.contains(where: \.isPaused) || demandStill
        if !hasAccelerometer {
            // Without an accelerometer a paused receiver is woken now and then to look.
            if paused && !needed {
                if gpsOnlyNextWake == nil { gpsOnlyNextWake = now + settings.gpsOnlyWakeInterval }
            } else if !paused {
                gpsOnlyNextWake = nil
            }
        }
        let wanted: AccelerometerCommand
        // A pause, or a wake confirmed while paused, is watched afresh.
        if !paused || confirmingWake { watchAfresh() }
        let watching = hasAccelerometer && paused && !watchEnded && !sampleForMovement
        if !hasAccelerometer {
            wanted = .idle
        } else if watching {
            // While a wake is confirmed the window decides, its interrupt off (as below).
            // A glance's span is handed over at once: it is judged whole, and the daemon of a
            // paused device wakes once for it rather than every tenth of a second.
            wanted = .sample(
                rate: settings.pushSamplingRate, wake: confirmingWake ? nil : settings.motionWakeThreshold,
                handOver: glancing ? settings.classifier.span : AccelerometerCommand.handOverInterval)
        } else if confirmingWake || sampleForMovement {
            wanted = .sample(rate: settings.samplingRate)
        } else if paused {
            wanted = .armMotionWake(threshold: settings.motionWakeThreshold)
        } else {
            wanted = .idle
        }
        // The rest reference is taken when the watch begins, and kept while a wake is confirmed
        // and through the glances of the same pause (the device was not seen to move between).
        if watching && !judgingPush {
            quietSince = nil
            watchBeganAsGlance = glancing
            if glancing {
                push.resumeAfterGap()
            } else {
                push.restart()
                risingPowers = true
            }
        }
        judgingPush = watching
        if wanted != accelerometer {
            if case .sample = wanted { motion.resume() }
            accelerometer = wanted
            actions.append(.accelerometer(wanted))
        }
    }

    /// Forgets how far the watch of a paused device got (ended, glancing, calm since): the next
    /// one is a whole watch.
    private mutating func watchAfresh() {
        watchEnded = false
        glancing = false
        nextGlance = nil
        quietSince = nil
    }

    /// Whether the accelerometer samples for the end of movement: a running subscription
    /// needs fixes, or a fix demand watches a device not yet still.
    private var sampleForMovement: Bool {
        subscriptions.contains(where: \.needsFixes) || (demandWatchesMotion && !demandStill)
    }

    private var powerUpReason: String {
        if wakingForResume { return wakeIsPush ? "a push starting" : "motion interrupt" }
        if gpsOnlyChecking { return "periodic check for movement" }
        if orbitUpkeep.wakingSince != nil { return "orbit prediction upkeep" }
        if subscriptions.contains(where: \.needsFixes) { return "live updates" }
        if requests.isEmpty, demand.instant != nil { return "geofence evaluation" }
        return "location request"
    }
}

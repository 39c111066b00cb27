import WaymarkFix
package import WaymarkReceiver
package import WaymarkClock
import WaymarkLocation
import WaymarkNMEA

/// A GNSS receiver following a trajectory: power states and their currents, hot, warm and
/// cold starts, a start-up message once it runs, then one epoch of NMEA per measurement
/// interval (a second unless the host asks for another), written as the profile's receiver
/// writes it.
///
/// Commands take effect at an instant; take the epochs before that instant first
/// (epochs not yet taken when a power command arrives are lost, as bytes on a cut line).
/// Each epoch is stamped with the instant its last byte leaves the receiver: the
/// measurement instant, plus the output latency, plus the bytes' time on the UART.
package struct SimulatedReceiver: Sendable {
    /// The receiver's figures.
    package let profile: ReceiverProfile
    /// UART speed, bits per second (10 bits a byte).
    package let baudRate: Int
    /// The truth it measures.
    package let trajectory: Trajectory
    /// The power state since the last command (``state(at:)`` splits acquiring and tracking).
    package private(set) var commandedState: ReceiverPowerState = .off
    /// Every start so far.
    package private(set) var starts: [ReceiverStart] = []
    /// Sentences dropped because an epoch did not fit the UART in a second.
    package private(set) var droppedSentences = 0

    private let seed: UInt64
    private let sky: SkyModel
    private var ledger: ReceiverLedger
    private var since = Instant.zero
    /// The end of the last stretch of tracking, while its ephemeris is remembered.
    private var lastTracking: Instant?
    /// Whether the RTC kept time (any state but off, after a first fix).
    private var knowsTime = false
    /// Since when the receiver's own orbit prediction is enabled (while memory survives).
    private var predictionEnabledSince: Instant?
    /// When the receiver last computed its orbit prediction, while it is remembered.
    private var lastPrediction: Instant?
    /// The time between measurements, as last commanded.
    package private(set) var measurementInterval = Duration.seconds(1)
    /// When the running start's solution is ready; the first fix is the first measurement after.
    private var solutionReady = Instant.zero
    private var nextMeasurement = Instant.zero
    /// The start-up message not yet taken.
    private var startup: Output?
    private var pending: Output?
    private var noise = PositionNoise()

    /// One write of the receiver: when its last byte leaves, its bytes, and the measurement
    /// it reports (none for the start-up message).
    private struct Output {
        var instant: Instant
        var bytes: [UInt8]
        var measurement: Instant?
    }

    /// Time from power-on to the first output (the start-up banner) after a boot.
    static let bootTime = Duration.milliseconds(500)
    /// Time from the wake byte to the answer of a receiver in standby (it does not boot).
    static let standbyWakeTime = Duration.milliseconds(50)
    /// Time from the measurement to the first byte of its output.
    static let outputLatency = Duration.milliseconds(50)

    /// A receiver, off, following `trajectory`; `seed` draws noise, sky and start times.
    package init(profile: ReceiverProfile, trajectory: Trajectory, seed: UInt64, baudRate: Int = 115_200) {
        self.profile = profile
        self.trajectory = trajectory
        self.seed = seed
        self.baudRate = baudRate
        sky = SkyModel(constellations: profile.constellations, seed: seed)
        ledger = ReceiverLedger(profile: profile)
    }

    // MARK: - Power

    /// The power state at an instant at or after the last command.
    package func state(at instant: Instant) -> ReceiverPowerState {
        guard commandedState.isOn, let start = starts.last else { return commandedState }
        return instant < start.firstFix ? .acquiring : .tracking
    }

    /// Time and energy per state from the origin to `instant` (at or after the last command).
    package func ledger(at instant: Instant) -> ReceiverLedger {
        var copy = self
        copy.account(until: instant)
        return copy.ledger
    }

    /// Powers the receiver on (or wakes it from standby). Nothing happens if it is on. It boots
    /// at one measurement a second and prints its start-up message; a receiver in standby
    /// keeps its rate and answers the wake command instead.
    package mutating func powerOn(at instant: Instant) {
        guard !commandedState.isOn else { return }
        let fromStandby = commandedState == .standby
        let kind: StartKind
        if let lastTracking, instant - lastTracking < profile.ephemerisValidity {
            kind = .hot
        } else if let lastPrediction, let prediction = profile.orbitPrediction, instant - lastPrediction < prediction.validity {
            kind = .predicted
        } else {
            kind = lastTracking != nil || knowsTime ? .warm : .cold
        }
        account(until: instant)
        commandedState = .acquiring
        let bits = SimulationRandom.hash(seed: seed, stream: .receiverStarts, index: instant.nanoseconds)
        let ttff = profile.timeToFirstFix(kind) * (0.9 + 0.3 * SimulationRandom.unit(bits))
        // Fixes come on whole seconds; a data sheet's TTFF is an average that includes waiting
        // for that second, so the solution is ready half a second (on average) before it.
        // No signal, no acquisition: powered where none reaches it (a lift), the receiver
        // starts acquiring when the signal returns.
        solutionReady = trajectory.signalReturn(atOrAfter: instant) + max(ttff - Self.epochAlignment, .milliseconds(200))
        if !fromStandby { measurementInterval = .seconds(1) }  // a boot forgets the rate
        let running = instant + (fromStandby ? Self.standbyWakeTime : Self.bootTime)
        nextMeasurement = Self.gridPoint(atOrAfter: running, interval: measurementInterval)
        starts.append(ReceiverStart(instant: instant, kind: kind, firstFix: firstFixInstant()))
        let message = fromStandby ? Self.standbyWakeAnswer : profile.startupMessage
        startup = Output(instant: running + transmissionTime(message.count), bytes: message, measurement: nil)
        pending = nil
    }

    /// Changes the time between measurements (UBX-CFG-RATE, PMTK220), as a command that
    /// reaches the receiver at `instant`. A receiver that is off or still booting (before its
    /// start-up message) does not hear it. The next measurement falls on the new interval's
    /// grid; an epoch measured before the command still goes out.
    package mutating func setMeasurementInterval(_ interval: Duration, at instant: Instant) {
        guard commandedState.isOn, startup.map({ $0.instant <= instant }) ?? true, interval > .zero,
            Duration.seconds(1).nanoseconds % interval.nanoseconds == 0, interval != measurementInterval
        else { return }
        // A measurement made before the command still goes out; one not made yet moves to the new grid.
        if pending == nil, startup == nil, nextMeasurement < instant { _ = peekOutput() }
        if let measurement = pending?.measurement, measurement >= instant { pending = nil }
        measurementInterval = interval
        nextMeasurement = Self.gridPoint(atOrAfter: instant + .nanoseconds(1), interval: interval)
        if let last = starts.indices.last, starts[last].firstFix >= instant {
            starts[last].firstFix = firstFixInstant()
        }
    }

    /// Enables the receiver's own orbit prediction (UBX-CFG-NAVX5 `useAOP`, `$PMTK869,1,1`), as
    /// a command that reaches it at `instant`. Heard as ``setMeasurementInterval(_:at:)`` is;
    /// kept while memory survives (backup, standby), forgotten when all power is lost.
    package mutating func enableOrbitPrediction(at instant: Instant) {
        guard profile.orbitPrediction != nil, commandedState.isOn, startup.map({ $0.instant <= instant }) ?? true,
            predictionEnabledSince == nil
        else { return }
        predictionEnabledSince = instant
    }

    /// The first measurement at or after the solution is ready, on the current grid.
    private func firstFixInstant() -> Instant {
        Self.gridPoint(atOrAfter: max(solutionReady, nextMeasurement), interval: measurementInterval)
    }

    /// Cuts the main supply; with `keepBackup` (and a backup supply on the board) the RTC
    /// and ephemeris survive for a hot or warm start.
    package mutating func powerOff(at instant: Instant, keepBackup: Bool) {
        stop(at: instant, into: keepBackup && profile.hasBackupSupply ? .backup : .off)
    }

    /// Stops navigation, keeping memory and the main supply (PMTK161, STANDBY pin).
    package mutating func standby(at instant: Instant) {
        stop(at: instant, into: .standby)
    }

    private mutating func stop(at instant: Instant, into state: ReceiverPowerState) {
        if self.state(at: instant) == .tracking {
            lastTracking = instant
            knowsTime = true
            computePrediction(trackedUntil: instant)
        }
        account(until: instant)
        commandedState = state
        pending = nil
        startup = nil
        if state == .off {
            lastTracking = nil
            knowsTime = false
            predictionEnabledSince = nil
            lastPrediction = nil
        }
    }

    /// A receiver that tracked with its prediction enabled for long enough to decode the
    /// broadcast ephemeris has computed a prediction from it.
    private mutating func computePrediction(trackedUntil instant: Instant) {
        guard let prediction = profile.orbitPrediction, let enabled = predictionEnabledSince, let start = starts.last
        else { return }
        if instant - max(start.firstFix, enabled) >= prediction.computeTime { lastPrediction = instant }
    }

    private mutating func account(until instant: Instant) {
        guard instant > since else { return }
        if commandedState.isOn, let start = starts.last {
            let fix = min(max(start.firstFix, since), instant)
            ledger.add(fix - since, in: .acquiring)
            ledger.add(instant - fix, in: .tracking)
        } else {
            ledger.add(instant - since, in: commandedState)
        }
        since = instant
    }

    /// The average wait for the next whole second, already part of a data sheet's TTFF
    /// (measured at one fix a second).
    static let epochAlignment = Duration.milliseconds(500)

    private static func gridPoint(atOrAfter instant: Instant, interval: Duration) -> Instant {
        let step = interval.nanoseconds
        return Instant(nanoseconds: (instant.nanoseconds + step - 1) / step * step)
    }

    private func transmissionTime(_ byteCount: Int) -> Duration {
        .nanoseconds(Int64(byteCount) * 10 * 1_000_000_000 / Int64(baudRate))
    }

    /// `$PMTK001,0,3*30`: a MediaTek receiver's answer to the wake command `$PMTK000`.
    static let standbyWakeAnswer = Array("$PMTK001,0,3*30\r\n".utf8)

    // MARK: - Output

    /// The next output (an epoch, or the start-up message) if its last byte leaves before
    /// `limit`, taken; nil otherwise.
    package mutating func nextEpoch(before limit: Instant) -> (instant: Instant, bytes: [UInt8])? {
        guard let output = peekOutput(), output.instant < limit else { return nil }
        if output.measurement == nil { startup = nil } else { pending = nil }
        return (output.instant, output.bytes)
    }

    /// When the next output's last byte will leave the receiver, if it is on.
    package mutating func peekEpoch() -> (instant: Instant, bytes: [UInt8])? {
        peekOutput().map { ($0.instant, $0.bytes) }
    }

    private mutating func peekOutput() -> Output? {
        guard commandedState.isOn else { return nil }
        if let startup { return startup }
        if pending == nil {
            pending = makeEpoch(at: nextMeasurement)
            nextMeasurement = nextMeasurement + measurementInterval
        }
        return pending
    }

    /// Every output whose last byte leaves before `limit`, taken.
    package mutating func epochs(until limit: Instant) -> [(instant: Instant, bytes: [UInt8])] {
        var epochs: [(instant: Instant, bytes: [UInt8])] = []
        while let epoch = nextEpoch(before: limit) { epochs.append(epoch) }
        return epochs
    }

    private mutating func makeEpoch(at measurement: Instant) -> Output {
        let report = self.report(at: measurement)
        let sentences = EpochSentences(report: report).sentences(layout: profile.layout, gst: profile.emitsGST)
        let budget = Int(Int64(baudRate / 10) * measurementInterval.nanoseconds / 1_000_000_000)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1_024)
        for sentence in sentences {
            let before = bytes.count
            NMEAWriter.append(sentence, to: &bytes)
            if bytes.count > budget {
                bytes.removeSubrange(before...)
                droppedSentences += 1
            }
        }
        return Output(instant: measurement + Self.outputLatency + transmissionTime(bytes.count), bytes: bytes, measurement: measurement)
    }

    private mutating func report(at measurement: Instant) -> EpochReport {
        let second = measurement.nanoseconds / 1_000_000_000
        guard let start = starts.last else { return EpochReport(time: nil, solution: nil, sky: []) }
        let lost = signalLost(at: measurement, since: start)
        let hasFix = measurement >= start.firstFix && !lost
        let acquired = hasFix ? 1 : lost ? 0 : (measurement - start.instant).seconds / start.timeToFirstFix.seconds
        let timeKnown = start.kind != .cold || acquired >= 0.3
        let skies = sky.constellations.indices.map { index in
            EpochReport.Sky(
                talker: sky.constellations[index].constellation.talker,
                inView: sky.inView(index, second: second, acquired: acquired, almanacKnown: start.kind != .cold),
                used: hasFix ? sky.used(index) : [])
        }
        var report = EpochReport(time: timeKnown ? trajectory.utc(at: measurement) : nil, solution: nil, sky: skies)
        if hasFix {
            report.solution = solution(at: measurement, isFirst: measurement == start.firstFix)
        }
        return report
    }

    private mutating func solution(at measurement: Instant, isFirst: Bool) -> EpochReport.Solution {
        let truth = trajectory.truth(at: measurement)
        let second = measurement.nanoseconds / 1_000_000_000
        // Measurements between whole seconds (a faster rate) draw with their millisecond as salt.
        let millisecond = UInt64(measurement.nanoseconds % 1_000_000_000 / 1_000_000)
        let draws = (0..<5).map { axis in
            SimulationRandom.bell(
                SimulationRandom.hash(seed: seed, stream: .receiver, index: second, salt: UInt64(axis) | millisecond << 8))
        }
        if isFirst { noise.restart((draws[0], draws[1], draws[2])) } else { noise.advance((draws[0], draws[1], draws[2])) }
        let hdop = sky.hdop(second: second)
        let vdop = hdop * 1.4
        let error = profile.horizontalError * predictedOrbitFactor(at: measurement)
        let errors = (north: error * hdop, east: error * hdop, up: error * vdop)
        let along = truth.speed + draws[3] * profile.speedError
        let across = draws[4] * profile.speedError
        let speed = (along * along + across * across).squareRoot()
        let courseOffset = across / max(speed, profile.speedError) * 180 / Double.pi
        return EpochReport.Solution(
            position: truth.position.offset(north: noise.north * errors.north, east: noise.east * errors.east, up: noise.up * errors.up),
            speed: speed,
            course: speed < Self.minimumCourseSpeed ? nil : (truth.course + courseOffset + 360).truncatingRemainder(dividingBy: 360),
            hdop: hdop, vdop: vdop, errors: errors, satellitesUsed: sky.usedCount)
    }

    /// Whether the receiver, on since `start`, has no satellite signal at `measurement`: in a
    /// signal-blocked stretch (a lift), or, after one it was on in, until it has reacquired.
    /// A power-on inside the stretch is a start from the signal's return (``powerOn(at:)``).
    private func signalLost(at measurement: Instant, since start: ReceiverStart) -> Bool {
        guard let blocked = trajectory.lastSignalBlockedInterval(startingAtOrBefore: measurement),
            blocked.upperBound > start.instant
        else { return false }
        let reacquisition = blocked.contains(start.instant) ? .zero : profile.reacquisitionTime
        return measurement < blocked.upperBound + reacquisition
    }

    /// How much larger the position error is at `measurement`: the prediction's factor after a
    /// predicted start until the broadcast ephemeris is decoded, 1 otherwise.
    private func predictedOrbitFactor(at measurement: Instant) -> Double {
        guard let start = starts.last, start.kind == .predicted, let prediction = profile.orbitPrediction,
            measurement - start.firstFix < prediction.computeTime
        else { return 1 }
        return prediction.errorFactor
    }

    /// Below this speed the receiver reports no course.
    static let minimumCourseSpeed = 0.5
}

import WaymarkReceiver
import WaymarkClock
import WaymarkLocation
import WaymarkNMEA

/// A GNSS receiver following a trajectory: power states and their currents, hot, warm and
/// cold starts, then one epoch of NMEA a second, written as the profile's receiver writes it.
///
/// Power commands take effect at an instant; take the epochs before that instant first
/// (epochs not yet taken when a command arrives are lost, as bytes on a cut line).
/// Each epoch is stamped with the instant its last byte leaves the receiver: the
/// measurement second, plus the output latency, plus the bytes' time on the UART.
public struct SimulatedReceiver: Sendable {
    /// The receiver's figures.
    public let profile: ReceiverProfile
    /// UART speed, bits per second (10 bits a byte).
    public let baudRate: Int
    /// The truth it measures.
    public let trajectory: Trajectory
    /// The power state since the last command (``state(at:)`` splits acquiring and tracking).
    public private(set) var commandedState: ReceiverPowerState = .off
    /// Every start so far.
    public private(set) var starts: [ReceiverStart] = []
    /// Sentences dropped because an epoch did not fit the UART in a second.
    public private(set) var droppedSentences = 0

    private let seed: UInt64
    private let sky: SkyModel
    private var ledger: ReceiverLedger
    private var since = Instant.zero
    /// The end of the last stretch of tracking, while its ephemeris is remembered.
    private var lastTracking: Instant?
    /// Whether the RTC kept time (any state but off, after a first fix).
    private var knowsTime = false
    private var nextSecond: Int64 = 0
    private var pending: (instant: Instant, bytes: [UInt8])?
    private var noise = PositionNoise()

    /// Time from power-on to the first output.
    static let bootTime = Duration.milliseconds(500)
    /// Time from the measurement to the first byte of its output.
    static let outputLatency = Duration.milliseconds(50)

    /// A receiver, off, following `trajectory`; `seed` draws noise, sky and start times.
    public init(profile: ReceiverProfile, trajectory: Trajectory, seed: UInt64, baudRate: Int = 115_200) {
        self.profile = profile
        self.trajectory = trajectory
        self.seed = seed
        self.baudRate = baudRate
        sky = SkyModel(constellations: profile.constellations, seed: seed)
        ledger = ReceiverLedger(profile: profile)
    }

    // MARK: - Power

    /// The power state at an instant at or after the last command.
    public func state(at instant: Instant) -> ReceiverPowerState {
        guard commandedState.isOn, let start = starts.last else { return commandedState }
        return instant < start.firstFix ? .acquiring : .tracking
    }

    /// Time and energy per state from the origin to `instant` (at or after the last command).
    public func ledger(at instant: Instant) -> ReceiverLedger {
        var copy = self
        copy.account(until: instant)
        return copy.ledger
    }

    /// Powers the receiver on (or wakes it from standby). Nothing happens if it is on.
    public mutating func powerOn(at instant: Instant) {
        guard !commandedState.isOn else { return }
        let kind: StartKind
        if let lastTracking, instant - lastTracking < profile.ephemerisValidity {
            kind = .hot
        } else {
            kind = lastTracking != nil || knowsTime ? .warm : .cold
        }
        account(until: instant)
        commandedState = .acquiring
        let bits = SimulationRandom.hash(seed: seed, stream: .receiverStarts, index: instant.nanoseconds)
        let ttff = profile.timeToFirstFix(kind) * (0.9 + 0.3 * SimulationRandom.unit(bits))
        // Fixes come on whole seconds; a data sheet's TTFF is an average that includes waiting
        // for that second, so the solution is ready half a second (on average) before it.
        let solution = max(ttff - Self.epochAlignment, .milliseconds(200))
        starts.append(ReceiverStart(instant: instant, kind: kind, firstFix: Self.wholeSecond(atOrAfter: instant + solution)))
        nextSecond = Self.wholeSecond(atOrAfter: instant + Self.bootTime).nanoseconds / 1_000_000_000
        pending = nil
    }

    /// Cuts the main supply; with `keepBackup` (and a backup supply on the board) the RTC
    /// and ephemeris survive for a hot or warm start.
    public mutating func powerOff(at instant: Instant, keepBackup: Bool) {
        stop(at: instant, into: keepBackup && profile.hasBackupSupply ? .backup : .off)
    }

    /// Stops navigation, keeping memory and the main supply (PMTK161, STANDBY pin).
    public mutating func standby(at instant: Instant) {
        stop(at: instant, into: .standby)
    }

    private mutating func stop(at instant: Instant, into state: ReceiverPowerState) {
        if self.state(at: instant) == .tracking {
            lastTracking = instant
            knowsTime = true
        }
        account(until: instant)
        commandedState = state
        pending = nil
        if state == .off {
            lastTracking = nil
            knowsTime = false
        }
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

    /// The average wait for the next whole second, already part of a data sheet's TTFF.
    static let epochAlignment = Duration.milliseconds(500)

    private static func wholeSecond(atOrAfter instant: Instant) -> Instant {
        let second: Int64 = 1_000_000_000
        return Instant(nanoseconds: (instant.nanoseconds + second - 1) / second * second)
    }

    // MARK: - Output

    /// The next epoch if its last byte leaves before `limit`, taken; nil otherwise.
    public mutating func nextEpoch(before limit: Instant) -> (instant: Instant, bytes: [UInt8])? {
        guard let epoch = peekEpoch(), epoch.instant < limit else { return nil }
        pending = nil
        return epoch
    }

    /// When the next epoch's last byte will leave the receiver, if it is on.
    public mutating func peekEpoch() -> (instant: Instant, bytes: [UInt8])? {
        guard commandedState.isOn else { return nil }
        if pending == nil {
            pending = makeEpoch(second: nextSecond)
            nextSecond += 1
        }
        return pending
    }

    /// Every epoch whose last byte leaves before `limit`, taken.
    public mutating func epochs(until limit: Instant) -> [(instant: Instant, bytes: [UInt8])] {
        var epochs: [(instant: Instant, bytes: [UInt8])] = []
        while let epoch = nextEpoch(before: limit) { epochs.append(epoch) }
        return epochs
    }

    private mutating func makeEpoch(second: Int64) -> (instant: Instant, bytes: [UInt8]) {
        let measurement = Instant(nanoseconds: second * 1_000_000_000)
        let report = self.report(at: measurement, second: second)
        let sentences = EpochSentences(report: report).sentences(layout: profile.layout, gst: profile.emitsGST)
        let budget = baudRate / 10
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
        let transmission = Duration.nanoseconds(Int64(bytes.count) * 10 * 1_000_000_000 / Int64(baudRate))
        return (measurement + Self.outputLatency + transmission, bytes)
    }

    private mutating func report(at measurement: Instant, second: Int64) -> EpochReport {
        guard let start = starts.last else { return EpochReport(time: nil, solution: nil, sky: []) }
        let hasFix = measurement >= start.firstFix
        let acquired = hasFix ? 1 : (measurement - start.instant).seconds / start.timeToFirstFix.seconds
        let timeKnown = start.kind != .cold || acquired >= 0.3
        let skies = sky.constellations.indices.map { index in
            EpochReport.Sky(
                talker: sky.constellations[index].constellation.talker,
                inView: sky.inView(index, second: second, acquired: acquired, almanacKnown: start.kind != .cold),
                used: hasFix ? sky.used(index) : [])
        }
        var report = EpochReport(time: timeKnown ? trajectory.utc(at: measurement) : nil, solution: nil, sky: skies)
        if hasFix {
            report.solution = solution(at: measurement, second: second, isFirst: measurement == start.firstFix)
        }
        return report
    }

    private mutating func solution(at measurement: Instant, second: Int64, isFirst: Bool) -> EpochReport.Solution {
        let truth = trajectory.truth(at: measurement)
        let draws = (0..<5).map { axis in
            SimulationRandom.bell(SimulationRandom.hash(seed: seed, stream: .receiver, index: second, salt: UInt64(axis)))
        }
        if isFirst { noise.restart((draws[0], draws[1], draws[2])) } else { noise.advance((draws[0], draws[1], draws[2])) }
        let hdop = sky.hdop(second: second)
        let vdop = hdop * 1.4
        let errors = (north: profile.horizontalError * hdop, east: profile.horizontalError * hdop, up: profile.horizontalError * vdop)
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

    /// Below this speed the receiver reports no course.
    static let minimumCourseSpeed = 0.5
}

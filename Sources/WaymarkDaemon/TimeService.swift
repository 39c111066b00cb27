import WaymarkBoard
import WaymarkChrony
import WaymarkInput
import WaymarkLocation
import WaymarkSystem
import WaymarkTime

/// Serves the source's time (docs/ecosystem.md, "Time for chrony"): each PPS edge paired with
/// the UTC second it starts (``PulsePairer``) goes to chronyd's SOCK refclock and to the NTP
/// shared-memory unit after the NMEA one (the board file's `[chrony]`); each epoch's
/// NMEA-only time goes to the NMEA unit, as gpsd's SHM 0 and 1; and every sample goes to
/// ``samples`` (the gpsd endpoint's PPS and TOFF reports). Runs on the daemon's event loop,
/// from the source's ``TimeEvent``s. chronyd not running (or restarted) only drops samples.
final class TimeService {
    /// What became of the events, for the log.
    struct Counts {
        /// Samples made: PPS, NMEA-only.
        var pulseSamples = 0
        var nmeaSamples = 0
        /// Samples chronyd did not take: no socket bound, or its queue full.
        var dropped = 0
        /// Edges and epochs the pairer refused, by verdict.
        var edges: [PulsePairer.EdgeVerdict: Int] = [:]
        var epochs: [PulsePairer.EpochVerdict: Int] = [:]
    }

    private(set) var counts = Counts()
    private var pairer = PulsePairer()
    private let socket: ChronySocketWriter?
    private let nmeaMemory: NTPSharedMemoryWriter?
    private let pulseMemory: NTPSharedMemoryWriter?
    private let log: (String) -> Void
    private var socketReached: Bool?
    /// Where every sample goes besides chrony, PPS and NMEA-only alike.
    var samples: ((TimeSample) -> Void)?

    /// A service writing where `settings` say (nowhere without them: only to ``samples``).
    /// An output that cannot be opened (a segment chronyd created for root only) is logged and
    /// left out.
    init(settings: ChronySettings?, log: @escaping (String) -> Void) {
        self.log = log
        func open<Writer>(_ what: String, _ make: () throws(SystemError) -> Writer) -> Writer? {
            do throws(SystemError) {
                return try make()
            } catch {
                log("chrony: \(what) cannot be used: \(error)")
                return nil
            }
        }
        socket = settings?.socket.flatMap { path in open("the SOCK refclock \(path)") { () throws(SystemError) in try ChronySocketWriter(path: path) } }
        let unit = settings?.sharedMemoryUnit
        nmeaMemory = unit.flatMap { unit in open("SHM unit \(unit)") { () throws(SystemError) in try NTPSharedMemoryWriter(unit: unit) } }
        pulseMemory = unit.flatMap { unit in open("SHM unit \(unit + 1)") { () throws(SystemError) in try NTPSharedMemoryWriter(unit: unit + 1) } }
    }

    /// The service `options` ask for, listening to `source`: for the board file's `[chrony]`,
    /// for the gpsd endpoint, or both; `nil` when neither is asked for, or (logged) when the
    /// source cannot give time. It logs whatever the verbosity: an operator who asked for time
    /// hears when chronyd is reached or lost.
    static func start(for options: DaemonOptions, source: any LocationSource) throws -> TimeService? {
        var chrony: ChronySettings?
        if case .board(let path, _, _) = options.source { chrony = try BoardDefinition.load(path: path).chrony }
        guard chrony != nil || options.gpsdPort != nil else { return nil }
        let unserved = chrony == nil ? "gpsd's clients get no PPS or TOFF" : "[chrony] is ignored"
        guard let timed = source as? any TimeEventSource else {
            Daemon.log("time: this source gives no time; \(unserved)")
            return nil
        }
        guard options.speed == 1 || !source.summary.isSimulated else {
            Daemon.log("time: a simulation at \(options.speed)x speed is not on the wall clock's time; \(unserved)")
            return nil
        }
        let service = TimeService(settings: chrony, log: Daemon.log)
        timed.timeEvents = { [weak service] event in service?.handle(event) }
        return service
    }

    /// Takes an edge or an epoch.
    func handle(_ event: TimeEvent) {
        switch event {
        case .pulse(let edge, let clocks):
            let verdict = pairer.pulse(at: edge, clocks: clocks)
            if verdict != .accepted { counts.edges[verdict, default: 0] += 1 }
        case .epoch(let epoch):
            if let sample = epoch.nmeaSample {
                counts.nmeaSamples += 1
                _ = nmeaMemory?.put(sample)
                samples?(sample)
            }
            switch pairer.epoch(epoch) {
            case .paired(let sample): send(sample)
            case .noPulse: break  // no PPS line, or a missed edge: the NMEA sample stands alone
            case let verdict: counts.epochs[verdict, default: 0] += 1
            }
        }
    }

    private func send(_ sample: TimeSample) {
        counts.pulseSamples += 1
        if counts.pulseSamples == 1 { log("time: first PPS sample, true minus local time \(sample.offsetSeconds) s") }
        _ = pulseMemory?.put(sample)
        samples?(sample)
        guard let socket else { return }
        let reached: Bool
        do throws(SystemError) {
            reached = try socket.send(sample)
        } catch {
            log("chrony: sending to the SOCK refclock failed: \(error)")
            reached = false
        }
        if !reached { counts.dropped += 1 }
        if reached != socketReached {
            log(reached ? "chrony: the SOCK refclock takes the PPS samples" : "chrony: no chronyd on the SOCK refclock; PPS samples are dropped")
        }
        socketReached = reached
    }

    /// Closes the outputs and logs what was served.
    func stop() {
        socket?.close()
        nmeaMemory?.close()
        pulseMemory?.close()
        func verdicts<Verdict: Hashable>(_ counts: [Verdict: Int]) -> String {
            counts.isEmpty ? "none" : counts.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
        }
        log(
            "time: \(counts.pulseSamples) PPS samples (\(counts.dropped) dropped), \(counts.nmeaSamples) NMEA samples; "
                + "edges refused: \(verdicts(counts.edges)); epochs unpaired: \(verdicts(counts.epochs))")
    }
}

import WaymarkDrivers
import WaymarkEventLoop
import WaymarkFix
import WaymarkLocation
import WaymarkSystem
import WaymarkNMEA
import WaymarkTime

/// The rate a receiver's port runs at.
enum ReceiverBaud: Hashable, Sendable {
    /// A known rate.
    case fixed(Int)
    /// Try `candidates` in order until checksummed sentences arrive (``BaudDetector``).
    case auto(candidates: [Int])
}

/// A receiver's byte stream on the event loop, shared by ``StreamSource`` and
/// ``BoardSource``: opens the port, finds its rate (``BaudDetector``, switching the open port
/// from candidate to candidate) and optionally moves the receiver to a faster one with its
/// vendor command, then feeds the bytes through the real decoder.
///
/// When the port goes away (end of file, `EIO`, hangup) or no candidate rate produces
/// sentences, it reports the loss once, closes the port and reopens it with ``Backoff`` until
/// sentences come again; with a rate of `auto` each reopen detects it afresh (a replugged
/// receiver is back at its factory rate). A receiver that stays silent while it should talk
/// is reported once and the port stays open, with no timer until bytes come again. Bytes
/// that stop forming sentences (a receiver that changed its rate, a wrong fixed rate) are
/// reported too; with `auto` they start a new detection on the open port.
final class ReceiverLink {
    /// What the link is set up with.
    struct Configuration {
        /// The device.
        var path: String
        /// How to open it.
        var kind: ReceiverPortKind
        /// Its rate.
        var baud: ReceiverBaud
        /// A faster rate and the command that moves the receiver there, sent once a rate is
        /// detected (only with `auto`: a fixed rate is what the receiver is known to use).
        var upgrade: (rate: Int, command: [UInt8])?
        /// How long the receiver may stay silent while it should talk.
        var silenceTimeout = Duration.seconds(3)
        /// How long a candidate rate may produce nothing before the next one is tried.
        var detectionWindow = Duration.seconds(2)
        /// Bytes without a verified sentence after which the stream counts as garbage.
        var garbageBudget = 4_096
    }

    /// What the link tells its owner.
    struct Handlers {
        /// The port is open (detection starts now): the place to wake the receiver.
        var opened: (any ByteStreamPort) -> Void = { _ in }
        /// The rate is known and bytes are decoded from now on.
        var ready: (Int) -> Void = { _ in }
        /// A completed epoch.
        var fix: (Fix) -> Void = { _ in }
        /// Sentences arrived: the receiver is talking (called before the fixes they complete).
        var talked: () -> Void = {}
        /// The time of a completed epoch (when it has a date and time), called after its fix.
        var epoch: (EpochTime) -> Void = { _ in }
        /// The receiver was lost (reported once until sentences come again).
        var lost: (String) -> Void = { _ in }
        /// The bytes of each read once the rate is known, as read, before they are decoded.
        var bytes: (UnsafeRawBufferPointer) -> Void = { _ in }
        /// Something worth a line in the daemon's log.
        var log: (String) -> Void = { _ in }
    }

    private enum Phase {
        case closed
        case detecting(BaudDetector)
        case streaming
    }

    let configuration: Configuration
    var handlers = Handlers()
    /// The open port, if any.
    private(set) var port: (any ByteStreamPort)?
    /// The rate sentences were decoded at last (the configured one before that).
    private(set) var rate: Int
    /// Whether the receiver should be talking (it is powered): only then is silence a loss.
    var expectsBytes = true {
        didSet { if expectsBytes != oldValue { lastBytes = .now; armSilenceTimer() } }
    }
    private let openPort: (String, Int, ReceiverPortKind) throws -> any ByteStreamPort
    private var phase = Phase.closed
    private var loop: EventLoop?
    private var decoder = NMEADecoder()
    private var arrivals = EpochArrivals()
    private var backoff = Backoff()
    private var reopenTimer: TimerID?
    private var silenceTimer: TimerID?
    private var detectionTimer: TimerID?
    private var lastBytes = MonotonicInstant.now
    private var bytesSinceSentence = 0
    private var reportedLost = false
    /// How the port is, after its path in `status`: ` at 9600 baud`, `, finding its baud
    /// rate`, or `, not connected: ` and why.
    package var connection: String {
        if isStreaming { return " at \(rate) baud" }
        if port != nil { return ", finding its baud rate" }
        return ", not connected" + (lastLoss.map { ": \($0)" } ?? "")
    }

    /// Why the receiver was last lost (the port cannot be opened, only garbage comes), until
    /// sentences arrive again: `status` shows it.
    package private(set) var lastLoss: String?
    private var upgraded = false
    /// A detection started by ``receiverPowerCycled()`` is under way.
    private var resumingAfterPowerCycle = false
    /// Whether the port is a terminal: libserialport leaves VMIN = 0, so a terminal's read of
    /// 0 bytes means "nothing yet"; it is gone when the loop reports a hangup. Elsewhere (a
    /// FIFO) 0 bytes is the end of the stream.
    private var isTerminal = false
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    /// Reads per turn of the loop at most: a device that keeps the line full (or a pty
    /// written without pause) must not hold the loop from the clients; the loop reports the
    /// port again on its next turn while bytes wait.
    static let maximumReadsPerTurn = 4

    /// A link for `configuration`; `openPort` opens a port (tests pass their own).
    init(
        _ configuration: Configuration,
        openPort: @escaping (String, Int, ReceiverPortKind) throws -> any ByteStreamPort = ReceiverLink.openDevice
    ) {
        self.configuration = configuration
        self.openPort = openPort
        switch configuration.baud {
        case .fixed(let rate): self.rate = rate
        case .auto(let candidates): self.rate = candidates.first ?? 9600
        }
    }

    /// Opens `path` with ``SerialPort`` or ``TerminalPort``.
    static func openDevice(path: String, rate: Int, kind: ReceiverPortKind) throws -> any ByteStreamPort {
        switch kind {
        case .terminal: try TerminalPort(path: path, baudRate: rate)
        case .serial: try SerialPort(path: path, baudRate: rate)
        }
    }

    /// Whether the rate is known and sentences are being decoded.
    var isStreaming: Bool {
        if case .streaming = phase { return true }
        return false
    }

    /// Opens the port on `loop`. If it cannot be opened, reports the loss and keeps trying
    /// with backoff (a receiver plugged in later, a device node udev has not made yet).
    func start(on loop: EventLoop) {
        self.loop = loop
        do {
            try open()
        } catch {
            fail("cannot open \(configuration.path): \(error)")
        }
    }

    /// Closes the port and cancels every timer.
    func stop() {
        close()
        cancel(&reopenTimer)
        loop = nil
    }

    // MARK: - The port

    private func open() throws {
        let candidates: [Int]
        switch configuration.baud {
        case .fixed(let fixed): candidates = [fixed]
        case .auto(let list): candidates = list
        }
        let port = try openPort(configuration.path, candidates[0], configuration.kind)
        self.port = port
        do {
            try loop?.register(port.descriptor, for: .readable) { [unowned self] _, events in
                self.readable(events)
            }
        } catch {
            try? port.close()
            self.port = nil
            throw error
        }
        lastBytes = .now
        upgraded = false
        resumingAfterPowerCycle = false
        isTerminal = port.descriptor.isTerminal
        handlers.opened(port)
        if case .auto = configuration.baud {
            detect(BaudDetector(candidates: candidates))
        } else {
            startStreaming(at: candidates[0])
        }
    }

    private func close() {
        if let port {
            try? loop?.unregister(port.descriptor)
            try? port.close()
        }
        port = nil
        phase = .closed
        cancel(&silenceTimer)
        cancel(&detectionTimer)
    }

    private func readable(_ readiness: IOEvents) {
        guard let port else { return }
        var gone = readiness.contains(.hangup) || readiness.contains(.error)
        var reads = 0
        while !gone, self.port === port, reads < Self.maximumReadsPerTurn {
            reads += 1
            let count: Int?
            do {
                count = try readBuffer.withUnsafeMutableBytes { buffer throws(SystemError) in try port.read(into: buffer) }
            } catch {
                return fail("reading \(configuration.path) failed: \(error)")
            }
            guard let count, count > 0 || !isTerminal else { break }
            if count == 0 {
                gone = true
                break
            }
            lastBytes = .now
            consume(count)
            // A short read took all there was: the loop reports the port again when more
            // comes, which spares a read that would only say "nothing yet".
            if count < readBuffer.count { break }
        }
        if gone && self.port === port { fail("\(configuration.path) was closed or unplugged") }
    }

    private func consume(_ count: Int) {
        switch phase {
        case .closed: return
        case .detecting(var detector):
            let decision = detector.consume(readBuffer[..<count])
            phase = .detecting(detector)
            decide(decision, with: detector)
        case .streaming:
            readBuffer.withUnsafeBytes { handlers.bytes(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            let before = decoder.framer.statistics.sentences
            var talked = false
            let read = ClockReading.now
            readBuffer.withUnsafeBufferPointer { buffer in
                decoder.decode(UnsafeBufferPointer(rebasing: buffer[0..<count])) { [handlers, arrivals] fix in
                    // A fix means sentences came: the receiver talked before it fixed.
                    if !talked { handlers.talked() }
                    talked = true
                    handlers.fix(fix)
                    if let epoch = arrivals.epochTime(of: fix, chunkRead: read) { handlers.epoch(epoch) }
                }
            }
            arrivals.decoded(chunkRead: read, inProgress: decoder.assembler.epochInProgress)
            if decoder.framer.statistics.sentences > before {
                sentencesArrived()
                if !talked { handlers.talked() }
            } else {
                garbageArrived(count)
            }
        }
    }

    private func fail(_ reason: String) {
        reportLost(reason)
        scheduleReopen()
    }

    /// Reports the receiver lost, unless that was reported already and no sentence came since
    /// (the owner's power commands failing count too).
    func reportLost(_ reason: String) {
        lastLoss = reason
        guard !reportedLost else { return }
        reportedLost = true
        handlers.lost(reason)
    }

    private func sentencesArrived() {
        bytesSinceSentence = 0
        backoff.reset()
        reportedLost = false
        lastLoss = nil
        if silenceTimer == nil { armSilenceTimer() }
    }

    private func garbageArrived(_ count: Int) {
        bytesSinceSentence += count
        guard bytesSinceSentence >= configuration.garbageBudget else { return }
        bytesSinceSentence = 0
        reportLost("\(configuration.path): bytes at \(rate) baud but no valid NMEA sentence")
        if case .auto(let candidates) = configuration.baud {
            handlers.log("looking for the receiver's rate again")
            upgraded = false
            detect(BaudDetector(candidates: candidates), switching: true)
        }
    }

    private func scheduleReopen() {
        close()
        guard let loop, reopenTimer == nil else { return }
        reopenTimer = loop.schedule(after: backoff.nextDelay()) { [unowned self] _ in
            self.reopenTimer = nil
            do {
                try self.open()
            } catch {
                self.fail("cannot open \(self.configuration.path): \(error)")
            }
        }
    }

    // MARK: - The rate

    /// Listens for sentences at the detector's current rate (switching the port to it first
    /// when `switching`), moving on after a silent window.
    private func detect(_ detector: BaudDetector, switching: Bool = false) {
        phase = .detecting(detector)
        if switching, !setRate(detector.currentRate) { return }
        cancel(&silenceTimer)
        cancel(&detectionTimer)
        detectionTimer = loop?.schedule(after: configuration.detectionWindow) { [unowned self] _ in
            self.detectionTimer = nil
            guard case .detecting(var detector) = self.phase else { return }
            let decision = detector.silence()
            self.phase = .detecting(detector)
            self.decide(decision, with: detector)
        }
    }

    private func decide(_ decision: BaudDetector.Decision, with detector: BaudDetector) {
        switch decision {
        case .listening:
            break
        case .tryRate:
            detect(detector, switching: true)
        case .detected(let found):
            cancel(&detectionTimer)
            if let upgrade = configuration.upgrade, !upgraded, upgrade.rate != found {
                upgraded = true
                switchReceiver(from: found, to: upgrade)
            } else {
                handlers.log("receiver on \(configuration.path) talks at \(found) baud")
                startStreaming(at: found)
            }
        case .exhausted:
            let rates = detector.candidates.map(String.init).joined(separator: ", ")
            fail("no NMEA sentences from \(configuration.path) at \(rates) baud")
        }
    }

    /// The receiver lost its supply and boots at its factory rate (an enable line cut it: a
    /// MediaTek receiver keeps no UART setting across a power cycle). With `auto` and a faster
    /// rate to move it to, the rate is found again at once from its start-up message and the
    /// receiver moved to the faster rate with its vendor command; decoding goes on at that
    /// rate without waiting for more sentences (bytes that do not form sentences there start
    /// a new detection, as ever). Without this the old rate would read the factory rate's
    /// bytes as garbage until the garbage budget ran out, seconds into every resume.
    func receiverPowerCycled() {
        guard case .auto(let candidates) = configuration.baud, configuration.upgrade != nil, port != nil else { return }
        upgraded = false
        resumingAfterPowerCycle = true
        detect(BaudDetector(candidates: candidates), switching: true)
    }

    /// Sends the vendor command at the detected rate, waits until it has left the UART, then
    /// detects again with the new rate first (the old one stays a fallback); after a power
    /// cycle (``receiverPowerCycled()``), where the command worked before, it streams at the
    /// new rate at once.
    private func switchReceiver(from found: Int, to upgrade: (rate: Int, command: [UInt8])) {
        guard let port else { return }
        handlers.log("receiver on \(configuration.path) talks at \(found) baud; switching it to \(upgrade.rate)")
        do {
            try port.writeAll(upgrade.command)
        } catch {
            return fail("sending the baud-rate command to \(configuration.path) failed: \(error)")
        }
        try? port.descriptor.drainOutput()
        if resumingAfterPowerCycle {
            resumingAfterPowerCycle = false
            if setRate(upgrade.rate) { startStreaming(at: upgrade.rate) }
            return
        }
        var candidates = [upgrade.rate]
        if case .auto(let list) = configuration.baud { candidates += list.filter { $0 != upgrade.rate } }
        detect(BaudDetector(candidates: candidates), switching: true)
    }

    private func setRate(_ newRate: Int) -> Bool {
        do {
            try port?.setBaudRate(newRate)
            return true
        } catch {
            fail("setting \(configuration.path) to \(newRate) baud failed: \(error)")
            return false
        }
    }

    private func startStreaming(at found: Int) {
        rate = found
        resumingAfterPowerCycle = false
        phase = .streaming
        decoder = NMEADecoder()
        arrivals = EpochArrivals()
        bytesSinceSentence = 0
        lastBytes = .now
        armSilenceTimer()
        handlers.ready(found)
    }

    // MARK: - Silence

    /// While the receiver should be talking, a timer checks that bytes keep coming. A silence is
    /// reported once and the port stays open (a receiver that went away hangs the port up,
    /// which reopens it); no timer runs again until bytes come, and none while the receiver is
    /// powered down: an idle daemon makes no wakeups.
    private func armSilenceTimer() {
        cancel(&silenceTimer)
        guard let loop, expectsBytes, isStreaming else { return }
        silenceTimer = loop.schedule(at: lastBytes + configuration.silenceTimeout) { [unowned self] _ in
            self.silenceTimer = nil
            if MonotonicInstant.now - self.lastBytes >= self.configuration.silenceTimeout {
                self.reportLost("no bytes from \(self.configuration.path) for \(self.configuration.silenceTimeout)")
            } else {
                self.armSilenceTimer()
            }
        }
    }

    private func cancel(_ timer: inout TimerID?) {
        if let timer { loop?.cancel(timer) }
        timer = nil
    }
}

import WaymarkClock
import WaymarkDrivers
import WaymarkEngine
import WaymarkEventLoop
import WaymarkLocation
import WaymarkProtocol
import WaymarkReceiver
import WaymarkSystem

/// A receiver's NMEA byte stream: a UART (libserialport), a USB receiver, or a
/// pseudo-terminal or FIFO (tests, piped captures). Bytes go through the real decoder on the
/// event loop.
///
/// A receiver that goes away (unplugged, the other end of a pty closed), a read error, or a
/// stream that stays silent while the receiver should be talking is reported as
/// ``SourceEvent/receiverLost(reason:)`` once; the port is reopened with backoff until it
/// works again. Garbage and wrong baud rates simply produce no fixes: the engine reports
/// `locationUnavailable` after its delay.
public final class StreamSource: LocationSource {
    /// How the port is opened.
    public enum PortKind: Sendable {
        /// Plain open(2) and termios: ptys, FIFOs, ttys (and what libserialport cannot open).
        case terminal
        /// libserialport (real UARTs and USB serial adapters).
        case serial
    }

    private let path: String
    private let baudRate: Int
    private let kind: PortKind
    private let silenceTimeout: Duration
    private let openPort: (String, Int, PortKind) throws -> any ByteStreamPort
    private let powerControl: (any ByteStreamPort) -> any GPSPowerControl
    private var port: (any ByteStreamPort)?
    private var power: (any GPSPowerControl)?
    private var loop: EventLoop?
    private var events: ((SourceEvent) -> Void)?
    private var decoder = NMEADecoder()
    private var backoff = Backoff()
    private var reopenTimer: TimerID?
    private var silenceTimer: TimerID?
    private var lastBytes = MonotonicInstant.now
    private var receiverOn = true
    private var reportedLost = false
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    private let canPowerDown: Bool

    /// A source reading `path` at `baudRate`. `power` makes the board's power strategy for
    /// the open port (a pty or a board without one: ``NoPowerControl``).
    public init(
        path: String, baudRate: Int, kind: PortKind, silenceTimeout: Duration = .seconds(3),
        canPowerDown: Bool = false,
        power: @escaping (any ByteStreamPort) -> any GPSPowerControl = { _ in NoPowerControl() }
    ) {
        self.path = path
        self.baudRate = baudRate
        self.kind = kind
        self.silenceTimeout = silenceTimeout
        self.canPowerDown = canPowerDown
        powerControl = power
        openPort = { path, rate, kind in
            switch kind {
            case .terminal: try TerminalPort(path: path, baudRate: rate)
            case .serial: try SerialPort(path: path, baudRate: rate)
            }
        }
    }

    public var summary: StatusReport.Source {
        StatusReport.Source(kind: "serial", description: "NMEA receiver on \(path) at \(baudRate) baud", isSimulated: false)
    }

    public var poweredDownState: ReceiverPowerState? { canPowerDown ? .backup : nil }
    public var hasAccelerometer: Bool { false }

    public func start(on loop: EventLoop, timeline: Timeline, events: @escaping (SourceEvent) -> Void) throws {
        self.loop = loop
        self.events = events
        try open()
    }

    public func setReceiverPower(on: Bool, reason: String) {
        receiverOn = on
        do throws(SystemError) {
            if on { try power?.powerUp() } else { try power?.powerDown() }
        } catch {
            lost("power \(on ? "up" : "down") failed: \(error)")
        }
        lastBytes = .now
        armSilenceTimer()
    }

    public func setAccelerometer(_ command: AccelerometerCommand) {}

    public func stop() {
        close()
        if let reopenTimer { loop?.cancel(reopenTimer) }
        reopenTimer = nil
        events = nil
    }

    // MARK: - The port

    private func open() throws {
        let port = try openPort(path, baudRate, kind)
        self.port = port
        power = powerControl(port)
        decoder = NMEADecoder()
        lastBytes = .now
        try loop?.register(port.descriptor, for: .readable) { [unowned self] _, events in
            self.readable(events)
        }
        armSilenceTimer()
    }

    private func close() {
        if let port {
            try? loop?.unregister(port.descriptor)
            try? port.close()
        }
        port = nil
        power = nil
        if let silenceTimer { loop?.cancel(silenceTimer) }
        silenceTimer = nil
    }

    private func readable(_ readiness: IOEvents) {
        guard let port else { return }
        var gone = readiness.contains(.hangup) || readiness.contains(.error)
        while !gone {
            let count: Int?
            do {
                count = try readBuffer.withUnsafeMutableBytes { buffer throws(SystemError) in try port.read(into: buffer) }
            } catch {
                lost("reading \(path) failed: \(error)")
                return scheduleReopen()
            }
            guard let count else { break }
            if count == 0 {
                gone = true
                break
            }
            lastBytes = .now
            reportedLost = false
            backoff.reset()
            if silenceTimer == nil { armSilenceTimer() }
            readBuffer.withUnsafeBufferPointer { buffer in
                decoder.decode(UnsafeBufferPointer(rebasing: buffer[0..<count])) { [events] fix in events?(.fix(fix)) }
            }
        }
        if gone {
            lost("\(path) was closed or unplugged")
            scheduleReopen()
        }
    }

    private func lost(_ reason: String) {
        guard !reportedLost else { return }
        reportedLost = true
        events?(.receiverLost(reason: reason))
    }

    private func scheduleReopen() {
        close()
        guard let loop, reopenTimer == nil else { return }
        reopenTimer = loop.schedule(after: backoff.nextDelay()) { [unowned self] _ in
            self.reopenTimer = nil
            do {
                try self.open()
            } catch {
                self.lost("cannot open \(self.path): \(error)")
                self.scheduleReopen()
            }
        }
    }

    /// While the receiver should be talking, a timer checks that bytes keep coming. None runs
    /// while it is powered down, and after a silence has been reported none runs until bytes
    /// come again: an idle daemon makes no wakeups.
    private func armSilenceTimer() {
        guard let loop else { return }
        if let silenceTimer { loop.cancel(silenceTimer) }
        silenceTimer = nil
        guard receiverOn, port != nil else { return }
        silenceTimer = loop.schedule(at: lastBytes + silenceTimeout) { [unowned self] _ in
            self.silenceTimer = nil
            if MonotonicInstant.now - self.lastBytes >= self.silenceTimeout {
                self.lost("no bytes from \(self.path) for \(self.silenceTimeout)")
            } else {
                self.armSilenceTimer()
            }
        }
    }
}

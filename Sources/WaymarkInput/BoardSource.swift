package import WaymarkBoard
import WaymarkDrivers
package import WaymarkEngine
package import WaymarkEventLoop
package import WaymarkReceiver
import WaymarkSystem
package import WaymarkLocation
package import WaymarkTime
import WaymarkFix
import WaymarkHardware

/// The hardware a board file describes, as a location source: the receiver on its UART, its
/// power strategy, and the accelerometer on I2C with its INT line.
///
/// * **Receiver.** Opened with libserialport, or plain termios for a pty or FIFO
///   (``ReceiverPortKind/forPath(_:)``); a baud rate of `auto` is detected from checksummed
///   sentences and `switch_to` moves the receiver to a faster rate with its vendor command
///   (``ReceiverLink``). Unplugged, silent or garbled, it is reported lost once and reopened
///   with backoff until it talks again.
/// * **Power.** The board's ``GPSPowerControl`` (marked on the marker line if there is one).
///   The receiver is woken whenever the port opens, since its rate can only be found while it
///   talks; once the rate is known it is put in the state the engine asked for. After each
///   power-up, once it talks, its own orbit prediction is enabled (AssistNow Autonomous,
///   EASY: hot-like starts for days after the ephemeris expired) and it measures at its fast
///   first-fix interval until the first fix (``FirstFixRate``; UBX-CFG-RATE, PMTK220), when
///   the link is fast enough to carry it.
/// * **Time.** With a ``TimeEventSource/timeEvents`` listener, the PPS edges (the GPIO line's
///   edge events, ``PulseInput``, or the kernel's PPS device, ``KernelPulseInput``, fetched
///   while the receiver is on) and each epoch's time, by the arrival of its first sentence.
/// * **Accelerometer.** ``MotionSensor``: probed and configured at start; when it fails the
///   engine hears ``EngineEvent/accelerometerFailed(reason:)`` and falls back to the GPS, and
///   the status says so.
package final class BoardSource: TimeEventSource, ReceiverBytesSource {
    /// The board.
    package let board: BoardDefinition
    private let link: ReceiverLink
    private let log: (String) -> Void
    private let openAccelerometer: (AccelerometerSpec) throws -> any Accelerometer
    private var lines: BoardLines?
    private var power: (any GPSPowerControl)?
    private var sensor: MotionSensor?
    private var pulses: PulseInput?
    private var kernelPulses: KernelPulseInput?
    package var timeEvents: ((TimeEvent) -> Void)?
    package var receiverBytes: ((UnsafeRawBufferPointer) -> Void)?
    /// How long after an accelerometer failure the chip is first tried again.
    private let accelerometerRecovery: Duration
    private var events: ((EngineEvent) -> Void)?
    /// What the engine asked for: the engine starts with the receiver down unless the board
    /// cannot power it down.
    private var wantsReceiver: Bool
    /// What the receiver was last told.
    private var receiverOn = false
    private var firstFixRate: FirstFixRate
    /// The power control used instead of the board's lines (tests pass their own).
    private let injectedPower: (any GPSPowerControl)?
    /// The slowest link that carries a full epoch at the fast first-fix interval (MediaTek
    /// asks for 38,400 baud at 5 Hz; a u-blox epoch of about 1 KB needs 50,000).
    static let firstFixMinimumBaud = 57_600

    /// A source for `board`, which must have a `[uart]`. `silenceTimeout` and
    /// `detectionWindow` are for tests; `openAccelerometer` opens the chip and `power` replaces
    /// the board's power control (tests pass their own).
    package convenience init(
        board: BoardDefinition, silenceTimeout: Duration = .seconds(3), detectionWindow: Duration = .seconds(2),
        log: @escaping (String) -> Void = { _ in }
    ) throws(BoardSourceError) {
        try self.init(
            board: board, silenceTimeout: silenceTimeout, detectionWindow: detectionWindow, log: log,
            openAccelerometer: BoardSource.openI2CAccelerometer)
    }

    init(
        board: BoardDefinition, silenceTimeout: Duration, detectionWindow: Duration, log: @escaping (String) -> Void,
        openAccelerometer: @escaping (AccelerometerSpec) throws -> any Accelerometer, power: (any GPSPowerControl)? = nil,
        accelerometerRecovery: Duration = MotionSensor.firstRecoveryAttempt
    ) throws(BoardSourceError) {
        injectedPower = power
        self.accelerometerRecovery = accelerometerRecovery
        guard let uart = board.uart else { throw .noUART(board.name) }
        var configuration = ReceiverLink.Configuration(
            path: uart.path, kind: ReceiverPortKind.forPath(uart.path),
            baud: uart.baud.map { .fixed($0) } ?? .auto(candidates: uart.candidates))
        if uart.baud == nil, let rate = uart.switchTo,
            let command = ReceiverCommands.setBaudRate(rate, family: board.receiver.family)
        {
            configuration.upgrade = (rate, command)
        }
        configuration.silenceTimeout = silenceTimeout
        configuration.detectionWindow = detectionWindow
        link = ReceiverLink(configuration)
        self.board = board
        self.log = log
        self.openAccelerometer = openAccelerometer
        wantsReceiver = board.poweredDownState == nil
        firstFixRate = FirstFixRate(fast: board.receiverProfile.firstFixInterval)
    }

    /// Opens the board's chip on its I2C bus.
    static func openI2CAccelerometer(_ spec: AccelerometerSpec) throws -> any Accelerometer {
        makeAccelerometer(spec.chip, on: try I2CDevice(bus: spec.bus, address: spec.address))
    }

    package var summary: StatusReport.Source {
        var parts = ["\(board.receiver.model) on \(link.configuration.path)\(link.connection)"]
        parts.append("power \(board.power.rawValue)")
        if let accelerometer = board.accelerometer {
            let address = String(accelerometer.address, radix: 16)
            if let failure = sensor?.failure {
                parts.append("\(accelerometer.chip.rawValue) failed (\(failure)): stationary detection uses the GPS alone")
            } else {
                parts.append("\(accelerometer.chip.rawValue) on \(accelerometer.bus) at 0x\(address)")
                if let overflows = sensor?.fifoOverflows, overflows > 0 {
                    parts.append("its FIFO overflowed \(overflows) times (the loop was held up; samples were lost)")
                }
            }
        } else {
            parts.append("no accelerometer: stationary detection uses the GPS alone")
        }
        return StatusReport.Source(kind: "board", description: "\(board.name): " + parts.joined(separator: "; "), isSimulated: false)
    }

    package var poweredDownState: ReceiverPowerState? { board.poweredDownState }
    package var hasAccelerometer: Bool { board.accelerometer != nil }

    package func start(on loop: EventLoop, timeline: Timeline, events: @escaping (EngineEvent) -> Void) throws {
        self.events = events
        if let gpio = board.gpio, injectedPower == nil {
            do throws(SystemError) {
                lines = try BoardLines(gpio, log: log)
            } catch {
                guard gpio.enable == nil && gpio.extint == nil else { throw error }
                // Only the INT line and the marker were wanted: the interrupt source is polled.
                log("GPIO lines unavailable (\(error)); polling the accelerometer, no marker")
            }
        }
        power = try injectedPower ?? makePowerControl()
        if let spec = board.accelerometer {
            let sensor = MotionSensor(
                open: { [openAccelerometer] in try openAccelerometer(spec) }, interrupt: lines?.interrupt,
                firstRecoveryAttempt: accelerometerRecovery)
            self.sensor = sensor
            sensor.start(on: loop) { [unowned self] event in self.events?(event) }
        }
        try startPulses(on: loop)
        link.handlers = ReceiverLink.Handlers(
            opened: { [unowned self] _ in if !self.receiverOn { self.setPower(true) } },
            ready: { [unowned self] _ in self.applyWantedPower() },
            fix: { [unowned self] fix in
                if fix.hasPosition { self.send(self.firstFixRate.fixArrived()) }
                self.events?(.fix(fix))
            },
            talked: { [unowned self] in
                guard let interval = self.firstFixRate.receiverTalked() else { return }
                self.send(ReceiverCommands.enableOrbitPrediction(family: self.board.receiver.family), doing: "enabling orbit prediction")
                self.send(interval)
            },
            epoch: { [unowned self] epoch in self.timeEvents?(.epoch(epoch)) },
            lost: { [unowned self] reason in self.events?(.receiverLost(reason: reason)) },
            log: log)
        if let receiverBytes { link.handlers.bytes = receiverBytes }
        link.start(on: loop)
    }

    package func setReceiverPower(on: Bool, reason: String) {
        wantsReceiver = on
        // While the rate is being found the receiver stays on; it gets its state once found.
        if link.isStreaming { applyWantedPower() }
    }

    package func setAccelerometer(_ command: AccelerometerCommand) {
        sensor?.apply(command)
    }

    package func stop() {
        if link.isStreaming && receiverOn && board.poweredDownState != nil { setPower(false) }
        link.stop()
        sensor?.stop()
        sensor = nil
        pulses?.stop()
        pulses = nil
        kernelPulses?.stop()
        kernelPulses = nil
        lines?.release()
        lines = nil
        power = nil
        events = nil
    }

    // MARK: - Time

    /// Watches the PPS line, or reads the kernel's PPS device, when someone listens for time;
    /// releases the line otherwise.
    private func startPulses(on loop: EventLoop) throws(SystemError) {
        if let path = board.kernelPPS, let timeEvents {
            do throws(SystemError) {
                let pulses = KernelPulseInput(try KernelPPSDevice(path: path), log: log)
                pulses.start(on: loop, pulse: timeEvents)
                pulses.isActive = receiverOn
                kernelPulses = pulses
            } catch {
                log("the PPS device cannot be used, no PPS: \(error)")
            }
        }
        guard let requested = lines?.pps else { return }
        let line: GPIOEdgeInput
        switch requested {
        case .success(let requestedLine): line = requestedLine
        case .failure(let error): return log("the PPS line cannot be used, no PPS for chrony: \(error)")
        }
        guard let timeEvents else { return line.release() }
        let pulses = PulseInput(line, log: log)
        try pulses.start(on: loop, pulse: timeEvents)
        self.pulses = pulses
    }

    // MARK: - Power

    private func makePowerControl() throws(BoardSourceError) -> any GPSPowerControl {
        let port = CurrentPort(link)
        let control: any GPSPowerControl
        switch board.power {
        case .gpioEnable:
            guard let enable = lines?.enable else { throw .noEnableLine(board.name) }
            control = GPIOEnablePower(line: enable)
        case .pmtkStandby: control = PMTKStandbyPower(port: port)
        case .pmtkBackup:
            guard let forceOn = lines?.forceOn else { throw .noForceOnLine(board.name) }
            control = PMTKBackupPower(port: port, forceOn: forceOn)
        case .ubxBackup: control = UBXBackupPower(port: port, extint: lines?.extint)
        case .none: control = NoPowerControl()
        }
        guard let marker = lines?.marker else { return control }
        return MarkedPowerControl(control, marker: marker)
    }

    private func applyWantedPower() {
        if wantsReceiver != receiverOn { setPower(wantsReceiver) }
        link.expectsBytes = wantsReceiver
    }

    private func setPower(_ on: Bool) {
        do throws(SystemError) {
            if on { try power?.powerUp() } else { try power?.powerDown() }
            let wasOn = receiverOn
            receiverOn = on
            kernelPulses?.isActive = on
            if !on {
                firstFixRate.poweredDown()
            } else if board.poweredDownState != nil {  // one that cannot be powered down ran all along
                firstFixRate.poweredUp()
                // Its supply was cut: it boots at its factory rate (not when the port just opened:
                // the rate is being found then anyway).
                if board.power == .gpioEnable && link.isStreaming && !wasOn { link.receiverPowerCycled() }
            }
        } catch {
            link.reportLost("powering the receiver \(on ? "up" : "down") failed: \(error)")
        }
    }
}

extension BoardSource {
    /// Sends a measurement interval ``FirstFixRate`` asked for, if the receiver has a command
    /// and the link is fast enough to carry the fast one.
    private func send(_ interval: Duration?) {
        guard let interval, link.rate >= Self.firstFixMinimumBaud else { return }
        send(ReceiverCommands.setMeasurementInterval(interval, family: board.receiver.family), doing: "setting the receiver's measurement interval")
    }

    /// Writes a command to the receiver, if there is one and the port is open.
    private func send(_ command: [UInt8]?, doing what: String) {
        guard let command, let port = link.port else { return }
        do throws(SystemError) {
            try port.writeAll(command)
        } catch {
            log("\(what) failed: \(error)")
        }
    }
}

/// Why a board file cannot become a location source.
package enum BoardSourceError: Error, CustomStringConvertible {
    /// The board has no `[uart]` (only the simulated board may lack one).
    case noUART(String)
    /// `gpio-enable` without an enable line that could be requested.
    case noEnableLine(String)
    /// `pmtk-backup` without a FORCE_ON line that could be requested.
    case noForceOnLine(String)

    package var description: String {
        switch self {
        case .noUART(let name): "the board '\(name)' has no [uart]: add its path and baud rate"
        case .noEnableLine(let name):
            "the board '\(name)' powers the receiver with gpio-enable but has no [gpio.enable] line"
        case .noForceOnLine(let name):
            "the board '\(name)' powers the receiver with pmtk-backup but has no [gpio.force_on] line"
        }
    }
}

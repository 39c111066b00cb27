import WaymarkDrivers
import WaymarkEngine
import WaymarkEventLoop
import WaymarkHardware
import WaymarkSystem

import struct WaymarkMotion.AccelerationSample
import WaymarkClock

/// The board's accelerometer on the event loop: carries out the engine's
/// ``AccelerometerCommand``s and reports what the chip sees.
///
/// * `armMotionWake` programs the chip's activity interrupt (low power) and watches its INT
///   line's rising edges (``GPIOEdgeInput``, registered in the loop; without a wired line the
///   interrupt source is polled twice a second). An edge whose interrupt source says
///   "activity" becomes ``EngineEvent/motionInterrupt``.
/// * `sample(rate:wake:handOver:)` measures in normal mode with the chip's FIFO collecting
///   the samples, and every `handOver` reads what the FIFO holds and hands it over
///   (``EngineEvent/accelerometerSamples(_:rate:)``): the daemon wakes 10 times a second for
///   it at the usual ``AccelerometerCommand/handOverInterval`` (more often only at a rate
///   that fills half the FIFO sooner: above 160 Hz on the ADXL345 and LIS3DH), and twice for
///   a glance's half second at 50 Hz on those chips, once on the MPU-6050. With `wake` the
///   activity interrupt stays armed meanwhile (every supported chip raises it while it
///   measures), watched as above (without a wired line, at each window). A FIFO that
///   overflowed (the loop was held up for longer than the FIFO lasts: 0.64 s at 50 Hz on the
///   ADXL345 and LIS3DH) hands over what the driver could still read and is counted in
///   ``fifoOverflows`` (the source's description says so); it is no failure.
/// * `idle` turns the interrupt off.
///
/// The drivers retry bus errors; an error that survives them is reported once as
/// ``EngineEvent/accelerometerFailed(reason:)`` (the engine then detects stationarity with
/// the GPS alone). The chip is then opened and probed again after 10 s, and after twice as
/// long each time it does not answer (at most 10 min apart): a loose connector or a bus
/// glitch does not cost the accelerometer until the daemon restarts. When it answers,
/// ``EngineEvent/accelerometerRecovered`` hands stationary detection back to it.
final class MotionSensor {
    /// How often the interrupt source is polled when no INT line is wired.
    static let pollInterval = Duration.milliseconds(500)
    /// Edges closer than this are one interrupt.
    static let debounce = Duration.milliseconds(10)
    /// How long after a failure the chip is tried again; the wait doubles up to the longest.
    static let firstRecoveryAttempt = Duration.seconds(10)
    static let longestRecoveryWait = Duration.seconds(600)

    private let open: () throws -> any Accelerometer
    private let interrupt: Result<GPIOEdgeInput, SystemError>?
    private var chip: (any Accelerometer)?
    private var loop: EventLoop?
    private var events: ((EngineEvent) -> Void)?
    private var armed = false
    private var timer: TimerID?
    private var rate = 0.0
    /// Whether the loop watches the INT line.
    private var watchesInterruptLine = false
    private var recoveryTimer: TimerID?
    private let firstRecoveryWait: Duration
    private var recoveryWait: Duration
    /// Why the sensor is not used, while it has failed.
    private(set) var failure: String?
    /// How many FIFO reads found it had overflowed.
    private(set) var fifoOverflows = 0

    /// A sensor that opens its chip with `open` and watches `interrupt` (`nil`: no INT line
    /// wired; a failure: the line could not be requested); after a failure, it tries the chip
    /// again after `firstRecoveryAttempt` (tests shorten it).
    init(
        open: @escaping () throws -> any Accelerometer, interrupt: Result<GPIOEdgeInput, SystemError>?,
        firstRecoveryAttempt: Duration = MotionSensor.firstRecoveryAttempt
    ) {
        self.open = open
        self.interrupt = interrupt
        firstRecoveryWait = firstRecoveryAttempt
        recoveryWait = firstRecoveryAttempt
    }

    /// Opens, probes and configures the chip and starts watching its INT line; a failure is
    /// reported through `events`.
    func start(on loop: EventLoop, events: @escaping (EngineEvent) -> Void) {
        self.loop = loop
        self.events = events
        do {
            try openChip()
        } catch {
            fail("\(error)")
        }
    }

    /// Opens, probes and configures the chip (closing one held before) and watches its INT
    /// line if that is not watched yet.
    private func openChip() throws {
        closeChip()
        let chip = try open()
        self.chip = chip
        try chip.probe()
        try chip.configure(AccelerometerSettings(outputRate: AccelerometerChip.requestedWakeRate, lowPower: true))
        if let interrupt, !watchesInterruptLine, let loop {
            let line = try interrupt.get()
            try loop.register(line.descriptor, for: .readable) { [unowned self] _, _ in self.edges() }
            watchesInterruptLine = true
        }
    }

    private func closeChip() {
        try? (chip?.device as? I2CDevice)?.close()
        chip = nil
    }

    /// Carries out `command`.
    func apply(_ command: AccelerometerCommand) {
        guard let chip, failure == nil else { return }
        cancelTimer()
        armed = false
        do {
            switch command {
            case .sample(let wanted, let wake, let handOver):
                try chip.disarm()
                rate = try chip.configure(AccelerometerSettings(outputRate: wanted, lowPower: false))
                if let wake { try arm(chip, threshold: wake) }
                let interval = Self.readInterval(rate: rate, fifoDepth: chip.fifoDepth, handOver: handOver)
                timer = loop?.schedule(after: interval, repeating: interval) { [unowned self] _ in self.readWindow() }
            case .armMotionWake(let threshold):
                try chip.configure(AccelerometerSettings(outputRate: AccelerometerChip.requestedWakeRate, lowPower: true))
                try arm(chip, threshold: threshold)
                if interrupt == nil {
                    timer = loop?.schedule(after: Self.pollInterval, repeating: Self.pollInterval) { [unowned self] _ in
                        self.checkInterrupt()
                    }
                }
            case .idle:
                try chip.disarm()
            }
        } catch {
            fail("\(error)")
        }
    }

    /// How often a FIFO of `fifoDepth` samples filling at `rate` is read: every `handOver`,
    /// or when it is half full if that comes sooner, so a late wake of the loop loses nothing.
    static func readInterval(rate: Double, fifoDepth: Int, handOver: Duration) -> Duration {
        min(handOver, .seconds(Double(fifoDepth) / 2 / rate))
    }

    /// Programs the chip's activity interrupt at `threshold` mg, firing on one sample.
    private func arm(_ chip: any Accelerometer, threshold: Double) throws(AccelerometerError) {
        try chip.armMotionWake(MotionWake(thresholdMilliG: Int(threshold.rounded(.up)), duration: .zero))
        armed = true
    }

    /// Stops reading and watching; leaves the chip disarmed.
    func stop() {
        cancelTimer()
        if let recoveryTimer { loop?.cancel(recoveryTimer) }
        recoveryTimer = nil
        if case .success(let line) = interrupt {
            if watchesInterruptLine { try? loop?.unregister(line.descriptor) }
            line.release()
        }
        watchesInterruptLine = false
        try? chip?.disarm()
        closeChip()
        events = nil
    }

    // MARK: - Events

    private func edges() {
        guard case .success(let line) = interrupt else { return }
        var rising = 0
        do {
            try line.readEdges { edge in if edge.rising { rising += 1 } }
        } catch {
            return fail("reading the interrupt line: \(error)")
        }
        if rising > 0 && armed { checkInterrupt() }
    }

    private func checkInterrupt() {
        guard let chip, armed else { return }
        do {
            guard try chip.acknowledgeInterrupt() else { return }
        } catch {
            return fail("\(error)")
        }
        events?(.motionInterrupt)
    }

    private func readWindow() {
        guard let chip else { return }
        let read: FIFORead
        do {
            read = try chip.readFIFO()
        } catch {
            return fail("\(error)")
        }
        if read.overflowed { fifoOverflows += 1 }
        if !read.samples.isEmpty {
            let window = read.samples.map { AccelerationSample(x: Double($0.x), y: Double($0.y), z: Double($0.z)) }
            events?(.accelerometerSamples(window, rate: rate))
        }
        if armed && interrupt == nil { checkInterrupt() }
    }

    private func fail(_ reason: String) {
        guard failure == nil else { return }
        failure = reason
        cancelTimer()
        armed = false
        events?(.accelerometerFailed(reason: reason))
        scheduleRecovery()
    }

    private func scheduleRecovery() {
        guard recoveryTimer == nil, let loop else { return }
        recoveryTimer = loop.schedule(after: recoveryWait) { [unowned self] _ in
            recoveryTimer = nil
            attemptRecovery()
        }
    }

    /// Tries the chip again; when it answers, the engine hears so and sends its command.
    private func attemptRecovery() {
        guard failure != nil, events != nil else { return }
        do {
            try openChip()
        } catch {
            recoveryWait = min(recoveryWait * 2, Self.longestRecoveryWait)
            scheduleRecovery()
            return
        }
        failure = nil
        recoveryWait = firstRecoveryWait
        events?(.accelerometerRecovered)
    }

    private func cancelTimer() {
        if let timer { loop?.cancel(timer) }
        timer = nil
    }
}

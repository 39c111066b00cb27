import WaymarkDrivers
import WaymarkEngine
import WaymarkEventLoop
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
/// * `sample(rate:)` reads one sample per output period and hands them over in windows of
///   about half a second (``EngineEvent/accelerometerSamples(_:rate:)``).
/// * `idle` turns the interrupt off.
///
/// The drivers retry bus errors; an error that survives them is reported once as
/// ``EngineEvent/accelerometerFailed(reason:)`` (the engine then detects stationarity with
/// the GPS alone) and the sensor is not used again.
final class MotionSensor {
    /// How long sample windows are.
    static let window = Duration.milliseconds(500)
    /// The output rate while armed for motion wake (the chip's low-power mode).
    static let wakeRate = 12.5
    /// How often the interrupt source is polled when no INT line is wired.
    static let pollInterval = Duration.milliseconds(500)
    /// Edges closer than this are one interrupt.
    static let debounce = Duration.milliseconds(10)

    private let open: () throws -> any Accelerometer
    private let interrupt: Result<GPIOEdgeInput, SystemError>?
    private var chip: (any Accelerometer)?
    private var loop: EventLoop?
    private var events: ((EngineEvent) -> Void)?
    private var armed = false
    private var timer: TimerID?
    private var samples: [AccelerationSample] = []
    private var rate = 0.0
    /// Why the sensor is not used, once it failed.
    private(set) var failure: String?

    /// A sensor that opens its chip with `open` and watches `interrupt` (`nil`: no INT line
    /// wired; a failure: the line could not be requested).
    init(open: @escaping () throws -> any Accelerometer, interrupt: Result<GPIOEdgeInput, SystemError>?) {
        self.open = open
        self.interrupt = interrupt
    }

    /// Opens, probes and configures the chip and starts watching its INT line; a failure is
    /// reported through `events`.
    func start(on loop: EventLoop, events: @escaping (EngineEvent) -> Void) {
        self.loop = loop
        self.events = events
        do {
            let chip = try open()
            try chip.probe()
            try chip.configure(AccelerometerSettings(outputRate: Self.wakeRate, lowPower: true))
            self.chip = chip
            if let interrupt {
                let line = try interrupt.get()
                try loop.register(line.descriptor, for: .readable) { [unowned self] _, _ in self.edges() }
            }
        } catch {
            fail("\(error)")
        }
    }

    /// Carries out `command`.
    func apply(_ command: AccelerometerCommand) {
        guard let chip, failure == nil else { return }
        cancelTimer()
        armed = false
        do {
            switch command {
            case .sample(let wanted):
                try chip.disarm()
                rate = try chip.configure(AccelerometerSettings(outputRate: wanted, lowPower: false))
                samples.removeAll(keepingCapacity: true)
                let period = Duration.nanoseconds(Int64(1e9 / rate))
                timer = loop?.schedule(after: period, repeating: period) { [unowned self] _ in self.readSample() }
            case .armMotionWake(let threshold):
                try chip.configure(AccelerometerSettings(outputRate: Self.wakeRate, lowPower: true))
                try chip.armMotionWake(MotionWake(thresholdMilliG: Int(threshold.rounded(.up)), duration: .zero))
                armed = true
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

    /// Stops reading and watching; leaves the chip disarmed.
    func stop() {
        cancelTimer()
        if case .success(let line) = interrupt {
            try? loop?.unregister(line.descriptor)
            line.release()
        }
        try? chip?.disarm()
        try? (chip?.device as? I2CDevice)?.close()
        chip = nil
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

    private func readSample() {
        guard let chip else { return }
        do {
            let sample = try chip.readSample()
            samples.append(AccelerationSample(x: Double(sample.x), y: Double(sample.y), z: Double(sample.z)))
        } catch {
            return fail("\(error)")
        }
        if Double(samples.count) >= rate * Self.window.seconds {
            let window = samples
            samples.removeAll(keepingCapacity: true)
            events?(.accelerometerSamples(window, rate: rate))
        }
    }

    private func fail(_ reason: String) {
        guard failure == nil else { return }
        failure = reason
        cancelTimer()
        armed = false
        events?(.accelerometerFailed(reason: reason))
    }

    private func cancelTimer() {
        if let timer { loop?.cancel(timer) }
        timer = nil
    }
}

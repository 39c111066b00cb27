import WaymarkClock
import WaymarkEngine
import WaymarkFix
import WaymarkLocation
import WaymarkMotion
import WaymarkReceiver

/// Drives an engine by hand: events at chosen instants, with the actions recorded.
struct EngineHarness {
    var engine: Engine
    var now = Instant.zero
    var actions: [EngineAction] = []

    init(settings: EngineSettings = EngineSettings(receiver: .ubloxM8, isSimulated: true)) {
        engine = Engine(settings: settings, start: .zero)
    }

    /// Advances to `seconds` after the start, ticking at every deadline on the way.
    mutating func advance(to seconds: Double) {
        let target = Instant.zero + .milliseconds(Int64(seconds * 1_000))
        while let deadline = engine.nextDeadline, deadline <= target {
            now = max(now, deadline)
            handle(.tick)
        }
        now = max(now, target)
    }

    mutating func handle(_ event: EngineEvent) {
        engine.handle(event, at: now, actions: &actions)
    }

    /// Delivers a fix at `seconds` (ticking deadlines before it).
    mutating func fix(at seconds: Double, latitude: Double = 47.3769, speed: Double = 0, hdop: Double = 1) {
        advance(to: seconds)
        var fix = Fix()
        let whole = Int(seconds)
        fix.time = Timestamp(
            date: CivilDate(year: 2026, month: 11, day: 22), hour: 10, minute: whole / 60 % 60, second: whole % 60,
            nanoseconds: 0)
        fix.mode = .threeDimensional
        fix.quality = .autonomous
        fix.latitude = latitude
        fix.longitude = 8.5417
        fix.altitudeMSL = 408
        fix.speed = speed
        fix.course = 90
        fix.hdop = hdop
        handle(.fix(fix))
    }

    /// Delivers a window of still (or, with `moving`, walking) samples at `seconds`.
    mutating func samples(at seconds: Double, moving: Bool) {
        advance(to: seconds)
        let samples = (0..<12).map { index in
            let phase = Double(index) / 25 * 2 * Double.pi * 1.8
            return AccelerationSample(x: moving ? 300 * sine(phase) : 1, y: 0, z: 1_000)
        }
        handle(.accelerometerSamples(samples, rate: 25))
    }

    /// Delivers the `length` seconds of samples before `seconds` (the sources hand over a
    /// tenth of a second; half a second is five such), taken at `rate` Hz: an idling
    /// engine (`engine` mg at 27 Hz on z), a steady push of `push` mg along x (the ground)
    /// and one of `lift` mg along z (gravity).
    mutating func window(
        at seconds: Double, rate: Double, length: Double = 0.5, engine: Double = 30, push: Double = 0, lift: Double = 0
    ) {
        advance(to: seconds)
        let count = Int((rate * length).rounded())
        let samples = (0..<count).map { index in
            let time = seconds - length + Double(index) / rate
            return AccelerationSample(x: push, y: 0, z: 1_000 + lift + engine * sine(2 * Double.pi * 27 * time))
        }
        handle(.accelerometerSamples(samples, rate: rate))
    }

    /// Delivers windows at the watch's 50 Hz with nothing beyond noise from `start` for `seconds`: a
    /// paused device's watch ends after the dwell of such windows.
    mutating func quiet(from start: Double, for seconds: Double) {
        var end = start + 0.5
        while end <= start + seconds {
            window(at: end, rate: 50, engine: 0)
            end += 0.5
        }
    }

    /// The updates delivered so far, in order.
    var updates: [LocationUpdate] {
        actions.compactMap { if case .deliver(let update, _) = $0 { update } else { nil } }
    }

    /// The batches delivered so far, in order, with how many updates each dropped.
    var batches: [(updates: [LocationUpdate], overflow: Int)] {
        actions.compactMap { if case .deliverBatch(let updates, let overflow, _) = $0 { (updates, overflow) } else { nil } }
    }

    /// The receiver power commands so far, in order.
    var power: [Bool] {
        actions.compactMap { if case .receiverPower(let on, _) = $0 { on } else { nil } }
    }

    /// The accelerometer commands so far, in order.
    var accelerometer: [AccelerometerCommand] {
        actions.compactMap { if case .accelerometer(let command) = $0 { command } else { nil } }
    }

    /// The answers to location requests so far.
    var answers: [(RequestID, Result<Location, LocationError>)] {
        actions.compactMap { if case .complete(let number, let result) = $0 { (number, result) } else { nil } }
    }
}

/// A sine good enough for test signals (Taylor series after range reduction).
func sine(_ angle: Double) -> Double {
    var x = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
    if x > Double.pi { x -= 2 * Double.pi }
    if x > Double.pi / 2 { x = Double.pi - x } else if x < -Double.pi / 2 { x = -Double.pi - x }
    let x2 = x * x
    return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72))))
}

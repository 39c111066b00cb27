import Glibc
import Testing
import WaymarkBoard
import WaymarkDrivers
import WaymarkEngine
import WaymarkSystem

@testable import WaymarkInput
import WaymarkProtocol
import WaymarkLocation
import WaymarkHardware
import WaymarkTestFixtures
import WaymarkClock

/// The board source's accelerometer side with a scripted chip (the register sequences are
/// the drivers' tests; the VM test runs a real driver on i2c-stub).
@Suite(.serialized, .ownThread)
struct MotionSensorTests {
    func source(
        _ chip: ScriptedAccelerometer, recovery: Duration = .seconds(10)
    ) throws -> (BoardSource, SourceHarness, PseudoTerminal) {
        let pty = try PseudoTerminal()
        let board = try testBoard(
            path: pty.secondaryPath, baud: "9600", accelerometer: "chip = \"adxl345\"\nbus = \"/dev/i2c-1\"\naddress = 0x53")
        let source = try BoardSource(
            board: board, silenceTimeout: .seconds(3), detectionWindow: .seconds(2), log: { _ in },
            openAccelerometer: { _ in chip }, accelerometerRecovery: recovery)
        let harness = try SourceHarness()
        try harness.start(source)
        return (source, harness, pty)
    }

    func windows(_ harness: SourceHarness) -> [(count: Int, rate: Double)] {
        harness.events.compactMap { if case .accelerometerSamples(let s, let r) = $0 { (s.count, r) } else { nil } }
    }

    /// Each window is what the FIFO held: one read per window, every ``AccelerometerCommand/handOverInterval``,
    /// at most 10 a second whatever the rate (the timer that read one sample per output
    /// period woke the daemon 50 times a second at 50 Hz).
    @Test func eachWindowIsWhatTheFIFOHeldReadTenTimesASecond() throws {
        #expect(AccelerometerCommand.handOverInterval == .milliseconds(100))
        let chip = ScriptedAccelerometer()
        let (source, harness, pty) = try source(chip)
        defer { source.stop(); try? pty.close() }
        #expect(source.hasAccelerometer)
        #expect(chip.calls.prefix(2) == ["probe", "configure 12.5 lowPower"])
        source.setAccelerometer(.sample(rate: 50, wake: 60))
        #expect(chip.calls.suffix(2) == ["configure 50.0", "arm 60"])
        let start = MonotonicInstant.now
        try harness.run(for: .seconds(2))
        let elapsed = (MonotonicInstant.now - start).seconds
        #expect(windows(harness).count >= 2)
        #expect(windows(harness).allSatisfy { $0.count == 5 && $0.rate == 50 })
        #expect(chip.reads == windows(harness).count)
        #expect(Double(chip.reads) <= elapsed * 10 + 1)
        print("MotionSensor watched at 50 Hz: \(chip.reads) chip reads (its timer's firings) in \(elapsed) s")
        // At a rate that fills half the FIFO within a window it is read sooner.
        let usual = AccelerometerCommand.handOverInterval
        #expect(MotionSensor.readInterval(rate: 100, fifoDepth: 32, handOver: usual) == .milliseconds(100))
        #expect(MotionSensor.readInterval(rate: 400, fifoDepth: 32, handOver: usual) == .milliseconds(40))
        #expect(MotionSensor.readInterval(rate: 400, fifoDepth: 170, handOver: usual) == .milliseconds(100))
        // A glance's half second at 50 Hz: read when half the FIFO is full (twice), or at its end.
        #expect(MotionSensor.readInterval(rate: 50, fifoDepth: 32, handOver: .milliseconds(500)) == .milliseconds(320))
        #expect(MotionSensor.readInterval(rate: 50, fifoDepth: 170, handOver: .milliseconds(500)) == .milliseconds(500))
        // An empty FIFO hands nothing over.
        chip.perRead = 0
        let handed = windows(harness).count
        try harness.run(for: .milliseconds(300))
        #expect(windows(harness).count == handed)
    }

    @Test func anOverflowHandsOverWhatWasReadAndIsCountedInTheStatus() throws {
        let chip = ScriptedAccelerometer()
        let (source, harness, pty) = try source(chip)
        defer { source.stop(); try? pty.close() }
        source.setAccelerometer(.sample(rate: 50, wake: 60))
        #expect(!source.summary.description.contains("overflowed"))
        chip.overflows = 2
        try harness.run(timeout: .seconds(2)) { chip.overflows == 0 }
        #expect(chip.overflows == 0)
        #expect(windows(harness).count >= 2)
        #expect(harness.accelerometerFailures.isEmpty)
        #expect(source.summary.description.contains("its FIFO overflowed 2 times"))
        try harness.run(timeout: .seconds(2)) { windows(harness).count >= 4 }
        #expect(windows(harness).count >= 4)
    }

    @Test func anArmedInterruptBecomesAMotionEventAndIdleDisarms() throws {
        let chip = ScriptedAccelerometer()
        let (source, harness, pty) = try source(chip)
        defer { source.stop(); try? pty.close() }
        source.setAccelerometer(.armMotionWake(threshold: 120))
        #expect(chip.calls.suffix(2) == ["configure 12.5 lowPower", "arm 120"])
        try harness.run(for: .milliseconds(600))
        #expect(!harness.events.contains { if case .motionInterrupt = $0 { true } else { false } })
        chip.activity = true  // no INT line on this board: the source is polled
        #expect(try harness.run(timeout: .seconds(2)) { harness.events.contains { if case .motionInterrupt = $0 { true } else { false } } })
        source.setAccelerometer(.idle)
        #expect(chip.calls.last == "disarm")
    }

    @Test func samplingWithTheWakeArmedReadsWindowsAndReportsTheInterrupt() throws {
        let chip = ScriptedAccelerometer()
        let (source, harness, pty) = try source(chip)
        defer { source.stop(); try? pty.close() }
        source.setAccelerometer(.sample(rate: 100, wake: 60))
        // Normal mode at the sampling rate, then the interrupt armed on top of it.
        #expect(chip.calls.suffix(3) == ["disarm", "configure 100.0", "arm 60"])
        func interrupts() -> Int { harness.events.filter { if case .motionInterrupt = $0 { true } else { false } }.count }
        try harness.run(timeout: .seconds(3)) { windows(harness).count >= 2 }
        #expect(windows(harness).count >= 2)
        #expect(windows(harness).allSatisfy { $0.count == 5 && $0.rate == 100 })
        #expect(interrupts() == 0)
        chip.activity = true  // no INT line on this board: the source is read at each window
        #expect(try harness.run(timeout: .seconds(2)) { interrupts() == 1 })
        // Without a wake, sampling disarms it.
        source.setAccelerometer(.sample(rate: 25))
        #expect(chip.calls.suffix(2) == ["disarm", "configure 25.0"])
    }

    @Test func aBusErrorBeyondTheRetriesIsReportedOnceAndTheSensorLeftAlone() throws {
        let chip = ScriptedAccelerometer()
        let (source, harness, pty) = try source(chip)
        defer { source.stop(); try? pty.close() }
        source.setAccelerometer(.sample(rate: 25))
        chip.failing = true
        try harness.run(timeout: .seconds(2)) { !harness.accelerometerFailures.isEmpty }
        try harness.run(for: .milliseconds(200))
        #expect(harness.accelerometerFailures.count == 1)
        #expect(harness.accelerometerFailures.first?.contains("i2c read byte data") == true)
        #expect(source.summary.description.contains("GPS alone"))
        let calls = chip.calls.count
        source.setAccelerometer(.armMotionWake(threshold: 100))
        #expect(chip.calls.count == calls)
    }

    @Test func aFailedChipIsTriedAgainWithBackoffAndHandedBackWhenItAnswers() throws {
        let chip = ScriptedAccelerometer()
        let (source, harness, pty) = try source(chip, recovery: .milliseconds(200))
        defer { source.stop(); try? pty.close() }
        func probes() -> Int { chip.probeAttempts }
        func recoveries() -> Int { harness.events.filter { if case .accelerometerRecovered = $0 { true } else { false } }.count }
        source.setAccelerometer(.sample(rate: 25))
        chip.failing = true
        try harness.run(timeout: .seconds(2)) { !harness.accelerometerFailures.isEmpty }
        // Still failing: tried again after 200 ms, then 400 ms, … and reported only once.
        try harness.run(timeout: .seconds(3)) { probes() >= 3 }
        #expect(probes() >= 3)
        #expect(harness.accelerometerFailures.count == 1)
        #expect(recoveries() == 0)
        chip.failing = false
        try harness.run(timeout: .seconds(5)) { recoveries() == 1 }
        #expect(recoveries() == 1)
        #expect(!source.summary.description.contains("GPS alone"))
        // The engine's next command reaches the chip again.
        source.setAccelerometer(.armMotionWake(threshold: 100))
        #expect(chip.calls.last == "arm 100")
    }

    @Test func aChipThatCannotBeOpenedDegradesToGPSOnly() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        let board = try testBoard(
            path: pty.secondaryPath, baud: "9600",
            accelerometer: "chip = \"lis3dh\"\nbus = \"/dev/i2c-waymark-missing\"\naddress = 0x18")
        let source = try BoardSource(board: board)
        let harness = try SourceHarness()
        try harness.start(source)
        defer { source.stop() }
        #expect(harness.accelerometerFailures.count == 1)
        #expect(harness.accelerometerFailures.first?.contains("/dev/i2c-waymark-missing") == true)
        #expect(source.hasAccelerometer)
        #expect(source.summary.description.contains("lis3dh failed"))
    }
}

/// An accelerometer that records what it is told and answers from its script.
final class ScriptedAccelerometer: Accelerometer {
    let chip = AccelerometerChip.adxl345
    let device: any RegisterDevice = NoRegisters()
    let fifoDepth = 32
    private(set) var calls: [String] = []
    var activity = false
    var failing = false
    /// Samples each FIFO read finds.
    var perRead = 5
    /// How many of the next FIFO reads find it overflowed.
    var overflows = 0
    /// FIFO reads so far.
    private(set) var reads = 0

    /// Probes asked for, answered or not.
    private(set) var probeAttempts = 0

    func probe() throws(AccelerometerError) {
        probeAttempts += 1
        try record("probe")
    }

    func configure(_ settings: AccelerometerSettings) throws(AccelerometerError) -> Double {
        try record("configure \(settings.outputRate)" + (settings.lowPower ? " lowPower" : ""))
        return settings.outputRate
    }

    func armMotionWake(_ wake: MotionWake) throws(AccelerometerError) { try record("arm \(wake.thresholdMilliG)") }
    func disarm() throws(AccelerometerError) { try record("disarm") }

    func readFIFO() throws(AccelerometerError) -> FIFORead {
        try check()
        reads += 1
        let overflowed = overflows > 0
        overflows = max(overflows - 1, 0)
        let samples = (0..<perRead).map { AccelerationSample(x: $0 % 2 == 0 ? 300 : -300, y: 0, z: 1000) }
        return FIFORead(samples: samples, overflowed: overflowed)
    }

    func acknowledgeInterrupt() throws(AccelerometerError) -> Bool {
        try check()
        defer { activity = false }
        return activity
    }

    private func record(_ call: String) throws(AccelerometerError) {
        try check()
        calls.append(call)
    }

    private func check() throws(AccelerometerError) {
        if failing { throw .transfer(chip: chip, SystemError(errno: EIO, call: "i2c read byte data", argument: "test")) }
    }
}

/// A register device nobody reads.
final class NoRegisters: RegisterDevice {
    var location: String { "nowhere" }
    func readRegister(_ register: UInt8) throws(SystemError) -> UInt8 { 0 }
    func writeRegister(_ register: UInt8, _ value: UInt8) throws(SystemError) {}
    func readRegisters(_ register: UInt8, count: Int) throws(SystemError) -> [UInt8] { [] }
}

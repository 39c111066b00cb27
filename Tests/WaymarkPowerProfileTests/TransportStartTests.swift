import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkHardware
import WaymarkPowerProfile
import WaymarkReceiver
import WaymarkSimulation
import WaymarkTestFixtures

/// The gentle starts of transport the accelerometer must catch (docs/power.md, "Gentle
/// starts and lifts"), on scenarios written here rather than the shipped ones.
@Suite("Gentle starts and lifts", .ownThread)
struct TransportStartTests {
    /// A car pulling away slowly at every light (`accel` m/s²), with the engine idling at the stops.
    static func gentleDrive(acceleration: Double) -> String {
        """
        start 2026-11-23T08:00:00Z 47.3906 8.5123 430
        still 5m
        walk 2m heading=120
        idle-car 1m
        drive 20m stops=8 stop=30..90s speed=12 accel=\(acceleration)
        idle-car 1m
        walk 2m
        desk 20m typing
        """
    }

    static func run(_ text: String, _ profile: ReceiverProfile, seed: UInt64 = 1) throws -> PowerRunReport {
        PowerRun.run(PowerRunSetup(scenario: try ScenarioParser.parse(text, file: "own"), profile: profile, seed: seed))
    }

    static func expectTargets(_ report: PowerRunReport) throws {
        #expect(try #require(report.resumeLatency(quantile: 0.95)) <= .seconds(2))
        #expect(report.metresWithoutFixes <= 10)
        #expect(report.energy <= 1.15 * report.oracleEnergy)
    }

    @Test("a car pulling away at 0.7–1.5 m/s² wakes the receiver at once; its idling engine does not", arguments: ReceiverProfile.all, [0.7, 1.0, 1.5])
    func gentlePullOff(profile: ReceiverProfile, acceleration: Double) throws {
        let report = try Self.run(Self.gentleDrive(acceleration: acceleration), profile)
        try Self.expectTargets(report)
        #expect(report.resumeLatencies.count == 11)  // the walk, nine pull-offs, the walk
        #expect(report.falseWakes == 0)
    }

    /// The quiet car of docs/power.md ("Generated days"): a pull-off at 0.52 m/s² (53 mg) with
    /// an engine too quiet to carry the sum over the 60 mg wake, so that only the paused
    /// device's samples, watched for a sustained push, see it. Generated day 1's drive.
    static let quietCar = quietDrive(minutes: 15, speed: 29, stops: 6, stopLength: "26..39s")

    /// A drive in the quiet car with `stops` stops, between the walks to and from it.
    static func quietDrive(minutes: Int, speed: Int, stops: Int, stopLength: String) -> String {
        """
        start 2026-08-22T22:37:00Z 52.1391 79.0416 1852
        walk 2m heading=63 speed=1.5
        idle-car 30s
        drive \(minutes)m heading=86 speed=\(speed) stops=\(stops) stop=\(stopLength) accel=0.52
        idle-car 30s
        walk 2m heading=165 speed=1.7
        """
    }

    @Test("a gentle pull-off (0.52 m/s²) in a quiet car: the paused device's samples see the push the wake cannot", arguments: ReceiverProfile.all)
    func quietCarPullOff(profile: ReceiverProfile) throws {
        let report = try Self.run(Self.quietCar, profile)
        try Self.expectTargets(report)
        #expect(report.resumeLatencies.count == 8)  // the idle car's pull-off, six after the lights, the walk
    }

    /// The quiet car again, stopping twenty times: a day of such drives has a hundred
    /// pull-offs or more, so each may cost at most 0.1 m without a fix for the day to stay
    /// within the 10 m target.
    static let quietStops = quietDrive(minutes: 25, speed: 13, stops: 20, stopLength: "20..40s")

    @Test("twenty gentle pull-offs: the receiver is powered as each push starts, so each has its fix within its hot start and a fifth of a second", arguments: ReceiverProfile.all)
    func quietStopAndGo(profile: ReceiverProfile) throws {
        let report = try Self.run(Self.quietStops, profile)
        try Self.expectTargets(report)
        #expect(report.resumeLatencies.count == 22)  // the idle car's pull-off, twenty after the stops, the walk
        let slowest = try #require(report.resumeLatencies.max())
        #expect(slowest <= profile.hotStart + .milliseconds(200), "slowest resume \(slowest)")
        #expect(report.metresWithoutFixes <= 0.1 * Double(report.resumeLatencies.count), "\(report.metresWithoutFixes) m without fixes")
        #expect(report.falseWakes == 0)
    }

    /// A quiet car started after a long wait: sat in for four minutes with the engine off (the
    /// device calm, so the watch of its pause ends), then 18 s of idling and a pull-off at
    /// 0.55 m/s² (56 mg, under the 60 mg wake). Generated day 78's start.
    static let startedAfterAWait = """
        start 2026-08-22T22:37:00Z 52.1391 79.0416 1852
        walk 2m heading=63 speed=1.5
        still 4m
        idle-car 18s
        drive 10m heading=86 speed=13 stops=0 accel=0.55
        idle-car 30s
        walk 2m heading=165 speed=1.7
        """

    @Test("a pull-off under the wake after the watch ended: a glance sees it within its interval, whatever the chip's own wake rate", arguments: AccelerometerChip.allCases, 1...4 as ClosedRange<UInt64>)
    func startedAfterAWait(chip: AccelerometerChip, seed: UInt64) throws {
        let profile = ReceiverProfile.ubloxM8
        let setup = PowerRunSetup(scenario: try ScenarioParser.parse(Self.startedAfterAWait, file: "own"), profile: profile, seed: seed, accelerometer: chip)
        let report = PowerRun.run(setup)
        try Self.expectTargets(report)
        #expect(report.resumeLatencies.count == 2)  // the pull-off, the walk
        let slowest = try #require(report.resumeLatencies.max())
        #expect(slowest <= EngineSettings().pushGlanceInterval + profile.hotStart + .milliseconds(500), "slowest resume \(slowest)")
    }

    @Test("lifts of every height and pace: the walk out resumes at once, and nothing fixable is missed", arguments: ReceiverProfile.all, [1, 2, 3] as [UInt64])
    func lifts(profile: ReceiverProfile, seed: UInt64) throws {
        // Lifts of one floor to 60 m, up and down, smooth (0.5 m/s²) to brisk (1.5 m/s²), some
        // boarded straight from a walk (the receiver still on), some after a wait (it is down).
        let setup = PowerRunSetup(scenario: try Scenarios.load("tower"), profile: profile, seed: seed)
        let report = PowerRun.run(setup)
        try Self.expectTargets(report)
        // Every walk is a resume; no lift ride is (no receiver can fix in one).
        #expect(report.resumeLatencies.count == 6)
    }

    @Test("the shipped commute, lift included, meets the targets on every receiver", arguments: ReceiverProfile.all)
    func commute(profile: ReceiverProfile) throws {
        try Self.expectTargets(PowerRun.run(PowerRunSetup(scenario: try Scenarios.load("commute"), profile: profile)))
    }

    @Test("a lift ride alone: nothing fixable moves, so the oracle keeps its receiver down once it has the first location")
    func liftAlone() throws {
        let report = try Self.run("start 2026-11-23T08:00:00Z 47 8 400\nstill 1m\nlift 40s up=15m\nstill 1m", .ubloxM8)
        #expect(report.resumeLatencies.isEmpty)
        #expect(report.metresWithoutFixes == 0)
        let profile = ReceiverProfile.ubloxM8
        let cold = profile.coldStart.seconds
        let firstLocationThenBackup = (cold * profile.acquisitionCurrent + (160 - cold) * profile.backupCurrent) / 3_600 * profile.supplyVoltage
        #expect(abs(report.oracleEnergy - firstLocationThenBackup) < 1e-9)
    }
}

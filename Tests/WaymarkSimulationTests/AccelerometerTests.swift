import Testing
import WaymarkClock
import WaymarkSimulation
import WaymarkTestFixtures

@Suite("Accelerometer model", .ownThread)
struct AccelerometerTests {
    static let wake = ActivityInterruptSetting(threshold: 150, minimumDuration: .milliseconds(100), outputDataRate: 100)

    static func model(_ text: String, seed: UInt64 = 1) throws -> AccelerometerModel {
        let scenario = try ScenarioParser.parse("start 2026-11-23T08:00:00Z 47.3769 8.5417 408\n" + text, file: "test")
        return AccelerometerModel(trajectory: Trajectory(scenario: scenario, seed: seed), seed: seed)
    }

    @Test("desk-day at 150 mg / 100 ms: exactly the 13 motion starts wake it, each within 200 ms; typing, door slams and idling never do")
    func deskDayWakes() throws {
        let model = AccelerometerModel(trajectory: Trajectory(scenario: try ScenarioFiles.scenario("desk-day"), seed: 7), seed: 7)
        let trajectory = model.trajectory
        var armed = Instant.zero
        var wakes: [Instant] = []
        while let wake = model.nextActivity(from: armed, before: trajectory.end, setting: Self.wake) {
            wakes.append(wake)
            // Re-arm once the device is still again, as the power policy would.
            armed = try #require(trajectory.movingIntervals.first { $0.contains(wake) }).upperBound
        }
        #expect(wakes.count == 13)
        // The door slams are there: a single-sample (ADXL345-style) setting wakes on one
        // before the first walk.
        let single = ActivityInterruptSetting(threshold: 150, minimumDuration: .zero, outputDataRate: 100)
        let slam = try #require(model.nextActivity(from: .zero, before: trajectory.end, setting: single))
        #expect(slam < trajectory.motionStarts[0])
        for (wake, start) in zip(wakes, trajectory.motionStarts) {
            #expect(wake >= start && wake - start < .milliseconds(200), "wake \(wake) for motion start \(start)")
        }
    }

    @Test("a car idling stays below 60 mg; a door slam fires a one-sample (ADXL345-style) setting but not a 100 ms one")
    func vibrationIsNotMovement() throws {
        let idle = try Self.model("idle-car 30m")
        let sixty = ActivityInterruptSetting(threshold: 60, minimumDuration: .zero, outputDataRate: 100)
        #expect(idle.nextActivity(from: .zero, before: idle.trajectory.end, setting: sixty) == nil)
        let slams = try Self.model("desk 1h door-slams=10/h")
        let single = ActivityInterruptSetting(threshold: 150, minimumDuration: .zero, outputDataRate: 100)
        #expect(slams.nextActivity(from: .zero, before: slams.trajectory.end, setting: single) != nil)
        #expect(slams.nextActivity(from: .zero, before: slams.trajectory.end, setting: Self.wake) == nil)
    }

    @Test("typing: keystrokes reach 20 mg but never 40 mg")
    func typing() throws {
        let model = try Self.model("desk 30m typing")
        let low = ActivityInterruptSetting(threshold: 20, minimumDuration: .zero, outputDataRate: 400)
        let fired = try #require(model.nextActivity(from: .zero, before: model.trajectory.end, setting: low))
        #expect(fired < .zero + .seconds(30))
        let higher = ActivityInterruptSetting(threshold: 40, minimumDuration: .zero, outputDataRate: 400)
        #expect(model.nextActivity(from: .zero, before: model.trajectory.end, setting: higher) == nil)
    }

    static let settings = [
        wake,
        ActivityInterruptSetting(threshold: 20, minimumDuration: .zero, outputDataRate: 100),
        ActivityInterruptSetting(threshold: 60, minimumDuration: .milliseconds(50), outputDataRate: 50),
        ActivityInterruptSetting(threshold: 8, minimumDuration: .zero, outputDataRate: 12.5),
        ActivityInterruptSetting(threshold: 4, minimumDuration: .milliseconds(30), outputDataRate: 100),
    ]

    @Test("the analytic interrupt agrees with a chip scanning every sample", arguments: settings)
    func agreesWithSamples(setting: ActivityInterruptSetting) throws {
        let model = AccelerometerModel(trajectory: Trajectory(scenario: try ScenarioFiles.scenario("demo"), seed: 3), seed: 3)
        var from = Instant.zero
        for _ in 0..<4 {
            let samples = model.samples(from: from, to: model.trajectory.end, outputDataRate: setting.outputDataRate)
            let needed = max(1, Int((setting.minimumDuration.seconds * setting.outputDataRate).rounded(.up)))
            var run = 0
            let scanned = samples.first { sample in
                let largest = max(abs(sample.x), abs(sample.y), abs(sample.z - 1_000))
                run = largest > setting.threshold ? run + 1 : 0
                return run >= needed
            }?.instant
            let analytic = model.nextActivity(from: from, before: model.trajectory.end, setting: setting)
            #expect(analytic == scanned)
            guard let analytic else { return }
            from = analytic + .seconds(20)
        }
    }

    @Test("magnitudes: desk noise of a few mg, gait of 250–400 mg, engine of 20–50 mg, a lift's push of about 80 mg")
    func magnitudes() throws {
        let model = try Self.model("desk 10s\nwalk 10s\nidle-car 10s\nlift 20s up=10m")
        func range(_ from: Double, _ to: Double) -> (x: ClosedRange<Double>, y: ClosedRange<Double>, z: ClosedRange<Double>) {
            let samples = model.samples(from: .zero + .seconds(from), to: .zero + .seconds(to), outputDataRate: 400)
            let x = samples.map(\.x), y = samples.map(\.y), z = samples.map { $0.z - 1_000 }
            return (x.min()!...x.max()!, y.min()!...y.max()!, z.min()!...z.max()!)
        }
        let desk = range(0, 10)
        #expect([desk.x, desk.y, desk.z].allSatisfy { $0.lowerBound > -6 && $0.upperBound < 6 && $0.upperBound > 2 })
        let walk = range(12, 19)
        #expect(walk.z.upperBound > 240 && walk.z.upperBound < 400 && walk.z.lowerBound < -240)
        let idle = range(20, 30)
        #expect(idle.z.upperBound > 20 && idle.z.upperBound < 56 && idle.x.upperBound < 6)
        // The ride (10 m at up to 1.5 m/s: 8.54 s) is centred in the lift's 20 s, so it starts
        // at 35.73 s; the push is full from 0.5 s later to 0.5 s before the ramp ends, 1.875 s in.
        let push = model.samples(from: .zero + .seconds(36.3), to: .zero + .seconds(37.1), outputDataRate: 100)
        #expect(push.allSatisfy { abs($0.z - 1_000 - 81.6) < 12 })
    }

    @Test("samples sit on the output data rate's grid and repeat exactly for the same seed")
    func grid() throws {
        let model = try Self.model("walk 1m")
        let samples = model.samples(from: .zero + .milliseconds(5), to: .zero + .milliseconds(1_005), outputDataRate: 100)
        #expect(samples.count == 100)
        #expect(samples.first?.instant == .zero + .milliseconds(10))
        #expect(samples.allSatisfy { $0.instant.nanoseconds % 10_000_000 == 0 })
        #expect(try Self.model("walk 1m").samples(from: .zero, to: .zero + .seconds(1), outputDataRate: 100) == model.samples(from: .zero, to: .zero + .seconds(1), outputDataRate: 100))
        #expect(try Self.model("walk 1m", seed: 2).samples(from: .zero, to: .zero + .seconds(1), outputDataRate: 100) != model.samples(from: .zero, to: .zero + .seconds(1), outputDataRate: 100))
    }
}

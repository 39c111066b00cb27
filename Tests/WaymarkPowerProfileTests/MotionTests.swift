import Testing
import WaymarkClock
import WaymarkMotion
import WaymarkSimulation

@Suite("Movement or vibration, on the simulated accelerometer")
struct MotionTests {
    /// Classifies the scenario's samples in half-second windows over `range` seconds and
    /// returns the verdicts.
    func verdicts(_ scenario: Scenario, from start: Double, to end: Double) -> [MotionVerdict] {
        let trajectory = Trajectory(scenario: scenario, seed: 3)
        let model = AccelerometerModel(trajectory: trajectory, seed: 3)
        var classifier = MotionClassifier()
        var verdicts: [MotionVerdict] = []
        var time = start
        while time < end {
            let from = Instant.zero + .milliseconds(Int64(time * 1_000))
            let samples = model.samples(from: from, to: from + .milliseconds(500), outputDataRate: 25)
            verdicts.append(classifier.classify(samples.map { AccelerationSample(x: $0.x, y: $0.y, z: $0.z) }, rate: 25))
            time += 0.5
        }
        return verdicts
    }

    func scenario(_ body: String) throws -> Scenario {
        try ScenarioParser.parse("start 2026-11-22T08:00:00Z 47.3769 8.5417 408\n" + body, file: "test")
    }

    @Test("a desk with typing and a door slam is never movement")
    func desk() throws {
        let desk = try scenario("desk 10m typing door-slams=30/h\n")
        #expect(!verdicts(desk, from: 0, to: 600).contains(.moving))
    }

    @Test("a car idling at a light is vibration, not movement")
    func idlingCar() throws {
        let idle = try scenario("idle-car 2m\n")
        #expect(!verdicts(idle, from: 0, to: 120).contains(.moving))
    }

    @Test("walking away, pulling off and a lift are movement within a second of starting", arguments: ["walk 1m", "drive 2m", "lift 30s up=12m"])
    func movement(segment: String) throws {
        let moving = try scenario("desk 1m\n\(segment)\n")
        let start = try #require(Trajectory(scenario: moving, seed: 3).motionStarts.first).seconds
        let found = verdicts(moving, from: start - 2, to: start + 3)
        let firstMoving = found.firstIndex(of: .moving).map { start - 2 + Double($0) * 0.5 }
        #expect(firstMoving.map { $0 <= start + 1 } ?? false, "\(segment) starts at \(start): \(found)")
    }
}

import Testing
import WaymarkClock
import WaymarkMath
import WaymarkMotion
import WaymarkSimulation

@Suite("Movement or vibration, on the simulated accelerometer")
struct MotionTests {
    /// Classifies the scenario's samples in windows of `window` seconds (the sources hand
    /// them over every tenth of a second) over `range` seconds and returns the verdicts.
    func verdicts(_ scenario: Scenario, from start: Double, to end: Double, window: Double) -> [MotionVerdict] {
        var classifier = MotionClassifier()
        return windows(scenario, from: start, to: end, length: window, rate: 25).map { classifier.classify($0, rate: 25) }
    }

    /// The scenario's samples at `rate` Hz over `start..<end` seconds, in windows of `length`.
    func windows(_ scenario: Scenario, from start: Double, to end: Double, length: Double, rate: Double) -> [[AccelerationSample]] {
        let trajectory = Trajectory(scenario: scenario, seed: 3)
        let model = AccelerometerModel(trajectory: trajectory, seed: 3)
        var windows: [[AccelerationSample]] = []
        var time = start
        while time < end - 1e-9 {
            let from = Instant.zero + .milliseconds(Int64((time * 1_000).rounded()))
            let samples = model.samples(from: from, to: from + .milliseconds(Int64((length * 1_000).rounded())), outputDataRate: rate)
            windows.append(samples.map { AccelerationSample(x: $0.x, y: $0.y, z: $0.z) })
            time += length
        }
        return windows
    }

    func scenario(_ body: String) throws -> Scenario {
        try ScenarioParser.parse("start 2026-11-22T08:00:00Z 47.3769 8.5417 408\n" + body, file: "test")
    }

    @Test("a desk with typing and a door slam is never movement, in windows of any length", arguments: [0.1, 0.5])
    func desk(window: Double) throws {
        let desk = try scenario("desk 10m typing door-slams=30/h\n")
        #expect(!verdicts(desk, from: 0, to: 600, window: window).contains(.moving))
    }

    @Test("a car idling at a light is vibration, not movement, in windows of any length", arguments: [0.1, 0.5])
    func idlingCar(window: Double) throws {
        let idle = try scenario("idle-car 2m\n")
        #expect(!verdicts(idle, from: 0, to: 120, window: window).contains(.moving))
    }

    @Test(
        "walking away, pulling off and a lift are movement within a second of starting, in windows of any length",
        arguments: ["walk 1m", "drive 2m", "lift 30s up=12m"], [0.1, 0.5])
    func movement(segment: String, window: Double) throws {
        let moving = try scenario("desk 1m\n\(segment)\n")
        let start = try #require(Trajectory(scenario: moving, seed: 3).motionStarts.first).seconds
        let found = verdicts(moving, from: start - 2, to: start + 3, window: window)
        let firstMoving = found.firstIndex(of: .moving).map { start - 2 + Double($0 + 1) * window }
        #expect(firstMoving.map { $0 <= start + 1 } ?? false, "\(segment) starts at \(start): \(found)")
    }

    @Test("a whole span is judged only once half a second of samples has come, however they are cut")
    func spanJudged() throws {
        let desk = try scenario("desk 1m\n")
        var classifier = MotionClassifier()
        let judged = windows(desk, from: 0, to: 1, length: 0.1, rate: 25).map { window in
            _ = classifier.classify(window, rate: 25)
            return classifier.hasJudgedSpan
        }
        #expect(judged == [false, false, false, false, true, true, true, true, true, true])
        classifier.resume()
        #expect(!classifier.hasJudgedSpan)
    }

    /// Pauses in a car at a light, then pulls off at `acceleration` m/s²; the push detector's
    /// reference is taken from the first quarter second of the stop.
    func pushOnsets(acceleration: Double, idleSeconds: Double) throws -> (rising: [Double], moving: [Double], pullOff: Double) {
        let drive = try scenario("idle-car \(Int(idleSeconds))s\ndrive 1m stops=0 speed=10 accel=\(acceleration)\n")
        let pullOff = try #require(Trajectory(scenario: drive, seed: 3).motionStarts.first).seconds
        var detector = PushDetector()
        var rising: [Double] = []
        var moving: [Double] = []
        for (index, window) in windows(drive, from: 1, to: pullOff + 2, length: 0.1, rate: 50).enumerated() {
            let end = 1 + Double(index + 1) / 10
            if detector.judge(window, rate: 50, noiseFloor: 8) == .moving { moving.append(end) }
            if detector.isRising { rising.append(end) }
        }
        return (rising, moving, pullOff)
    }

    @Test("a gentle pull-off (0.5 m/s², 51 mg, reached over 0.1 s) rises within a quarter second of starting, and is sustained within half a second; the idling engine before it never rises")
    func pushRises() throws {
        let (rising, moving, pullOff) = try pushOnsets(acceleration: 0.5, idleSeconds: 40)
        #expect(rising.allSatisfy { $0 > pullOff }, "the engine idling: \(rising.filter { $0 <= pullOff })")
        let firstRising = try #require(rising.first)
        #expect(firstRising - pullOff <= 0.25, "rose \(firstRising - pullOff) s after the pull-off")
        let firstMoving = try #require(moving.first)
        #expect(firstMoving - pullOff <= 0.5, "sustained \(firstMoving - pullOff) s after the pull-off")
    }

    @Test("typing and door slams on a desk never make a push rise")
    func deskNeverRises() throws {
        let desk = try scenario("desk 10m typing door-slams=30/h\n")
        var detector = PushDetector()
        var rose = 0
        for window in windows(desk, from: 0, to: 600, length: 0.1, rate: 50) {
            _ = detector.judge(window, rate: 50, noiseFloor: 8)
            if detector.isRising { rose += 1 }
        }
        #expect(rose == 0)
    }

    @Test("an engine shaking the device across gravity (50 mg at 20–30 Hz, sampled at 50 Hz) never makes a push rise", arguments: [20.0, 23.0, 25.0, 27.0, 30.0])
    func engineAcrossGravityNeverRises(frequency: Double) {
        var detector = PushDetector()
        var rose = 0
        for window in 0..<600 {
            let samples = (0..<5).map { index in
                let time = Double(window * 5 + index) / 50
                return AccelerationSample(x: 50 * sin(2 * Double.pi * frequency * time + 0.3), y: 0, z: 1_000)
            }
            _ = detector.judge(samples, rate: 50, noiseFloor: 8)
            if detector.isRising { rose += 1 }
        }
        #expect(rose == 0)
    }
}

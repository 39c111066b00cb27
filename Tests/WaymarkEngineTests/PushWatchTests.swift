import Testing
import WaymarkEngine
import WaymarkLocation

/// A paused device is sampled with the wake still armed until it has been calm for the dwell,
/// so that a pull-off too gentle for the 60 mg wake (a car waiting at a light with its engine
/// running) is seen as the sustained push it is (docs/power.md, "A gentle pull-off in a quiet car").
@Suite("Engine: a paused device that vibrates is watched for a gentle push")
struct PushWatchTests {
    /// Paused in a car whose engine idles: the windows before the pause showed vibration.
    func pausedWhileIdling() -> EngineHarness {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default))
        var second = 1.0
        while harness.updates.last?.isStationary != true {
            harness.window(at: second - 0.5, rate: 25)
            harness.fix(at: second, speed: 0)
            second += 1
        }
        precondition(second == 8, "paused after the default dwell")
        return harness
    }

    @Test("paused: sampled at 50 Hz with the 60 mg wake armed while the engine runs; once the device has been calm for the dwell, the wake alone")
    func commandChosen() {
        var harness = pausedWhileIdling()
        #expect(harness.power == [true, false])
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60))
        for index in 0..<20 { harness.window(at: 8.5 + Double(index) / 2, rate: 50) }
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60))
        harness.quiet(from: 18, for: 5.5)  // the engine is switched off
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60), "5.5 s calm: not yet")
        harness.quiet(from: 23.5, for: 1)
        #expect(harness.accelerometer.last == .armMotionWake(threshold: 60))
        #expect(harness.power == [true, false])
    }

    @Test("a 51 mg push (0.5 m/s²) under the idling engine resumes at once; the engine, or a push of 15 mg, does not")
    func gentlePush() {
        var harness = pausedWhileIdling()
        let paused = harness.updates.count
        for index in 0..<20 { harness.window(at: 8.5 + Double(index) / 2, rate: 50) }
        for index in 0..<4 { harness.window(at: 18.5 + Double(index) / 2, rate: 50, push: 15) }
        #expect(harness.power == [true, false])
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60))
        harness.window(at: 20.5, rate: 50, push: 51)
        #expect(harness.power == [true, false, true])
        #expect(harness.accelerometer.last == .sample(rate: 25))  // moving: sampled for the end of movement
        harness.fix(at: 21.5, latitude: 47.377, speed: 1)
        #expect(harness.updates.count == paused + 1)
        #expect(harness.updates.last?.isStationary == false)
        #expect(harness.engine.counters.falseWakes == 0)
    }

    @Test("a sustained push along gravity alone is a lift, where no receiver can fix: it does not resume; the same push along the ground does")
    func liftPush() {
        // 35 mg (0.34 m/s²): over the push threshold, under what the classifier calls movement.
        var lift = pausedWhileIdling()
        lift.window(at: 8.5, rate: 50)  // the rest reference
        for index in 1..<5 { lift.window(at: 8.5 + Double(index) / 2, rate: 50, lift: 35) }
        #expect(lift.power == [true, false])
        var ground = pausedWhileIdling()
        ground.window(at: 8.5, rate: 50)
        for index in 1..<5 { ground.window(at: 8.5 + Double(index) / 2, rate: 50, push: 35) }
        #expect(ground.power == [true, false, true])
    }

    @Test("a pull-off already under way as the device paused (so in the rest reference) resumes it: the classifier's gravity is from before")
    func pushAtThePause() {
        var harness = pausedWhileIdling()
        harness.window(at: 8.5, rate: 50, push: 90)
        #expect(harness.power == [true, false, true])
        #expect(harness.accelerometer.last == .sample(rate: 25))
    }

    @Test("a wake while watched powers the receiver and the window decides, its interrupt off; vibration: the watch again, the wake armed")
    func wakeWhileWatched() {
        var harness = pausedWhileIdling()
        harness.window(at: 8.5, rate: 50)
        harness.handle(.motionInterrupt)
        #expect(harness.power == [true, false, true])
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: nil))
        harness.window(at: 9, rate: 50)
        #expect(harness.power == [true, false, true, false])
        #expect(harness.engine.counters.falseWakes == 1)
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60))
        // The rest reference was kept: the push is measured from the device at rest.
        harness.window(at: 9.5, rate: 50, push: 51)
        #expect(harness.power.last == true)
    }

    /// The reason the receiver was last powered up.
    func lastPowerUpReason(_ harness: EngineHarness) -> String? {
        harness.actions.compactMap { if case .receiverPower(true, let reason) = $0 { reason } else { nil } }.last
    }

    @Test("a push rising in the tenth-second windows powers the receiver at once, before it is sustained; sustained, it resumes")
    func risingPushPowersAtOnce() {
        var harness = pausedWhileIdling()
        harness.window(at: 8.5, rate: 50)  // the rest reference
        harness.window(at: 8.6, rate: 50, length: 0.1, push: 51)
        #expect(harness.power == [true, false, true], "powered on the first tenth of a second of the push")
        #expect(lastPowerUpReason(harness) == "a push starting")
        #expect(harness.updates.last?.isStationary == true, "not resumed yet: the push is not sustained")
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: nil))
        for index in 1...4 { harness.window(at: 8.6 + Double(index) / 10, rate: 50, length: 0.1, push: 51) }
        #expect(harness.accelerometer.last == .sample(rate: 25), "moving: sampled for the end of movement")
        #expect(harness.engine.counters.falseWakes == 0)
        #expect(harness.power == [true, false, true])
    }

    @Test("a rise that fades is a false wake, decided once a whole span has been judged since it began")
    func fadingRise() {
        var harness = pausedWhileIdling()
        harness.window(at: 8.5, rate: 50)
        harness.window(at: 8.6, rate: 50, length: 0.1, push: 51)
        #expect(harness.power == [true, false, true])
        for index in 1...4 { harness.window(at: 8.6 + Double(index) / 10, rate: 50, length: 0.1) }
        #expect(harness.power == [true, false, true], "four tenths of a second: not yet a whole span")
        harness.window(at: 9.1, rate: 50, length: 0.1)
        #expect(harness.power == [true, false, true, false])
        #expect(harness.engine.counters.falseWakes == 1)
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60), "watched again, the wake armed")
    }

    @Test("a wake is not judged false on a window shorter than the span: the tenth-second windows add up to it")
    func wakeJudgedOnTheSpan() {
        var harness = pausedWhileIdling()
        harness.window(at: 8.5, rate: 50)
        harness.handle(.motionInterrupt)
        for index in 1...4 { harness.window(at: 8.5 + Double(index) / 10, rate: 50, length: 0.1) }
        #expect(harness.power == [true, false, true])
        #expect(harness.engine.counters.falseWakes == 0)
        harness.window(at: 9.0, rate: 50, length: 0.1)
        #expect(harness.power == [true, false, true, false])
        #expect(harness.engine.counters.falseWakes == 1)
    }

    @Test("a device rocked slowly: one rise that fades is a false wake, and the rest of the watch waits for a sustained push instead of powering on every sway")
    func rockingPowersOnce() {
        var harness = pausedWhileIdling()
        harness.window(at: 8.5, rate: 50)
        var time = 8.5
        for _ in 0..<4 {  // a sway of 40 mg for 0.2 s every second
            for index in 1...10 {
                harness.window(at: time + Double(index) / 10, rate: 50, length: 0.1, push: index <= 2 ? 40 : 0)
            }
            time += 1
        }
        #expect(harness.power == [true, false, true, false], "powered once, by the first sway")
        #expect(harness.engine.counters.falseWakes == 1)
        // A sustained push still resumes.
        for index in 1...5 { harness.window(at: time + Double(index) / 10, rate: 50, length: 0.1, push: 51) }
        #expect(harness.power.last == true)
        #expect(harness.accelerometer.last == .sample(rate: 25))
    }
}

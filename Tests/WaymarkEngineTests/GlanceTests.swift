import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkLocation

/// Once the watch of a calm paused device has ended, only the 60 mg wake is armed, and a
/// pull-off under it (a quiet or electric car started after a long wait) fires nothing: the
/// device is glanced at, watched again for one span every two seconds with its rest reference
/// kept (docs/power.md, "A gentle pull-off after the watch ended").
@Suite("Engine: a calm paused device is glanced at for a push under the wake")
struct GlanceTests {
    /// Paused in a car whose engine was then switched off: the watch has ended at 14.5 s.
    func watchEnded() -> EngineHarness {
        var harness = PushWatchTests().pausedWhileIdling()
        harness.quiet(from: 8, for: 6.5)
        precondition(harness.accelerometer.last == .armMotionWake(threshold: 60), "the watch ended")
        return harness
    }

    /// What a glance asks of the chip: its half second at 50 Hz, the wake still armed, handed over at once.
    static let glance = AccelerometerCommand.sample(rate: 50, wake: 60, handOver: .milliseconds(500))

    @Test("two seconds after the watch ended the chip is sampled again for one span, the wake still armed, handed over at once; calm, the wake alone until the next glance")
    func glanceCycle() {
        var harness = watchEnded()
        #expect(harness.engine.nextDeadline == Instant.zero + .milliseconds(16_500))
        harness.advance(to: 16.4)
        #expect(harness.accelerometer.last == .armMotionWake(threshold: 60))
        harness.advance(to: 16.5)
        #expect(harness.accelerometer.last == Self.glance)
        harness.window(at: 17, rate: 50, engine: 0)
        #expect(harness.accelerometer.last == .armMotionWake(threshold: 60))
        #expect(harness.engine.nextDeadline == Instant.zero + .milliseconds(19_000))
        harness.advance(to: 19)
        #expect(harness.accelerometer.last == Self.glance)
        #expect(harness.power == [true, false])
        #expect(harness.engine.counters.falseWakes == 0)
    }

    @Test("a push already under way as the glance begins is measured against the rest reference of the pause: its half second resumes")
    func pushUnderWayAtTheGlance() {
        var harness = watchEnded()
        harness.advance(to: 16.5)
        harness.window(at: 17, rate: 50, engine: 0, push: 51)
        #expect(harness.power == [true, false, true])
        #expect(harness.accelerometer.last == .sample(rate: 25), "moving: sampled for the end of movement")
        harness.fix(at: 18, latitude: 47.377, speed: 1)
        #expect(harness.updates.last?.isStationary == false)
    }

    @Test("an engine started between glances keeps the device watched: the pull-off under its shaking resumes at once, the shaking alone never")
    func engineStartedBetweenGlances() {
        var harness = watchEnded()
        harness.advance(to: 16.5)
        harness.window(at: 17, rate: 50)
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60), "a whole watch, handed over every tenth of a second")
        var time = 17.0
        while time < 30 {  // 13 s of idling: a whole watch's dwell and more
            time += 0.1
            harness.window(at: time, rate: 50, length: 0.1)
        }
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60), "still watched while the engine idles")
        #expect(harness.power == [true, false])
        harness.window(at: time + 0.1, rate: 50, length: 0.1, push: 51)
        #expect(harness.power == [true, false, true])
    }

    @Test("a lift starting under the wake, seen by a glance, does not resume: along gravity no receiver fixes; the same push along the ground does")
    func liftSeenByAGlance() {
        var lift = watchEnded()
        lift.advance(to: 16.5)
        lift.window(at: 17, rate: 50, engine: 0, lift: 51)
        for index in 1...10 { lift.window(at: 17 + Double(index) / 10, rate: 50, length: 0.1, engine: 0, lift: 51) }
        #expect(lift.power == [true, false])
        #expect(lift.accelerometer.last == .sample(rate: 50, wake: 60), "watched on, as while something shakes the device")
        var ground = watchEnded()
        ground.advance(to: 16.5)
        ground.window(at: 17, rate: 50, engine: 0, push: 51)
        #expect(ground.power == [true, false, true])
        #expect(ground.accelerometer.last == .sample(rate: 25))
    }

    @Test("a wake during a glance is judged as any wake, and the watch after it is a whole one: the dwell of calm, not one span")
    func wakeDuringAGlance() {
        var harness = watchEnded()
        harness.advance(to: 16.6)
        harness.handle(.motionInterrupt)  // a door slam
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: nil), "the window decides, its interrupt off")
        for index in 1...5 { harness.window(at: 16.6 + Double(index) / 10, rate: 50, length: 0.1, engine: 0) }
        #expect(harness.power == [true, false, true, false])
        #expect(harness.engine.counters.falseWakes == 1)
        harness.quiet(from: 17.1, for: 5.5)
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60), "5.5 s calm: still watched")
        harness.quiet(from: 22.6, for: 1)
        #expect(harness.accelerometer.last == .armMotionWake(threshold: 60))
    }
}

import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkLocation
import WaymarkReceiver

@Suite("Engine: a consumer's demand for a fix at an instant")
struct FixDemandTests {
    static func instant(_ seconds: Double) -> Instant { Instant.zero + .milliseconds(Int64(seconds * 1_000)) }

    /// A board without an accelerometer: the demand's timing alone (with one, a calm chip
    /// holds the demand: ``stillnessHoldsTheDemand()``).
    static var withoutAccelerometer: EngineHarness {
        EngineHarness(settings: EngineSettings(receiver: .ubloxM8, isSimulated: true, hasAccelerometer: false))
    }

    @Test("the receiver sleeps until the demand falls due, powers up for it and down once the next is far")
    func powersOnlyWhenDue() throws {
        var harness = Self.withoutAccelerometer
        harness.handle(.fixNeeded(at: Self.instant(120)))
        #expect(harness.power.isEmpty)
        #expect(harness.engine.nextDeadline == Self.instant(120))
        harness.advance(to: 119)
        #expect(harness.power.isEmpty)
        harness.advance(to: 120)
        #expect(harness.power == [true])
        let reason = harness.actions.compactMap { if case .receiverPower(true, let reason) = $0 { reason } else { nil } }
        #expect(reason == ["geofence evaluation"])
        harness.fix(at: 121)
        #expect(harness.power == [true], "the demand holds until the caller moves it")
        harness.handle(.fixNeeded(at: Self.instant(400)))
        #expect(harness.power == [true, false])
        #expect(harness.engine.nextDeadline == Self.instant(400))
    }

    @Test("a next demand within the hot start keeps the receiver on rather than cycling it")
    func nearDemandKeepsTheReceiverOn() {
        var harness = Self.withoutAccelerometer
        harness.handle(.fixNeeded(at: .zero))
        #expect(harness.power == [true])
        for second in 1...5 {
            harness.fix(at: Double(second))
            harness.handle(.fixNeeded(at: Self.instant(Double(second) + 1)))
        }
        #expect(harness.power == [true])
        harness.handle(.fixNeeded(at: nil))
        #expect(harness.power == [true, false])
        #expect(harness.engine.nextDeadline == nil)
    }

    @Test("a due demand that finds no fix within a cold start's time is dropped: the receiver does not search forever")
    func unservedDemandIsDropped() {
        var harness = Self.withoutAccelerometer
        harness.handle(.fixNeeded(at: Self.instant(10)))
        harness.advance(to: 40)
        #expect(harness.power == [true], "a cold start's time is given to the receiver first")
        harness.advance(to: 60)
        #expect(harness.power == [true, false])
        #expect(harness.engine.fixDemand == nil)
        #expect(harness.engine.nextDeadline == nil)
    }

    @Test("a demand does not disturb live updates: fixes flow to the subscription as before")
    func demandBesideASubscription() {
        var harness = Self.withoutAccelerometer
        harness.handle(.startLiveUpdates(1, .default))
        harness.handle(.fixNeeded(at: Self.instant(300)))
        harness.fix(at: 1)
        harness.fix(at: 2)
        #expect(harness.updates.count == 2)
        #expect(harness.power == [true])
    }

    @Test("with no subscription, a fix at rest and a calm accelerometer hold the demand: the receiver stays down until the sample window says motion, then serves it at once")
    func stillnessHoldsTheDemand() throws {
        var harness = EngineHarness()
        harness.handle(.fixNeeded(at: .zero))
        harness.fix(at: 1)  // at rest: speed 0
        harness.handle(.fixNeeded(at: Self.instant(120)))
        #expect(harness.power == [true, false])
        #expect(harness.accelerometer.last == .sample(rate: harness.engine.settings.samplingRate), "the chip watches for motion")
        harness.samples(at: 3, moving: true)
        harness.advance(to: 8)
        #expect(!harness.engine.isStationary, "6 s of calm after the last movement are not over")
        harness.advance(to: 10)
        #expect(harness.engine.isStationary)
        let settings = harness.engine.settings
        #expect(harness.accelerometer.last == .sample(rate: settings.pushSamplingRate, wake: settings.motionWakeThreshold), "watched for a push")
        harness.quiet(from: 10, for: 6.5)
        #expect(harness.accelerometer.last == .armMotionWake(threshold: settings.motionWakeThreshold), "calm for the dwell: the wake alone")
        harness.advance(to: 3_600)
        #expect(harness.power == [true, false], "no border can be crossed at a desk: the due demand waits")
        #expect(harness.engine.fixDemand == Self.instant(120))
        // A vibration: the interrupt alone powers nothing, and the window judges it calm.
        harness.handle(.motionInterrupt)
        #expect(harness.power == [true, false], "a held demand waits for the window's verdict")
        harness.samples(at: 3_600.5, moving: false)
        #expect(harness.engine.isStationary && harness.power == [true, false])
        harness.advance(to: 3_601)
        harness.handle(.motionInterrupt)
        #expect(harness.power == [true, false])
        harness.samples(at: 3_601.5, moving: true)
        #expect(!harness.engine.isStationary)
        #expect(harness.power == [true, false, true], "the demand, overdue, is served once the window says motion")
        harness.fix(at: 3_602)
        harness.handle(.fixNeeded(at: nil))
        #expect(harness.power == [true, false, true, false])
    }

    @Test("a calm accelerometer alone is not rest: after a fix at driving speed the demand is served (a car on a smooth road)")
    func calmAtSpeedIsNotRest() {
        var harness = EngineHarness()
        harness.handle(.fixNeeded(at: .zero))
        harness.fix(at: 1, speed: 14)
        harness.handle(.fixNeeded(at: Self.instant(30)))
        harness.advance(to: 29)
        #expect(!harness.engine.isStationary, "28 s of calm, but the last fix was at 14 m/s")
        harness.advance(to: 30)
        #expect(harness.power == [true, false, true])
    }

    @Test("for a consumer that looks for stops, after a fix in motion a calm accelerometer asks one fix: at rest the demand then waits for motion, on a smooth ride there is no second look until the chip moves, and a look that finds no fix gives the demand back; geofences alone get no look")
    func calmAfterMotionAsksOneFix() throws {
        // Geofences alone: no border is crossed by stopping, so no look.
        var geofences = EngineHarness()
        geofences.handle(.fixNeeded(at: .zero))
        geofences.fix(at: 1, speed: 1.4)
        geofences.handle(.fixNeeded(at: Self.instant(600)))
        geofences.advance(to: 599)
        #expect(geofences.power == [true, false])

        // A walk that stops: calm since the start, the look comes at the default dwell (6 s),
        // finds rest, and the far demand then waits at the desk.
        var stop = EngineHarness()
        stop.handle(.restChecks(true))
        stop.handle(.fixNeeded(at: .zero))
        stop.fix(at: 1, speed: 1.4)
        stop.handle(.fixNeeded(at: Self.instant(600)))
        #expect(stop.power == [true, false])
        stop.advance(to: 5.9)
        #expect(stop.power == [true, false])
        stop.advance(to: 6.5)
        #expect(stop.power == [true, false, true], "calm for the dwell after a fix in motion: one fix to look")
        #expect(!stop.engine.isStationary)
        stop.fix(at: 7)
        stop.handle(.fixNeeded(at: Self.instant(607)))
        stop.advance(to: 8)
        #expect(stop.engine.isStationary)
        stop.advance(to: 3_600)
        #expect(stop.power == [true, false, true, false], "at the desk: no fix, the demand held")
        #expect(stop.engine.fixDemand == Self.instant(607))

        // A smooth ride: the look shows speed; no other until the accelerometer moves again.
        var ride = EngineHarness()
        ride.handle(.restChecks(true))
        ride.handle(.fixNeeded(at: .zero))
        ride.fix(at: 1, speed: 14)
        ride.handle(.fixNeeded(at: Self.instant(600)))
        ride.fix(at: 7, speed: 14)
        ride.handle(.fixNeeded(at: Self.instant(607)))
        ride.advance(to: 606)
        #expect(ride.power == [true, false, true, false])
        #expect(!ride.engine.isStationary)
        ride.advance(to: 607)
        #expect(ride.power == [true, false, true, false, true], "the consumer's own demand")

        // Indoors: the look finds no fix within a cold start's time; the consumer's demand stays.
        var indoors = EngineHarness()
        indoors.handle(.restChecks(true))
        indoors.handle(.fixNeeded(at: .zero))
        indoors.fix(at: 1, speed: 1.4)
        indoors.handle(.fixNeeded(at: Self.instant(600)))
        indoors.advance(to: 300)
        #expect(indoors.power == [true, false, true, false])
        #expect(indoors.engine.fixDemand == Self.instant(600))
    }

    @Test("a smooth ride's calm spells back the rest checks off, up to 2 min of calm; a fix at rest starts them over")
    func restChecksBackOffOnARide() {
        var ride = EngineHarness()
        ride.handle(.restChecks(true))
        ride.handle(.fixNeeded(at: .zero))  // powers the receiver for the first fix
        /// Drives from `start` to `end` with a jolt every `spell` seconds; each look gets a fix
        /// at `speed` a second after the receiver powers, and the consumer asks again 600 s on.
        func drive(from start: Int, to end: Int, spell: Int, speed: Double = 14) -> Int {
            let looksBefore = ride.power.count { $0 }
            for second in start..<end {
                ride.advance(to: Double(second))
                if second % spell == 0 { ride.samples(at: Double(second), moving: true) }
                if ride.power.last == true {
                    ride.fix(at: Double(second) + 0.5, speed: speed)
                    ride.handle(.fixNeeded(at: Self.instant(Double(second) + 600.5)))
                }
            }
            return ride.power.count { $0 } - looksBefore
        }
        // Calm spells of 20 s: a look after 6 s of calm, then after 12, then none (24 > 20).
        #expect(drive(from: 0, to: 500, spell: 20) == 2)
        // Spells of 150 s: the calm needed doubles to 48, 96, then stays at 120.
        #expect(drive(from: 500, to: 1_250, spell: 150) == 5)
        // A stop: the look at 2 min of calm finds rest.
        #expect(drive(from: 1_250, to: 1_400, spell: 1_000, speed: 0) == 1)
        // Off again: the consumer's fix 600 s after the stop's shows speed, and the calm spells
        // are looked at after 6 and 12 s again.
        #expect(drive(from: 1_400, to: 2_100, spell: 20) == 3)
    }

    @Test("without an accelerometer nothing holds the demand: the scheduler's pace alone")
    func withoutAccelerometerTheDemandIsServed() {
        var harness = Self.withoutAccelerometer
        harness.handle(.fixNeeded(at: Self.instant(120)))
        harness.advance(to: 3_600)
        #expect(!harness.engine.isStationary)
        #expect(harness.power.first == true)
    }
}

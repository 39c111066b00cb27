import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkLocation
import WaymarkReceiver

@Suite("Engine: live updates, pause and resume")
struct EngineTests {
    @Test("moving fixes flow; once still for the dwell, exactly one isStationary update, then silence and the receiver off")
    func pauseSequence() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default))
        #expect(harness.power == [true])
        #expect(harness.accelerometer == [.sample(rate: 25)])
        for second in 1...5 {
            harness.samples(at: Double(second) - 0.5, moving: true)
            harness.fix(at: Double(second), latitude: 47.3769 + Double(second) * 0.0001, speed: 1.4)
        }
        #expect(harness.updates.count == 5)
        #expect(harness.updates.allSatisfy { $0.location != nil && !$0.isStationary })
        // Still from here on: accelerometer calm, GPS speed zero at one place.
        for second in 6...20 {
            harness.samples(at: Double(second) - 0.5, moving: false)
            harness.fix(at: Double(second), latitude: 47.3774, speed: 0)
        }
        let stationary = harness.updates.filter(\.isStationary)
        #expect(stationary.count == 1)
        #expect(stationary.first?.location != nil)
        #expect(harness.updates.last?.isStationary == true)
        #expect(harness.power == [true, false])
        #expect(harness.accelerometer.contains(.armMotionWake(threshold: 60)), "the watch ended: the wake alone between glances")
        #expect(harness.engine.ledger.state == .backup)
        // Paused: nothing is delivered, and the receiver stays down (the accelerometer's glances
        // aside) until the wake that keeps the start hot, ten minutes before the ephemeris of
        // the last fix (the pause's, t = 11 s) runs out.
        let count = harness.updates.count
        let upkeep = 11 + (ReceiverProfile.ubloxM8.ephemerisValidity - .seconds(600)).seconds
        harness.advance(to: upkeep - 0.001)
        #expect(harness.updates.count == count)
        #expect(harness.power == [true, false])
        harness.advance(to: upkeep)
        #expect(harness.power == [true, false, true])
    }

    @Test("a motion interrupt powers the receiver at once; moving samples resume; the first fix says isStationary false")
    func resume() {
        var harness = pausedHarness()
        let before = harness.updates.count
        harness.advance(to: 100)
        harness.handle(.motionInterrupt)
        #expect(harness.power.last == true)
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: nil), "the window decides, at the watch's rate")
        harness.samples(at: 100.5, moving: true)
        harness.fix(at: 101.1, latitude: 47.3775, speed: 1.4)
        #expect(harness.updates.count == before + 1)
        #expect(harness.updates.last?.isStationary == false)
        #expect(harness.updates.last?.location != nil)
        #expect(harness.engine.counters.motionWakes == 1)
    }

    @Test("a motion interrupt from vibration is a false wake: the receiver goes down again, nothing is delivered")
    func falseWake() {
        var harness = pausedHarness()
        let before = harness.updates.count
        harness.advance(to: 100)
        harness.handle(.motionInterrupt)
        harness.samples(at: 100.5, moving: false)
        #expect(harness.power.suffix(2) == [true, false])
        #expect(harness.updates.count == before)
        #expect(harness.engine.counters.falseWakes == 1)
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60), "watched again after the wake")
        harness.quiet(from: 100.5, for: 6.5)
        #expect(harness.accelerometer.last == .armMotionWake(threshold: 60))
    }

    @Test("a paused engine whose accelerometer failed and then answers again arms its motion wake again")
    func accelerometerRecovers() {
        var harness = pausedHarness()
        harness.advance(to: 100)
        harness.handle(.accelerometerFailed(reason: "i2c read byte data: EIO"))
        #expect(harness.engine.accelerometerFailure != nil)
        #expect(harness.accelerometer.last == .idle)
        harness.advance(to: 130)
        #expect(harness.accelerometer.last == .idle, "no glance at a chip that failed")
        harness.handle(.accelerometerRecovered)
        #expect(harness.engine.accelerometerFailure == nil)
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: 60), "what it saw while failing is unknown: watched afresh")
        harness.quiet(from: 130, for: 6.5)
        #expect(harness.accelerometer.last == .armMotionWake(threshold: 60))
        // And the interrupt works as before.
        harness.handle(.motionInterrupt)
        #expect(harness.power.last == true)
        #expect(harness.accelerometer.last == .sample(rate: 50, wake: nil))
    }

    @Test("a recovery is ignored on a board without an accelerometer and when nothing failed")
    func recoveryWithoutFailure() {
        var harness = EngineHarness(settings: EngineSettings(receiver: .ubloxM8, isSimulated: true, hasAccelerometer: false))
        harness.handle(.accelerometerRecovered)
        #expect(harness.engine.accelerometerFailure == "no accelerometer on this board")
        var healthy = EngineHarness()
        healthy.handle(.startLiveUpdates(1, .default))
        let commands = healthy.accelerometer
        healthy.handle(.accelerometerRecovered)
        #expect(healthy.accelerometer == commands)
    }

    @Test("no fix: one locationUnavailable update after the grace, never repeated, until a location came again")
    func unavailableWithoutFlicker() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default))
        harness.samples(at: 0.5, moving: true)
        harness.advance(to: 30)
        #expect(harness.updates.count == 1)
        #expect(harness.updates.first?.location == nil)
        #expect(harness.updates.first?.diagnostics.locationUnavailable == true)
        harness.samples(at: 30.5, moving: true)
        harness.fix(at: 31, speed: 1.5)
        #expect(harness.updates.last?.location != nil)
        harness.handle(.receiverLost(reason: "unplugged"))
        harness.handle(.receiverLost(reason: "unplugged"))
        harness.advance(to: 40)
        #expect(harness.updates.filter { $0.location == nil }.count == 2)
    }

    @Test("a subscription that joins while no fix can be had is told so at once")
    func joinWhileUnavailable() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default))
        harness.samples(at: 0.5, moving: true)
        harness.advance(to: 10)
        harness.handle(.startLiveUpdates(2, .fitness))
        let deliveries = harness.actions.compactMap { action -> SubscriptionID? in
            if case .deliver(let update, let number) = action, update.location == nil { number } else { nil }
        }
        #expect(deliveries == [1, 2])
    }

    @Test("airborne does not pause on a calm accelerometer at cruise speed")
    func airborne() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .airborne))
        for second in 1...120 {
            harness.samples(at: Double(second) - 0.5, moving: false)
            harness.fix(at: Double(second), latitude: 47 + Double(second) * 0.002, speed: 230)
        }
        #expect(harness.updates.allSatisfy { !$0.isStationary })
        #expect(harness.power == [true])
    }

    @Test("without an accelerometer the GPS alone pauses, wakes the receiver now and then, and resumes when moved")
    func gpsOnly() {
        var harness = EngineHarness(settings: EngineSettings(receiver: .ubloxM8, isSimulated: true, hasAccelerometer: false))
        harness.handle(.startLiveUpdates(1, .default))
        #expect(harness.accelerometer.isEmpty)
        for second in 1...10 { harness.fix(at: Double(second), speed: 0) }
        #expect(harness.updates.last?.isStationary == true)
        #expect(harness.power == [true, false])
        harness.advance(to: 10 + 30)
        #expect(harness.power == [true, false, true])
        harness.fix(at: 41.5, speed: 0)
        #expect(harness.power == [true, false, true, false])
        harness.advance(to: 41.5 + 30)
        harness.fix(at: 72.5, latitude: 47.3779, speed: 1.5)
        #expect(harness.updates.last?.isStationary == false)
        #expect(harness.power.last == true)
        #expect(harness.engine.counters.gpsOnlyWakes == 2)
    }

    @Test("leaving the last subscription powers the receiver down")
    func stopLast() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(7, .default))
        harness.fix(at: 1, speed: 2)
        harness.handle(.stopLiveUpdates(7))
        #expect(harness.power == [true, false])
        #expect(harness.engine.subscriptionCount == 0)
        #expect(harness.engine.nextDeadline == nil)
    }

    /// A harness whose one subscription has paused on a desk.
    func pausedHarness() -> EngineHarness {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default))
        for second in 1...10 {
            harness.samples(at: Double(second) - 0.5, moving: false)
            harness.fix(at: Double(second), speed: 0)
        }
        precondition(harness.updates.last?.isStationary == true)
        harness.quiet(from: 10, for: 6.5)  // the watch of the pause ends: the wake alone
        return harness
    }
}

import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkLocation

@Suite("Engine: locations of any accuracy")
struct AccuracyTests {
    /// Each configuration with the horizontal accuracy it used to require of a fix before
    /// delivering it, metres.
    static let formerLimits: [(LiveConfiguration, Double)] = [
        (.default, 100), (.automotiveNavigation, 50), (.otherNavigation, 100), (.fitness, 30), (.airborne, 200),
    ]

    @Test(
        "a receiver half again less accurate than the former limit: every fix is delivered with its accuracy, stillness pauses, the receiver goes down",
        arguments: formerLimits)
    func poorReceiver(configuration: LiveConfiguration, formerLimit: Double) throws {
        let hdop = formerLimit * 1.5 / 4  // × the accuracy model's 4 m UERE: 1.5 × the limit
        let speedNoise = hdop * 0.1  // the accuracy model's speed accuracy (1 σ) at this HDOP
        let speed = 4 * speedNoise + 5
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, configuration))
        for second in 1...10 {
            harness.samples(at: Double(second) - 0.5, moving: true)
            harness.fix(at: Double(second), latitude: 47 + Double(second) * speed / 111_000, speed: speed, hdop: hdop)
        }
        #expect(harness.updates.count == 10)
        #expect(harness.updates.allSatisfy { !$0.isStationary && $0.location?.horizontalAccuracy == formerLimit * 1.5 })
        // Still, as a poor receiver is: the position wanders within its accuracy and the speed
        // jumps by up to twice its accuracy.
        let stop = 47 + 11 * speed / 111_000
        for second in 11...70 {
            harness.samples(at: Double(second) - 0.5, moving: false)
            let wander = (second.isMultiple(of: 2) ? 0.5 : -0.5) * formerLimit * 1.5 / 111_000
            harness.fix(at: Double(second), latitude: stop + wander, speed: second.isMultiple(of: 3) ? 2 * speedNoise : 0, hdop: hdop)
        }
        let stationary = harness.updates.filter(\.isStationary)
        #expect(stationary.count == 1)
        #expect(stationary.first?.location != nil)
        #expect(harness.updates.last?.isStationary == true)
        #expect(harness.updates.allSatisfy { $0.location != nil && $0.diagnostics.isEmpty })
        #expect(harness.power == [true, false])
        // The receiver stays down for hours: only the wake that keeps the start hot would power
        // it (OrbitUpkeepTests); the glances at the accelerometer do not.
        harness.advance(to: 3 * 3_600)
        #expect(harness.power == [true, false])
    }
}

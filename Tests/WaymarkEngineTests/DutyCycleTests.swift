import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkLocation
import WaymarkReceiver

/// Duty-cycling while moving (`docs/power.md`): when every running subscription accepts a
/// location only every so often, the receiver sleeps between the fixes they take.
@Suite("Engine: duty-cycling while moving")
struct DutyCycleTests {
    private static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// A 3 m/s walk north with the accelerometer seeing the steps: a fix every second.
    private static func walk(_ harness: inout EngineHarness, seconds: ClosedRange<Int>) {
        for second in seconds {
            harness.samples(at: Double(second) - 0.5, moving: true)
            harness.fix(at: Double(second), latitude: 47.3769 + Double(second) * 3 / metresPerDegree, speed: 3)
        }
    }

    private static func seconds(of updates: [LocationUpdate]) -> [Int] {
        updates.compactMap { $0.location.map { Int((($0.latitude - 47.3769) * metresPerDegree / 3).rounded()) } }
    }

    @Test("a 60 s minimum interval: a location every 60 s, the receiver down between them and powered a hot start before each")
    func minimumIntervalSleepsBetweenFixes() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default, DeliveryOptions(minimumInterval: .seconds(60))))
        Self.walk(&harness, seconds: 1...300)
        #expect(Self.seconds(of: harness.updates) == [1, 61, 121, 181, 241])
        #expect(harness.power == [true] + Array(repeating: [false, true], count: 5).flatMap { $0 })
        // Each wake a hot start (1 s) before the next location accepted (the last one at 300 s for 301 s).
        let wakes = harness.engine.ledger.transitions.filter { $0.to == .acquiring }.map { Int($0.instant.seconds.rounded()) }
        #expect(wakes == [0, 60, 120, 180, 240, 300])
        // On 2 s of every minute after the first fix, instead of all of it.
        let tracking = harness.engine.ledger.time(in: .tracking, at: harness.now) + harness.engine.ledger.time(in: .acquiring, at: harness.now)
        #expect(tracking < .seconds(12))
    }

    @Test("no duty cycle below the break-even, nor beside a subscription that takes every fix", arguments: [
        [DeliveryOptions(minimumInterval: .seconds(2))],
        [DeliveryOptions(minimumInterval: .seconds(60)), DeliveryOptions()],
        [DeliveryOptions(minimumInterval: .seconds(60)), DeliveryOptions(distanceFilter: 100)],
    ])
    func staysOn(options: [DeliveryOptions]) {
        var harness = EngineHarness()
        for (index, option) in options.enumerated() { harness.handle(.startLiveUpdates(SubscriptionID(rawValue: UInt64(index + 1)), .default, option)) }
        Self.walk(&harness, seconds: 1...120)
        #expect(harness.power == [true])
    }

    @Test("a passive listener beside the duty-cycled subscription gets the fixes it causes and keeps nothing on")
    func passiveDoesNotHold() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default, DeliveryOptions(minimumInterval: .seconds(30))))
        harness.handle(.startLiveUpdates(2, .default, DeliveryOptions(isPassive: true)))
        Self.walk(&harness, seconds: 1...90)
        #expect(harness.power.filter { $0 }.count == 4)  // t = 0, 30, 60, 90
        // Every fix while the receiver is on: t = 1, 30, 31, 60, 61, 90.
        #expect(harness.actions.filter { if case .deliver(_, 2) = $0 { true } else { false } }.count == 6)
    }

    @Test("at the break-even gap a cycle costs what tracking through costs", arguments: ReceiverProfile.all, [ReceiverPowerState.backup, .standby, .off])
    func breakEvenIsWhereTheChargesMeet(receiver: ReceiverProfile, down: ReceiverPowerState) throws {
        let interval = Duration.seconds(1)
        let gap = try #require(receiver.dutyCycleBreakEven(downState: down, measurementInterval: interval)).seconds
        let hot = receiver.hotStart.seconds
        let cycle = hot * receiver.acquisitionCurrent + interval.seconds * receiver.trackingCurrent
            + (gap - hot - interval.seconds) * receiver.current(in: down)
        let through = gap * receiver.trackingCurrent
        #expect(abs(cycle - through) < 1e-9 * through)
        #expect(gap > hot + interval.seconds)
    }
}

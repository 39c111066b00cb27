import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkLocation

/// A walk with known truth: one fix a second, due north at `metresPerSecond`, and the
/// accelerometer seeing the steps.
private let metresPerDegree = 6_371_008.8 * Double.pi / 180

private func walk(_ harness: inout EngineHarness, seconds: ClosedRange<Int>, metresPerSecond: Double = 3) {
    for second in seconds {
        harness.samples(at: Double(second) - 0.5, moving: true)
        harness.fix(at: Double(second), latitude: 47.3769 + Double(second) * metresPerSecond / metresPerDegree, speed: metresPerSecond)
    }
}

/// The second of the walk a location was taken at.
private func second(of location: Location, metresPerSecond: Double = 3) -> Int {
    Int(((location.latitude - 47.3769) * metresPerDegree / metresPerSecond).rounded())
}

@Suite("Engine: delivery options (distance filter, minimum interval, batches, passive)")
struct DeliveryOptionsTests {
    @Test("a 10 m distance filter on a 3 m/s walk delivers every fourth fix, each at least 10 m from the last")
    func distanceFilter() throws {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default, DeliveryOptions(distanceFilter: 10)))
        walk(&harness, seconds: 1...60)
        let locations = harness.updates.compactMap(\.location)
        // The first fix (t = 1 s), then t = 5, 9, …, 57 s: 12 m apart (9 m is not enough).
        #expect(locations.count == 15)
        for (earlier, later) in zip(locations, locations.dropFirst()) {
            let gap = later.distance(from: earlier)
            #expect(gap >= 10 && gap < 12.1)
        }
    }

    @Test("a 5 s minimum interval delivers one fix in five")
    func minimumInterval() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default, DeliveryOptions(minimumInterval: .seconds(5))))
        walk(&harness, seconds: 1...60)
        let times = harness.updates.compactMap { $0.location.map { second(of: $0) } }
        #expect(times == Array(stride(from: 1, through: 56, by: 5)))
    }

    @Test("filters never hold back the update that pauses the stream")
    func pauseNotFiltered() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default, DeliveryOptions(distanceFilter: 1_000, minimumInterval: .seconds(600))))
        for second in 1...20 {
            harness.samples(at: Double(second) - 0.5, moving: false)
            harness.fix(at: Double(second), speed: 0)
        }
        #expect(harness.updates.count == 2)
        #expect(harness.updates.last?.isStationary == true)
    }

    @Test("a batch until 20 m travelled goes out as one message every 8 fixes (7 steps of 3 m)")
    func batchByDistance() {
        var harness = EngineHarness()
        let batching = Batching(distance: 20, timeout: .seconds(600))
        harness.handle(.startLiveUpdates(1, .default, DeliveryOptions(batching: batching)))
        walk(&harness, seconds: 1...40)
        #expect(harness.updates.isEmpty)
        #expect(harness.batches.map(\.updates.count) == [8, 8, 8, 8, 8])
        #expect(harness.batches.allSatisfy { $0.overflow == 0 })
        let delivered = harness.batches.flatMap(\.updates).compactMap(\.location)
        #expect(delivered.count == 40)
    }

    @Test("a batch with a 10 s timeout goes out by its timer when its oldest update is 10 s old; an unavailable update ends it at once")
    func batchByTime() throws {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default, DeliveryOptions(batching: Batching(timeout: .seconds(10)))))
        walk(&harness, seconds: 1...22)
        // At t = 11 and 21 s, by the timer before those seconds' fixes: t = 1 … 10 and 11 … 20.
        let seconds = harness.batches.map { $0.updates.compactMap { $0.location.map { second(of: $0) } } }
        #expect(seconds == [Array(1...10), Array(11...20)])
        walk(&harness, seconds: 23...24)
        harness.actions.removeAll()
        harness.handle(.receiverLost(reason: "unplugged"))
        // The unavailable update is never held: it ends the batch at once.
        let batch = try #require(harness.batches.first)
        #expect(batch.updates.count == 5)  // t = 21 … 24 s and the unavailable update
        #expect(batch.updates.last?.diagnostics.locationUnavailable == true)
    }

    @Test("a full batch keeps the newest updates and counts the dropped ones")
    func batchOverflow() throws {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default, DeliveryOptions(batching: Batching(timeout: .seconds(10), capacity: 5))))
        walk(&harness, seconds: 1...11)
        let batch = try #require(harness.batches.first)
        #expect(batch.overflow == 5)
        #expect(batch.updates.compactMap { $0.location.map { second(of: $0) } } == [6, 7, 8, 9, 10])
    }

    @Test("a passive listener alone never powers the receiver; beside another it gets the fixes the other causes")
    func passiveListener() {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default, DeliveryOptions(isPassive: true)))
        harness.advance(to: 3_600)
        #expect(harness.power.isEmpty)
        #expect(harness.accelerometer.isEmpty)
        harness.handle(.startLiveUpdates(2, .default))
        #expect(harness.power == [true])
        walk(&harness, seconds: 3_601...3_610)
        let toPassive = harness.actions.filter { if case .deliver(_, 1) = $0 { true } else { false } }
        #expect(toPassive.count == 10)
        harness.handle(.stopLiveUpdates(2))
        #expect(harness.power == [true, false])
        harness.advance(to: 7_200)
        #expect(harness.power == [true, false])
    }
}

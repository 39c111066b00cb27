import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkLocation

@Suite("Engine: a consumer's demand for a fix at an instant")
struct FixDemandTests {
    static func instant(_ seconds: Double) -> Instant { Instant.zero + .milliseconds(Int64(seconds * 1_000)) }

    @Test("the receiver sleeps until the demand falls due, powers up for it and down once the next is far")
    func powersOnlyWhenDue() throws {
        var harness = EngineHarness()
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
        var harness = EngineHarness()
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
        var harness = EngineHarness()
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
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default))
        harness.handle(.fixNeeded(at: Self.instant(300)))
        harness.fix(at: 1)
        harness.fix(at: 2)
        #expect(harness.updates.count == 2)
        #expect(harness.power == [true])
    }
}

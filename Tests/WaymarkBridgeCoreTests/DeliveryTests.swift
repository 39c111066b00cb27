import Testing
import WaymarkBridgeCore
import WaymarkClock

@Suite struct DeliveryTests {
    /// Any draw of the jitter must pass: the bounds hold for all of them.
    var random = SystemRandomNumberGenerator()
    let start = Instant(nanoseconds: 1_000_000_000)

    @Test mutating func oneMessageIsInFlightAndItsAckDeletesIt() {
        var delivery = Delivery(now: start, connectPatience: .seconds(10))
        let connects = delivery.shouldConnect(now: start)
        #expect(connects)
        #expect(!delivery.isReadyToPublish)
        delivery.connected()
        #expect(delivery.isReadyToPublish)
        delivery.published(sequence: 7, messageID: 1)
        #expect(!delivery.isReadyToPublish)
        #expect(delivery.inFlightSequence == 7)
        let (other, own) = (delivery.acknowledged(messageID: 2), delivery.acknowledged(messageID: 1))
        #expect(other == nil)
        #expect(own == 7)
        #expect(delivery.isReadyToPublish)
    }

    @Test mutating func aLostLinkResendsAfterTheBackoff() {
        var delivery = Delivery(now: start, connectPatience: .seconds(10))
        _ = delivery.shouldConnect(now: start)
        delivery.connected()
        delivery.published(sequence: 7, messageID: 1)
        delivery.lost(now: start, using: &random)
        // The acknowledgement of the lost connection's message deletes nothing.
        let late = delivery.acknowledged(messageID: 1)
        #expect(late == nil)
        guard case .waiting(let until) = delivery.link else {
            Issue.record("not waiting: \(delivery.link)")
            return
        }
        #expect(until - start >= ReconnectBackoff.first / 2 && until - start <= ReconnectBackoff.first)
        let early = delivery.shouldConnect(now: until - .nanoseconds(1))
        let due = delivery.shouldConnect(now: until)
        #expect(!early && due)
        delivery.connected()
        #expect(delivery.isReadyToPublish)
    }

    @Test mutating func aSecondReportOfTheSameLossDoesNotLengthenTheWait() {
        var delivery = Delivery(now: start, connectPatience: .seconds(10))
        _ = delivery.shouldConnect(now: start)
        delivery.lost(now: start, using: &random)
        let first = delivery.link
        delivery.lost(now: start + .seconds(1), using: &random)
        #expect(delivery.link == first)
    }

    @Test mutating func aSilentBrokerTimesTheAttemptOut() {
        var delivery = Delivery(now: start, connectPatience: .seconds(5))
        _ = delivery.shouldConnect(now: start)
        let timeouts = [4, 5, 6].map { delivery.connectTimedOut(now: start + .seconds($0), using: &random) }
        #expect(timeouts == [false, true, false])
    }

    @Test mutating func theBackoffDoublesToItsLongestAndResets() {
        var backoff = ReconnectBackoff()
        var nominal = ReconnectBackoff.first
        for _ in 0..<12 {
            let delay = backoff.nextDelay(using: &random)
            #expect(delay >= nominal / 2 && delay <= nominal)
            nominal = min(nominal * 2, ReconnectBackoff.longest)
        }
        #expect(nominal == ReconnectBackoff.longest)
        backoff.reset()
        let afterReset = backoff.nextDelay(using: &random)
        #expect(afterReset <= ReconnectBackoff.first)
    }

    @Test func theOutboxBoundDropsOnlyBeyondItsLimit() {
        let policy = OutboxPolicy(limit: 3)
        #expect([0, 3, 4, 10].map(policy.overflow(queued:)) == [0, 0, 1, 7])
        #expect(OutboxPolicy(limit: 1).limit == 2)
    }
}

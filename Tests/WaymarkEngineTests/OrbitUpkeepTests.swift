import Testing
import WaymarkClock
import WaymarkReceiver

@testable import WaymarkEngine

/// When the engine keeps the receiver on, or wakes it, for its own orbit prediction.
@Suite struct OrbitUpkeepTests {
    static let timeout = Duration.seconds(50)
    static func at(_ seconds: Double) -> Instant { .zero + .seconds(seconds) }
    static let threeDays = 3 * 24 * 3_600.0

    @Test func withoutAPredictionAFixHoldsTheReceiverForTheComputeTimeOnly() {
        var upkeep = OrbitUpkeep(receiver: .quectelL76, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(100))
        #expect(upkeep.nextDeadline(isOn: true) == Self.at(130))
        let heldWhileComputing = upkeep.needsReceiver(at: Self.at(110), isOn: true)
        #expect(heldWhileComputing)
        let heldAfterComputing = upkeep.needsReceiver(at: Self.at(130), isOn: true)
        #expect(!heldAfterComputing)
        upkeep.poweredDown(at: Self.at(131))
        #expect(upkeep.computedAt == Self.at(131))
        // A fresh prediction: the next short stretch is not held.
        upkeep.fixArrived(at: Self.at(7_200))
        let heldWithAFreshPrediction = upkeep.needsReceiver(at: Self.at(7_201), isOn: true)
        #expect(!heldWithAFreshPrediction)
    }

    @Test func aStillReceiverIsWokenOnceBeforeThePredictionExpires() {
        var upkeep = OrbitUpkeep(receiver: .ubloxM8, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(0))
        upkeep.poweredDown(at: Self.at(60))
        let due = Self.at(60 + Self.threeDays - 3_600)
        #expect(upkeep.nextDeadline(isOn: false) == due)
        let wokenBeforeDue = upkeep.needsReceiver(at: due - .seconds(1), isOn: false)
        #expect(!wokenBeforeDue)
        let wokenWhenDue = upkeep.needsReceiver(at: due, isOn: false)
        #expect(wokenWhenDue)
        #expect(upkeep.refreshingSince == due)
        upkeep.fixArrived(at: due + .seconds(2))
        let heldWhileRefreshing = upkeep.needsReceiver(at: due + .seconds(20), isOn: true)
        #expect(heldWhileRefreshing)
        let heldAfterRefreshing = upkeep.needsReceiver(at: due + .seconds(32), isOn: true)
        #expect(!heldAfterRefreshing)
        upkeep.poweredDown(at: due + .seconds(32))
        #expect(upkeep.computedAt == due + .seconds(32))
        #expect(upkeep.nextDeadline(isOn: false) == due + .seconds(32 + Self.threeDays - 3_600))
    }

    @Test func aRefreshWithoutAFixGivesUpAndIsNotTriedAgain() {
        var upkeep = OrbitUpkeep(receiver: .mediatekMT3339, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(0))
        upkeep.poweredDown(at: Self.at(60))
        let due = Self.at(60 + Self.threeDays - 3_600)
        let wokenWhenDue = upkeep.needsReceiver(at: due, isOn: false)
        #expect(wokenWhenDue)
        #expect(upkeep.nextDeadline(isOn: true) == due + Self.timeout)
        let heldPastTheTimeout = upkeep.needsReceiver(at: due + Self.timeout, isOn: true)
        #expect(!heldPastTheTimeout)
        upkeep.poweredDown(at: due + Self.timeout)
        #expect(upkeep.nextDeadline(isOn: false) == nil)
        let wokenAgain = upkeep.needsReceiver(at: due + .seconds(3_000), isOn: false)
        #expect(!wokenAgain)
    }

    @Test func aReceiverWithoutPredictionIsNeverHeldOrWoken() {
        var profile = ReceiverProfile.ubloxM8
        profile.orbitPrediction = nil
        var upkeep = OrbitUpkeep(receiver: profile, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(0))
        let heldAfterAFix = upkeep.needsReceiver(at: Self.at(1), isOn: true)
        #expect(!heldAfterAFix)
        upkeep.poweredDown(at: Self.at(60))
        #expect(upkeep.nextDeadline(isOn: false) == nil)
        let wokenDaysLater = upkeep.needsReceiver(at: Self.at(10 * Self.threeDays), isOn: false)
        #expect(!wokenDaysLater)
    }
}

import Testing
import WaymarkClock
import WaymarkReceiver

@testable import WaymarkEngine

/// When the engine wakes a paused receiver to keep its start hot.
@Suite struct OrbitUpkeepTests {
    static let timeout = Duration.seconds(50)
    static let margin = OrbitUpkeep.wakeMargin
    static let threeDays = Duration.seconds(3 * 24 * 3_600)
    static func at(_ seconds: Double) -> Instant { .zero + .seconds(seconds) }

    @Test func aPauseShorterThanTheEphemerisCostsNothing() {
        var upkeep = OrbitUpkeep(receiver: .quectelL76, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(100))
        upkeep.fixArrived(at: Self.at(110))
        upkeep.poweredDown(at: Self.at(110))
        // Ten seconds of tracking computed no prediction; the ephemeris holds for two hours.
        #expect(upkeep.computedAt == nil)
        let due = Self.at(110) + ReceiverProfile.quectelL76.ephemerisValidity - Self.margin
        #expect(upkeep.nextDeadline(isOn: false) == due)
        let wokenBefore = upkeep.needsReceiver(at: due - .seconds(1), isOn: false)
        #expect(!wokenBefore)
        // Moving again within the two hours: tracking resumes, nothing was spent.
        upkeep.fixArrived(at: Self.at(3_600))
        #expect(upkeep.nextDeadline(isOn: true) == nil)
    }

    @Test func aPausedReceiverIsWokenBeforeItsEphemerisRunsOutAndKeptUntilThePredictionIsComputed() {
        var upkeep = OrbitUpkeep(receiver: .ubloxM8, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(0))
        upkeep.poweredDown(at: Self.at(5))
        let due = Self.at(0) + ReceiverProfile.ubloxM8.ephemerisValidity - Self.margin
        let woken = upkeep.needsReceiver(at: due, isOn: false)
        #expect(woken)
        #expect(upkeep.wakingSince == due)
        upkeep.fixArrived(at: due + .seconds(1))
        #expect(upkeep.nextDeadline(isOn: true) == due + .seconds(31))
        let heldWhileComputing = upkeep.needsReceiver(at: due + .seconds(20), isOn: true)
        #expect(heldWhileComputing)
        let heldOnceComputed = upkeep.needsReceiver(at: due + .seconds(31), isOn: true)
        #expect(!heldOnceComputed)
        #expect(upkeep.computedAt == due + .seconds(31))
        upkeep.poweredDown(at: due + .seconds(31))
        // The prediction holds for three days: the next wake renews it just before.
        #expect(upkeep.nextDeadline(isOn: false) == due + .seconds(31) + Self.threeDays - Self.margin)
    }

    @Test func trackingForTheComputeTimeComputesAPredictionWithoutAWake() {
        var upkeep = OrbitUpkeep(receiver: .mediatekMT3339, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(0))
        upkeep.fixArrived(at: Self.at(45))
        upkeep.poweredDown(at: Self.at(45))
        #expect(upkeep.computedAt == Self.at(45))
        #expect(upkeep.nextDeadline(isOn: false) == Self.at(45) + Self.threeDays - Self.margin)
    }

    @Test func aWakeWithoutAFixGivesUpAndIsNotTriedAgainForTheSameExpiry() {
        var upkeep = OrbitUpkeep(receiver: .mediatekMT3339, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(0))
        upkeep.poweredDown(at: Self.at(60))
        let due = Self.at(60) + Self.threeDays - Self.margin
        let woken = upkeep.needsReceiver(at: due, isOn: false)
        #expect(woken)
        #expect(upkeep.nextDeadline(isOn: true) == due + Self.timeout)
        let heldPastTheTimeout = upkeep.needsReceiver(at: due + Self.timeout, isOn: true)
        #expect(!heldPastTheTimeout)
        upkeep.poweredDown(at: due + Self.timeout)
        #expect(upkeep.nextDeadline(isOn: false) == nil)
        let wokenAgain = upkeep.needsReceiver(at: due + .seconds(300), isOn: false)
        #expect(!wokenAgain)
    }

    @Test func aWakeAfterTheStartStoppedBeingHotDoesNotHappen() {
        var upkeep = OrbitUpkeep(receiver: .quectelL76, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(0))
        upkeep.poweredDown(at: Self.at(5))
        // First asked long after the ephemeris expired (no one held a subscription meanwhile).
        let wokenLate = upkeep.needsReceiver(at: Self.at(3 * 3_600), isOn: false)
        #expect(!wokenLate)
        #expect(upkeep.nextDeadline(isOn: false) == nil)
    }

    @Test func aReceiverWithoutPredictionIsNeverWoken() {
        var profile = ReceiverProfile.ubloxM8
        profile.orbitPrediction = nil
        var upkeep = OrbitUpkeep(receiver: profile, acquisitionTimeout: Self.timeout)
        upkeep.fixArrived(at: Self.at(0))
        upkeep.poweredDown(at: Self.at(60))
        #expect(upkeep.nextDeadline(isOn: false) == nil)
        let woken = upkeep.needsReceiver(at: Self.at(4 * 3_600 - 600), isOn: false)
        #expect(!woken)
    }
}

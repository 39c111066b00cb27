import Foundation
import Testing
import WaymarkBoard
import WaymarkBridgeCore
import WaymarkLocation
@testable import WaymarkBridge

/// The outbox's regions and receipts: a region event taken twice (the daemon sends it again
/// when the bridge crashed after its outbox committed it but before the acknowledgement
/// reached the daemon) makes its transition once, and the region's state survives a reopening.
@Suite struct OutboxRegionTests {
    let directory = NSTemporaryDirectory() + "waymark-outbox-\(getpid())-\(UUID().uuidString.prefix(8))"
    let home = MQTTSettings.Region(name: "Home", latitude: 47.3769, longitude: 8.5417, radius: 150)

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func open() throws -> Outbox { try Outbox(path: directory + "/outbox.sqlite", policy: OutboxPolicy(limit: 100)) }

    func event(_ state: RegionEvent.State, second: Int64, sequence: UInt64?, region: String = "Home") -> RegionEvent {
        RegionEvent(region: region, state: state, date: Timestamp(nanosecondsSinceEpoch: second * 1_000_000_000), fix: nil, sequence: sequence)
    }

    /// Appends `events` and returns the transitions the outbox made of them.
    func take(_ events: [RegionEvent], in outbox: Outbox) throws -> [String] {
        var made: [String] = []
        try outbox.append([], events: events, droppedBefore: 0, inFlight: nil) { event, transition in
            made.append("\(transition.rawValue) \(event.region)")
            return OutgoingMessage(topic: "t", payload: "\(transition.rawValue) \(event.region) \(event.date)", retain: false)
        }
        return made
    }

    @Test func anEventTakenAgainAfterACrashMakesNoSecondTransition() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var outbox = try open()
        let regions = try outbox.regions([home], now: 1_000)
        #expect(regions.map(\.created) == [1_000])
        // The state assumed when the condition was added (`unknown`), then outside: no transition.
        #expect(try take([event(.undecided, second: 10, sequence: 1), event(.outside, second: 11, sequence: 2)], in: outbox).isEmpty)
        #expect(try take([event(.inside, second: 20, sequence: 3)], in: outbox) == ["enter Home"])
        // The crash: reopened, the daemon sends 3 again (not acknowledged), then 4 and 5.
        outbox = try open()
        #expect(try outbox.regions([home], now: 2_000).map(\.created) == [1_000], "the creation time is kept")
        #expect(try take([event(.inside, second: 20, sequence: 3)], in: outbox).isEmpty)
        #expect(try take([event(.outside, second: 30, sequence: 4), event(.outside, second: 30, sequence: 4)], in: outbox) == ["leave Home"])
        #expect(try take([event(.inside, second: 40, sequence: 5)], in: outbox) == ["enter Home"])
        // Without a store the daemon sends an event once and without a sequence: taken as it comes.
        #expect(try take([event(.outside, second: 50, sequence: nil)], in: outbox) == ["leave Home"])
        #expect(try outbox.count() == 4)
        // An event of a condition that is no longer a configured region publishes nothing.
        #expect(try take([event(.inside, second: 60, sequence: 6, region: "Gone")], in: outbox).isEmpty)
    }

    @Test func aMovedRegionStartsAfreshAndAForgottenOneIsRemoved() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outbox = try open()
        let office = MQTTSettings.Region(name: "Office", latitude: 47.38, longitude: 8.55, radius: 50)
        _ = try outbox.regions([home, office], now: 1_000)
        #expect(try take([event(.inside, second: 20, sequence: 1)], in: outbox) == ["enter Home"])
        var moved = home
        moved.radius = 200
        #expect(try outbox.regions([moved], now: 2_000).map(\.created) == [2_000])
        // Its state was forgotten with its old circle: inside again is an enter of the new one.
        #expect(try take([event(.inside, second: 30, sequence: 2)], in: outbox) == ["enter Home"])
        #expect(try take([event(.inside, second: 31, sequence: 3, region: "Office")], in: outbox).isEmpty)
    }
}

/// The inbox never drops a region event: beyond its bound it refuses one (the task waits).
@Suite struct BridgeInboxTests {
    @Test func aFullInboxRefusesARegionEventUntilTheLoopTakesThem() {
        let inbox = BridgeInbox(policy: OutboxPolicy(limit: 2))
        let event = RegionEvent(region: "Home", state: .inside, date: Timestamp(nanosecondsSinceEpoch: 0), fix: nil, sequence: 1)
        let accepted = (0..<(BridgeInbox.mostEvents + 1)).map { _ in inbox.submit(event, acknowledge: { _ in }) }
        #expect(accepted.filter { $0 }.count == BridgeInbox.mostEvents && accepted.last == false)
        let taken = inbox.take()
        #expect(taken.events.count == BridgeInbox.mostEvents && taken.dropped == 0)
        let acceptedAgain = inbox.submit(event, acknowledge: { _ in })
        #expect(acceptedAgain)
    }
}

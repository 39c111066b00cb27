import Foundation
import Testing
import WaymarkTestFixtures

/// Regions through waymark-mqtt: the bridge's own monitor on the real waymarkd (with a store,
/// so that events wait for their acknowledgement; a daemon with a store enforces
/// authorization, so the bridge runs as its own user, granted by the operator), a walk east from the start through regions
/// on its path, and what a subscriber of the real mosquitto sees on `owntracks/jane/pi/event`.
@Suite("waymark-mqtt transitions with a real broker", .serialized, .ownThread, .timeLimit(.minutes(4)))
struct TransitionTests {
    /// The walk starts now: the daemon dates a condition added before its first fix by the
    /// system clock, and decides it only on later fixes (a scenario dated in the past would
    /// never decide it).
    static var start: String {
        let formatter = ISO8601DateFormatter()
        return "start \(formatter.string(from: Date())) 47.3769 8.5417 408\n"
    }

    /// Metres east of the start as a longitude (47.3769° N).
    static func east(_ metres: Double) -> Double { 8.5417 + metres / (111_319.49 * cos(47.3769 * .pi / 180)) }

    static func region(_ name: String, east metres: Double, radius: Double, north: Double = 0) -> String {
        let latitude = 47.3769 + north / 111_132.95
        return "\n[[mqtt.region]]\ndesc = \"\(name)\"\nlat = \(latitude)\nlon = \(east(metres))\nrad = \(radius)\n"
    }

    /// The Bakery lies on the walk (entered about 110 m east, left about 190 m east); Elsewhere
    /// 5 km north of it is never entered.
    static let bakery = region("Bakery", east: 150, radius: 40) + region("Elsewhere", east: 0, radius: 100, north: 5_000)

    /// The transitions in order, a QoS 1 repeat (the same payload right after itself) removed and counted.
    static func withoutRepeats(_ transitions: [Received]) -> (transitions: [Received], repeats: Int) {
        var unique: [Received] = []
        for transition in transitions where unique.last?.payload != transition.payload { unique.append(transition) }
        return (unique, transitions.count - unique.count)
    }

    @Test func aCrossingIsEnterThenLeaveAtTheDecidingFixAndTheRegionsAreRetainedWaypoints() throws {
        let fleet = try Fleet()
        try fleet.broker.start()
        let subscriber = try fleet.subscribe()
        try fleet.startDaemon(Self.start + "walk 5m heading=90\nstill 1h\n", enforcing: true)
        try fleet.waymark("auth", "grant", "appID:org.waymark.mqtt")
        try fleet.startBridge(Self.bakery)
        try waitUntil("enter and leave", seconds: 90) { subscriber.transitions.count >= 2 }
        sleep(2)
        let transitions = subscriber.transitions
        #expect(transitions.compactMap(\.transition) == ["enter Bakery", "leave Bakery"])
        #expect(transitions.allSatisfy { $0.topic == "owntracks/jane/pi/event" && !$0.retained })
        for transition in transitions {
            #expect(transition.trigger == "c" && transition.json["tid"] as? String == "pi")
            #expect(transition.json["wtst"] as? Int != nil)
            // lat, lon, acc and tst are those of a location the bridge published: the deciding fix.
            let fix = subscriber.locations.first { $0.tst == transition.tst }
            #expect(fix != nil, "no location at \(transition.tst ?? -1)")
            for key in ["lat", "lon", "acc"] { #expect(fix?.json[key] as? Double == transition.json[key] as? Double) }
        }
        // The entering fix is east of the Bakery's western edge, the leaving one past its eastern edge.
        let longitudes = transitions.compactMap { $0.json["lon"] as? Double }
        #expect(longitudes.count == 2 && longitudes[0] > Self.east(100) && longitudes[1] > Self.east(190))

        // A subscriber that comes later gets the regions at once, retained.
        let late = try fleet.subscribe("owntracks/jane/pi/waypoints", count: 1)
        try waitUntil("the retained waypoints", seconds: 10) { !late.received.isEmpty }
        let waypoints = try #require(late.received.first)
        #expect(waypoints.retained && waypoints.type == "waypoints")
        let list = try #require(waypoints.json["waypoints"] as? [[String: Any]])
        #expect(list.compactMap { $0["desc"] as? String } == ["Bakery", "Elsewhere"])
        #expect(list.map { $0["rad"] as? Int } == [40, 100])
        print("crossing: \(transitions.compactMap(\.transition)); waypoints retained")
    }

    @Test func aBrokerRestartDuringTheCrossingLosesNothing() throws {
        let fleet = try Fleet()
        try fleet.broker.start()
        let subscriber = try fleet.subscribe(session: "transition-watcher")
        try fleet.startDaemon(Self.start + "walk 5m heading=90\nstill 1h\n", enforcing: true)
        try fleet.waymark("auth", "grant", "appID:org.waymark.mqtt")
        try fleet.startBridge(Self.bakery)
        // The broker stops about 60 m east of the start and comes back about 240 m east: both
        // crossings happen while it is away.
        try waitUntil("60 m walked", seconds: 60) { subscriber.locations.count >= 43 }
        try fleet.broker.restart(after: 14)
        try waitUntil("enter and leave", seconds: 90) { subscriber.transitions.count >= 2 }
        sleep(2)
        let (transitions, repeats) = Self.withoutRepeats(subscriber.transitions)
        #expect(transitions.compactMap(\.transition) == ["enter Bakery", "leave Bakery"])
        #expect(subscriber.received.contains { $0.type == "status" })
        print("broker restart during the crossing: \(transitions.compactMap(\.transition)), \(repeats) QoS 1 repeats")
    }

    /// The bridge is killed (SIGKILL) every 0.3–1.5 s while the device walks through three
    /// regions, with the broker away, so that nothing leaves the outbox and a subscriber could
    /// see any event taken twice; then the broker comes back and one bridge runs to the end.
    @Test func aBridgeKilledOverAndOverLosesNoTransitionAndRepeatsNone() throws {
        let fleet = try Fleet()
        let regions = Self.region("Bakery", east: 150, radius: 40) + Self.region("Office", east: 350, radius: 60)
            + Self.region("Park", east: 600, radius: 50)
        try fleet.startDaemon(Self.start + "walk 12m heading=90\nstill 1h\n", speed: 20, enforcing: true)
        try fleet.waymark("auth", "grant", "appID:org.waymark.mqtt")
        var kills = 0
        let walk = Date().addingTimeInterval(12 * 60 / 20 + 3)
        while Date() < walk {
            try fleet.startBridge(regions)
            usleep(UInt32.random(in: 300_000...1_500_000))
            fleet.stopBridge(SIGKILL)
            kills += 1
        }
        try fleet.broker.start()
        let subscriber = try fleet.subscribe()
        try fleet.startBridge(regions)
        try waitUntil("six transitions", seconds: 90) { subscriber.transitions.count >= 6 }
        sleep(3)
        #expect(
            subscriber.transitions.compactMap(\.transition)
                == ["enter Bakery", "leave Bakery", "enter Office", "leave Office", "enter Park", "leave Park"])
        let again = fleet.bridgeOutput.components(separatedBy: "taken already").count - 1
        print("bridge killed \(kills) times during three crossings, \(again) times an event came again after its commit: \(subscriber.transitions.compactMap(\.transition))")
    }
}

/// The bridge on a daemon that enforces authorization (`--store`, `--policies`): an app like
/// any other (docs/ecosystem.md's policy, here by uid), run as its own user, that gets what
/// the operator grants it.
@Suite("waymark-mqtt on an enforcing daemon", .serialized, .ownThread, .timeLimit(.minutes(4)))
struct EnforcedBridgeTests {
    @Test func nothingBeforeTheGrantThenFullLocationsAndTransitions() throws {
        let fleet = try Fleet()
        try fleet.broker.start()
        let subscriber = try fleet.subscribe()
        try fleet.startDaemon(TransitionTests.start + "still 20s\nwalk 5m heading=90\nstill 1h\n", enforcing: true)
        try fleet.startBridge(TransitionTests.bakery)
        try waitUntil("the bridge's status", seconds: 30) { subscriber.received.contains { $0.type == "status" } }
        // The bridge asked (in use, undecided): the daemon holds its request for the operator.
        try waitUntil("the bridge's request", seconds: 30) { fleet.daemonOutput.contains("appID:org.waymark.mqtt asks for authorization") }
        sleep(3)
        #expect(subscriber.locations.isEmpty && subscriber.transitions.isEmpty, "nothing before the operator grants")
        try fleet.waymark("auth", "grant", "appID:org.waymark.mqtt")
        try waitUntil("enter and leave", seconds: 90) { subscriber.transitions.count >= 2 }
        #expect(subscriber.transitions.compactMap(\.transition) == ["enter Bakery", "leave Bakery"])
        #expect(subscriber.locations.allSatisfy { ($0.json["acc"] as? Int ?? .max) < 100 }, "full accuracy")
        print("enforcing, granted full: \(subscriber.locations.count) locations, \(subscriber.transitions.compactMap(\.transition))")
    }

    @Test func reducedAccuracyGivesCellsAndNoTransitions() throws {
        let fleet = try Fleet()
        try fleet.broker.start()
        let subscriber = try fleet.subscribe()
        try fleet.startDaemon(TransitionTests.start + "walk 5m heading=90\nstill 1h\n", enforcing: true)
        try fleet.waymark("auth", "grant", "appID:org.waymark.mqtt", "--accuracy", "reduced")
        try fleet.startBridge(TransitionTests.bakery)
        try waitUntil("a location", seconds: 60) { !subscriber.locations.isEmpty }
        // The walk crosses the Bakery in the first 2.5 simulated minutes (15 s): wait past its end.
        sleep(25)
        let locations = subscriber.locations
        #expect(Set(locations.map { "\($0.json["lat"] ?? "") \($0.json["lon"] ?? "")" }).count <= 2, "cells, not the walk")
        // One message per cell, and one when the device comes to rest: not the same cell again
        // for every fix (about 260 in these 25 s before).
        #expect(locations.count <= 3, "\(locations.map(\.json))")
        #expect(locations.allSatisfy { ($0.json["acc"] as? Int ?? 0) > 1_000 })
        #expect(subscriber.transitions.isEmpty, "accuracyLimited decides nothing: no transition")
        print("enforcing, granted reduced: \(locations.count) locations in cells, no transition")
    }
}

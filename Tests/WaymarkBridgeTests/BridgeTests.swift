import Foundation
import Testing
import WaymarkStore
import WaymarkTestFixtures

/// waymark-mqtt between the real waymarkd (a simulated walk, 10 times faster than real time:
/// a fix, and so a location message, every simulated second) and a real mosquitto broker,
/// watched by `mosquitto_sub`. docs/ecosystem.md, "MQTT, OwnTracks and Home Assistant".
@Suite("waymark-mqtt with a real broker", .serialized, .ownThread, .timeLimit(.minutes(3)))
struct BridgeTests {
    static let start = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408\n"

    /// The locations' times step by exactly one second between two messages, except after
    /// the one that came to rest (`t` = `k`), and except a trigger that comes with the last
    /// location again (the same time and place): when no fix comes for 2 s while the
    /// accelerometer is calm, the pause is sent with the last location (docs/semantics.md),
    /// and on a loaded machine the simulated walk's fixes can wait that long. A QoS 1 repeat
    /// (the same message again, right after itself) is removed first and counted.
    static func checkEverySecondInOrder(_ locations: [Received]) -> (repeats: Int, gaps: [String]) {
        var unique: [Received] = []
        var repeats = 0
        for location in locations {
            if let last = unique.last, last.payload == location.payload {
                repeats += 1
            } else {
                unique.append(location)
            }
        }
        var gaps: [String] = []
        for (previous, next) in zip(unique, unique.dropFirst()) where previous.trigger != "k" {
            let lastAgain = next.trigger != nil && next.tst == previous.tst
                && next.json["lat"] as? Double == previous.json["lat"] as? Double && next.json["lon"] as? Double == previous.json["lon"] as? Double
            if !lastAgain, next.tst != previous.tst.map({ $0 + 1 }) {
                gaps.append("\(previous.tst ?? -1) → \(next.tst ?? -1)\(next.trigger.map { " (t \($0))" } ?? "")")
            }
        }
        return (repeats, gaps)
    }

    @Test func aWalkWithAStopArrivesInOrderWithRetainedLastLocationStatusAndLastWill() throws {
        let fleet = try Fleet()
        try fleet.broker.start()
        let subscriber = try fleet.subscribe()
        try fleet.startDaemon(Self.start + "walk 60s heading=90\nstill 60s\nwalk 30s heading=90\nstill 1h\n")
        try fleet.startBridge()
        try waitUntil("walk, rest, walk, rest", seconds: 60) { subscriber.locations.compactMap(\.trigger) == ["k", "v", "k"] }
        let locations = subscriber.locations
        let (repeats, gaps) = Self.checkEverySecondInOrder(locations)
        #expect(repeats == 0)
        #expect(gaps.isEmpty, "missing seconds: \(gaps)")
        #expect(locations.allSatisfy { $0.topic == "owntracks/jane/pi" && !$0.retained })
        let first = try #require(locations.first?.json)
        #expect(Set(first.keys).isSuperset(of: ["_type", "lat", "lon", "acc", "tst", "tid", "vel", "cog", "alt", "vac", "created_at"]))
        #expect(first["tid"] as? String == "pi")
        let status = try #require(subscriber.received.first { $0.type == "status" })
        #expect(status.topic == "owntracks/jane/pi/status")
        #expect((status.json["waymark"] as? [String: Any])?["online"] as? Bool == true)

        // A subscriber that comes later gets the last location at once, retained.
        let late = try fleet.subscribe("owntracks/jane/pi", count: 1)
        try waitUntil("the retained location", seconds: 10) { !late.received.isEmpty }
        #expect(late.received.first?.retained == true)
        #expect(late.received.first?.payload == locations.last?.payload)

        // The bridge dies: the broker publishes its last will.
        fleet.stopBridge(SIGKILL)
        try waitUntil("the last will", seconds: 30) { subscriber.received.contains { $0.type == "lwt" } }
        let will = try #require(subscriber.received.first { $0.type == "lwt" })
        #expect(will.topic == "owntracks/jane/pi" && !will.retained)
        #expect(will.tst != nil)
        print("walk with a stop: \(locations.count) locations, triggers k, v, k; last will after kill -9")
    }

    @Test func brokerRestartsAndAFrozenLinkLoseNothing() throws {
        let fleet = try Fleet()
        try fleet.broker.start()
        let subscriber = try fleet.subscribe(session: "bridge-test-watcher")
        try fleet.startDaemon(Self.start + "walk 4h heading=90\n")
        try fleet.startBridge()
        try waitUntil("20 locations", seconds: 60) { subscriber.locations.count >= 20 }

        // The broker stops for 3 s (and takes its persistent state with it), ...
        try fleet.broker.restart(after: 3)
        let beforeRestart = subscriber.locations.count
        try waitUntil("20 locations after the restart", seconds: 60) { subscriber.locations.count >= beforeRestart + 50 }

        // ... then answers nothing for 12 s: packets vanish, keep-alive (5 s) must notice.
        fleet.broker.freeze()
        sleep(12)
        fleet.broker.resume()
        let beforeThaw = subscriber.locations.count
        try waitUntil("the backlog and 30 more", seconds: 60) { subscriber.locations.count >= beforeThaw + 150 }
        fleet.stopDaemon()

        let locations = subscriber.locations
        let (repeats, gaps) = Self.checkEverySecondInOrder(locations)
        #expect(gaps.isEmpty, "missing or misordered seconds: \(gaps)")
        let log = fleet.bridgeOutput
        #expect(log.contains("connected to 127.0.0.1"))
        print("broker restart and a frozen link: \(locations.count) locations, \(repeats) QoS 1 repeats, no gap; bridge log:\n\(log)")
    }

    @Test("a broker restarted without its state gets the last location again, retained, and the bridge logs the daemon going away (it republished only its status, and logged nothing)")
    func aBrokerThatForgotGetsTheLastLocationAgain() throws {
        let fleet = try Fleet()
        try fleet.broker.start()
        let subscriber = try fleet.subscribe()
        try fleet.startDaemon(Self.start + "walk 20s heading=90\nstill 1h\n")
        try fleet.startBridge()
        try waitUntil("the walk and the rest", seconds: 60) { subscriber.locations.contains { $0.trigger == "k" } }
        sleep(2)
        let last = try #require(subscriber.locations.last)

        try fleet.broker.restartForgetting(after: 1)
        let connections = { fleet.bridgeOutput.components(separatedBy: "connected to 127.0.0.1").count - 1 }
        try waitUntil("the bridge to connect again", seconds: 60) { connections() >= 2 }
        let late = try fleet.subscribe("owntracks/jane/pi", count: 1)
        try waitUntil("the retained location", seconds: 30) { !late.received.isEmpty }
        #expect(late.received.first?.retained == true)
        #expect(late.received.first?.payload == last.payload)

        fleet.stopDaemon()
        try waitUntil("the log to say the daemon went away", seconds: 30) { fleet.bridgeOutput.contains("no location: daemonUnavailable") }
    }

    @Test func theOutboxSurvivesKillNineKeepsTheNewestWithinItsBoundAndCountsItsDrops() throws {
        let fleet = try Fleet()
        let limit = 20
        // No broker yet: everything goes to the outbox.
        try fleet.startDaemon(Self.start + "walk 4h heading=90\n")
        try fleet.startBridge("outbox_limit = \(limit)\n")
        try waitUntil("35 messages stored", seconds: 60) { (try? Self.outbox(fleet.outboxPath).last) ?? 0 >= 35 }
        usleep(UInt32.random(in: 0..<500_000))
        fleet.stopBridge(SIGKILL)
        fleet.stopDaemon()

        let stored = try Self.outbox(fleet.outboxPath)
        let rows = stored.payloads
        #expect(rows.count == limit)
        #expect(stored.first == stored.last - Int64(limit) + 1, "the oldest were dropped first")
        #expect(stored.dropped == stored.last - Int64(limit))

        try fleet.broker.start()
        let subscriber = try fleet.subscribe()
        try fleet.startBridge("outbox_limit = \(limit)\n")
        try waitUntil("the \(limit) stored locations", seconds: 60) { subscriber.locations.count >= limit }
        usleep(500_000)
        #expect(subscriber.locations.map(\.payload) == rows)
        let status = try #require(subscriber.received.first { $0.type == "status" }?.json["waymark"] as? [String: Any])
        #expect(status["dropped"] as? Int == Int(stored.dropped))
        #expect(status["queued"] as? Int == limit)
        #expect(try Self.outbox(fleet.outboxPath).payloads.isEmpty)
        print("outbox: \(stored.last) stored, \(stored.dropped) dropped, \(rows.count) kept and delivered after kill -9")
    }

    @Test func tlsWithAClientCertificateAndAPasswordFile() throws {
        let fleet = try Fleet(tls: true)
        try fleet.broker.start()
        let subscriber = try fleet.subscribe()
        try fleet.startDaemon(Self.start + "walk 4h heading=90\n")
        try fleet.startBridge(overTLS: true)
        try waitUntil("3 locations over TLS", seconds: 60) { subscriber.locations.count >= 3 }
        #expect(Self.checkEverySecondInOrder(subscriber.locations).gaps.isEmpty)
        fleet.stopBridge()

        // The wrong password: the broker refuses, the bridge says so and keeps its messages.
        try (Broker.password + "x\n").write(toFile: fleet.directory + "/wrong", atomically: true, encoding: .utf8)
        let table = try String(contentsOfFile: fleet.directory + "/mqtt.toml", encoding: .utf8)
        try table.replacingOccurrences(of: "/password\"", with: "/wrong\"").write(toFile: fleet.directory + "/wrong.toml", atomically: true, encoding: .utf8)
        let count = subscriber.locations.count
        let refused = try ChildProcess(
            Fleet.binary("waymark-mqtt"), ["--config", fleet.directory + "/wrong.toml", "--state-directory", fleet.directory + "/state"],
            environment: ["WAYMARK_SOCKET": fleet.directory + "/waymark.sock"], log: fleet.directory + "/refused.log")
        try waitUntil("the refusal", seconds: 30) {
            ((try? String(contentsOfFile: fleet.directory + "/refused.log", encoding: .utf8)) ?? "").contains("refused the connection (CONNACK 5)")
        }
        try waitUntil("locations kept in the outbox", seconds: 30) { (try? Self.outbox(fleet.outboxPath).payloads.count) ?? 0 >= 3 }
        refused.stop()
        #expect(subscriber.locations.count == count)
    }

    /// The outbox's messages (oldest first), its first and last sequence numbers and its drop count.
    static func outbox(_ path: String) throws -> (payloads: [String], first: Int64, last: Int64, dropped: Int64) {
        let database = try Database(path: path)
        let payloads = try database.rows("SELECT payload FROM messages ORDER BY sequence") { row throws(StoreError) in try row.string(0) }
        let bounds = try database.rows("SELECT min(sequence), max(sequence) FROM messages") { row throws(StoreError) in
            (row.isNull(0) ? 0 : try row.int64(0), row.isNull(1) ? 0 : try row.int64(1))
        }
        let dropped = try database.rows("SELECT value FROM counters WHERE name = 'dropped'") { row throws(StoreError) in try row.int64(0) }
        return (payloads, bounds.first?.0 ?? 0, bounds.first?.1 ?? 0, dropped.first ?? 0)
    }
}

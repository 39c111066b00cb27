import Foundation
import Testing

/// Monitors end to end (docs/monitoring.md, docs/protocol.md "Monitors"): the real daemon
/// with its store on a simulated morning (a desk, then a walk east out of the circle around
/// it), apps that are processes of other users speaking protocol version 3, killed and
/// started again, and the daemon restarted and killed under them.
@Suite(
    "monitors with the real waymarkd", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: geteuid() == 0, "the apps run under other uids with setpriv, which needs root"))
struct MonitorEndToEndTests {
    static let policies = """
        [[app]]
        uid = 1001
        app_id = "org.example.geofence"
        interactive = true
        relaunch = "geofence"

        [[app]]
        uid = 1003
        app_id = "org.example.denied"
        interactive = true
        """

    /// 4 min at the desk (12 s at 20×), then 10 min walking east at 1.4 m/s: out of a 100 m
    /// circle around the desk after about 70 s of walking.
    static let scenario = "desk 4m\nwalk 10m heading=90\n"
    static var desk: [String: Any] {
        [
            "type": "circularGeographic", "center": ["latitude": 47.3769, "longitude": 8.5417], "radius": 100,
        ]
    }

    /// An app of uid 1001 with its monitor "places" open: its number.
    static func open(_ board: AuthorizedBoard) throws -> (AppProcess, Int) {
        let app = try board.app(uid: 1001, appID: "org.example.geofence", version: 3)
        let monitor = try #require(try app.result("openMonitor", ["name": "places"])["monitor"] as? Int)
        return (app, monitor)
    }

    @Test(
        "an app adds a circle and is killed; the device leaves it; its relaunch is asked for; the app back gets each event once, then none after its acknowledgement"
    )
    func eventsWhileAwayAreDeliveredOnce() throws {
        let board = try AuthorizedBoard(policies: Self.policies, scenario: Self.scenario, relaunching: true)
        let trigger = board.relaunchDirectory + "/geofence"
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.geofence")
        try board.auth("grant", "appID:org.example.denied")
        try board.auth("deny", "appID:org.example.denied")
        do {
            let (app, monitor) = try Self.open(board)
            // A fix first: the simulated morning is days before the system clock, and requests
            // are dated on the fixes' clock once there is one.
            _ = try app.result("requestLocation", ["timeout": 10])
            _ = try app.result("addCondition", ["monitor": monitor, "identifier": "desk", "condition": Self.desk])
            let denied = try board.app(uid: 1003, appID: "org.example.denied", version: 3)
            let deniedMonitor = try #require(try denied.result("openMonitor", ["name": "places"])["monitor"] as? Int)
            _ = try denied.result("addCondition", ["monitor": deniedMonitor, "identifier": "desk", "condition": Self.desk])
            app.stop()
            // The walk leaves the circle: the denied app, connected all along, gets nothing.
            denied.watch(for: 25)
            #expect(denied.monitorEvents.isEmpty)
        }
        // The first event while it was away asked for the app to be started (its policy's trigger).
        #expect(FileManager.default.fileExists(atPath: trigger))
        let (back, monitor) = try Self.open(board)
        // Back: the trigger has served and is gone (a path unit would start it again on every stop).
        #expect(!FileManager.default.fileExists(atPath: trigger))
        back.watch(for: 1)
        let states = back.monitorEvents.map { $0["state"] as? String }
        #expect(states == ["satisfied", "unsatisfied"], "the events of the time away, in order: \(back.monitorEvents)")
        #expect(back.monitorEvents.allSatisfy { $0["identifier"] as? String == "desk" && $0["monitor"] as? Int == monitor })
        let sequences = back.monitorEvents.compactMap { $0["sequence"] as? Int }
        #expect(sequences.count == 2 && sequences == sequences.sorted())
        let record = try #require(try back.result("monitorRecord", ["monitor": monitor, "identifier": "desk"])["record"] as? [String: Any])
        #expect((record["lastEvent"] as? [String: Any])?["state"] as? String == "unsatisfied")
        // Not acknowledged yet: a second connection gets them again, with the same sequences.
        let (again, _) = try Self.open(board)
        again.watch(for: 1)
        #expect(again.monitorEvents.compactMap { $0["sequence"] as? Int } == sequences)
        _ = try back.result("acknowledgeMonitorEvents", ["monitor": monitor, "through": try #require(sequences.last)])
        let (last, _) = try Self.open(board)
        last.watch(for: 1)
        #expect(last.monitorEvents.isEmpty, "acknowledged events are not delivered again")
    }

    @Test("the 21st condition of an app is unmonitored with conditionLimitExceeded; a restart and a kill -9 keep every condition and state")
    func limitsAndRestarts() throws {
        let board = try AuthorizedBoard(policies: Self.policies, scenario: "desk 60m\n")
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.geofence")
        let (app, monitor) = try Self.open(board)
        let other = try #require(try app.result("openMonitor", ["name": "work"])["monitor"] as? Int)
        for index in 0..<20 {
            let circle: [String: Any] = ["type": "circularGeographic", "center": ["latitude": 10.0, "longitude": Double(index)], "radius": 50]
            _ = try app.result("addCondition", ["monitor": index < 12 ? monitor : other, "identifier": "c\(index)", "condition": circle])
        }
        #expect(app.monitorEvents.isEmpty)
        _ = try app.result("addCondition", ["monitor": other, "identifier": "c20", "condition": Self.desk])
        let over = try app.next { $0["event"] as? String == "monitorEvent" }
        #expect(over["identifier"] as? String == "c20" && over["state"] as? String == "unmonitored")
        #expect(over["diagnostics"] as? [String] == ["conditionLimitExceeded"])
        #expect(try app.errorCode("addCondition", ["monitor": monitor, "identifier": "", "condition": Self.desk]) == "invalidMessage")
        #expect(try app.errorCode("addCondition", ["monitor": 99, "identifier": "x", "condition": Self.desk]) == "unknownSubscription")
        let tooLarge: [String: Any] = ["type": "circularGeographic", "center": ["latitude": 1, "longitude": 2], "radius": 1e9]
        #expect(try app.errorCode("addCondition", ["monitor": monitor, "identifier": "x", "condition": tooLarge]) == "invalidMessage")

        for killed in [false, true] {
            try board.restart(killed: killed)
            let (back, places) = try Self.open(board)
            let work = try #require(try back.result("openMonitor", ["name": "work"])["monitor"] as? Int)
            #expect(try back.result("monitorIdentifiers", ["monitor": places])["identifiers"] as? [String] == (0..<12).map { "c\($0)" })
            #expect(try back.result("monitorIdentifiers", ["monitor": work])["identifiers"] as? [String] == (12...20).map { "c\($0)" })
            let kept = try #require(try back.result("monitorRecord", ["monitor": work, "identifier": "c20"])["record"] as? [String: Any])
            #expect((kept["lastEvent"] as? [String: Any])?["state"] as? String == "unmonitored", "restarted with killed: \(killed)")
            #expect(try back.result("monitorRecord", ["monitor": work, "identifier": "nope"])["record"] is NSNull)
        }
    }

    @Test("a daemon restarted with a watched condition in its store asks a fix for it at once, no app connected (the receiver stayed off until a condition changed)")
    func storedConditionsAreWatchedFromTheStart() throws {
        let board = try AuthorizedBoard(policies: Self.policies, scenario: "walk 60m heading=90\n")
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.geofence")
        do {
            let (app, monitor) = try Self.open(board)
            _ = try app.result("addCondition", ["monitor": monitor, "identifier": "desk", "condition": Self.desk])
            app.stop()
        }
        try board.restart()
        // Only the operator's `waymark status` connects: the stored condition alone powers the receiver.
        var transitions = 0
        for _ in 0..<50 where transitions == 0 {
            let status = try JSONSerialization.jsonObject(with: Data(try board.waymark(["status", "--json"]).utf8)) as? [String: Any]
            transitions = status?["transitions"] as? Int ?? 0
            if transitions == 0 { usleep(100_000) }
        }
        #expect(transitions > 0)
    }

    @Test("a stay of 7 minutes is one visit in the diary, with its arrival, departure and place")
    func aDeskStayIsAVisit() throws {
        // 1 min east, 7 min at a desk, 2 min north (30 s at 20×); a circle keeps the monitors
        // (and with them the engine's stationarity) running.
        let board = try AuthorizedBoard(policies: Self.policies, scenario: "walk 1m heading=90\ndesk 7m\nwalk 2m heading=0\n")
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.geofence")
        let (app, monitor) = try Self.open(board)
        _ = try app.result("requestLocation", ["timeout": 10])
        _ = try app.result("addCondition", ["monitor": monitor, "identifier": "start", "condition": Self.desk])
        app.watch(for: 32)
        let visits = try #require(try app.result("visits")["visits"] as? [[String: Any]])
        #expect(visits.count == 1, "\(visits)")
        let visit = try #require(visits.first)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let arrival = try #require(formatter.date(from: visit["arrivalDate"] as? String ?? ""))
        let departure = try #require(formatter.date(from: visit["departureDate"] as? String ?? ""))
        // The engine declares stillness seconds after the stop and motion seconds after it.
        #expect(abs(departure.timeIntervalSince(arrival) - 420) < 30, "stayed \(departure.timeIntervalSince(arrival)) s")
        // The desk is 84 m east of the start (1.4 m/s for a minute).
        let east = ((visit["longitude"] as? Double ?? 0) - 8.5417) * 111_320 * cos(47.3769 * Double.pi / 180)
        let accuracy = visit["horizontalAccuracy"] as? Double ?? 0
        #expect(abs(east - 84) < accuracy + 10, "\(east) m east, ±\(accuracy) m")
    }

    @Test("an app that monitors visits alone (no subscription, no monitor) gets the desk stay's arrival, then its departure; a denied one nothing; the receiver sleeps at the desk")
    func visitMonitoringAlone() throws {
        // 1 min east, 7 min at a desk, 2 min north (30 s at 20×).
        let board = try AuthorizedBoard(policies: Self.policies, scenario: "walk 1m heading=90\ndesk 7m\nwalk 2m heading=0\n")
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.geofence")
        try board.auth("grant", "appID:org.example.denied")
        try board.auth("deny", "appID:org.example.denied")
        let app = try board.app(uid: 1001, appID: "org.example.geofence", version: 3)
        let denied = try board.app(uid: 1003, appID: "org.example.denied", version: 3)
        _ = try app.result("startVisitMonitoring")
        _ = try denied.result("startVisitMonitoring")
        let arrival = try app.next(within: 25) { $0["event"] as? String == "visit" }["visit"] as? [String: Any] ?? [:]
        #expect(arrival["departureDate"] is NSNull, "the arrival comes while the device is at the desk: \(arrival)")
        app.watch(for: 12)
        denied.watch(for: 0.5)
        #expect(denied.visits.isEmpty)
        #expect(app.visits.count == 2, "\(app.visits)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let departure = try #require(app.visits.last)
        #expect(departure["arrivalDate"] as? String == arrival["arrivalDate"] as? String)
        let arrived = try #require(formatter.date(from: departure["arrivalDate"] as? String ?? ""))
        let left = try #require(formatter.date(from: departure["departureDate"] as? String ?? ""))
        let start = try #require(formatter.date(from: "2026-11-22T08:00:00.000Z"))
        // The engine declares stillness seconds after the stop and motion seconds after it.
        #expect(abs(arrived.timeIntervalSince(start) - 60) < 30, "arrived \(arrived)")
        #expect(abs(left.timeIntervalSince(start) - 480) < 30, "left \(left)")
        // Nothing but the visits asked for fixes: the receiver navigated for a few of the ten minutes.
        let status = try #require(try app.result("status")["status"] as? [String: Any])
        let ledger = status["powerLedger"] as? [[String: Any]] ?? []
        let navigating = ledger.filter { ["acquiring", "tracking"].contains($0["state"] as? String) }.compactMap { $0["seconds"] as? Double }.reduce(0, +)
        #expect(status["liveSubscriptions"] as? Int == 0)
        #expect(navigating < 120, "the receiver navigated \(navigating) s: \(ledger)")
    }

    @Test("a visits client killed during the stay and back after the departure gets the arrival and the departure, in order, once; its relaunch is asked for")
    func visitsWhileAwayAreDeliveredOnReturn() throws {
        // 1 min east, 7 min at a desk, 2 min north (30 s at 20×).
        let board = try AuthorizedBoard(policies: Self.policies, scenario: "walk 1m heading=90\ndesk 7m\nwalk 2m heading=0\n", relaunching: true)
        let trigger = board.relaunchDirectory + "/geofence"
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.geofence")
        do {
            let app = try board.app(uid: 1001, appID: "org.example.geofence", version: 3)
            _ = try app.result("startVisitMonitoring")
            // At the desk (from 3 s), before the arrival (5 min into the stay, 18 s).
            app.watch(for: 6)
            #expect(app.visits.isEmpty)
            app.kill()
        }
        // The arrival while it is away asks for the app to be started.
        let deadline = Date().addingTimeInterval(40)
        while !FileManager.default.fileExists(atPath: trigger), Date() < deadline { usleep(200_000) }
        #expect(FileManager.default.fileExists(atPath: trigger), "the arrival asked for the app's relaunch")
        // A connection of the app that does not ask for visits reads the diary until the departure is in it.
        do {
            let diary = try board.app(uid: 1001, appID: "org.example.geofence", version: 3)
            defer { diary.stop() }
            while Date() < deadline {
                let visits = try #require(try diary.result("visits")["visits"] as? [[String: Any]])
                if visits.last?["departureDate"] is String { break }
                usleep(500_000)
            }
            #expect(diary.visits.isEmpty)
        }
        let back = try board.app(uid: 1001, appID: "org.example.geofence", version: 3)
        _ = try back.result("startVisitMonitoring")
        back.watch(for: 1)
        #expect(back.visits.count == 2, "the arrival and the departure of the time away: \(back.visits)")
        #expect(back.visits.first?["departureDate"] is NSNull && back.visits.last?["departureDate"] is String)
        #expect(back.visits.first?["arrivalDate"] as? String == back.visits.last?["arrivalDate"] as? String)
        #expect(back.visitSequences.count == 2 && back.visitSequences == back.visitSequences.sorted())
        _ = try back.result("acknowledgeVisits", ["through": try #require(back.visitSequences.last)])
        let last = try board.app(uid: 1001, appID: "org.example.geofence", version: 3)
        _ = try last.result("startVisitMonitoring")
        last.watch(for: 1)
        #expect(last.visits.isEmpty, "acknowledged visits are not delivered again")
    }
}

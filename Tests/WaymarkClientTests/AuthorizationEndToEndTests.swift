import Foundation
import Testing
import WaymarkTestFixtures

/// Authorization end to end (docs/authorization.md): the real daemon with a store and
/// policies, apps that are processes of other users, the operator through `waymark auth`, and
/// the exact diagnostics each app sees. setpriv needs root (the suite runs as root here and in CI).
@Suite(
    "authorization with the real waymarkd and apps under other uids", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: geteuid() == 0, "the apps run under other uids with setpriv, which needs root"))
struct AuthorizationEndToEndTests {
    /// Each uid is one app, bound to the appID it declares.
    static let policies = """
        [[app]]
        uid = 1001
        app_id = "org.example.full"
        interactive = true

        [[app]]
        uid = 1002
        app_id = "org.example.reduced"
        interactive = true

        [[app]]
        uid = 1003
        app_id = "org.example.denied"
        interactive = true

        [[app]]
        uid = 1004
        app_id = "org.example.guest"
        interactive = true
        restricted = true

        [[app]]
        uid = 1005
        app_id = "org.example.asking"
        interactive = true

        [[app]]
        uid = 1006
        app_id = "org.example.logger"
        interactive = true
        authorization = "whenInUse"
        require_explicit_sessions = true

        [[app]]
        uid = 1007
        app_id = "org.example.background"
        authorization = "whenInUse"

        [[app]]
        uid = 1008
        app_id = "org.example.docking"
        interactive = true
        authorization = "whenInUse"
        accuracy = "reduced"
        """

    /// Where the simulated walk starts.
    static let start = (latitude: 47.3769, longitude: 8.5417)

    @Test("two apps, one full and one reduced: the reduced one gets the same cell centre on every path")
    func fullAndReduced() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.full")
        try board.auth("grant", "appID:org.example.reduced", "--accuracy", "reduced")
        let full = try board.app(uid: 1001, appID: "org.example.full")
        let reduced = try board.app(uid: 1002, appID: "org.example.reduced")
        for app in [full, reduced] {
            let session = try #require(try app.result("startServiceSession", ["authorization": "whenInUse"])["session"] as? Int)
            try app.waitForSessionDiagnostics(session, count: 1)
            #expect(app.sessionDiagnostics[session] == [[]])
            _ = try app.result("startLiveUpdates")
        }
        full.watch(for: 3)
        reduced.watch(for: 1)
        #expect(try full.result("authorizationStatus") as NSDictionary == ["authorization": "whenInUse", "fullAccuracy": true])
        #expect(try reduced.result("authorizationStatus") as NSDictionary == ["authorization": "whenInUse", "fullAccuracy": false])

        let precise = try #require(full.locations.last)
        #expect(try #require(precise["horizontalAccuracy"] as? Double) < 100)
        #expect(full.updateDiagnostics.values.joined().allSatisfy { !$0.contains("accuracyLimited") })

        // Every path gives the reduced app the same centre of a 5 km cell, bare.
        #expect(!reduced.locations.isEmpty)
        #expect(reduced.updateDiagnostics.values.joined().allSatisfy { $0.contains("accuracyLimited") })
        let requested = try #require(try reduced.result("requestLocation", ["timeout": 30])["location"] as? [String: Any])
        let status = try #require(try reduced.result("status")["status"] as? [String: Any])
        let fromStatus = try #require(status["lastLocation"] as? [String: Any])
        for location in reduced.locations + [requested, fromStatus] {
            #expect(Self.coordinate(location) == Self.coordinate(requested))
            #expect(try #require(location["horizontalAccuracy"] as? Double) > 2_500)
            #expect((location["speed"] as? Double ?? -1) < 0)
            #expect((location["course"] as? Double ?? -1) < 0)
            // The truth lies within the cell's radius (the centre is anywhere from 0 to that far).
            #expect(Self.distance(location, precise) < location["horizontalAccuracy"] as? Double ?? 0)
        }
        let fullStatus = try #require(try full.result("status")["status"] as? [String: Any])
        #expect(try #require((fullStatus["lastLocation"] as? [String: Any])?["horizontalAccuracy"] as? Double) < 100)

        // Who is connected: an app sees itself alone, the operator sees everyone.
        let seen = try #require(fullStatus["connectedApps"] as? [[String: Any]])
        #expect(seen.map { [$0["uid"] as? Int ?? -1: $0["app"] as? String ?? ""] } == [[1001: "appID:org.example.full"]])
        let operatorView = try board.waymark(["status"])
        #expect(operatorView.contains("uid 1001: appID:org.example.full\n"))
        #expect(operatorView.contains("uid 1002: appID:org.example.reduced\n"))
    }

    @Test("a gpsd client is the app its uid is: granted reduced, every TPV it reads is the same bare cell centre")
    func gpsdClientReduced() throws {
        let port = try freePort()
        let board = try AuthorizedBoard(policies: Self.policies, arguments: ["--gpsd-port", "\(port)"])
        defer { board.stop() }
        try board.auth("grant", "uid:1002", "--accuracy", "reduced")
        let output = try #require(try ClientProgram.output(
            of: "/usr/bin/setpriv", ["--reuid=1002", "--regid=1002", "--clear-groups", "/usr/bin/gpspipe", "-w", "-n", "12", "127.0.0.1:\(port)"],
            seconds: 30))
        let tpvs = output.split(whereSeparator: \.isNewline).compactMap { line -> [String: Any]? in
            let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            return report?["class"] as? String == "TPV" ? report : nil
        }
        #expect(!tpvs.isEmpty)
        let cells = Set(tpvs.map { [$0["lat"] as? Double ?? .nan, $0["lon"] as? Double ?? .nan] })
        #expect(cells.count == 1)
        #expect(tpvs.allSatisfy { ($0["eph"] as? Double ?? 0) > 2_500 && $0["speed"] == nil && $0["track"] == nil })
        let start = ["latitude": Self.start.latitude, "longitude": Self.start.longitude]
        if let cell = cells.first, let eph = tpvs.first?["eph"] as? Double {
            #expect(Self.distance(["latitude": cell[0], "longitude": cell[1]], start) < eph)
        }
    }

    @Test("denied: authorizationDenied once, no location on any path")
    func denied() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        try board.auth("deny", "appID:org.example.denied")
        let app = try board.app(uid: 1003, appID: "org.example.denied")
        try expectWithheld(app, flags: ["authorizationDenied"])
        #expect(try app.result("authorizationStatus") as NSDictionary == ["authorization": "denied", "fullAccuracy": true])
    }

    @Test("restricted by policy: authorizationRestricted, whatever the operator grants")
    func restricted() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.guest")
        let app = try board.app(uid: 1004, appID: "org.example.guest")
        try expectWithheld(app, flags: ["authorizationRestricted"])
        #expect(try app.result("authorizationStatus")["authorization"] as? String == "restricted")
    }

    @Test("not in use: insufficientlyInUse, and no question for the operator")
    func insufficientlyInUse() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        let app = try board.app(uid: 1007, appID: "org.example.background")
        try expectWithheld(app, flags: ["insufficientlyInUse"])
        #expect(!(try board.auth("pending")).contains("org.example.background"))
    }

    @Test("pending, then granted: the request with its usage description waits; the grant ends it")
    func pendingThenGranted() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        let app = try board.app(uid: 1005, appID: "org.example.asking")
        let session = try #require(try app.result("startServiceSession", ["authorization": "whenInUse"])["session"] as? Int)
        let subscription = try #require(try app.result("startLiveUpdates")["subscription"] as? Int)
        app.watch(for: 1)
        #expect(app.sessionDiagnostics[session] == [["authorizationRequestInProgress"]])
        #expect(app.updateDiagnostics[subscription] == [["authorizationRequestInProgress"]])
        #expect(app.locations.isEmpty)
        #expect(try board.auth("pending").contains("appID:org.example.asking  undecided, full accuracy\n  asks for whenInUse (uid 1005): Shows the boat on the chart."))
        // An app can never grant itself anything.
        #expect(try app.errorCode("authorizeApp", ["app": ["kind": "appID", "key": "org.example.asking"], "authorization": "always"]) == "permissionDenied")

        try board.auth("grant", "appID:org.example.asking")
        try app.waitForSessionDiagnostics(session, count: 2)
        try app.next { ($0["update"] as? [String: Any])?["location"] is [String: Any] }
        #expect(app.sessionDiagnostics[session] == [["authorizationRequestInProgress"], []])
        #expect(Self.changes(app.updateDiagnostics[subscription] ?? []) == [["authorizationRequestInProgress"], []])
        #expect(!(try board.auth("pending")).contains("org.example.asking"))
    }

    @Test("location services off: authorizationDenied and authorizationDeniedGlobally until on again")
    func globalSwitch() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.full")
        let app = try board.app(uid: 1001, appID: "org.example.full")
        let session = try #require(try app.result("startServiceSession", ["authorization": "whenInUse"])["session"] as? Int)
        try app.waitForSessionDiagnostics(session, count: 1)
        try board.auth("services", "off")
        try app.waitForSessionDiagnostics(session, count: 2)
        #expect(try app.result("authorizationStatus")["authorization"] as? String == "denied")
        #expect(try app.errorCode("requestLocation", ["timeout": 5]) == "authorizationDenied")
        try board.auth("services", "on")
        try app.waitForSessionDiagnostics(session, count: 3)
        #expect(app.sessionDiagnostics[session] == [[], ["authorizationDenied", "authorizationDeniedGlobally"], []])
    }

    @Test("explicit sessions required: updates alone get serviceSessionRequired; a session brings the locations")
    func explicitSessionRequired() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        let app = try board.app(uid: 1006, appID: "org.example.logger")
        let subscription = try #require(try app.result("startLiveUpdates")["subscription"] as? Int)
        app.watch(for: 1)
        #expect(app.updateDiagnostics[subscription] == [["serviceSessionRequired"]])
        #expect(app.locations.isEmpty)
        let session = try #require(try app.result("startServiceSession", ["authorization": "whenInUse"])["session"] as? Int)
        try app.next { ($0["update"] as? [String: Any])?["location"] is [String: Any] }
        #expect(app.sessionDiagnostics[session] == [[]])
        #expect(Self.changes(app.updateDiagnostics[subscription] ?? []) == [["serviceSessionRequired"], []])
    }

    @Test("temporary full accuracy: asked, given until the last session ends, then asked anew and refused")
    func temporaryFullAccuracyLapses() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        let app = try board.app(uid: 1008, appID: "org.example.docking")
        let docking = ["authorization": "whenInUse", "fullAccuracyPurposeKey": "Docking"]
        let first = try #require(try app.result("startServiceSession", docking)["session"] as? Int)
        try app.waitForSessionDiagnostics(first, count: 1)
        #expect(try board.auth("pending").contains("appID:org.example.docking  undecided, full accuracy\n  asks for temporary full accuracy: Docking"))
        try board.auth("temporary", "appID:org.example.docking", "grant")
        try app.waitForSessionDiagnostics(first, count: 2)
        #expect(app.sessionDiagnostics[first] == [["authorizationRequestInProgress"], []])
        let subscription = try #require(try app.result("startLiveUpdates")["subscription"] as? Int)
        let update = try app.next { ($0["update"] as? [String: Any])?["location"] is [String: Any] }
        let location = try #require((update["update"] as? [String: Any])?["location"] as? [String: Any])
        #expect(try #require(location["horizontalAccuracy"] as? Double) < 100)
        #expect(app.updateDiagnostics[subscription]?.allSatisfy { !$0.contains("accuracyLimited") } == true)

        // The last session ends: the grant lapses, and a new session asks again.
        _ = try app.result("stopLiveUpdates", ["subscription": subscription])
        _ = try app.result("stopServiceSession", ["session": first])
        let second = try #require(try app.result("startServiceSession", docking)["session"] as? Int)
        try app.waitForSessionDiagnostics(second, count: 1)
        try board.auth("temporary", "appID:org.example.docking", "deny")
        try app.waitForSessionDiagnostics(second, count: 2)
        #expect(app.sessionDiagnostics[second] == [["authorizationRequestInProgress"], ["fullAccuracyDenied"]])
        let reduced = try #require(try app.result("requestLocation", ["timeout": 30])["location"] as? [String: Any])
        #expect(try #require(reduced["horizontalAccuracy"] as? Double) > 2_500)
    }

    // MARK: Helpers

    /// An app that may not have locations: its session and updates say exactly `flags`, once,
    /// and no path gives it a location.
    private func expectWithheld(_ app: AppProcess, flags: [String]) throws {
        let session = try #require(try app.result("startServiceSession", ["authorization": "whenInUse"])["session"] as? Int)
        let subscription = try #require(try app.result("startLiveUpdates")["subscription"] as? Int)
        app.watch(for: 2)
        #expect(app.sessionDiagnostics[session] == [flags])
        #expect(app.updateDiagnostics[subscription] == [flags])
        #expect(app.locations.isEmpty)
        #expect(try app.errorCode("requestLocation", ["timeout": 5]) == "authorizationDenied")
        let status = try #require(try app.result("status")["status"] as? [String: Any])
        #expect(status["lastLocation"] == nil || status["lastLocation"] is NSNull)
    }

    /// `sequence` without consecutive repeats.
    private static func changes(_ sequence: [[String]]) -> [[String]] {
        sequence.reduce(into: []) { changes, item in if changes.last != item { changes.append(item) } }
    }

    private static func coordinate(_ location: [String: Any]) -> [Double] {
        [location["latitude"] as? Double ?? .nan, location["longitude"] as? Double ?? .nan]
    }

    /// The great-circle distance in metres between two locations.
    private static func distance(_ a: [String: Any], _ b: [String: Any]) -> Double {
        let (lat1, lon1) = (coordinate(a)[0] * .pi / 180, coordinate(a)[1] * .pi / 180)
        let (lat2, lon2) = (coordinate(b)[0] * .pi / 180, coordinate(b)[1] * .pi / 180)
        let h = pow(sin((lat2 - lat1) / 2), 2) + cos(lat1) * cos(lat2) * pow(sin((lon2 - lon1) / 2), 2)
        return 2 * 6_371_000 * asin(min(1, sqrt(h)))
    }
}

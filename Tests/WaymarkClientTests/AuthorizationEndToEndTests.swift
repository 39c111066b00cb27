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

    /// The policy the installer ships: a command at a terminal is in use.
    static var installedPolicy: String {
        get throws {
            let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Board/apps.d/terminal.toml")
            return try String(contentsOf: path, encoding: .utf8)
        }
    }

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
        let lastKnown = try #require(try reduced.result("lastKnownLocation")["location"] as? [String: Any])
        for location in reduced.locations + [requested, fromStatus, lastKnown] {
            #expect(Self.coordinate(location) == Self.coordinate(requested))
            #expect(try #require(location["horizontalAccuracy"] as? Double) > 2_500)
            #expect((location["speed"] as? Double ?? -1) < 0)
            #expect((location["course"] as? Double ?? -1) < 0)
            // The truth lies within the cell's radius (the centre is anywhere from 0 to that far).
            #expect(Self.distance(location, precise) < location["horizontalAccuracy"] as? Double ?? 0)
        }
        let fullStatus = try #require(try full.result("status")["status"] as? [String: Any])
        #expect(try #require((fullStatus["lastLocation"] as? [String: Any])?["horizontalAccuracy"] as? Double) < 100)
        #expect(try #require((try full.result("lastKnownLocation")["location"] as? [String: Any])?["horizontalAccuracy"] as? Double) < 100)

        // Who is connected: an app sees itself alone, the operator sees everyone.
        let seen = try #require(fullStatus["connectedApps"] as? [[String: Any]])
        #expect(seen.map { [$0["uid"] as? Int ?? -1: $0["app"] as? String ?? ""] } == [[1001: "appID:org.example.full"]])
        let operatorView = try board.waymark(["status"])
        #expect(operatorView.contains("uid 1001: appID:org.example.full\n"))
        #expect(operatorView.contains("uid 1002: appID:org.example.reduced\n"))
        // Sessions, in all and per app: an app sees its own app's, the operator every app's.
        let sessions = try #require(fullStatus["sessions"] as? [String: Any])
        #expect(sessions["serviceSessions"] as? Int == 2)
        #expect((sessions["apps"] as? [[String: Any]])?.map { $0["app"] as? String } == ["appID:org.example.full"])
        let none = "0 background activity sessions; kept while away: 0 subscriptions, 0 requests, 0 background activity sessions\n"
        #expect(operatorView.contains("sessions    2 service, " + none))
        #expect(operatorView.contains("app         appID:org.example.full: 1 service, " + none))
        #expect(operatorView.contains("app         appID:org.example.reduced: 1 service, " + none))
    }

    @Test("a gpsd client is the app its uid is: granted reduced, every TPV it reads is the same bare cell centre, and SKY lists no satellites")
    func gpsdClientReduced() throws {
        let port = try freePort()
        let board = try AuthorizedBoard(policies: Self.policies, arguments: ["--gpsd-port", "\(port)"])
        defer { board.stop() }
        try board.auth("grant", "uid:1002", "--accuracy", "reduced")
        let all = try gpsdReports(uid: 1002, port: port)
        // Satellites' azimuths and elevations at a known time would place the device.
        let skies = all.filter { $0["class"] as? String == "SKY" }
        #expect(!skies.isEmpty && skies.allSatisfy { $0["satellites"] == nil })
        let reports = all.filter { $0["class"] as? String == "TPV" }
        // A TPV without a fix (mode 1, while the receiver acquires) carries no position at all.
        #expect(reports.filter { ($0["mode"] as? Int ?? 0) < 2 }.allSatisfy { Set($0.keys) == ["class", "device", "mode"] })
        let tpvs = reports.filter { ($0["mode"] as? Int ?? 0) >= 2 }
        #expect(!tpvs.isEmpty)
        let cells = Set(tpvs.map { [$0["lat"] as? Double ?? .nan, $0["lon"] as? Double ?? .nan] })
        #expect(cells.count == 1)
        #expect(tpvs.allSatisfy { ($0["eph"] as? Double ?? 0) > 2_500 && $0["speed"] == nil && $0["track"] == nil })
        let start = ["latitude": Self.start.latitude, "longitude": Self.start.longitude]
        if let cell = cells.first, let eph = tpvs.first?["eph"] as? Double {
            #expect(Self.distance(["latitude": cell[0], "longitude": cell[1]], start) < eph)
        }
    }

    @Test("a gpsd client granted full accuracy reads SKY with the satellites in view")
    func gpsdClientFull() throws {
        let port = try freePort()
        let board = try AuthorizedBoard(policies: Self.policies, arguments: ["--gpsd-port", "\(port)"])
        defer { board.stop() }
        try board.auth("grant", "uid:1001")
        let skies = try gpsdReports(uid: 1001, port: port).filter { $0["class"] as? String == "SKY" }
        #expect(!skies.isEmpty)
        for sky in skies {
            let satellites = sky["satellites"] as? [[String: Any]] ?? []
            #expect(!satellites.isEmpty && satellites.allSatisfy { $0["PRN"] is Int && $0["used"] is Bool }, "\(sky)")
        }
    }

    /// The reports `gpspipe -w -n 12` reads as the user `uid`.
    private func gpsdReports(uid: Int, port: UInt16) throws -> [[String: Any]] {
        let output = try #require(try ClientProgram.output(
            of: "/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/gpspipe", "-w", "-n", "12", "127.0.0.1:\(port)"],
            seconds: 30))
        return output.split(whereSeparator: \.isNewline).compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
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

    @Test("delegated: an app not in use gets locations while an in-use app's delegation holds, insufficientlyInUse again once revoked")
    func inUseDelegation() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        let app = try board.app(uid: 1007, appID: "org.example.background")
        let (session, subscription) = try startWithheld(app, flags: ["insufficientlyInUse"])

        // The chart plotter is in use (interactive) and hands its use to the logger.
        let chart = try board.app(uid: 1001, appID: "org.example.full")
        let delegation = try chart.result("startInUseDelegation")
        let token = try #require(delegation["token"] as? String)
        let id = try #require(delegation["session"] as? Int)
        _ = try app.result("acceptInUseDelegation", ["token": token])
        try app.waitForSessionDiagnostics(session, count: 2)
        try app.next { ($0["update"] as? [String: Any])?["location"] is [String: Any] }
        #expect(app.sessionDiagnostics[session] == [["insufficientlyInUse"], []])

        // Revoked: withheld again, on the session and on the updates.
        _ = try chart.result("stopInUseDelegation", ["session": id])
        try app.waitForSessionDiagnostics(session, count: 3)
        app.watch(for: 1)
        let received = app.locations.count
        app.watch(for: 1)
        #expect(app.locations.count == received)
        #expect(app.sessionDiagnostics[session] == [["insufficientlyInUse"], [], ["insufficientlyInUse"]])
        // Withheld, the subscription was no demand: the receiver starts for it, and says so until its first fix.
        #expect(
            Self.changes(app.updateDiagnostics[subscription] ?? [])
                == [["insufficientlyInUse"], ["locationUnavailable"], [], ["insufficientlyInUse"]])
        #expect(try app.errorCode("requestLocation", ["timeout": 5]) == "authorizationDenied")
    }

    @Test("the installed policy: the waymark CLI at a terminal asks, granted it reads a location; not at a terminal it is not in use")
    func commandAtTerminal() throws {
        let board = try AuthorizedBoard(policies: Self.policies + "\n" + (try Self.installedPolicy))
        defer { board.stop() }
        let request = ["request", "--timeout", "20"]
        // Not at a terminal (a service, a job in the background): not in use, nothing is asked.
        let background = try board.waymark(as: 1009, atTerminal: false, request)
        #expect(background.status != 0 && background.output.contains("location denied: not authorized yet"), "\(background)")
        #expect(!(try board.auth("pending")).contains("uid 1009"))
        // Its status says why it shows no fix (the line was left out without a word).
        let status = try board.waymark(as: 1009, atTerminal: false, ["status"])
        #expect(status.output.contains("last fix    none this command may see (none yet, or not authorized now: waymark auth list)"), "\(status)")

        // At a terminal it is in use: the request waits for the operator.
        let asking = try board.waymark(as: 1009, atTerminal: true, request)
        #expect(asking.status != 0 && asking.output.contains("location denied: not authorized yet"), "\(asking)")
        let pending = try board.auth("pending").split(separator: "\n")
        let question = try #require(pending.firstIndex { $0.contains("asks for whenInUse (uid 1009)") }, "\(pending)")
        let app = try #require(pending[question - 1].split(separator: " ").first.map(String.init))
        try board.auth("grant", app)
        let located = try board.waymark(as: 1009, atTerminal: true, request)
        #expect(located.status == 0 && located.output.contains("±"), "\(located)")

        // Granted while in use, and still not in use without a terminal.
        let again = try board.waymark(as: 1009, atTerminal: false, request)
        #expect(again.status != 0 && again.output.contains("authorized while in use, and this command is not"), "\(again)")
        // Granted always, and still not in use: it says what Always needs (it said "while in use").
        try board.auth("grant", app, "--always")
        let always = try board.waymark(as: 1009, atTerminal: false, request)
        #expect(always.status != 0 && always.output.contains("authorized always, which takes effect only while the app holds"), "\(always)")
    }

    @Test("pending, then granted: the request with its usage description waits; the grant ends it")
    func pendingThenGranted() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        let app = try board.app(uid: 1005, appID: "org.example.asking")
        let (session, subscription) = try startWithheld(app, flags: ["authorizationRequestInProgress"])
        #expect(try board.auth("pending").contains("appID:org.example.asking  undecided, full accuracy\n  asks for whenInUse (uid 1005): Shows the boat on the chart."))
        // An app can never grant itself anything.
        #expect(try app.errorCode("authorizeApp", ["app": ["kind": "appID", "key": "org.example.asking"], "authorization": "always"]) == "permissionDenied")

        try board.auth("grant", "appID:org.example.asking")
        try app.waitForSessionDiagnostics(session, count: 2)
        try app.next { ($0["update"] as? [String: Any])?["location"] is [String: Any] }
        #expect(app.sessionDiagnostics[session] == [["authorizationRequestInProgress"], []])
        // Withheld, the subscription was no demand: the receiver starts for it, and says so until its first fix.
        #expect(
            Self.changes(app.updateDiagnostics[subscription] ?? [])
                == [["authorizationRequestInProgress"], ["locationUnavailable"], []])
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
        #expect(Self.changes(app.updateDiagnostics[subscription] ?? []) == [["serviceSessionRequired"], ["locationUnavailable"], []])
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

    @Test("subscriptions of apps that may not have locations are no demand: the receiver stays off until an app that may subscribes")
    func unauthorizedSubscriptionsLeaveTheReceiverOff() throws {
        let board = try AuthorizedBoard(policies: Self.policies)
        defer { board.stop() }
        try board.auth("deny", "appID:org.example.denied")
        try board.auth("grant", "appID:org.example.guest")
        let withheld = [
            (try board.app(uid: 1003, appID: "org.example.denied"), ["authorizationDenied"]),
            (try board.app(uid: 1004, appID: "org.example.guest"), ["authorizationRestricted"]),
            (try board.app(uid: 1005, appID: "org.example.asking"), ["authorizationRequestInProgress"]),
            (try board.app(uid: 1007, appID: "org.example.background"), ["insufficientlyInUse"]),
        ]
        for (app, _) in withheld { _ = try app.result("startLiveUpdates") }
        withheld[0].0.watch(for: 3)  // a minute of the walk
        let off = try Self.receiver(withheld[0].0)
        #expect(!off.isOn && off.secondsOn == 0, "\(off)")
        for (app, flags) in withheld {
            app.watch(for: 0.1)
            #expect(Array(app.updateDiagnostics.values) == [[flags]])
            #expect(app.locations.isEmpty)
        }

        // An app that may have locations is a demand: the receiver starts.
        try board.auth("grant", "appID:org.example.full")
        let full = try board.app(uid: 1001, appID: "org.example.full")
        _ = try full.result("startLiveUpdates")
        try full.next { ($0["update"] as? [String: Any])?["location"] is [String: Any] }
        #expect(try Self.receiver(full).secondsOn > 0)
        // The operator's answer starts the one that waited.
        try board.auth("grant", "appID:org.example.asking")
        try withheld[2].0.next { ($0["update"] as? [String: Any])?["location"] is [String: Any] }
    }

    @Test("granted while the device is stationary: the last fix at once, with isStationary")
    func grantedWhileStationary() throws {
        let board = try AuthorizedBoard(
            policies: Self.policies, scenario: "desk 2h\n", speed: 20)
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.full")
        let full = try board.app(uid: 1001, appID: "org.example.full")
        _ = try full.result("startLiveUpdates")
        let paused = try full.next(within: 30) { ($0["update"] as? [String: Any])?["isStationary"] as? Bool == true }
        let last = try #require((paused["update"] as? [String: Any])?["location"] as? [String: Any])

        let app = try board.app(uid: 1005, appID: "org.example.asking")
        let subscription = try #require(try app.result("startLiveUpdates")["subscription"] as? Int)
        app.watch(for: 1)
        #expect(app.updateDiagnostics[subscription] == [["authorizationRequestInProgress"]])
        try board.auth("grant", "appID:org.example.asking")
        let first = try app.next { ($0["update"] as? [String: Any])?["location"] is [String: Any] }
        let update = try #require(first["update"] as? [String: Any])
        #expect(update["isStationary"] as? Bool == true)
        #expect(Self.coordinate(try #require(update["location"] as? [String: Any])) == Self.coordinate(last))
    }

    @Test("leak: over a long walk, a denied app and a reduced app never see a precise coordinate on any path")
    func noLeakEndToEnd() throws {
        // Two hours of walking, 120× faster: six reduced locations at most (one per 20 minutes).
        let hours = 2.0
        let speed = 120.0
        let board = try AuthorizedBoard(
            policies: Self.policies, scenario: "walk 2h heading=70\n", speed: Int(speed))
        defer { board.stop() }
        try board.auth("grant", "appID:org.example.reduced", "--accuracy", "reduced")
        try board.auth("deny", "appID:org.example.denied")
        var reduced = try board.app(uid: 1002, appID: "org.example.reduced")
        let denied = try board.app(uid: 1003, appID: "org.example.denied")
        var subscription = try #require(try reduced.result("startLiveUpdates")["subscription"] as? Int)
        _ = try denied.result("startLiveUpdates")
        var seen: [[String: Any]] = []
        var deniedErrors: [String?] = []
        let end = Date().addingTimeInterval(hours * 3600 / speed - 5)
        var rejoined = false
        while Date() < end {
            for app in [reduced, denied] { app.watch(for: 2) }
            if let location = try reduced.result("requestLocation", ["timeout": 5])["location"] as? [String: Any] { seen.append(location) }
            if let location = (try reduced.result("status")["status"] as? [String: Any])?["lastLocation"] as? [String: Any] {
                seen.append(location)
            }
            deniedErrors.append(try denied.errorCode("requestLocation", ["timeout": 5]))
            #expect(((try denied.result("status")["status"] as? [String: Any])?["lastLocation"] as? [String: Any]) == nil)
            if !rejoined, Date() > end.addingTimeInterval(-hours * 1800 / speed) {
                // Halfway: the reduced app leaves and comes back; what was kept for it comes on re-take.
                rejoined = true
                seen += reduced.locations
                reduced.stop()
                Thread.sleep(forTimeInterval: 2)
                reduced = try board.app(uid: 1002, appID: "org.example.reduced")
                let retaken = try #require(try reduced.result("startLiveUpdates")["subscription"] as? Int)
                #expect(retaken == subscription)
                subscription = retaken
                reduced.watch(for: 0.5)
                #expect(!reduced.locations.isEmpty, "the kept updates came on re-take")
            }
        }
        seen += reduced.locations
        #expect(rejoined)
        #expect(denied.locations.isEmpty && deniedErrors.allSatisfy { $0 == "authorizationDenied" })
        // Every location the reduced app had is a cell's centre, bare, and they change only at
        // the reduced cadence.
        #expect(seen.count > 20)
        for location in seen {
            #expect(try #require(location["horizontalAccuracy"] as? Double) > 2_500)
            #expect((location["speed"] as? Double ?? -1) < 0 && (location["course"] as? Double ?? -1) < 0)
            #expect((location["verticalAccuracy"] as? Double ?? -1) < 0)
        }
        let centres = Set(seen.map { Self.coordinate($0) })
        #expect(centres.count <= Int(hours * 3) + 1, "\(centres)")
    }

    // MARK: Helpers

    /// Whether the receiver is on (acquiring or tracking) and for how many seconds it was, from
    /// the status `app` reads.
    private static func receiver(_ app: AppProcess) throws -> (isOn: Bool, secondsOn: Double) {
        let status = try #require(try app.result("status")["status"] as? [String: Any])
        let on = ["acquiring", "tracking"]
        let state = (status["receiverPower"] as? [String: Any])?["state"] as? String ?? ""
        let ledger = status["powerLedger"] as? [[String: Any]] ?? []
        let seconds = ledger.filter { on.contains($0["state"] as? String ?? "") }.reduce(0.0) { $0 + ($1["seconds"] as? Double ?? 0) }
        return (on.contains(state), seconds)
    }

    /// An app that may not have locations: its session and updates say exactly `flags`, once,
    /// and no path gives it a location.
    private func expectWithheld(_ app: AppProcess, flags: [String]) throws {
        _ = try startWithheld(app, flags: flags)
        #expect(try app.errorCode("requestLocation", ["timeout": 5]) == "authorizationDenied")
        let status = try #require(try app.result("status")["status"] as? [String: Any])
        #expect(status["lastLocation"] == nil || status["lastLocation"] is NSNull)
        #expect(try app.errorCode("lastKnownLocation") == "authorizationDenied")
    }

    /// Starts a `whenInUse` session and live updates on `app`, which may not have locations:
    /// both say exactly `flags`, once, and no location comes.
    private func startWithheld(_ app: AppProcess, flags: [String]) throws -> (session: Int, subscription: Int) {
        let session = try #require(try app.result("startServiceSession", ["authorization": "whenInUse"])["session"] as? Int)
        let subscription = try #require(try app.result("startLiveUpdates")["subscription"] as? Int)
        app.watch(for: 2)
        #expect(app.sessionDiagnostics[session] == [flags])
        #expect(app.updateDiagnostics[subscription] == [flags])
        #expect(app.locations.isEmpty)
        return (session, subscription)
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

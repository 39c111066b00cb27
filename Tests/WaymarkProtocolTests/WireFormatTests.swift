import Testing
import WaymarkJSON
import WaymarkLocation
import WaymarkProtocol

/// Every kind of message the protocol writes, pinned byte for byte: the writers may change,
/// the wire may not.
@Suite("Wire format")
struct WireFormatTests {
    static var lines: [String] {
        var lines: [String] = []
        func add(_ bytes: [UInt8]) { lines.append(String(decoding: bytes.dropLast(), as: UTF8.self)) }
        for operation in RequestTests.operations { add(Request(id: .number(42), operation: operation).line) }
        add(Request(id: .string("quote \" backslash \\ tab \t"), operation: .openMonitor(name: "é\u{1}\n")).line)
        add(Request(id: .number(-9_223_372_036_854_775_808), operation: .hello(Hello(version: 3, appID: nil))).line)
        add(Request(id: .number(1), operation: .requestLocation(LocationRequest(desiredAccuracy: 0.1 + 0.2, timeout: .milliseconds(1)))).line)
        add(Request(id: .number(1), operation: .startServiceSession(ServiceSessionRequest(authorization: .always))).line)
        add(Request(id: .number(1), operation: .addCondition(ConditionRequest(
            monitor: 1, identifier: "x", condition: .circularGeographic(CircularGeographicCondition(latitude: .nan, longitude: -.infinity, radius: 1e300))))).line)
        let beacon = BeaconIdentityCondition(uuid: "e2c56db5-dffb-48d2-b060-d0f5a71096e0", major: 1, minor: 65_535)
        add(Request(id: .number(1), operation: .addCondition(ConditionRequest(monitor: 1, identifier: "shop", condition: .beaconIdentity(beacon)))).line)
        add(Request(id: .number(1), operation: .addCondition(ConditionRequest(monitor: 1, identifier: "y", condition: .unsupported(type: "bluetoothPeer")))).line)
        add(Request(id: .number(1), operation: .startLiveUpdates(.fitness, DeliveryOptions(batching: Batching(distance: 1609, timeout: .seconds(300))))).line)
        add(Request(id: .number(1), operation: .startLiveUpdates(.default, DeliveryOptions(batching: Batching(timeout: .milliseconds(9_500), capacity: 5)))).line)
        for (index, (operation, result)) in ServerMessageTests.results.enumerated() {
            add(ServerMessage.reply(Reply(id: .number(Int64(index)), operation: operation, outcome: .success(result))).line)
        }
        let unsupported = MonitorEvent(identifier: "shop", state: .unmonitored, date: Timestamp(nanosecondsSinceEpoch: 0), diagnostics: ["conditionUnsupported"])
        add(ServerMessage.reply(Reply(
            id: .number(19), operation: .monitorRecord, outcome: .success(.record(MonitorRecord(condition: .beaconIdentity(nil), lastEvent: unsupported))))).line)
        add(ServerMessage.reply(Reply(id: .number(20), operation: .authorizationApps, outcome: .success(.apps(AuthorizationApps(
            locationServicesEnabled: false,
            apps: [AuthorizationAppEntry(
                app: AppReference(kind: "uid", key: "1000"), authorization: nil, fullAccuracy: nil, request: nil,
                temporaryFullAccuracy: .none, purposeKey: nil)],
            more: true))))).line)
        add(ServerMessage.reply(Reply(id: nil, operation: nil, outcome: .failure(ProtocolError(.malformedJSON, "byte 0: \"{\"")))).line)
        add(ServerMessage.reply(Reply(id: .string("u"), operation: nil, unknownOperation: "fly", outcome: .failure(ProtocolError(.unknownOperation, "unknown operation \"fly\"")))).line)
        var status = Samples.status
        status.lastLocation = nil
        status.eventLoop = nil
        status.uptime = 1.23456789
        status.receiverPowerSince = .nan
        status.recentTransitions = [.init(time: 0.0005, from: "off", to: "tracking", reason: "request \"1\""), .init(time: 1e-7, from: "a", to: "b", reason: "")]
        status.powerLedger = [.init(state: "off", seconds: 2.0004999, milliwattHours: 123456.78915)]
        status.sessions = StatusReport.SessionCounts(
            serviceSessions: 2, backgroundActivitySessions: 1, keptSubscriptions: 3, keptRequests: 1, keptBackgroundActivitySessions: 1)
        status.appSessions = [
            StatusReport.AppSessions(app: "executable:1000:/usr/bin/trac\"ker", counts: StatusReport.SessionCounts(
                keptSubscriptions: 3, keptRequests: 1, keptBackgroundActivitySessions: 1)),
            StatusReport.AppSessions(app: "unit:chart.service", counts: StatusReport.SessionCounts(serviceSessions: 2, backgroundActivitySessions: 1)),
        ]
        add(ServerMessage.reply(Reply(id: .number(1), operation: .status, outcome: .success(.status(status)))).line)
        var diagnostics = Diagnostics()
        diagnostics.locationUnavailable = true
        var location = Samples.location
        location.receiverMode = nil
        location.dilution = DilutionOfPrecision(horizontal: nil, vertical: 2.5, position: nil)
        location.speed = -1
        location.course = .nan
        add(ServerMessage.reply(Reply(id: .number(2), operation: .requestLocation, outcome: .success(.location(location)))).line)
        let events: [Event] = [
            .update(UpdateEvent(subscription: 7, update: LocationUpdate(location: Samples.location, isStationary: true), missed: 12)),
            .update(UpdateEvent(subscription: 8, update: LocationUpdate(location: nil, diagnostics: diagnostics))),
            .batch(BatchEvent(
                subscription: 9, updates: [LocationUpdate(location: Samples.location), LocationUpdate(location: nil, diagnostics: diagnostics)],
                overflow: 3, more: true)),
            .batch(BatchEvent(subscription: 9, updates: [LocationUpdate(location: nil, isStationary: true)])),
            .sessionDiagnostics(session: 3, diagnostics: ["authorizationRequestInProgress", "x\"y"]),
            .sessionDiagnostics(session: 3, diagnostics: []),
            .monitorEvent(monitor: 5, sequence: nil, event: MonitorEvent(identifier: "home", state: .unsatisfied, date: Timestamp(nanosecondsSinceEpoch: 0))),
            .monitorEvent(monitor: 6, sequence: nil, event: MonitorEvent(
                identifier: "wörk", state: .satisfied, date: Timestamp(nanosecondsSinceEpoch: 1_717_245_296_000_250_000), diagnostics: ["accuracyLimited"])),
            .monitorEvent(monitor: 7, sequence: 18_446_744_073_709_551_615, event: MonitorEvent(
                identifier: "far", state: .unmonitored, date: Timestamp(nanosecondsSinceEpoch: 0), diagnostics: ["conditionLimitExceeded"])),
            .visit(sequence: nil, Visit(
                latitude: 47.3769, longitude: 8.5417, horizontalAccuracy: 12.5, arrivalDate: Timestamp(nanosecondsSinceEpoch: 1_000_000_000),
                departureDate: nil)),
            .visit(sequence: nil, Visit(
                latitude: -1, longitude: 2, horizontalAccuracy: 3, arrivalDate: Timestamp(nanosecondsSinceEpoch: 1_000_000_000),
                departureDate: Timestamp(nanosecondsSinceEpoch: 1_600_000_000_000))),
            .visit(sequence: 18_446_744_073_709_551_615, Visit(
                latitude: 0.5, longitude: -179.5, horizontalAccuracy: 25, arrivalDate: Timestamp(nanosecondsSinceEpoch: 0),
                departureDate: nil)),
        ]
        for event in events { add(ServerMessage.event(event).line) }
        return lines
    }

    /// The lines as the protocol wrote them before its writers streamed (JSONValue trees then);
    /// what came after (delivery options, the in-use delegation, the operator's operations,
    /// `connectedApps` in `status`) is pinned as first written.
    static let pinned: [String] = [
        #"{"id":42,"op":"hello","version":1,"appID":"org.example.tracker"}"#,
        #"{"id":42,"op":"hello","version":2}"#,
        #"{"id":42,"op":"bye"}"#,
        #"{"id":42,"op":"status"}"#,
        #"{"id":42,"op":"startLiveUpdates","configuration":"fitness"}"#,
        #"{"id":42,"op":"startLiveUpdates","configuration":"default"}"#,
        #"{"id":42,"op":"stopLiveUpdates","subscription":7}"#,
        #"{"id":42,"op":"startLiveUpdates","configuration":"automotiveNavigation","distanceFilter":25.0,"minimumInterval":60.0,"passive":true}"#,
        #"{"id":42,"op":"requestLocation","desiredAccuracy":25.0,"timeout":2.5}"#,
        #"{"id":42,"op":"cancelRequest","request":"where"}"#,
        #"{"id":42,"op":"cancelRequest","request":3}"#,
        #"{"id":42,"op":"authorizationStatus"}"#,
        #"{"id":42,"op":"startServiceSession","authorization":"whenInUse","fullAccuracyPurposeKey":"Nav"}"#,
        #"{"id":42,"op":"stopServiceSession","session":3}"#,
        #"{"id":42,"op":"startBackgroundActivitySession"}"#,
        #"{"id":42,"op":"stopBackgroundActivitySession","session":4}"#,
        #"{"id":42,"op":"startInUseDelegation"}"#,
        #"{"id":42,"op":"acceptInUseDelegation","token":"5f0c8a3e9b1d4e7fa2c6b8d0e4f6a1c3"}"#,
        #"{"id":42,"op":"stopInUseDelegation","session":6}"#,
        #"{"id":42,"op":"openMonitor","name":"geofences"}"#,
        #"{"id":42,"op":"closeMonitor","monitor":5}"#,
        #"{"id":42,"op":"addCondition","monitor":5,"identifier":"home","condition":{"type":"circularGeographic","center":{"latitude":51.5,"longitude":-0.12},"radius":150.0},"assuming":"unsatisfied"}"#,
        #"{"id":42,"op":"removeCondition","monitor":5,"identifier":"home"}"#,
        #"{"id":42,"op":"monitorRecord","monitor":5,"identifier":"home"}"#,
        #"{"id":42,"op":"monitorIdentifiers","monitor":5}"#,
        #"{"id":42,"op":"hello","version":2,"appID":"org.example.tracker","usageDescription":"Shows the boat on the chart."}"#,
        #"{"id":42,"op":"authorizationApps"}"#,
        #"{"id":42,"op":"authorizationApps","after":{"kind":"unit","key":"chart.service"}}"#,
        #"{"id":42,"op":"authorizeApp","app":{"kind":"unit","key":"gpsd.service"},"authorization":"whenInUse","fullAccuracy":false}"#,
        #"{"id":42,"op":"authorizeApp","app":{"kind":"uid","key":"1000"},"fullAccuracy":true}"#,
        #"{"id":42,"op":"setLocationServices","enabled":false}"#,
        #"{"id":42,"op":"answerTemporaryFullAccuracy","app":{"kind":"executable","key":"1000:/usr/bin/nav"},"granted":true}"#,
        #"{"id":42,"op":"lastKnownLocation"}"#,
        #"{"id":42,"op":"acknowledgeMonitorEvents","monitor":5,"through":12}"#,
        #"{"id":42,"op":"visits"}"#,
        #"{"id":42,"op":"visits","after":"2017-07-14T02:40:00.123Z"}"#,
        #"{"id":42,"op":"startVisitMonitoring"}"#,
        #"{"id":42,"op":"stopVisitMonitoring"}"#,
        #"{"id":42,"op":"acknowledgeVisits","through":12}"#,
        #"{"id":"quote \" backslash \\ tab \t","op":"openMonitor","name":"é\u0001\n"}"#,
        #"{"id":-9223372036854775808,"op":"hello","version":3}"#,
        #"{"id":1,"op":"requestLocation","desiredAccuracy":0.30000000000000004,"timeout":0.001}"#,
        #"{"id":1,"op":"startServiceSession","authorization":"always"}"#,
        #"{"id":1,"op":"addCondition","monitor":1,"identifier":"x","condition":{"type":"circularGeographic","center":{"latitude":null,"longitude":null},"radius":1e+300}}"#,
        #"{"id":1,"op":"addCondition","monitor":1,"identifier":"shop","condition":{"type":"beaconIdentity","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":65535}}"#,
        #"{"id":1,"op":"addCondition","monitor":1,"identifier":"y","condition":{"type":"bluetoothPeer"}}"#,
        #"{"id":1,"op":"startLiveUpdates","configuration":"fitness","batch":{"timeout":300.0,"distance":1609.0,"capacity":100}}"#,
        #"{"id":1,"op":"startLiveUpdates","configuration":"default","batch":{"timeout":9.5,"capacity":5}}"#,
        #"{"id":0,"op":"hello","result":{"daemonVersion":"0.1.0","protocolVersion":1,"pid":4242}}"#,
        #"{"id":1,"op":"bye","result":{}}"#,
        #"{"id":2,"op":"stopLiveUpdates","result":{}}"#,
        #"{"id":3,"op":"cancelRequest","result":{}}"#,
        #"{"id":4,"op":"addCondition","result":{}}"#,
        #"{"id":5,"op":"startLiveUpdates","result":{"subscription":7}}"#,
        #"{"id":6,"op":"requestLocation","result":{"location":{"latitude":-33.856784412345675,"longitude":151.213108,"altitude":12.3456789,"ellipsoidalAltitude":34.6,"horizontalAccuracy":4.8,"verticalAccuracy":7.2,"speed":1.5,"speedAccuracy":0.35,"course":270.125,"courseAccuracy":12.5,"isVelocityDerived":true,"timestamp":"2024-06-01T12:34:56.123456789Z","sourceInformation":{"isSimulatedBySoftware":true,"isProducedByAccessory":false},"mode":"threeDimensional","receiverMode":"twoDimensional","quality":"differential","dilution":{"horizontal":0.9,"position":1.7},"satellites":{"inView":{"gps":11,"galileo":6},"used":{"gps":8,"galileo":5}}}}}"#,
        #"{"id":7,"op":"status","result":{"status":{"daemonVersion":"0.1.0","uptime":3600.25,"source":{"kind":"simulated","description":"simulated board, scenario walk","isSimulated":true},"receiverPower":{"state":"off","since":3500.5},"lastLocation":{"latitude":-33.856784412345675,"longitude":151.213108,"altitude":12.3456789,"ellipsoidalAltitude":34.6,"horizontalAccuracy":4.8,"verticalAccuracy":7.2,"speed":1.5,"speedAccuracy":0.35,"course":270.125,"courseAccuracy":12.5,"isVelocityDerived":true,"timestamp":"2024-06-01T12:34:56.123456789Z","sourceInformation":{"isSimulatedBySoftware":true,"isProducedByAccessory":false},"mode":"threeDimensional","receiverMode":"twoDimensional","quality":"differential","dilution":{"horizontal":0.9,"position":1.7},"satellites":{"inView":{"gps":11,"galileo":6},"used":{"gps":8,"galileo":5}}},"isStationary":true,"clients":2,"liveSubscriptions":3,"pendingRequests":1,"diagnostics":["locationUnavailable"],"powerLedger":[{"state":"tracking","seconds":3500.5,"milliwattHours":82.4},{"state":"off","seconds":99.75,"milliwattHours":0.01}],"transitions":4,"motionDetection":"accelerometer","eventLoop":{"timers":3,"descriptors":9},"connectedApps":[],"sessions":{"serviceSessions":0,"backgroundActivitySessions":0,"keptSubscriptions":0,"keptRequests":0,"keptBackgroundActivitySessions":0,"apps":[]},"recentTransitions":[]}}}"#,
        #"{"id":8,"op":"authorizationStatus","result":{"authorization":"whenInUse","fullAccuracy":false}}"#,
        #"{"id":9,"op":"startServiceSession","result":{"session":3}}"#,
        #"{"id":10,"op":"startBackgroundActivitySession","result":{"session":4}}"#,
        #"{"id":11,"op":"authorizationApps","result":{"locationServices":true,"apps":[{"app":{"kind":"unit","key":"chart.service"},"request":{"authorization":"whenInUse","usageDescription":"Shows the boat.","uid":998},"temporaryFullAccuracy":"none"},{"app":{"kind":"uid","key":"1000"},"authorization":"whenInUse","fullAccuracy":false,"temporaryFullAccuracy":"requested","purposeKey":"Docking"}]}}"#,
        #"{"id":12,"op":"openMonitor","result":{"monitor":5}}"#,
        #"{"id":13,"op":"monitorRecord","result":{"record":{"condition":{"type":"circularGeographic","center":{"latitude":1.0,"longitude":2.0},"radius":3.0},"lastEvent":{"identifier":"home","state":"satisfied","date":"1970-01-01T00:00:00.001Z","diagnostics":["accuracyLimited"]}}}}"#,
        #"{"id":14,"op":"monitorIdentifiers","result":{"identifiers":["home","work"]}}"#,
        #"{"id":15,"op":"lastKnownLocation","result":{"location":{"latitude":-33.856784412345675,"longitude":151.213108,"altitude":12.3456789,"ellipsoidalAltitude":34.6,"horizontalAccuracy":4.8,"verticalAccuracy":7.2,"speed":1.5,"speedAccuracy":0.35,"course":270.125,"courseAccuracy":12.5,"isVelocityDerived":true,"timestamp":"2024-06-01T12:34:56.123456789Z","sourceInformation":{"isSimulatedBySoftware":true,"isProducedByAccessory":false},"mode":"threeDimensional","receiverMode":"twoDimensional","quality":"differential","dilution":{"horizontal":0.9,"position":1.7},"satellites":{"inView":{"gps":11,"galileo":6},"used":{"gps":8,"galileo":5}}},"age":90.25}}"#,
        #"{"id":16,"op":"lastKnownLocation","result":{"location":null}}"#,
        #"{"id":17,"op":"monitorRecord","result":{"record":null}}"#,
        #"{"id":18,"op":"visits","result":{"visits":[{"latitude":47.3769,"longitude":8.5417,"horizontalAccuracy":12.5,"arrivalDate":"1970-01-01T00:00:01.000Z","departureDate":"1970-01-01T00:26:40.000Z"},{"latitude":-1.0,"longitude":2.0,"horizontalAccuracy":3.0,"arrivalDate":"1970-01-01T00:00:00.000Z","departureDate":null}],"more":true}}"#,
        #"{"id":19,"op":"monitorRecord","result":{"record":{"condition":{"type":"beaconIdentity"},"lastEvent":{"identifier":"shop","state":"unmonitored","date":"1970-01-01T00:00:00.000Z","diagnostics":["conditionUnsupported"]}}}}"#,
        #"{"id":20,"op":"authorizationApps","result":{"locationServices":false,"apps":[{"app":{"kind":"uid","key":"1000"},"temporaryFullAccuracy":"none"}],"more":true}}"#,
        #"{"id":null,"error":{"code":"malformedJSON","message":"byte 0: \"{\""}}"#,
        #"{"id":"u","op":"fly","error":{"code":"unknownOperation","message":"unknown operation \"fly\""}}"#,
        #"{"id":1,"op":"status","result":{"status":{"daemonVersion":"0.1.0","uptime":1.235,"source":{"kind":"simulated","description":"simulated board, scenario walk","isSimulated":true},"receiverPower":{"state":"off","since":null},"lastLocation":null,"isStationary":true,"clients":2,"liveSubscriptions":3,"pendingRequests":1,"diagnostics":["locationUnavailable"],"powerLedger":[{"state":"off","seconds":2.0,"milliwattHours":123456.7892}],"transitions":4,"motionDetection":"accelerometer","eventLoop":null,"connectedApps":[],"sessions":{"serviceSessions":2,"backgroundActivitySessions":1,"keptSubscriptions":3,"keptRequests":1,"keptBackgroundActivitySessions":1,"apps":[{"app":"executable:1000:/usr/bin/trac\"ker","serviceSessions":0,"backgroundActivitySessions":0,"keptSubscriptions":3,"keptRequests":1,"keptBackgroundActivitySessions":1},{"app":"unit:chart.service","serviceSessions":2,"backgroundActivitySessions":1,"keptSubscriptions":0,"keptRequests":0,"keptBackgroundActivitySessions":0}]},"recentTransitions":[{"time":0.001,"from":"off","to":"tracking","reason":"request \"1\""},{"time":0.0,"from":"a","to":"b","reason":""}]}}}"#,
        #"{"id":2,"op":"requestLocation","result":{"location":{"latitude":-33.856784412345675,"longitude":151.213108,"altitude":12.3456789,"ellipsoidalAltitude":34.6,"horizontalAccuracy":4.8,"verticalAccuracy":7.2,"speed":-1.0,"speedAccuracy":0.35,"course":null,"courseAccuracy":12.5,"isVelocityDerived":true,"timestamp":"2024-06-01T12:34:56.123456789Z","sourceInformation":{"isSimulatedBySoftware":true,"isProducedByAccessory":false},"mode":"threeDimensional","quality":"differential","dilution":{"vertical":2.5},"satellites":{"inView":{"gps":11,"galileo":6},"used":{"gps":8,"galileo":5}}}}}"#,
        #"{"event":"update","subscription":7,"update":{"location":{"latitude":-33.856784412345675,"longitude":151.213108,"altitude":12.3456789,"ellipsoidalAltitude":34.6,"horizontalAccuracy":4.8,"verticalAccuracy":7.2,"speed":1.5,"speedAccuracy":0.35,"course":270.125,"courseAccuracy":12.5,"isVelocityDerived":true,"timestamp":"2024-06-01T12:34:56.123456789Z","sourceInformation":{"isSimulatedBySoftware":true,"isProducedByAccessory":false},"mode":"threeDimensional","receiverMode":"twoDimensional","quality":"differential","dilution":{"horizontal":0.9,"position":1.7},"satellites":{"inView":{"gps":11,"galileo":6},"used":{"gps":8,"galileo":5}}},"isStationary":true,"diagnostics":[]},"missed":12}"#,
        #"{"event":"update","subscription":8,"update":{"location":null,"isStationary":false,"diagnostics":["locationUnavailable"]},"missed":0}"#,
        #"{"event":"batch","subscription":9,"updates":[{"location":{"latitude":-33.856784412345675,"longitude":151.213108,"altitude":12.3456789,"ellipsoidalAltitude":34.6,"horizontalAccuracy":4.8,"verticalAccuracy":7.2,"speed":1.5,"speedAccuracy":0.35,"course":270.125,"courseAccuracy":12.5,"isVelocityDerived":true,"timestamp":"2024-06-01T12:34:56.123456789Z","sourceInformation":{"isSimulatedBySoftware":true,"isProducedByAccessory":false},"mode":"threeDimensional","receiverMode":"twoDimensional","quality":"differential","dilution":{"horizontal":0.9,"position":1.7},"satellites":{"inView":{"gps":11,"galileo":6},"used":{"gps":8,"galileo":5}}},"isStationary":false,"diagnostics":[]},{"location":null,"isStationary":false,"diagnostics":["locationUnavailable"]}],"overflow":3,"more":true}"#,
        #"{"event":"batch","subscription":9,"updates":[{"location":null,"isStationary":true,"diagnostics":[]}],"overflow":0,"more":false}"#,
        #"{"event":"sessionDiagnostics","session":3,"diagnostics":["authorizationRequestInProgress","x\"y"]}"#,
        #"{"event":"sessionDiagnostics","session":3,"diagnostics":[]}"#,
        #"{"event":"monitorEvent","monitor":5,"identifier":"home","state":"unsatisfied","date":"1970-01-01T00:00:00.000Z","diagnostics":[]}"#,
        #"{"event":"monitorEvent","monitor":6,"identifier":"wörk","state":"satisfied","date":"2024-06-01T12:34:56.000250Z","diagnostics":["accuracyLimited"]}"#,
        #"{"event":"monitorEvent","monitor":7,"sequence":18446744073709551615,"identifier":"far","state":"unmonitored","date":"1970-01-01T00:00:00.000Z","diagnostics":["conditionLimitExceeded"]}"#,
        #"{"event":"visit","visit":{"latitude":47.3769,"longitude":8.5417,"horizontalAccuracy":12.5,"arrivalDate":"1970-01-01T00:00:01.000Z","departureDate":null}}"#,
        #"{"event":"visit","visit":{"latitude":-1.0,"longitude":2.0,"horizontalAccuracy":3.0,"arrivalDate":"1970-01-01T00:00:01.000Z","departureDate":"1970-01-01T00:26:40.000Z"}}"#,
        #"{"event":"visit","sequence":18446744073709551615,"visit":{"latitude":0.5,"longitude":-179.5,"horizontalAccuracy":25.0,"arrivalDate":"1970-01-01T00:00:00.000Z","departureDate":null}}"#,
    ]

    @Test func everyMessageIsWrittenAsPinned() {
        let lines = Self.lines
        #expect(lines.count == Self.pinned.count)
        for (line, pinned) in zip(lines, Self.pinned) { #expect(line == pinned) }
    }

    @Test("identifiers past Int64.max are written, not trapped on (they were converted to Int64)")
    func largeIdentifiers() {
        let reply = ServerMessage.reply(Reply(id: .number(1), operation: .startLiveUpdates, outcome: .success(.subscription(.max))))
        #expect(String(decoding: reply.line, as: UTF8.self) == #"{"id":1,"op":"startLiveUpdates","result":{"subscription":18446744073709551615}}"# + "\n")
        let event = ServerMessage.event(.sessionDiagnostics(session: .max, diagnostics: []))
        #expect(String(decoding: event.line, as: UTF8.self) == #"{"event":"sessionDiagnostics","session":18446744073709551615,"diagnostics":[]}"# + "\n")
        let update = UpdateEvent.line(subscription: .max, encodedUpdate: UpdateEvent.encode(LocationUpdate(location: nil)), missed: 0)
        #expect(String(decoding: update, as: UTF8.self).hasPrefix(#"{"event":"update","subscription":18446744073709551615,"#))
    }
}

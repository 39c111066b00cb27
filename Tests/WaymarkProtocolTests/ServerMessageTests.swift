import Testing
import WaymarkJSON
import WaymarkLocation
import WaymarkProtocol

@Suite("Replies and events")
struct ServerMessageTests {
    static let results: [(OperationName, ReplyResult)] = [
        (.hello, .hello(HelloResult(daemonVersion: "0.1.0", protocolVersion: 1, pid: 4242))),
        (.bye, .done), (.stopLiveUpdates, .done), (.cancelRequest, .done), (.addCondition, .done),
        (.startLiveUpdates, .subscription(7)),
        (.requestLocation, .location(Samples.location)),
        (.status, .status(Samples.status)),
        (.authorizationStatus, .authorization(AuthorizationStatus(state: .whenInUse, fullAccuracy: false))),
        (.startServiceSession, .session(3)), (.startBackgroundActivitySession, .session(4)),
        (.authorizationApps, .apps(AuthorizationApps(locationServicesEnabled: true, apps: [
            AuthorizationAppEntry(
                app: AppReference(kind: "unit", key: "chart.service"), authorization: nil, fullAccuracy: nil,
                request: WaitingRequest(authorization: .whenInUse, usageDescription: "Shows the boat.", uid: 998),
                temporaryFullAccuracy: .none, purposeKey: nil),
            AuthorizationAppEntry(
                app: AppReference(kind: "uid", key: "1000"), authorization: .whenInUse, fullAccuracy: false, request: nil,
                temporaryFullAccuracy: .requested, purposeKey: "Docking"),
        ]))),
        (.openMonitor, .monitor(5)),
        (.monitorRecord, .record(MonitorRecord(
            condition: .circularGeographic(CircularGeographicCondition(latitude: 1, longitude: 2, radius: 3)),
            lastEvent: MonitorEvent(identifier: "home", state: .satisfied, date: Timestamp(nanosecondsSinceEpoch: 1_000_000), diagnostics: ["accuracyLimited"])))),
        (.monitorIdentifiers, .identifiers(["home", "work"])),
        (.lastKnownLocation, .lastKnown(LastKnownLocation(location: Samples.location, age: .milliseconds(90_250)))),
        (.lastKnownLocation, .lastKnown(nil)),
        (.monitorRecord, .record(nil)),
        (.visits, .visits(VisitDiaryPage(visits: [
            Visit(
                latitude: 47.3769, longitude: 8.5417, horizontalAccuracy: 12.5, arrivalDate: Timestamp(nanosecondsSinceEpoch: 1_000_000_000),
                departureDate: Timestamp(nanosecondsSinceEpoch: 1_600_000_000_000)),
            Visit(latitude: -1, longitude: 2, horizontalAccuracy: 3, arrivalDate: Timestamp(nanosecondsSinceEpoch: 0), departureDate: nil),
        ], more: true))),
    ]

    @Test(arguments: 0..<results.count)
    func everyResultRoundTrips(index: Int) throws {
        let (operation, result) = Self.results[index]
        let message = ServerMessage.reply(Reply(id: .number(Int64(index)), operation: operation, outcome: .success(result)))
        #expect(try ServerMessage(line: message.line.dropLast()) == message)
    }

    @Test("a monitor's identifiers fit one line at worst: 100 records (Monitor.recordLimit) of 128 bytes that JSON escapes each in two (control characters, six each, are refused)")
    func theLongestIdentifiersReplyFitsALine() {
        let identifiers = (0..<100).map { _ in String(repeating: "\"", count: 128) }
        let reply = ServerMessage.reply(Reply(id: .string(String(repeating: "i", count: 256)), operation: .monitorIdentifiers, outcome: .success(.identifiers(identifiers))))
        #expect(reply.line.count <= ProtocolLimits.maximumLineLength)
    }

    @Test func errorRepliesRoundTrip() throws {
        let unsupported = ServerMessage.reply(Reply(
            id: .string("s"), operation: .openMonitor,
            outcome: .failure(ProtocolError(.unsupportedOperation, "openMonitor arrives with protocol version 3", availableInVersion: 3))))
        #expect(String(decoding: unsupported.line, as: UTF8.self)
            == #"{"id":"s","op":"openMonitor","error":{"code":"unsupportedOperation","message":"openMonitor arrives with protocol version 3","availableInVersion":3}}"# + "\n")
        #expect(try ServerMessage(line: unsupported.line.dropLast()) == unsupported)
        let anonymous = ServerMessage.reply(Reply(id: nil, operation: nil, outcome: .failure(ProtocolError(.malformedJSON, "byte 0: …"))))
        #expect(try ServerMessage(line: anonymous.line.dropLast()) == anonymous)
    }

    @Test func eventsRoundTrip() throws {
        var diagnostics = Diagnostics()
        diagnostics.locationUnavailable = true
        let events: [Event] = [
            .update(UpdateEvent(subscription: 7, update: LocationUpdate(location: Samples.location, isStationary: true), missed: 12)),
            .update(UpdateEvent(subscription: 8, update: LocationUpdate(location: nil, diagnostics: diagnostics))),
            .sessionDiagnostics(session: 3, diagnostics: ["authorizationRequestInProgress"]),
            .monitorEvent(monitor: 5, sequence: 9, event: MonitorEvent(identifier: "home", state: .unsatisfied, date: Timestamp(nanosecondsSinceEpoch: 0))),
            .monitorEvent(monitor: 5, sequence: nil, event: MonitorEvent(
                identifier: "home", state: .unmonitored, date: Timestamp(nanosecondsSinceEpoch: 0), diagnostics: ["conditionLimitExceeded", "persistenceUnavailable"])),
        ]
        for event in events {
            #expect(try ServerMessage(line: ServerMessage.event(event).line.dropLast()) == .event(event))
            // The server's path (the update written once, then wrapped per client) gives the same bytes.
            if case .update(let update) = event {
                let encoded = UpdateEvent.encode(update.update)
                #expect(UpdateEvent.line(subscription: update.subscription, encodedUpdate: encoded, missed: update.missed) == ServerMessage.event(event).line)
            }
        }
        let update = ServerMessage.event(events[1])
        #expect(String(decoding: update.line, as: UTF8.self)
            == #"{"event":"update","subscription":8,"update":{"location":null,"isStationary":false,"diagnostics":["locationUnavailable"]},"missed":0}"# + "\n")
    }

    @Test func newerPeersMayAddMembersDiagnosticsAndErrorCodes() throws {
        let line = #"{"event":"update","subscription":1,"extra":true,"update":{"location":null,"isStationary":false,"diagnostics":["locationUnavailable","somethingNew"],"more":1},"missed":2}"#
        guard case .event(.update(let update)) = try ServerMessage(line: Array(line.utf8)) else {
            Issue.record("not an update")
            return
        }
        #expect(update.update.diagnostics.names == ["locationUnavailable"])
        #expect(update.missed == 2)
        let reply = #"{"id":1,"op":"status","error":{"code":"overheated","message":"too hot"}}"#
        guard case .reply(let decoded) = try ServerMessage(line: Array(reply.utf8)) else {
            Issue.record("not a reply")
            return
        }
        #expect(decoded.outcome == .failure(ProtocolError(.internalError, "overheated: too hot")))
    }

    @Test func aResultThatDoesNotDecodeFailsItsRequest() throws {
        let line = #"{"id":9,"op":"startLiveUpdates","result":{"subscription":"seven"}}"#
        let message = try ServerMessage(line: Array(line.utf8))
        #expect(message == .reply(Reply(
            id: .number(9), operation: .startLiveUpdates,
            outcome: .failure(ProtocolError(.invalidMessage, "result.subscription: expected an integer from 0 to 9223372036854775807, found a string")))))
    }

    @Test("a date no Timestamp holds is refused (Scripts/fuzz found this line trapping in Timestamp.init)")
    func aDateOutOfRangeIsRefused() {
        let line = #"{"event":"monitorEvent","monitor":1,"identifier":"home","state":"satisfied","date":"4048-06-01T12:00:00.000Z","diagnostics":[]}"#
        let error = #expect(throws: ProtocolError.self) { try ServerMessage(line: Array(line.utf8)) }
        #expect(error?.code == .invalidMessage)
    }

    @Test func unknownEventsAndBrokenMessagesAreErrors() {
        #expect(throws: ProtocolError.self) { try ServerMessage(line: Array(#"{"event":"fireworks"}"#.utf8)) }
        let error = #expect(throws: ProtocolError.self) { try ServerMessage(line: Array("{".utf8)) }
        #expect(error?.code == .malformedJSON)
    }

    /// Found by the protocol fuzzer: a status whose rounded numbers (uptime, since, the ledger,
    /// transitions) carry more digits than the daemon writes read as more precise than they
    /// write back, so a client that passes a message on changed it. They read rounded alike.
    @Test func numbersFinerThanTheirResolutionReadAsTheyWriteBack() throws {
        let line = #"{"id":3,"op":"status","result":{"status":{"daemonVersion":"0.1.0","uptime":36.2005,"source":{"kind":"simulated","description":"simulated board, scenario walk","isSimulated":true},"receiverPower":{"state":"off","since":3500.5},"lastLocation":null,"isStationary":true,"clients":1,"liveSubscriptions":1,"pendingRequests":0,"diagnostics":[],"powerLedger":[{"state":"tracking","seconds":3500.5,"milliwattHours":82.4},{"state":"off","seconds":99.75,"milliwattHours":0.01}],"transitions":1}}}"#
        let message = try ServerMessage(line: Array(line.utf8))
        #expect(try ServerMessage(line: message.line.dropLast()) == message)
        guard case .reply(let reply) = message, case .success(.status(let status)) = reply.outcome else {
            Issue.record("not a status reply")
            return
        }
        #expect(status.uptime == 36.201)
    }
}

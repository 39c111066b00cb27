import Testing
import WaymarkJSON
import WaymarkLocation
import WaymarkProtocol

@Suite("Requests")
struct RequestTests {
    static let operations: [Operation] = [
        .hello(Hello(version: 1, appID: "org.example.tracker")), .hello(Hello(version: 2)), .bye, .status,
        .startLiveUpdates(.fitness), .startLiveUpdates(.default), .stopLiveUpdates(subscription: 7),
        .startLiveUpdates(.automotiveNavigation, DeliveryOptions(distanceFilter: 25, minimumInterval: .seconds(60), isPassive: true)),
        .requestLocation(LocationRequest(desiredAccuracy: 25, timeout: .seconds(2.5))),
        .cancelRequest(request: .string("where")), .cancelRequest(request: .number(3)),
        .authorizationStatus, .startServiceSession(ServiceSessionRequest(authorization: .whenInUse, fullAccuracyPurposeKey: "Nav")),
        .stopServiceSession(session: 3), .startBackgroundActivitySession, .stopBackgroundActivitySession(session: 4),
        .startInUseDelegation, .acceptInUseDelegation(token: "5f0c8a3e9b1d4e7fa2c6b8d0e4f6a1c3"), .stopInUseDelegation(session: 6),
        .openMonitor(name: "geofences"), .closeMonitor(monitor: 5),
        .addCondition(ConditionRequest(
            monitor: 5, identifier: "home", condition: .circularGeographic(CircularGeographicCondition(latitude: 51.5, longitude: -0.12, radius: 150)),
            assuming: .unsatisfied)),
        .removeCondition(monitor: 5, identifier: "home"), .monitorRecord(monitor: 5, identifier: "home"),
        .monitorIdentifiers(monitor: 5),
        .hello(Hello(version: 2, appID: "org.example.tracker", usageDescription: "Shows the boat on the chart.")),
        .authorizationApps(after: nil), .authorizationApps(after: AppReference(kind: "unit", key: "chart.service")),
        .authorizeApp(AuthorizeAppRequest(app: AppReference(kind: "unit", key: "gpsd.service"), authorization: .whenInUse, fullAccuracy: false)),
        .authorizeApp(AuthorizeAppRequest(app: AppReference(kind: "uid", key: "1000"), authorization: nil, fullAccuracy: true)),
        .setLocationServices(enabled: false),
        .answerTemporaryFullAccuracy(app: AppReference(kind: "executable", key: "1000:/usr/bin/nav"), granted: true),
        .lastKnownLocation,
        .acknowledgeMonitorEvents(monitor: 5, through: 12), .visits(after: nil), .visits(after: Timestamp(nanosecondsSinceEpoch: 1_500_000_000_123_000_000)),
        .startVisitMonitoring, .stopVisitMonitoring, .acknowledgeVisits(through: 12),
    ]

    @Test(arguments: operations)
    func everyOperationRoundTrips(operation: Operation) throws {
        let request = Request(id: .number(42), operation: operation)
        #expect(try Request(line: request.line.dropLast()) == request)
    }

    @Test func everyOperationIsCovered() {
        #expect(Set(Self.operations.map(\.name)) == Set(OperationName.allCases))
    }

    @Test func theWireFormatIsAsDocumented() throws {
        let request = Request(id: .string("a"), operation: .startLiveUpdates(.fitness))
        #expect(String(decoding: request.line, as: UTF8.self) == #"{"id":"a","op":"startLiveUpdates","configuration":"fitness"}"# + "\n")
        let hello = Request(id: .number(1), operation: .hello(Hello(version: 1)))
        #expect(String(decoding: hello.line, as: UTF8.self) == #"{"id":1,"op":"hello","version":1}"# + "\n")
    }

    @Test func unknownMembersAreIgnoredAndDefaultsApply() throws {
        let request = try Request(line: Array(#"{"op":"startLiveUpdates","id":9,"future":{"x":[1]}}"#.utf8))
        #expect(request == Request(id: .number(9), operation: .startLiveUpdates(.default)))
        let location = try Request(line: Array(#"{"id":1,"op":"requestLocation"}"#.utf8))
        #expect(location.operation == .requestLocation(LocationRequest(desiredAccuracy: 0, timeout: .seconds(30))))
    }

    static let notABeacon = "condition.uuid: a beacon is a UUID (8-4-4-4-12 hexadecimal digits), then optionally a major and then a minor value"

    @Test("a beacon is read with its UUID upper-cased; a type not known is read as unsupported, not refused")
    func conditionKinds() throws {
        let beacon = try Request(line: Array(
            #"{"id":1,"op":"addCondition","monitor":1,"identifier":"shop","condition":{"type":"beaconIdentity","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":0}}"#.utf8))
        let identity = try #require(BeaconIdentityCondition(uuid: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", major: 0))
        #expect(beacon.operation == .addCondition(ConditionRequest(monitor: 1, identifier: "shop", condition: .beaconIdentity(identity))))
        let polygon = try Request(line: Array(#"{"id":1,"op":"addCondition","monitor":1,"identifier":"a","condition":{"type":"polygon","points":[]}}"#.utf8))
        #expect(polygon.operation == .addCondition(ConditionRequest(monitor: 1, identifier: "a", condition: .unsupported(type: "polygon"))))
    }

    @Test(arguments: [
        (#"{"id":1,"op":"hello""#, nil, nil, ErrorCode.malformedJSON, "byte 20: expected ',' or '}' after an object member, found the end of the text"),
        ("[1]", nil, nil, .invalidMessage, "message: expected an object, found an array"),
        (#"{"op":"status"}"#, nil, nil, .invalidMessage, "id: missing (expected an integer or a string of at most 256 bytes)"),
        (#"{"id":1.5,"op":"status"}"#, nil, nil, .invalidMessage, "id: expected an integer or a string of at most 256 bytes"),
        (#"{"id":3}"#, MessageID.number(3), nil, .invalidMessage, "op: missing (expected a string)"),
        (#"{"id":3,"op":"teleport"}"#, .number(3), nil, .unknownOperation, "unknown operation \"teleport\""),
        (#"{"id":"x","op":"hello","version":"1"}"#, .string("x"), OperationName.hello, .invalidMessage, "version: expected an integer, found a string"),
        (#"{"id":"x","op":"hello","version":1.0}"#, .string("x"), OperationName.hello, .invalidMessage, "version: expected an integer, found a number"),
        (#"{"id":"x","op":"hello","version":1e0}"#, .string("x"), OperationName.hello, .invalidMessage, "version: expected an integer, found a number"),
        (#"{"id":1.0,"op":"status"}"#, nil, nil, .invalidMessage, "id: expected an integer or a string of at most 256 bytes"),
        (#"{"id":8,"op":"stopLiveUpdates","subscription":1e2}"#, .number(8), .stopLiveUpdates, .invalidMessage,
         "subscription: expected an integer from 0 to 9223372036854775807, found a number"),
        (#"{"id":4,"op":"startLiveUpdates","configuration":"walking"}"#, .number(4), .startLiveUpdates, .invalidMessage,
         "configuration: unknown value \"walking\" (expected one of default, automotiveNavigation, otherNavigation, fitness, airborne)"),
        (#"{"id":4,"op":"startLiveUpdates","distanceFilter":-1}"#, .number(4), .startLiveUpdates, .invalidMessage,
         "distanceFilter: expected a finite number of metres, at least 0, found -1.0"),
        (#"{"id":4,"op":"startLiveUpdates","minimumInterval":86401}"#, .number(4), .startLiveUpdates, .invalidMessage,
         "minimumInterval: expected 0 to 86400 seconds, found 86401.0"),
        (#"{"id":4,"op":"startLiveUpdates","passive":1}"#, .number(4), .startLiveUpdates, .invalidMessage,
         "passive: expected a boolean, found a number"),
        (#"{"id":4,"op":"startLiveUpdates","batch":{"distance":100}}"#, .number(4), .startLiveUpdates, .invalidMessage,
         "batch.timeout: missing (expected a number)"),
        (#"{"id":4,"op":"startLiveUpdates","batch":{"timeout":-1}}"#, .number(4), .startLiveUpdates, .invalidMessage,
         "batch.timeout: expected 0 to 86400 seconds, found -1.0"),
        (#"{"id":4,"op":"startLiveUpdates","batch":{"timeout":60,"distance":0}}"#, .number(4), .startLiveUpdates, .invalidMessage,
         "batch.distance: expected a finite number of metres above 0, found 0.0"),
        (#"{"id":4,"op":"startLiveUpdates","batch":{"timeout":60,"capacity":1001}}"#, .number(4), .startLiveUpdates, .invalidMessage,
         "batch.capacity: expected 1 to 1000 updates, found 1001"),
        (#"{"id":4,"op":"startLiveUpdates","batch":true}"#, .number(4), .startLiveUpdates, .invalidMessage,
         "batch: expected an object, found a boolean"),
        (#"{"id":5,"op":"stopLiveUpdates","subscription":-1}"#, .number(5), .stopLiveUpdates, .invalidMessage,
         "subscription: expected an integer from 0 to 9223372036854775807, found a number"),
        // It said "expected a non-negative integer", which 2^64 - 1 is.
        (#"{"id":6,"op":"acknowledgeVisits","through":18446744073709551615}"#, .number(6), .acknowledgeVisits, .invalidMessage,
         "through: expected an integer from 0 to 9223372036854775807, found a number"),
        (#"{"id":9,"op":"visits","after":"yesterday"}"#, .number(9), .visits, .invalidMessage,
         "after: expected ISO 8601 UTC such as 2024-06-01T12:00:00.000Z, found \"yesterday\""),
        (#"{"id":9,"op":"visits","after":17e300}"#, .number(9), .visits, .invalidMessage, "after: expected a string, found a number"),
        (#"{"id":6,"op":"requestLocation","timeout":0}"#, .number(6), .requestLocation, .invalidMessage,
         "timeout: expected from 0.001 to 600 seconds, found 0.0"),
        (#"{"id":7,"op":"addCondition","monitor":1,"identifier":"a","condition":{"type":7}}"#, .number(7), .addCondition, .invalidMessage,
         "condition.type: expected a string, found a number"),
        (#"{"id":7,"op":"addCondition","monitor":1,"identifier":"a","condition":{"type":"beaconIdentity"}}"#, .number(7), .addCondition,
         .invalidMessage, "condition.uuid: missing (expected a string)"),
        (#"{"id":7,"op":"addCondition","monitor":1,"identifier":"a","condition":{"type":"beaconIdentity","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096EG"}}"#,
         .number(7), .addCondition, .invalidMessage, Self.notABeacon),
        (#"{"id":7,"op":"addCondition","monitor":1,"identifier":"a","condition":{"type":"beaconIdentity","uuid":"E2C56DB5DFFB-48D2-B060-D0F5A71096E0-"}}"#,
         .number(7), .addCondition, .invalidMessage, Self.notABeacon),
        (#"{"id":7,"op":"addCondition","monitor":1,"identifier":"a","condition":{"type":"beaconIdentity","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","minor":2}}"#,
         .number(7), .addCondition, .invalidMessage, Self.notABeacon),
        (#"{"id":7,"op":"addCondition","monitor":1,"identifier":"a","condition":{"type":"beaconIdentity","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":65536}}"#,
         .number(7), .addCondition, .invalidMessage, "condition.major: a beacon's major value is 0 … 65535"),
    ])
    func invalidLinesAreRejectedWithWhatCouldBeRead(line: String, id: MessageID?, operation: OperationName?, code: ErrorCode, message: String) {
        let rejected = #expect(throws: RejectedRequest.self) { try Request(line: Array(line.utf8)) }
        #expect(rejected?.id == id)
        #expect(rejected?.operation == operation)
        #expect(rejected?.unknownOperation == (code == .unknownOperation ? "teleport" : nil))
        #expect(rejected?.error.code == code)
        #expect(rejected?.error.message == message)
    }

    /// Every reply echoes its request's id, and an unknown `op`: a request that fills a line
    /// with them still gets a reply that fits one, or no client could read it.
    @Test
    func aRejectedRequestsReplyFitsALine() throws {
        let longOp = String(repeating: "A", count: 60_000)
        let unknown = #expect(throws: RejectedRequest.self) { try Request(line: Array(#"{"id":"\#(String(repeating: "i", count: 256))","op":"\#(longOp)"}"#.utf8)) }
        #expect(unknown?.id == .string(String(repeating: "i", count: 256)))
        #expect(unknown?.unknownOperation == nil)
        #expect(unknown?.error.message == "unknown operation (a name of 60000 bytes)")
        let longID = String(repeating: "i", count: 65_000)
        let unnamed = #expect(throws: RejectedRequest.self) { try Request(line: Array(#"{"id":"\#(longID)","op":"fly"}"#.utf8)) }
        #expect(unnamed?.id == nil)
        #expect(unnamed?.error.message == "id: expected an integer or a string of at most 256 bytes")
        for rejected in [unknown, unnamed] {
            let reply = try #require(rejected?.reply)
            #expect(ServerMessage.reply(reply).line.count < 1_024)
        }
        let accepted = try Request(line: Array(#"{"id":"\#(String(repeating: "i", count: 256))","op":"status"}"#.utf8))
        #expect(accepted.id == .string(String(repeating: "i", count: 256)))
    }
}

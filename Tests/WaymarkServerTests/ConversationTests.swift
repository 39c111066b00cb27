import WaymarkEngine
import Glibc
import Testing
import WaymarkDaemon
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkTestFixtures
import WaymarkSystem

@Suite("Server: requests and replies", .ownThread, .timeLimit(.minutes(1)))
struct ConversationTests {
    @Test func helloNegotiatesTheVersionAndRecordsTheClient() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            let early = try client.request(.status)
            #expect(early.outcome == .failure(ProtocolError(.helloRequired, "the first request on a connection must be hello")))

            let reply = try client.request(.hello(Hello(version: 7, appID: "org.example.tracker")))
            #expect(reply.operation == .hello)
            #expect(reply.outcome == .success(.hello(HelloResult(daemonVersion: "0.1.0-test", protocolVersion: ProtocolVersion.current, pid: Int(getpid())))))
            let again = try client.request(.hello(Hello()))
            #expect(again.outcome == .failure(ProtocolError(.invalidMessage, "hello was already exchanged on this connection")))

            let old = try RawClient(path: daemon.path)
            let refused = try old.request(.hello(Hello(version: 0)))
            #expect(refused.outcome == .failure(ProtocolError(.unsupportedVersion, "protocol version 0 is older than this daemon speaks (1 to \(ProtocolVersion.current))")))

            let ourselves = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
            #expect(daemon.agent.calls.prefix(3) == [.connected(1, ourselves), .identified(1, "org.example.tracker"), .connected(2, ourselves)])
        }
    }

    @Test func liveUpdatesStartFlowAndStop() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            let started = try client.request(.startLiveUpdates(.fitness))
            #expect(started.outcome == .success(.subscription(1)))
            // The agent hears of it after the reply is queued, so its first update follows the reply.
            try await waitUntil { daemon.agent.calls.last == .start(1, .fitness) }

            await daemon.onLoop { _ in daemon.agent.broadcast(numbered(5)) }
            #expect(try client.readMessage() == .event(.update(UpdateEvent(subscription: 1, update: numbered(5), missed: 0))))

            let stopped = try client.request(.stopLiveUpdates(subscription: 1))
            #expect(stopped.outcome == .success(.done))
            #expect(daemon.agent.calls.last == .stop(1))
            // Updates the agent sends for a stopped subscription go nowhere.
            await daemon.onLoop { server in server.send(numbered(6), subscription: 1) }
            #expect(try client.request(.status).operation == .status)

            let unknown = try client.request(.stopLiveUpdates(subscription: 1))
            #expect(unknown.outcome == .failure(ProtocolError(.unknownSubscription, "subscription 1 is not held by this connection")))
        }
    }

    @Test func requestLocationIsAnsweredWithTheClientsID() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            let location = try #require(numbered(3).location)
            daemon.agent.answerRequests(with: .success(location))
            let found = try client.request(.requestLocation(LocationRequest(desiredAccuracy: 20, timeout: .seconds(5))))
            #expect(found.outcome == .success(.location(location)))
            #expect(daemon.agent.calls.last == .request(1, desiredAccuracy: 20, timeout: .seconds(5)))

            daemon.agent.answerRequests(with: .failure(.locationUnknown))
            try client.write(#"{"id":"where?","op":"requestLocation","timeout":1}"# + "\n")
            let unknown = try client.readMessage()
            #expect(unknown == .reply(Reply(
                id: .string("where?"), operation: .requestLocation,
                outcome: .failure(ProtocolError(.locationUnknown, "no location could be had before the timeout")))))

            // Pending requests: answered later, through the sink.
            daemon.agent.answerRequests(with: nil)
            try client.write(Request(id: .number(99), operation: .requestLocation(LocationRequest())).line)
            let status = try client.request(.status)
            guard case .success(.status(let report)) = status.outcome else {
                Issue.record("no status: \(status)")
                return
            }
            #expect(report.pendingRequests == 1)
            await daemon.onLoop { server in server.send(.failure(.denied), request: 3) }
            #expect(try client.readMessage() == .reply(Reply(
                id: .number(99), operation: .requestLocation,
                outcome: .failure(ProtocolError(.authorizationDenied, "the app is not authorized to use location")))))
        }
    }

    @Test func statusCarriesTheAgentsReportWithTheServersCounts() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            let other = try RawClient(path: daemon.path)
            try client.hello()
            _ = try client.request(.startLiveUpdates(.default))
            _ = try client.request(.startLiveUpdates(.airborne))
            var expected = ScriptedAgent.defaultReport
            expected.clients = 2
            expected.liveSubscriptions = 2
            guard case .success(.status(let report)) = try client.request(.status).outcome else {
                Issue.record("status failed")
                return
            }
            // The greeted client, as the kernel says it is (the other has not said hello).
            #expect(report.connectedApps.map(\.pid) == [Int(getpid())])
            // No unit: the app is its executable and uid (docs/authorization.md, "Who an app is").
            #expect(report.connectedApps.first?.app.hasPrefix("executable:\(getuid()):") == true)
            expected.connectedApps = report.connectedApps
            #expect(report == expected)
            _ = other
        }
    }

    /// The error code of a failed reply.
    static func code(_ reply: Reply) -> ErrorCode? {
        guard case .failure(let error) = reply.outcome else { return nil }
        return error.code
    }

    @Test func monitorOperationsOnAConnection() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            #expect(try client.request(.openMonitor(name: "m")).outcome == .success(.monitor(1)))
            #expect(try client.request(.openMonitor(name: "m")).outcome == .success(.monitor(1)), "open already: the same number")
            let home = Condition.circularGeographic(CircularGeographicCondition(latitude: 47.3769, longitude: 8.5417, radius: 150))
            #expect(try client.request(.addCondition(ConditionRequest(monitor: 1, identifier: "home", condition: home))).outcome == .success(.done))
            try await waitUntil { daemon.agent.calls.contains(.monitorsChanged) }
            #expect(try client.request(.monitorIdentifiers(monitor: 1)).outcome == .success(.identifiers(["home"])))
            guard case .success(.record(let record?)) = try client.request(.monitorRecord(monitor: 1, identifier: "home")).outcome else {
                Issue.record("no record")
                return
            }
            #expect(record.condition == home && record.lastEvent.state == .unknown)
            #expect(try client.request(.monitorRecord(monitor: 1, identifier: "nope")).outcome == .success(.record(nil)))
            let far = Condition.circularGeographic(CircularGeographicCondition(latitude: 91, longitude: 0, radius: 150))
            #expect(Self.code(try client.request(.addCondition(ConditionRequest(monitor: 1, identifier: "x", condition: far)))) == .invalidMessage)
            #expect(Self.code(try client.request(.monitorIdentifiers(monitor: 9))) == .unknownSubscription)
            // The 21st condition: its event follows the reply; without a store it says so.
            for index in 1..<20 {
                _ = try client.request(.addCondition(ConditionRequest(monitor: 1, identifier: "c\(index)", condition: home)))
            }
            #expect(try client.request(.addCondition(ConditionRequest(monitor: 1, identifier: "c20", condition: home))).outcome == .success(.done))
            guard case .event(.monitorEvent(1, nil, let event)) = try client.readMessage() else {
                Issue.record("no monitorEvent after the 21st condition")
                return
            }
            #expect(event.identifier == "c20" && event.state == .unmonitored)
            #expect(event.diagnostics == ["conditionLimitExceeded", "persistenceUnavailable"])
            #expect(try client.request(.closeMonitor(monitor: 1)).outcome == .success(.done))
            #expect(Self.code(try client.request(.monitorIdentifiers(monitor: 1))) == .unknownSubscription)
        }
    }

    @Test("a beacon is kept unmonitored with conditionUnsupported; a kind the daemon does not know gets that event and is not kept")
    func unsupportedConditionKinds() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            #expect(try client.request(.openMonitor(name: "m")).outcome == .success(.monitor(1)))
            let beacon = try #require(BeaconIdentityCondition(uuid: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", major: 7))
            let kinds: [(String, Condition)] = [("shop", .beaconIdentity(beacon)), ("door", .unsupported(type: "bluetoothPeer"))]
            for (identifier, condition) in kinds {
                #expect(try client.request(.addCondition(ConditionRequest(monitor: 1, identifier: identifier, condition: condition))).outcome == .success(.done))
                guard case .event(.monitorEvent(1, nil, let event)) = try client.readMessage() else {
                    Issue.record("no monitorEvent after \(identifier)")
                    return
                }
                #expect(event.identifier == identifier && event.state == .unmonitored)
                #expect(event.diagnostics.contains("conditionUnsupported"))
            }
            // The beacon is a record of its kind and takes no place among the 20; the unknown kind is not kept.
            #expect(try client.request(.monitorIdentifiers(monitor: 1)).outcome == .success(.identifiers(["shop"])))
            guard case .success(.record(let record?)) = try client.request(.monitorRecord(monitor: 1, identifier: "shop")).outcome else {
                Issue.record("no record of the beacon")
                return
            }
            #expect(record.condition == .beaconIdentity(nil) && record.lastEvent.state == .unmonitored)
            #expect(try client.request(.monitorRecord(monitor: 1, identifier: "door")).outcome == .success(.record(nil)))
            let home = Condition.circularGeographic(CircularGeographicCondition(latitude: 47.3769, longitude: 8.5417, radius: 150))
            for index in 0..<20 {
                #expect(try client.request(.addCondition(ConditionRequest(monitor: 1, identifier: "c\(index)", condition: home))).outcome == .success(.done))
            }
            guard case .success(.record(let last?)) = try client.request(.monitorRecord(monitor: 1, identifier: "c19")).outcome else {
                Issue.record("no record of the 20th circle")
                return
            }
            #expect(last.lastEvent.state == .unknown, "the 20th circle is watched: the beacon took no place")
            // An unknown kind under a circle's identifier replaces it.
            #expect(try client.request(.addCondition(ConditionRequest(monitor: 1, identifier: "c0", condition: .unsupported(type: "x")))).outcome == .success(.done))
            #expect(try client.request(.monitorRecord(monitor: 1, identifier: "c0")).outcome == .success(.record(nil)))
        }
    }

    @Test func byeIsAnsweredAndThenTheConnectionCloses() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            #expect(try client.request(.bye).outcome == .success(.done))
            #expect(try client.isClosedByPeer())
            try await waitUntil { daemon.agent.hasDisconnected(1) }
        }
    }
}

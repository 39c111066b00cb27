import Testing
import WaymarkDaemon
import WaymarkEngine
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport

/// Pending `requestLocation`s kept for an app that is away (docs/semantics.md, "Consumers that
/// come and go"): the engine runs them on, their answer waits for the app, and a
/// `requestLocation` with the same parameters re-takes one, answered exactly once.
/// Every client of this process is the same app (its executable and uid).
@Suite("Server: kept location requests", .timeLimit(.minutes(2)))
struct KeptRequestTests {
    // MARK: The pure part

    @Test func keptRequestsKeepTheNewestAndNameTheDroppedOnesTheEngineStillRuns() {
        var kept = KeptRequests(capacity: 2)
        var dropped: [[RequestID]] = []
        dropped.append(kept.append(1, Self.asked))
        let answered = kept.answer(1, with: .failure(.locationUnknown))
        #expect(answered)
        dropped.append(kept.append(2, Self.asked))
        // The answered one goes without a release: the engine is done with it.
        dropped.append(kept.append(3, Self.asked))
        // The pending one is named: its demand is to be released.
        dropped.append(kept.append(4, Self.other))
        #expect(dropped == [[], [], [], [2]])
        #expect(kept.entries.map(\.request) == [3, 4])
        #expect(kept.pending == [3, 4])
        var none = KeptRequests(capacity: 0)
        let refused = none.append(5, Self.asked)
        #expect(refused == [5])
        #expect(none.entries.isEmpty)
    }

    @Test func aKeptRequestIsReTakenOnceByItsParametersWithItsAnswer() {
        var kept = KeptRequests(capacity: 4)
        _ = kept.append(1, Self.asked)
        _ = kept.append(2, Self.other)
        _ = kept.append(3, Self.asked)
        // An answer is kept once; a request not kept here is not answered here.
        let answers = [
            kept.answer(3, with: .success(Self.fix)), kept.answer(3, with: .failure(.locationUnknown)),
            kept.answer(9, with: .failure(.locationUnknown)),
        ]
        #expect(answers == [true, false, false])
        // The oldest with the same parameters first, still pending (the engine runs it on),
        // then the answered one, then none: each is re-taken once.
        let retaken = [
            kept.retake(LocationRequest(desiredAccuracy: 5, timeout: .seconds(60))), kept.retake(Self.asked), kept.retake(Self.asked),
            kept.retake(Self.asked),
        ]
        #expect(retaken == [
            nil, KeptRequests.Entry(request: 1, parameters: Self.asked, answer: nil),
            KeptRequests.Entry(request: 3, parameters: Self.asked, answer: .success(Self.fix)), nil,
        ])
        #expect(kept.entries.map(\.request) == [2])
    }

    // MARK: The server

    @Test func anAnswerThatCameWhileTheAppWasAwayIsTheReTakersOnce() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(30) }) { daemon in
            try Self.leave(daemon, asking: Self.asked)
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            // Kept, not released: the engine runs it on.
            #expect(daemon.agent.calls.last == .disconnected(1, subscriptions: [], requests: []))
            #expect(daemon.agent.pendingRequests == [1])
            await daemon.onLoop { _ in daemon.agent.answer(1, with: .success(Self.fix)) }

            let second = try RawClient(path: daemon.path)
            try second.hello()
            #expect(try Self.sessions(second) == StatusReport.SessionCounts(keptRequests: 1))
            // Other parameters ask anew.
            try second.write(Request(id: .string("other"), operation: .requestLocation(Self.other)).line)
            try await waitUntil { daemon.agent.calls.contains(.request(2, desiredAccuracy: 0, timeout: .seconds(20))) }
            // The same parameters re-take the kept request: its answer at once, under the new id.
            let retaken = try second.request(.requestLocation(Self.asked))
            #expect(retaken.outcome == .success(.location(Self.fix)))
            #expect(try Self.sessions(second) == StatusReport.SessionCounts())
            // Once: asking again is a new request.
            try second.write(Request(id: .string("again"), operation: .requestLocation(Self.asked)).line)
            try await waitUntil { daemon.agent.calls.contains(.request(3, desiredAccuracy: 20, timeout: .seconds(60))) }
            #expect(daemon.agent.calls.filter { if case .request(1, _, _) = $0 { true } else { false } }.count == 1)
        }
    }

    @Test func aPendingRequestIsJoinedItsTimeoutCountingAcrossTheGap() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(30) }) { daemon in
            try Self.leave(daemon, asking: Self.asked)
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            let second = try RawClient(path: daemon.path)
            try second.hello()
            try second.write(Request(id: .string("back"), operation: .requestLocation(Self.asked)).line)
            try await waitUntil { daemon.log.contains { $0.contains("re-took request 1, still pending") } }
            // The engine's request goes on: not asked again (its deadline is the first one's), not cancelled.
            #expect(daemon.agent.calls.filter { if case .request = $0 { true } else { false } }.count == 1)
            #expect(!daemon.agent.calls.contains(.cancel(1)))
            await daemon.onLoop { _ in daemon.agent.answer(1, with: .failure(.locationUnknown)) }
            #expect(try second.readMessage() == .reply(Reply(
                id: .string("back"), operation: .requestLocation,
                outcome: .failure(ProtocolError(.locationUnknown, "no location could be had before the timeout")))))
            // Exactly one reply: nothing follows but the status asked for.
            let status = try second.request(.status)
            guard case .success(.status(let report)) = status.outcome else {
                Issue.record("no status: \(status)")
                return
            }
            #expect(report.pendingRequests == 0)
        }
    }

    @Test func aRequestNotReTakenWithinTheWindowEndsAndItsDemandIsReleased() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .milliseconds(1_500) }) { daemon in
            let left = ContinuousClock.now
            try Self.leave(daemon, asking: Self.asked)
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            #expect(daemon.agent.pendingRequests == [1])
            try await waitUntil { daemon.agent.calls.contains(.cancel(1)) }
            #expect(ContinuousClock.now - left >= .milliseconds(1_500))
            #expect(daemon.agent.pendingRequests.isEmpty)
            // An answer the agent sends afterwards goes nowhere.
            await daemon.onLoop { server in server.send(.success(Self.fix), request: 1) }
            let client = try RawClient(path: daemon.path)
            try client.hello()
            #expect(try Self.sessions(client) == StatusReport.SessionCounts())
        }
    }

    @Test func anAppKeepsItsNewestRequestsUpToTheBound() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(30); $0.maximumKeptRequestsPerApp = 2 }) { daemon in
            do {
                let client = try RawClient(path: daemon.path)
                try client.hello()
                for index in 0..<3 { try client.write(Request(id: .number(Int64(10 + index)), operation: .requestLocation(Self.asked)).line) }
                try Self.settle(client)
                #expect(daemon.agent.pendingRequests.count == 3)
            }
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            #expect(daemon.agent.calls.last == .disconnected(1, subscriptions: [], requests: [1]))
            #expect(daemon.agent.pendingRequests == [2, 3])
        }
    }

    @Test func aZeroWindowKeepsNoRequest() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .zero }) { daemon in
            try Self.leave(daemon, asking: Self.asked)
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            #expect(daemon.agent.calls.last == .disconnected(1, subscriptions: [], requests: [1]))
        }
    }

    /// Hostile: a client that connects, asks and dies 10,000 times holds one request if it asks
    /// the same each time (each run re-takes the last one's), and keeps at most the bound if
    /// it asks something else each time.
    @Test func tenThousandDeathsKeepNoMoreThanTheBound() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(60) }) { daemon in
            let bound = ServerConfiguration(path: "", daemonVersion: "").maximumKeptRequestsPerApp
            for _ in 0..<100 { try Self.leave(daemon, asking: Self.asked) }
            try await waitUntil { daemon.agent.hasDisconnected(100) }
            #expect(daemon.agent.pendingRequests == [1])
            for index in 0..<10_000 {
                try Self.leave(daemon, asking: LocationRequest(desiredAccuracy: Double(index + 1), timeout: .seconds(60)))
            }
            try await waitUntil { daemon.agent.hasDisconnected(10_100) }
            #expect(daemon.agent.pendingRequests.count == bound)
            let client = try RawClient(path: daemon.path)
            try client.hello()
            #expect(try Self.sessions(client) == StatusReport.SessionCounts(keptRequests: bound))
            // The newest are kept: the oldest kept is re-taken first.
            #expect(daemon.agent.pendingRequests.min() == RequestID(rawValue: UInt64(10_001 - bound + 1)))
        }
    }

    // MARK: Helpers

    static let asked = LocationRequest(desiredAccuracy: 20, timeout: .seconds(60))
    static let other = LocationRequest(desiredAccuracy: 0, timeout: .seconds(20))
    static let fix = numbered(7).location!

    /// Connects a client of this process, asks `parameters` and closes the connection once the
    /// agent has the request, without `bye`, as a process that dies.
    static func leave(_ daemon: TestDaemon, asking parameters: LocationRequest) throws {
        let client = try RawClient(path: daemon.path)
        try client.hello()
        try client.write(Request(id: .number(1), operation: .requestLocation(parameters)).line)
        try settle(client)
    }

    /// Returns once the daemon has read everything `client` sent (a status round trip).
    static func settle(_ client: RawClient) throws {
        _ = try client.request(.status)
    }

    /// The session counts `client` sees in `status`.
    static func sessions(_ client: RawClient) throws -> StatusReport.SessionCounts? {
        guard case .success(.status(let report)) = try client.request(.status).outcome else { return nil }
        return report.sessions
    }
}

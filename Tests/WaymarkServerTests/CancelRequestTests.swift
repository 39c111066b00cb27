import WaymarkEngine
import Testing
import WaymarkDaemon
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkTestFixtures

@Suite("Server: cancelRequest", .ownThread, .timeLimit(.minutes(1)))
struct CancelRequestTests {
    @Test func aCancelledRequestGetsItsOneReplyAndTheAgentReleasesIt() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            daemon.agent.answerRequests(with: nil)
            try client.write(#"{"id":"where","op":"requestLocation","timeout":60}"# + "\n")
            try client.write(#"{"id":5,"op":"cancelRequest","request":"where"}"# + "\n")
            // The withdrawn request's reply first, then the cancelRequest's.
            #expect(try client.readMessage() == .reply(Reply(
                id: .string("where"), operation: .requestLocation,
                outcome: .failure(ProtocolError(.cancelled, "cancelled by cancelRequest")))))
            #expect(try client.readMessage() == .reply(Reply(id: .number(5), operation: .cancelRequest, outcome: .success(.done))))
            #expect(daemon.agent.calls.last == .cancel(1))

            // An answer the agent sends afterwards goes nowhere; the request is no longer pending.
            await daemon.onLoop { server in server.send(.failure(.locationUnknown), request: 1) }
            let status = try client.request(.status)
            guard case .success(.status(let report)) = status.outcome else {
                Issue.record("no status: \(status)")
                return
            }
            #expect(report.pendingRequests == 0)

            let again = try client.request(.cancelRequest(request: .string("where")))
            #expect(again.outcome == .failure(ProtocolError(.unknownRequest, #"no requestLocation with id "where" is pending on this connection"#)))
        }
    }

    @Test func aConnectionCannotCancelAnothersRequest() async throws {
        try await withDaemon { daemon in
            let owner = try RawClient(path: daemon.path)
            let other = try RawClient(path: daemon.path)
            try owner.hello()
            try other.hello()
            daemon.agent.answerRequests(with: nil)
            try owner.write(Request(id: .number(1), operation: .requestLocation(LocationRequest())).line)
            try await waitUntil { daemon.agent.calls.contains { if case .request = $0 { true } else { false } } }
            let refused = try other.request(.cancelRequest(request: .number(1)))
            #expect(refused.outcome == .failure(ProtocolError(.unknownRequest, "no requestLocation with id 1 is pending on this connection")))
            #expect(!daemon.agent.calls.contains { if case .cancel = $0 { true } else { false } })
        }
    }
}

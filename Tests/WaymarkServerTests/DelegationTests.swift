import Testing
import WaymarkAuthorization
import WaymarkDaemon
import WaymarkEngine
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkTestFixtures

/// In-use delegation (docs/semantics.md): an app in use by itself hands a token; the app that
/// accepts it counts as in use until the giver ends it or is no longer in use.
@Suite("Server: in-use delegation", .ownThread, .timeLimit(.minutes(1)))
struct DelegationTests {
    /// Connects a client and says hello.
    static func client(_ daemon: TestDaemon) throws -> RawClient {
        let client = try RawClient(path: daemon.path)
        try client.hello()
        return client
    }

    /// Starts a delegation on `giver`; returns its id and token.
    static func delegate(_ giver: RawClient) throws -> (UInt64, String)? {
        guard case .success(.delegation(let id, let token)) = try giver.request(.startInUseDelegation).outcome else { return nil }
        return (id, token)
    }

    static func isDelegated(_ daemon: TestDaemon, _ client: ClientID) async -> Bool {
        await daemon.onLoop { $0.inUseEvidence(of: client)?.contains(.delegation) == true }
    }

    @Test func anAppNotInUseCannotDelegate() async throws {
        try await withDaemon { daemon in
            let giver = try Self.client(daemon)
            let reply = try giver.request(.startInUseDelegation)
            guard case .failure(let error) = reply.outcome else {
                Issue.record("delegated out of use: \(reply)")
                return
            }
            #expect(error.code == .insufficientlyInUse)
        }
    }

    @Test func aDelegationIsGrantedOnceAndRevokedByTheGiver() async throws {
        try await withDaemon(configure: { $0.policies = try! LifecycleTests.interactive() }) { daemon in
            let giver = try Self.client(daemon)
            let receiver = try Self.client(daemon)
            let (id, token) = try #require(try Self.delegate(giver))
            #expect(token.utf8.count == 32 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
            #expect(!(await Self.isDelegated(daemon, 2)))
            // The giver cannot accept its own; a wrong token is refused.
            #expect(try giver.request(.acceptInUseDelegation(token: token)).outcome.isFailure)
            #expect(try receiver.request(.acceptInUseDelegation(token: String(repeating: "0", count: 32))).outcome.isFailure)

            #expect(try receiver.request(.acceptInUseDelegation(token: token)).outcome == .success(.session(id)))
            #expect(await Self.isDelegated(daemon, 2))
            // Once accepted, the token is spent.
            let third = try Self.client(daemon)
            #expect(try third.request(.acceptInUseDelegation(token: token)).outcome.isFailure)

            #expect(try giver.request(.stopInUseDelegation(session: id)).outcome == .success(.done))
            #expect(!(await Self.isDelegated(daemon, 2)))
            let gone = try receiver.request(.stopInUseDelegation(session: id))
            #expect(gone.outcome == .failure(ProtocolError(.unknownSubscription, "delegation \(id) was not given to or by this connection")))
        }
    }

    @Test func theGiversDepartureRevokesIt() async throws {
        try await withDaemon(configure: { $0.policies = try! LifecycleTests.interactive() }) { daemon in
            let receiver = try Self.client(daemon)
            do {
                let giver = try Self.client(daemon)
                let (_, token) = try #require(try Self.delegate(giver))
                _ = try receiver.request(.acceptInUseDelegation(token: token))
                #expect(await Self.isDelegated(daemon, 1))
            }
            try await waitUntil { daemon.agent.hasDisconnected(2) }
            #expect(!(await Self.isDelegated(daemon, 1)))
        }
    }

    @Test func theReceiverMayGiveItBack() async throws {
        try await withDaemon(configure: { $0.policies = try! LifecycleTests.interactive() }) { daemon in
            let giver = try Self.client(daemon)
            let receiver = try Self.client(daemon)
            let (id, token) = try #require(try Self.delegate(giver))
            _ = try receiver.request(.acceptInUseDelegation(token: token))
            #expect(try receiver.request(.stopInUseDelegation(session: id)).outcome == .success(.done))
            #expect(!(await Self.isDelegated(daemon, 2)))
            #expect(try giver.request(.stopInUseDelegation(session: id)).outcome.isFailure)
        }
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { true } else { false }
    }
}

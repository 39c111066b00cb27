import Glibc
import Testing
import WaymarkEventLoop
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem
import WaymarkTestFixtures

@testable import Waymark

/// What the process asks for after the daemon restarted reaches the new daemon
/// (``ClientCore``). The client's loop runs here only while the test waits for an answer, so
/// when the test asks, the old daemon's hangup is unread, as it is when the request comes in
/// the loop's turn that brings the hangup. That loop holds the test's thread while it runs.
@Suite(.serialized, .ownThread, .timeLimit(.minutes(1)))
struct StaleLinkTests {
    static let appID = "org.example.stale-link"

    @Test func aCallAfterTheDaemonRestartedReachesTheNewDaemonAsTheSameApp() async throws {
        try await afterARestart { client, second in
            let status = try await client.status()
            #expect(status.clients == 1)
            #expect(second.agent.calls.count { if case .identified(_, Self.appID) = $0 { true } else { false } } == 1)
        }
    }

    @Test func aLocationRequestAfterTheDaemonRestartedReachesTheNewDaemon() async throws {
        try await afterARestart { client, second in
            let location = try #require(numbered(3).location)
            second.agent.answerRequests(with: .success(location))
            let pending = PendingReply<Location>()
            client.core.requestLocation(LocationRequest(desiredAccuracy: 10, timeout: .seconds(5)), pending)
            #expect(try await client.run(until: pending) == location)
        }
    }

    @Test func aCallAfterARestartRetakesHeldSubscriptionsOnOneConnection() async throws {
        let (updates, continuation) = AsyncThrowingStream<LocationUpdate, any Error>.makeStream()
        let holdASubscription: (DrivenClient, TestDaemon) throws -> Void = { client, first in
            client.core.subscribe(1, .fitness, DeliveryOptions(), continuation)
            try client.run { first.agent.liveSubscriptions.count == 1 }
        }
        try await afterARestart(asking: holdASubscription) { client, second in
            let status = try await client.status()
            #expect(status.clients == 1)
            // Past the reconnect the lost connection scheduled (0.1 s): it has nothing to do.
            try client.run(for: .milliseconds(500))
            #expect(second.agent.calls.count { if case .connected = $0 { true } else { false } } == 1)
            #expect(second.agent.calls.count { if case .start(_, .fitness) = $0 { true } else { false } } == 1)
            #expect(second.agent.liveSubscriptions.count == 1)
        }
        continuation.finish()
        var iterator = updates.makeAsyncIterator()
        #expect(try await iterator.next()?.diagnostics.daemonUnavailable == true)
        #expect(try await iterator.next() == nil)
    }

    /// A client that asked a daemon something (`asking`: its status unless told), then the
    /// daemon restarted at the same path: `body` gets the client, whose loop has not run since,
    /// and the new daemon.
    private func afterARestart(
        asking: (DrivenClient, TestDaemon) async throws -> Void = { client, _ in _ = try await client.status() },
        _ body: (DrivenClient, TestDaemon) async throws -> Void
    ) async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let client = try DrivenClient(path: directory.socket(), appID: Self.appID)
        let first = try TestDaemon(path: directory.socket())
        do {
            try await asking(client, first)
        } catch {
            await first.shutDown()
            throw error
        }
        await first.shutDown()
        try await withDaemon(at: directory.socket()) { try await body(client, $0) }
    }

    /// A listener that takes the connection and the client's requests, then shuts one side of
    /// it down while still connected. Its reading side (`SHUT_RD`): the client's check finds
    /// nothing wrong and its next write fails with EPIPE, as when the daemon goes between the
    /// check and the write. Its sending side (`SHUT_WR`): the write would succeed, and nothing
    /// would ever answer; the check sees that the daemon will send nothing more.
    @Test(arguments: [Int32(SHUT_RD), Int32(SHUT_WR)])
    func aHalfClosedConnectionIsLeftForANewOneButARequestTheDaemonHadIsNotSentAgain(side: Int32) async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let path = directory.socket()
        let client = try DrivenClient(path: path, appID: Self.appID)
        let listener = try UnixListener(path: path)
        let inFlight = PendingReply<ReplyResult>()
        client.core.call(.status, inFlight)
        let accepted = try #require(try listener.accept())
        defer { try? accepted.close() }
        #expect(shutdown(accepted.rawValue, side) == 0)
        try listener.close()

        try await withDaemon(at: path) { second in
            let status = try await client.status()
            #expect(status.clients == 1)
            #expect(second.agent.calls.count { if case .identified(_, Self.appID) = $0 { true } else { false } } == 1)
        }
        // The first status was written whole: the daemon may have acted on it, so it is not
        // sent again.
        let error = await #expect(throws: WaymarkError.self) { try await client.run(until: inFlight) }
        guard case .daemonUnavailable(let reason)? = error else { return }
        #expect(reason == "the daemon closed the connection")
    }
}

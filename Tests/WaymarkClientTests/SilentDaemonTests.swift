import Testing
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem
import WaymarkTestFixtures

@testable import Waymark

/// A daemon that takes the connection and never answers (stopped with SIGSTOP, stalled, or
/// another program of the same user on the socket) holds no caller: each request fails with
/// ``WaymarkError/daemonUnavailable(_:)`` once its patience runs out (``ClientCore``).
@Suite(.serialized, .ownThread, .timeLimit(.minutes(1)))
struct SilentDaemonTests {
    @Test func aCallFailsWhenTheDaemonDoesNotAnswer() async throws {
        try await withSilentDaemon { client in
            let pending = PendingReply<ReplyResult>()
            client.core.call(.status, pending)
            let error = await #expect(throws: WaymarkError.self) { try await client.run(until: pending) }
            #expect(error == .daemonUnavailable("no answer to status within 0.3 seconds"))
        }
    }

    @Test func aLocationRequestFailsPastItsTimeoutWhenTheDaemonDoesNotAnswer() async throws {
        try await withSilentDaemon { client in
            let pending = PendingReply<Location>()
            let asked = MonotonicInstant.now
            client.core.requestLocation(LocationRequest(desiredAccuracy: 10, timeout: .seconds(1)), pending)
            let error = await #expect(throws: WaymarkError.self) { try await client.run(until: pending) }
            #expect(error == .daemonUnavailable("no answer to requestLocation within 3.0 seconds"))
            // The request's own timeout is the daemon's to keep: the client waits past it.
            #expect(MonotonicInstant.now - asked >= .seconds(3))
        }
    }

    @Test func aSecondCallWaitsAfresh() async throws {
        try await withSilentDaemon { client in
            let first = PendingReply<ReplyResult>()
            client.core.call(.status, first)
            _ = try? await client.run(until: first)
            let second = PendingReply<ReplyResult>()
            let asked = MonotonicInstant.now
            client.core.call(.authorizationStatus, second)
            let error = await #expect(throws: WaymarkError.self) { try await client.run(until: second) }
            #expect(error == .daemonUnavailable("no answer to authorizationStatus within 0.3 seconds"))
            #expect(MonotonicInstant.now - asked >= .milliseconds(300))
        }
    }

    /// Runs `body` with a client (0.3 s of patience) of a socket whose listener accepts the
    /// connection and then reads and writes nothing.
    private func withSilentDaemon(_ body: (DrivenClient) async throws -> Void) async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let listener = try UnixListener(path: directory.socket())
        defer { try? listener.close() }
        let client = try DrivenClient(path: directory.socket(), answerPatience: .milliseconds(300))
        try await body(client)
    }
}

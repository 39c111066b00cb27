import Testing
import WaymarkEventLoop
import WaymarkLocation
import WaymarkProtocol
import WaymarkSystem

@testable import Waymark

/// A client library whose I/O loop cannot start does not end the process: every caller hears
/// `daemonUnavailable`, with the reason.
@Suite(.timeLimit(.minutes(1)))
struct LoopFailureTests {
    private let client = DaemonClient { () throws(SystemError) in
        throw SystemError(errno: Errno.outOfMemory, call: "epoll_create1")
    }

    @Test func statusIsDaemonUnavailable() async {
        let error = await #expect(throws: WaymarkError.self) { try await client.status() }
        guard case .daemonUnavailable(let reason)? = error else { return }
        #expect(reason.contains("epoll_create1"))
    }

    @Test func requestLocationIsDaemonUnavailable() async {
        let error = await #expect(throws: WaymarkError.self) {
            try await client.requestLocation(LocationRequest(desiredAccuracy: 0, timeout: .seconds(5)))
        }
        guard case .daemonUnavailable(let reason)? = error else { return }
        #expect(reason.contains("epoll_create1"))
    }

    @Test func liveUpdatesSayUnavailableThenEnd() async throws {
        let storage = LiveUpdatesStorage(configuration: .default, client: client)
        var updates = storage.stream.makeAsyncIterator()
        let first = try await updates.next()
        #expect(first?.location == nil)
        #expect(first?.diagnostics.daemonUnavailable == true)
        let error = await #expect(throws: WaymarkError.self) { _ = try await updates.next() }
        guard case .daemonUnavailable(let reason)? = error else { return }
        #expect(reason.contains("epoll_create1"))
    }
}

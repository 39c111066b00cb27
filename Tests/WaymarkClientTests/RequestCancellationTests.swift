import Foundation
import Testing
import Waymark
import WaymarkLocation

extension ClientLibraryTests {
/// requestLocation against the real daemon on the simulated board, in real time.
@Suite("requestLocation with the real waymarkd", .serialized, .timeLimit(.minutes(2)))
struct RequestCancellationTests {
    @Test("cancelling the task withdraws the request: the daemon drops it and powers the receiver down at once")
    func cancellingReleasesTheReceiver() async throws {
        // The receiver starts cold (about 26 s to a first fix), so the request is still pending.
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("desk 10m\n")])
        defer { daemon.stop() }
        let request = Task { try await Location.requestLocation(desiredAccuracy: 0, timeout: .seconds(120)) }
        let acquiring = try await poll { $0.pendingRequests == 1 && $0.receiverPowerState == "acquiring" }
        #expect(acquiring)
        request.cancel()
        await #expect(throws: CancellationError.self) { try await request.value }
        let released = try await poll { $0.pendingRequests == 0 && $0.receiverPowerState == "backup" }
        #expect(released)
    }

    @Test("Ctrl-C withdraws waymark request's request before it exits with 130: nothing is kept for a rejoin")
    func controlCWithdrawsTheCommandsRequest() async throws {
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("desk 10m\n")])
        defer { daemon.stop() }
        let (request, _, _) = try startWaymark(["request", "--timeout", "120"])
        let pending = try await poll { $0.pendingRequests == 1 }
        #expect(pending)
        request.interrupt()
        request.waitUntilExit()
        #expect(request.terminationReason == .exit)
        #expect(request.terminationStatus == 130)
        let status = try await WaymarkAgent.status()
        #expect(status.pendingRequests == 0)
        #expect(status.sessions.keptRequests == 0)
    }

    /// Whether the daemon's status satisfies `condition` within five seconds.
    private func poll(_ condition: @escaping @Sendable (StatusReport) -> Bool) async throws -> Bool {
        for _ in 0..<100 {
            if condition(try await WaymarkAgent.status()) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
}

import Dispatch
import Glibc
import Testing
import Waymark
import WaymarkServerTestSupport
import WaymarkDaemon
import WaymarkEventLoop
import WaymarkLocation

/// The client library keeps one connection per process, so every test that uses it talks to
/// a daemon at the same path, one test at a time: the scripted server here, the real
/// `waymarkd` in ``WaymarkdTests``.
@Suite("Client library", .serialized)
enum ClientLibraryTests {
    static let socket: String = {
        let path = "/tmp/wm-client-\(getpid()).sock"
        setenv("WAYMARK_SOCKET", path, 1)
        return path
    }()
}

extension ClientLibraryTests {
@Suite("against the scripted server", .serialized, .timeLimit(.minutes(1)))
struct ClientTests {
    static var socket: String { ClientLibraryTests.socket }

    @Test func updatesFlowAndLeavingTheLoopStopsThem() async throws {
        try await withDaemon(at: Self.socket) { daemon in
            let consumer = Task {
                var numbers: [Int] = []
                for try await update in LocationUpdate.liveUpdates(.fitness) {
                    numbers.append(update.number ?? -1)
                    if numbers.count == 3 { break }
                }
                return numbers
            }
            try await waitUntil { daemon.agent.liveSubscriptions.count == 1 }
            await daemon.onLoop { _ in (1...3).forEach { daemon.agent.broadcast(numbered($0)) } }
            #expect(try await consumer.value == [1, 2, 3])
            try await waitUntil { daemon.agent.calls.contains { if case .stop = $0 { true } else { false } } }
            #expect(daemon.agent.calls.contains { if case .start(_, .fitness) = $0 { true } else { false } })
            #expect(daemon.agent.liveSubscriptions.isEmpty)
        }
    }

    @Test func firstWhereStopsOnceMatched() async throws {
        try await withDaemon(at: Self.socket) { daemon in
            let match = Task { try await LocationUpdate.liveUpdates().first { ($0.number ?? 0) >= 2 } }
            try await waitUntil { daemon.agent.liveSubscriptions.count == 1 }
            #expect(daemon.agent.calls.contains { if case .start(_, .default) = $0 { true } else { false } })
            await daemon.onLoop { _ in (1...3).forEach { daemon.agent.broadcast(numbered($0)) } }
            #expect(try await match.value?.number == 2)
            try await waitUntil { daemon.agent.liveSubscriptions.isEmpty }
        }
    }

    @Test func cancellingTheConsumerEndsTheSubscription() async throws {
        try await withDaemon(at: Self.socket) { daemon in
            let consumer = Task {
                for try await _ in LocationUpdate.liveUpdates(.automotiveNavigation) {}
            }
            try await waitUntil { daemon.agent.liveSubscriptions.count == 1 }
            consumer.cancel()
            try await consumer.value
            try await waitUntil { daemon.agent.liveSubscriptions.isEmpty }
        }
    }

    @Test func requestLocationAnswersOrThrowsLocationUnknown() async throws {
        try await withDaemon(at: Self.socket) { daemon in
            let location = try #require(numbered(7).location)
            daemon.agent.answerRequests(with: .success(location))
            #expect(try await Location.requestLocation(desiredAccuracy: 10, timeout: .seconds(5)) == location)
            #expect(daemon.agent.calls.contains { if case .request(_, 10, .seconds(5)) = $0 { true } else { false } })

            daemon.agent.answerRequests(with: .failure(.locationUnknown))
            await #expect(throws: LocationError.locationUnknown) { try await Location.requestLocation() }
            daemon.agent.answerRequests(with: .failure(.denied))
            await #expect(throws: LocationError.denied) { try await Location.requestLocation() }

            // Refused before the wire: JSON has no infinity (it went as null, read as 0, the
            // best), and a timeout under the protocol's millisecond went as 0.
            let calls = daemon.agent.calls.count
            for (accuracy, timeout) in [(Double.infinity, Duration.seconds(5)), (.nan, .seconds(5)), (10, .microseconds(500))] {
                await #expect(throws: WaymarkError.self) { try await Location.requestLocation(desiredAccuracy: accuracy, timeout: timeout) }
            }
            #expect(daemon.agent.calls.count == calls)
        }
    }

    @Test func aTimeoutOutsideTheProtocolsRangeIsRefusedWithoutAskingTheDaemon() async throws {
        try await withDaemon(at: Self.socket) { daemon in
            for seconds: Int64 in [0, 601, 10_000_000_000] {
                await #expect(throws: WaymarkError.self) { try await Location.requestLocation(timeout: .seconds(seconds)) }
            }
            #expect(!daemon.agent.calls.contains { if case .request = $0 { true } else { false } })
        }
    }

    @Test func aCallToADaemonThatStoppedAnsweringEndsWhenItsTaskIsCancelled() async throws {
        try await withDaemon(at: Self.socket) { daemon in
            _ = try await WaymarkAgent.status()  // connected
            let hanging = DispatchSemaphore(value: 0), answering = DispatchSemaphore(value: 0)
            daemon.remote.execute { _ in
                hanging.signal()
                answering.wait()  // the daemon's loop hangs
            }
            while hanging.wait(timeout: .now()) == .timedOut { try await Task.sleep(for: .milliseconds(10)) }
            let call = Task { try await WaymarkAgent.status() }
            try await Task.sleep(for: .milliseconds(200))
            call.cancel()
            await #expect(throws: CancellationError.self) { try await call.value }
            answering.signal()
            #expect(try await WaymarkAgent.status().clients == 1, "the reply to the cancelled call is dropped; the next is this one's")
        }
    }

    @Test func aCancelledRequestThrowsCancellationErrorAndIsWithdrawn() async throws {
        try await withDaemon(at: Self.socket) { daemon in
            daemon.agent.answerRequests(with: nil)
            let request = Task { try await Location.requestLocation(timeout: .seconds(30)) }
            try await waitUntil { daemon.agent.calls.contains { if case .request = $0 { true } else { false } } }
            request.cancel()
            await #expect(throws: CancellationError.self) { try await request.value }
            // The daemon hears of it and releases the request at once.
            try await waitUntil { daemon.agent.calls.contains { if case .cancel = $0 { true } else { false } } }
        }
    }

    @Test func aDaemonRestartIsReportedAndTheSequenceContinues() async throws {
        let first = try TestDaemon(path: Self.socket)
        let consumer = Task {
            var updates: [LocationUpdate] = []
            for try await update in LocationUpdate.liveUpdates(.otherNavigation) {
                updates.append(update)
                if update.number == 2 { break }
            }
            return updates
        }
        defer { consumer.cancel() }
        try await waitUntil { first.agent.liveSubscriptions.count == 1 }
        await first.onLoop { _ in first.agent.broadcast(numbered(1)) }
        try await waitUntil { await first.onLoop { $0.counters.messagesOut } >= 3 }
        await first.shutDown()

        try await withDaemon(at: Self.socket) { second in
            try await waitUntil { second.agent.liveSubscriptions.count == 1 }
            #expect(second.agent.calls.contains { if case .start(_, .otherNavigation) = $0 { true } else { false } })
            await second.onLoop { _ in second.agent.broadcast(numbered(2)) }
            let updates = try await consumer.value
            #expect(updates.count == 3)
            #expect(updates.first?.number == 1)
            #expect(updates[1].location == nil && updates[1].diagnostics.daemonUnavailable)
            #expect(updates.last?.number == 2)
        }
    }

    @Test func withoutADaemonSequencesSaySoAndRequestsFail() async throws {
        let consumer = Task { try await LocationUpdate.liveUpdates().first { _ in true } }
        let update = try #require(try await consumer.value)
        #expect(update.location == nil)
        #expect(update.diagnostics.names == ["daemonUnavailable"])
        await #expect {
            try await Location.requestLocation()
        } throws: { error in
            if case WaymarkError.daemonUnavailable = error { true } else { false }
        }
    }

    @Test func distanceBetweenLocations() throws {
        let a = try #require(numbered(0).location)
        var b = a
        b.latitude += 0.001
        #expect(abs(b.distance(from: a) - 110.57) < 0.01)
    }
}
}

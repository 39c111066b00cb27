import WaymarkEngine
import WaymarkEventLoop
import Glibc
import Synchronization
import Testing
import WaymarkDaemon
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem
import WaymarkTestFixtures

/// The limits that keep one local user from hurting the others (`docs/protocol.md`, "Limits").
@Suite("Server: limits against hostile clients", .ownThread, .timeLimit(.minutes(1)))
struct LimitsTests {
    @Test func aConnectionThatSaysNoHelloInTimeIsClosed() async throws {
        try await withDaemon(configure: { $0.helloTimeout = .milliseconds(300) }) { daemon in
            let silent = try RawClient(path: daemon.path)
            let polite = try RawClient(path: daemon.path)
            try polite.hello()
            #expect(try silent.readMessage() == .reply(Reply(id: nil, operation: nil, outcome: .failure(ProtocolError(
                .helloRequired, "no hello within 0.3 seconds; closing the connection")))))
            #expect(try silent.isClosedByPeer())
            try await Task.sleep(for: .milliseconds(400))
            #expect(try polite.request(.status).operation == .status)
            #expect(await daemon.onLoop { $0.counters.clientsClosedWithoutHello } == 1)
        }
    }

    @Test func noHelloTimerWaitsOnceEveryConnectionGreetedOrLeft() async throws {
        try await withDaemon { daemon in
            let idle = await pendingTimers(of: daemon)
            let polite = try RawClient(path: daemon.path)
            var probe: RawClient? = try RawClient(path: daemon.path)  // connects and leaves, as a readiness check does
            try await waitUntil { await daemon.onLoop { $0.clientCount } == 2 }
            #expect(await pendingTimers(of: daemon) == idle + 1)
            try polite.hello()
            #expect(await pendingTimers(of: daemon) == idle + 1)  // the probe still has to greet
            _ = probe
            probe = nil
            try await waitUntil { await daemon.onLoop { $0.clientCount } == 1 }
            #expect(await pendingTimers(of: daemon) == idle)
        }
    }

    @Test func oneUserMayHoldOnlyItsShareOfConnections() async throws {
        try await withDaemon(configure: { $0.maximumClientsPerUser = 3; $0.privilegedUsers = [] }) { daemon in
            var held = try (0..<3).map { _ in try RawClient(path: daemon.path) }
            for client in held { try client.hello() }
            let refused = try RawClient(path: daemon.path)
            #expect(try refused.isClosedByPeer())
            held.removeLast()
            try await waitUntil { await daemon.onLoop { $0.clientCount } == 2 }
            let admitted = try RawClient(path: daemon.path)
            #expect(try admitted.hello().operation == .hello)
            #expect(await daemon.onLoop { $0.counters.clientsRefusedOverUserCap } == 1)
        }
    }

    @Test func rootAndTheDaemonsOwnUserLeaveSlotsForTheOthers() async throws {
        // The tests' user is the daemon's own: privileged, but not to the last slot.
        try await withDaemon(configure: { $0.maximumClients = 8; $0.clientsReservedForOtherUsers = 3 }) { daemon in
            var held = try (0..<5).map { _ in try RawClient(path: daemon.path) }
            for client in held { try client.hello() }
            let refused = try RawClient(path: daemon.path)
            #expect(try refused.isClosedByPeer())
            #expect(await daemon.onLoop { $0.counters.clientsRefusedOverUserCap } == 1)
            #expect(await daemon.onLoop { $0.clientCount } == 5)
            held.removeLast()
            try await waitUntil { await daemon.onLoop { $0.clientCount } == 4 }
            #expect(try RawClient(path: daemon.path).hello().operation == .hello)
        }
    }

    @Test func connectionsQueuedTogetherAreAcceptedAFewDozenPerTurn() async throws {
        try await withDaemon { daemon in
            let server = await daemon.onLoop { LoopProbe.Unchecked(server: $0) }
            let probe = LoopProbe()
            let remote = daemon.remote
            // A job holds the loop while the connections queue in the listen backlog.
            remote.execute { _ in probe.hold() }
            while !probe.isHeld { usleep(1_000) }
            let queued = try (0..<200).map { _ in try RawClient(path: daemon.path) }
            // The count is read two turns after the loop is let go (a job that queues a job):
            // the listener is reported in both, and each takes at most a few dozen.
            remote.execute { _ in
                remote.execute { _ in probe.record(server.server.counters.connectionsAccepted) }
            }
            probe.release()
            try await waitUntil { probe.recorded != nil }
            #expect(try #require(probe.recorded) < queued.count)
            let count = queued.count
            try await waitUntil { await daemon.onLoop { $0.clientCount } == count }
        }
    }

    @Test func theInputBudgetHoldsRootAndTheDaemonsOwnUserToo() async throws {
        let partial = Array(#"{"id":1,"op":"status","padding":""#.utf8) + [UInt8](repeating: 0x78, count: 60_000)
        try await withDaemon(configure: { $0.maximumBufferedInputBytesPerUser = 256 << 10 }) { daemon in
            #expect(await daemon.onLoop { $0.configuration.privilegedUsers.contains(getuid()) })
            let holders = try (0..<8).map { _ in try RawClient(path: daemon.path) }
            for holder in holders { try? holder.write(partial) }
            try await Task.sleep(for: .milliseconds(500))
            #expect(await daemon.onLoop { $0.counters.clientsRefusedOverInputBudget } > 0)
            #expect(await daemon.onLoop { $0.bufferedInputBytes } <= 256 << 10)
        }
    }

    @Test func unfinishedLinesAreBoundedPerUserAndReleased() async throws {
        let partial = Array(#"{"id":1,"op":"status","padding":""#.utf8) + [UInt8](repeating: 0x78, count: 60_000)
        try await withDaemon(configure: { $0.maximumBufferedInputBytesPerUser = 512 << 10 }) { daemon in
            let bystander = try RawClient(path: daemon.path)
            try bystander.hello()
            var holders = try (0..<16).map { _ in try RawClient(path: daemon.path) }
            for holder in holders { try holder.write(partial) }
            // Each holds one partial line of 60 kB; they fit the budget only so many times.
            try await Task.sleep(for: .milliseconds(500))
            let refused = await daemon.onLoop { $0.counters.clientsRefusedOverInputBudget }
            #expect(refused > 0 && refused < 16)
            let refusal = ServerMessage.reply(Reply(id: nil, operation: nil, outcome: .failure(ProtocolError(
                .limitExceeded, "unfinished lines of uid \(getuid()) hold more than 524288 bytes; closing the connection"))))
            var closed = 0
            for holder in holders {
                guard let message = try? holder.readMessage(seconds: 0) else { continue }
                #expect(message == refusal)
                #expect(try holder.isClosedByPeer())
                closed += 1
            }
            #expect(closed == refused)
            #expect(await daemon.onLoop { $0.bufferedInputBytes } <= 512 << 10)
            #expect(try bystander.request(.status).operation == .status)
            holders.removeAll()
            try await waitUntil { await daemon.onLoop { $0.clientCount } == 1 }
            #expect(await daemon.onLoop { $0.bufferedInputBytes } == 0)
        }
    }

    @Test func pipelinedRequestsAreHandledAFewPerTurnAndNotWhileRepliesAreUnread() async throws {
        try await withDaemon { daemon in
            let flooder = try RawClient(path: daemon.path)
            try flooder.hello()
            let count = 2_000
            let requests = (0..<count).flatMap { Request(id: .number(Int64(100 + $0)), operation: .status).line }
            nonisolated(unsafe) let writing = flooder
            let writer = Task.detached { try writing.write(requests) }
            let other = try RawClient(path: daemon.path)
            try other.hello()
            #expect(try other.request(.status).operation == .status)
            // The flooder reads nothing: the daemon stops reading it once its replies wait.
            try await Task.sleep(for: .milliseconds(300))
            let handled = await daemon.onLoop { $0.counters.messagesIn }
            #expect(handled < 200, "\(handled) requests handled for a client that reads no reply")
            var ids: [MessageID?] = []
            while ids.count < count {
                guard case .reply(let reply) = try flooder.readMessage() else { continue }
                ids.append(reply.id)
            }
            try await writer.value
            #expect(ids == (0..<count).map { .number(Int64(100 + $0)) })
            #expect(await daemon.onLoop { $0.counters.slowClientsDisconnected } == 0)
        }
    }

    @Test func everyRequestIsAnsweredBeforeBye() async throws {
        try await withDaemon { daemon in
            daemon.agent.answerRequests(with: nil)
            let client = try RawClient(path: daemon.path)
            try client.write(
                #"{"id":1,"op":"hello","version":1}"# + "\n" + #"{"id":2,"op":"requestLocation","timeout":5}"# + "\n"
                    + #"{"id":3,"op":"bye"}"# + "\n")
            guard case .reply(let hello) = try client.readMessage() else { throw TimedOut() }
            #expect(hello.id == .number(1))
            try await waitUntil { daemon.agent.calls.contains { if case .request = $0 { true } else { false } } }
            #expect(try client.isClosedByPeer(seconds: 0) == false)
            let location = try #require(numbered(4).location)
            await daemon.onLoop { server in server.send(.success(location), request: 1) }
            #expect(try client.readMessage() == .reply(Reply(id: .number(2), operation: .requestLocation, outcome: .success(.location(location)))))
            #expect(try client.readMessage() == .reply(Reply(id: .number(3), operation: .bye, outcome: .success(.done))))
            #expect(try client.isClosedByPeer())
        }
    }

    @Test("the batches of one user's subscriptions hold a bounded number of updates together, counted at their capacity, across its connections (one user could hold 2 GB)")
    func batchesAreBoundedPerUser() async throws {
        try await withDaemon(configure: { $0.maximumBatchedUpdatesPerUser = 1_500; $0.rejoinWindow = .zero }) { daemon in
            func batched(_ capacity: Int) -> Operation {
                .startLiveUpdates(.default, DeliveryOptions(batching: Batching(timeout: .seconds(60), capacity: capacity)))
            }
            func isLimitExceeded(_ reply: Reply) -> Bool {
                guard case .failure(let error) = reply.outcome else { return false }
                return error.code == .limitExceeded && error.message.contains("1500 updates together; 1000 are taken, this one asks 1000")
            }
            func succeeds(_ reply: Reply) -> Bool {
                if case .success = reply.outcome { true } else { false }
            }
            var first: RawClient? = try RawClient(path: daemon.path)
            try first?.hello()
            #expect(succeeds(try #require(first).request(batched(1_000))))
            let second = try RawClient(path: daemon.path)
            try second.hello()
            #expect(isLimitExceeded(try second.request(batched(1_000))))
            #expect(succeeds(try second.request(batched(500))))
            #expect(succeeds(try second.request(.startLiveUpdates(.default, DeliveryOptions()))))  // no batch, no budget
            #expect(!succeeds(try second.request(batched(1))))
            first = nil
            try await waitUntil { await daemon.onLoop { $0.clientCount } == 1 }
            #expect(succeeds(try second.request(batched(1_000))))
        }
    }

    @Test func batchesAreNeverDroppedAndAClientThatLeavesMoreThanTheBoundUnreadIsDisconnected() async throws {
        try await withDaemon(configure: { $0.maximumQueuedReplyBytes = 256 << 10 }) { daemon in
            let reader = try RawClient(path: daemon.path)
            try reader.hello()
            _ = try reader.request(.startLiveUpdates(.default, DeliveryOptions(batching: Batching(timeout: .seconds(60)))))
            let stalled = try RawClient(path: daemon.path)
            try stalled.hello()
            _ = try stalled.request(.startLiveUpdates(.default, DeliveryOptions(batching: Batching(timeout: .seconds(60)))))
            try await waitUntil { daemon.agent.liveSubscriptions.count == 2 }
            // 100 batches of 100 updates, about 2.5 MiB: one reads each as it comes, the other nothing.
            let batches = 100
            let size = 100
            var numbers: [Int] = []
            for batch in 0..<batches {
                await daemon.onLoop { _ in daemon.agent.broadcast(batch: (0..<size).map { numbered(batch * size + $0) }) }
                while numbers.count < (batch + 1) * size {
                    guard case .event(.batch(let event)) = try reader.readMessage() else { continue }
                    numbers += event.updates.map { $0.number ?? -1 }
                }
            }
            // The reader got every update once, in order; the one that read nothing is cut off.
            #expect(numbers == Array(0..<batches * size))
            #expect(try stalled.isClosedByPeer())
            #expect(await daemon.onLoop { $0.counters.slowClientsDisconnected } == 1)
        }
    }

    @Test("clients that lag are disconnected once their user's unread messages pass its share, each under its own bound (a thousand gpsd watchers that never read held 1 MiB each); one that reads is not")
    func unreadMessagesAreBoundedPerUser() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.maximumQueuedReplyBytes = 4 << 20
            $0.maximumQueuedMessageBytesPerUser = 512 << 10
        }
        try await withDaemon(configure: configure) { daemon in
            let everyBatch = DeliveryOptions(batching: Batching(timeout: .zero))
            let reader = try RawClient(path: daemon.path)
            try reader.hello()
            _ = try reader.request(.startLiveUpdates(.default, everyBatch))
            let stalled = try (0..<3).map { _ in try RawClient(path: daemon.path) }
            for client in stalled {
                try client.hello()
                _ = try client.request(.startLiveUpdates(.default, everyBatch))
            }
            try await waitUntil { daemon.agent.liveSubscriptions.count == 4 }
            // 60 batches of 100 updates, about 1.5 MiB for each client.
            var numbers: [Int] = []
            for batch in 0..<60 {
                await daemon.onLoop { _ in daemon.agent.broadcast(batch: (0..<100).map { numbered(batch * 100 + $0) }) }
                while numbers.count < (batch + 1) * 100 {
                    guard case .event(.batch(let event)) = try reader.readMessage() else { continue }
                    numbers += event.updates.map { $0.number ?? -1 }
                }
            }
            #expect(numbers == Array(0..<6_000))
            for client in stalled { #expect(try client.isClosedByPeer()) }
            #expect(await daemon.onLoop { $0.counters.slowClientsDisconnected } == 3)
        }
    }

    @Test func aClientThatResumesReadingGetsFewStaleUpdatesAndEveryStateChange() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            _ = try client.request(.startLiveUpdates(.default))
            try await waitUntil { !daemon.agent.liveSubscriptions.isEmpty }
            let total = 1_000
            let pause = 600
            let resume = 700
            await daemon.onLoop { _ in
                for index in 0..<total {
                    var update = numbered(index)
                    update.isStationary = index == pause
                    if index > pause && index < resume { continue }
                    daemon.agent.broadcast(update)
                }
            }
            var received: [UpdateEvent] = []
            while received.last?.update.number != total - 1 {
                guard case .event(.update(let event)) = try client.readMessage() else { continue }
                received.append(event)
            }
            let stale = received.prefix { $0.update.number! < pause }
            #expect(stale.count <= 16, "\(stale.count) stale updates before the newest")
            #expect(received.contains { $0.update.isStationary && $0.update.number == pause })
            #expect(received.map { 1 + $0.missed }.reduce(0, +) == total - (resume - pause - 1))
        }
    }
}

/// Holds the event loop's thread from a job until released, and brings a count back from it.
private final class LoopProbe: Sendable {
    /// The server, handed to jobs that run on the loop's thread.
    struct Unchecked: @unchecked Sendable { let server: Server }

    private let state = Mutex<(held: Bool, released: Bool, recorded: Int?)>((false, false, nil))

    var isHeld: Bool { state.withLock { $0.held } }
    var recorded: Int? { state.withLock { $0.recorded } }

    /// Called on the loop: returns once ``release()`` was.
    func hold() {
        state.withLock { $0.held = true }
        while !state.withLock({ $0.released }) { usleep(1_000) }
    }

    func release() { state.withLock { $0.released = true } }
    func record(_ count: Int) { state.withLock { $0.recorded = count } }
}

@Suite("Server: monitor events for a client that does not read", .ownThread, .timeLimit(.minutes(1)))
struct MonitorEventLimitsTests {
    @Test func aClientThatReadsNoMonitorEventsIsDisconnectedAsSlow() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            #expect(try client.request(.openMonitor(name: "m")).outcome == .success(.monitor(1)))
            let circle = Condition.circularGeographic(CircularGeographicCondition(latitude: 0, longitude: 0, radius: 100))
            for index in 0..<20 {
                _ = try client.request(.addCondition(ConditionRequest(monitor: 1, identifier: "c\(index)", condition: circle)))
            }
            // Fixes inside and 1 km outside in turn: 20 events per fix, which the client never
            // reads; its events stop at the bound on unread output, as replies do.
            let start = RealtimeInstant.now.nanosecondsSinceEpoch + 1_000_000_000
            await daemon.onLoop { server in
                for step in 0..<2_000 where server.clientCount == 1 {
                    let fix = Location(
                        latitude: 0, longitude: step % 2 == 0 ? 0 : 0.009, horizontalAccuracy: 5,
                        timestamp: Timestamp(nanosecondsSinceEpoch: start + Int64(step) * 1_000_000_000))
                    server.deliver(server.monitors.evaluate(fix))
                }
            }
            #expect(await daemon.onLoop { $0.counters.slowClientsDisconnected } == 1)
            #expect(await daemon.onLoop { $0.clientCount } == 0)
        }
    }
}

/// The timers the daemon's loop holds.
private func pendingTimers(of daemon: TestDaemon) async -> Int {
    await withCheckedContinuation { continuation in daemon.remote.execute { loop in continuation.resume(returning: loop.pendingTimerCount) } }
}

import WaymarkEngine
import Glibc
import Testing
import WaymarkDaemon
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem

/// The limits that keep one local user from hurting the others (`docs/protocol.md`, "Limits").
@Suite("Server: limits against hostile clients", .timeLimit(.minutes(1)))
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

    @Test func oneUserMayHoldOnlyItsShareOfConnections() async throws {
        try await withDaemon(configure: { $0.maximumClientsPerUser = 3; $0.uncappedUsers = [] }) { daemon in
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

@Suite("Server: monitor events for a client that does not read", .timeLimit(.minutes(1)))
struct MonitorEventLimitsTests {
    @Test func aClientThatReadsNoMonitorEventsIsDisconnectedAsSlow() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            #expect(try client.request(.openMonitor(name: "m")).outcome == .success(.monitor(1)))
            let circle = CircularGeographicCondition(latitude: 0, longitude: 0, radius: 100)
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

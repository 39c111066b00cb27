import WaymarkEngine
import Glibc
import Testing
import WaymarkDaemon
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem

@Suite("Server: bad input, slow and vanishing clients", .timeLimit(.minutes(1)))
struct RobustnessTests {
    @Test func badLinesGetErrorRepliesAndTheConnectionStaysUsable() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            try client.write("{\"id\":2,\"op\":\n")
            guard case .reply(let malformed) = try client.readMessage(), case .failure(let error) = malformed.outcome else {
                Issue.record("no error reply")
                return
            }
            #expect(malformed.id == nil)
            #expect(error.code == .malformedJSON)

            try client.write(#"{"id":3,"op":"fly"}"# + "\n")
            #expect(try client.readMessage() == .reply(Reply(
                id: .number(3), operation: nil, unknownOperation: "fly", outcome: .failure(ProtocolError(.unknownOperation, "unknown operation \"fly\"")))))

            let huge = "{\"id\":4,\"op\":\"status\",\"padding\":\"" + String(repeating: "x", count: 70_000) + "\"}\n"
            try client.write(huge)
            #expect(try client.readMessage() == .reply(Reply(id: nil, operation: nil, outcome: .failure(ProtocolError(
                .messageTooLarge, "a message line is longer than 65536 bytes; it was discarded")))))

            // Blank lines and CRLF are fine.
            try client.write("\n  \r\n" + #"{"id":5,"op":"status"}"# + "\r\n")
            guard case .reply(let status) = try client.readMessage() else {
                Issue.record("no reply")
                return
            }
            #expect(status.id == .number(5))
            #expect(status.operation == .status)
        }
    }

    @Test("an error that quotes a client's long value (a 65,000-digit number, an unknown name) still fits a line (the reply was longer than the protocol's 65,536 bytes)")
    func anErrorQuotingALongValueFitsALine() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            let long = String(repeating: "9", count: 65_400)
            let lines = [
                #"{"id":2,"op":"status","n":1"# + long + "}",
                #"{"id":3,"op":"startLiveUpdates","configuration":"z"# + long + #""}"#,
                #"{"id":4,"op":"visits","after":""# + long + #""}"#,
            ]
            for (index, line) in lines.enumerated() {
                #expect(line.utf8.count < ProtocolLimits.maximumLineLength)
                try client.write(line + "\n")
                let reply = try client.readLine()
                #expect(reply.count <= ProtocolLimits.maximumLineLength, "request \(index + 2): \(reply.count) bytes")
                guard case .reply(let decoded) = try ServerMessage(line: reply), case .failure(let error) = decoded.outcome else {
                    Issue.record("request \(index + 2): no error reply")
                    continue
                }
                #expect(error.message.utf8.count <= ProtocolLimits.maximumErrorMessageLength && error.message.hasSuffix("…"))
            }
        }
    }

    @Test func aClientThatNeverReadsDoesNotSlowTheOthers() async throws {
        try await withDaemon { daemon in
            let slow = try RawClient(path: daemon.path)
            try slow.hello()
            _ = try slow.request(.startLiveUpdates(.default))
            let fast = try RawClient(path: daemon.path)
            try fast.hello()
            _ = try fast.request(.startLiveUpdates(.default))

            // A few per turn, as a receiver's fixes come: the kernel's send buffer is small
            // (`ServerConfiguration.sendBufferBytes`), so a burst of many more in one turn
            // would coalesce even for a client that reads at once.
            let total = 10_000
            let batch = 4
            for start in stride(from: 0, to: total, by: batch) {
                await daemon.onLoop { _ in
                    for index in start..<(start + batch) { daemon.agent.broadcast(numbered(index)) }
                }
                for index in start..<(start + batch) {
                    guard case .event(.update(let event)) = try fast.readMessage() else {
                        Issue.record("not an update")
                        return
                    }
                    #expect(event.update.number == index && event.missed == 0, "fast client got \(event.update.number ?? -1)")
                }
            }
            let counters = await daemon.onLoop { $0.counters }
            #expect(counters.updatesCoalesced > total / 2)

            // The slow client finally reads: what reached its socket in time, then only the
            // newest update, which says how many it missed.
            var received: [UpdateEvent] = []
            while received.last?.update.number != total - 1 {
                guard case .event(.update(let event)) = try slow.readMessage() else { continue }
                received.append(event)
            }
            #expect(received.count < total / 10)
            #expect(received.map { 1 + $0.missed }.reduce(0, +) == total)
            #expect(received.last!.missed == counters.updatesCoalesced)
            #expect(received.map { $0.update.number! } == received.map { $0.update.number! }.sorted())
        }
    }

    @Test func disconnectsCleanUpEvenMidMessage() async throws {
        // No rejoin window: the subscription ends with the connection (LifecycleTests keep it).
        try await withDaemon(configure: { $0.rejoinWindow = .zero }) { daemon in
            do {
                let client = try RawClient(path: daemon.path)
                try client.hello()
                _ = try client.request(.startLiveUpdates(.default))
                try client.write(#"{"id":9,"op":"sta"#)
            }
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            #expect(daemon.agent.liveSubscriptions.isEmpty)
            #expect(await daemon.onLoop { $0.clientCount } == 0)
            // The agent's late update for the vanished client is ignored.
            await daemon.onLoop { server in server.send(numbered(1), subscription: 1) }

            let next = try RawClient(path: daemon.path)
            #expect(try next.hello().outcome.map { _ in true } == .success(true))
        }
    }

    @Test func aHalfClosedClientStillGetsUpdates() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.write(#"{"id":1,"op":"hello","version":1}"# + "\n" + #"{"id":2,"op":"startLiveUpdates","configuration":"fitness"}"# + "\n")
            client.shutdownWriting()
            _ = try client.readMessage()
            _ = try client.readMessage()
            try await waitUntil { !daemon.agent.liveSubscriptions.isEmpty }
            await daemon.onLoop { _ in daemon.agent.broadcast(numbered(2)) }
            guard case .event(.update(let event)) = try client.readMessage() else {
                Issue.record("no update")
                return
            }
            #expect(event.update.number == 2)
        }
    }

    @Test func theSocketIsGroupAccessibleAndItsDirectoryIsCreated() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let daemon = try TestDaemon(path: directory.path + "/run/waymark.sock")
        var status = stat()
        #expect(lstat(daemon.path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o660)
        await daemon.shutDown()
        #expect(lstat(daemon.path, &status) == -1)
    }
}

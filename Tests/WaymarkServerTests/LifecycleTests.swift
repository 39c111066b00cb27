import Testing
import WaymarkAuthorization
import WaymarkDaemon
import WaymarkEngine
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem

/// Consumers that come and go (docs/semantics.md): what an app held survives its connection
/// for the rejoin window, keeps what it produces (bounded), and is re-taken by configuration
/// and delivery options.
/// Every client of this process is the same app (its executable and uid).
@Suite("Server: consumers that come and go", .timeLimit(.minutes(1)))
struct LifecycleTests {
    @Test func keptUpdatesKeepTheNewestAndCountEveryDroppedOne() {
        var kept = KeptUpdates(capacity: 3)
        for index in 0..<10 { kept.append(numbered(index)) }
        #expect(kept.entries.map(\.update.number) == [7, 8, 9])
        #expect(kept.entries.map(\.missed) == [7, 0, 0])
    }

    @Test func anAppThatComesBackReTakesItsSubscriptionAndItsKeptUpdates() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(30) }) { daemon in
            try Self.connectAndLeave(daemon) { first in
                let started = try first.request(.startLiveUpdates(.fitness, Self.options))
                #expect(started.outcome == .success(.subscription(1)))
            }
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            // The subscription is not released: the engine's subscription continues.
            #expect(daemon.agent.calls.last == .disconnected(1, subscriptions: [], requests: []))

            let produced = ServerConfiguration.keptUpdatesForTests + 8
            await daemon.onLoop { _ in
                for index in 0..<produced { daemon.agent.broadcast(numbered(index)) }
            }
            let second = try RawClient(path: daemon.path)
            try second.hello()
            // A different configuration or different delivery options make a new subscription;
            // the same ones re-take the kept one.
            #expect(try second.request(.startLiveUpdates(.automotiveNavigation, Self.options)).outcome == .success(.subscription(2)))
            #expect(try second.request(.startLiveUpdates(.fitness)).outcome == .success(.subscription(3)))
            #expect(try second.request(.startLiveUpdates(.fitness, Self.options)).outcome == .success(.subscription(1)))
            var numbers: [Int] = []
            var missed: [Int] = []
            for _ in 0..<ServerConfiguration.keptUpdatesForTests {
                guard case .event(.update(let event)) = try second.readMessage(), event.subscription == 1 else {
                    Issue.record("expected a kept update")
                    return
                }
                numbers.append(event.update.number ?? -1)
                missed.append(event.missed)
            }
            #expect(numbers == Array(8..<produced))
            #expect(missed == [8] + Array(repeating: 0, count: ServerConfiguration.keptUpdatesForTests - 1))
            // Re-taken, not started again: the agent heard of no new subscription 1.
            #expect(daemon.agent.calls.filter { $0 == .start(1, .fitness) }.count == 1)
            #expect(!daemon.agent.calls.contains(.stop(1)))
        }
    }

    @Test("a subscription re-taken with nothing kept (paused: the device rests) begins with the last update its app was sent; it began with silence, until the device moved")
    func aSubscriptionReTakenWithNothingKeptBeginsWithTheLastUpdateSent() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(30) }) { daemon in
            var first: RawClient? = try RawClient(path: daemon.path)
            try first?.hello()
            #expect(try first?.request(.startLiveUpdates(.fitness)).outcome == .success(.subscription(1)))
            await daemon.onLoop { _ in
                daemon.agent.broadcast(numbered(4))
                daemon.agent.broadcast(numbered(5))
            }
            for number in [4, 5] {
                guard case .event(.update(let event)) = try first?.readMessage() else {
                    Issue.record("expected an update")
                    return
                }
                #expect(event.update.number == number)
            }
            first = nil  // closed without bye, as a process that dies
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            let second = try RawClient(path: daemon.path)
            try second.hello()
            #expect(try second.request(.startLiveUpdates(.fitness)).outcome == .success(.subscription(1)))
            guard case .event(.update(let event)) = try second.readMessage() else {
                Issue.record("expected the last update")
                return
            }
            #expect(event.subscription == 1 && event.update.number == 5 && event.missed == 0)
        }
    }

    @Test func whatIsNotReTakenWithinTheWindowAfterTheDisconnectEnds() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .milliseconds(1_500) }) { daemon in
            let left = ContinuousClock.now
            try Self.connectAndLeave(daemon) { client in _ = try client.request(.startLiveUpdates(.fitness)) }
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            // Kept at the disconnect (not released with it), ended no sooner than the window.
            #expect(daemon.agent.calls.contains(.disconnected(1, subscriptions: [], requests: [])))
            try await waitUntil { daemon.agent.calls.contains(.stop(1)) }
            #expect(ContinuousClock.now - left >= .milliseconds(1_500))
            #expect(daemon.agent.liveSubscriptions.isEmpty)
        }
    }

    @Test func whatAnAppDoesNotReTakeWithinTheWindowOfConnectingEnds() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(2) }) { daemon in
            try Self.connectAndLeave(daemon) { first in
                _ = try first.request(.startLiveUpdates(.fitness))
                _ = try first.request(.startLiveUpdates(.automotiveNavigation))
            }
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            let second = try RawClient(path: daemon.path)
            try second.hello()
            #expect(try second.request(.startLiveUpdates(.automotiveNavigation)).outcome == .success(.subscription(2)))
            try await waitUntil { daemon.agent.calls.contains(.stop(1)) }
            #expect(daemon.agent.liveSubscriptions == [2])
        }
    }

    @Test func anAppKeepsItsNewestSubscriptionsUpToTheBound() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(30); $0.maximumKeptSubscriptionsPerApp = 2 }) { daemon in
            try Self.connectAndLeave(daemon) { client in
                for configuration in [LiveConfiguration.fitness, .airborne, .otherNavigation] {
                    _ = try client.request(.startLiveUpdates(configuration))
                }
            }
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            #expect(daemon.agent.calls.last == .disconnected(1, subscriptions: [1], requests: []))
            #expect(daemon.agent.liveSubscriptions == [2, 3])
        }
    }

    @Test func byeEndsEverythingAtOnce() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(30) }) { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            _ = try client.request(.startLiveUpdates(.fitness))
            #expect(try client.request(.bye).outcome == .success(.done))
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            #expect(daemon.agent.calls.last == .disconnected(1, subscriptions: [1], requests: []))
        }
    }

    @Test func aZeroWindowKeepsNothing() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .zero }) { daemon in
            try Self.connectAndLeave(daemon) { client in _ = try client.request(.startLiveUpdates(.fitness)) }
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            #expect(daemon.agent.calls.last == .disconnected(1, subscriptions: [1], requests: []))
        }
    }

    // MARK: Background activity sessions

    @Test func aBackgroundActivitySessionCannotStartOutOfUse() async throws {
        try await withDaemon { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            let reply = try client.request(.startBackgroundActivitySession)
            guard case .failure(let error) = reply.outcome else {
                Issue.record("started out of use: \(reply)")
                return
            }
            #expect(error.code == .insufficientlyInUse)
        }
    }

    @Test func aHeldBackgroundActivitySessionKeepsTheAppInUse() async throws {
        try await withDaemon(configure: { $0.policies = try! Self.interactive() }) { daemon in
            let client = try RawClient(path: daemon.path)
            try client.hello()
            #expect(await daemon.onLoop { $0.inUseEvidence(of: 1) } == .interactiveConnection)
            #expect(try client.request(.startBackgroundActivitySession).outcome == .success(.session(1)))
            #expect(await daemon.onLoop { $0.inUseEvidence(of: 1) } == [.interactiveConnection, .backgroundActivitySession])
            _ = try client.request(.stopBackgroundActivitySession(session: 1))
            #expect(await daemon.onLoop { $0.inUseEvidence(of: 1) } == .interactiveConnection)
        }
    }

    @Test func aHeldBackgroundActivitySessionKeepsWhatTheAppHeldPastTheWindowUntilInvalidated() async throws {
        try await withDaemon(configure: { $0.rejoinWindow = .seconds(1); $0.policies = try! Self.interactive() }) { daemon in
            try Self.connectAndLeave(daemon) { first in
                let started = try first.request(.startBackgroundActivitySession)
                #expect(started.outcome == .success(.session(1)))
                _ = try first.request(.startLiveUpdates(.fitness))
            }
            try await waitUntil { daemon.agent.hasDisconnected(1) }
            // Far past the window, the subscription is still kept.
            try await Task.sleep(for: .seconds(2))
            #expect(!daemon.agent.calls.contains(.stop(1)))

            var second: RawClient? = try RawClient(path: daemon.path)
            try second?.hello()
            #expect(try second?.request(.startBackgroundActivitySession).outcome == .success(.session(1)))
            #expect(try second?.request(.startLiveUpdates(.fitness)).outcome == .success(.subscription(1)))
            #expect(try second?.request(.stopBackgroundActivitySession(session: 1)).outcome == .success(.done))
            let again = try second?.request(.stopBackgroundActivitySession(session: 1))
            #expect(again?.outcome == .failure(ProtocolError(.unknownSubscription, "background activity session 1 is not held by this connection")))
            // Without the session, the next departure keeps things for the window only.
            second = nil
            try await waitUntil { daemon.agent.calls.contains(.stop(1)) }
        }
    }

    /// Connects a client of this process, says hello, runs `body` with it, and closes it
    /// without `bye`, as a process that dies.
    static func connectAndLeave(_ daemon: TestDaemon, _ body: (RawClient) throws -> Void) throws {
        let client = try RawClient(path: daemon.path)
        try client.hello()
        try body(client)
    }

    /// Delivery options of the subscriptions an app leaves and re-takes.
    static let options = DeliveryOptions(distanceFilter: 10, batching: Batching(timeout: .seconds(60)))

    /// A policy that makes every process of this uid interactive, so in use while connected.
    static func interactive() throws -> PolicySet {
        let text = "[[app]]\nuid = \(CurrentProcess.effectiveUserID)\ninteractive = true\n"
        return try PolicySet(files: [(path: "interactive.toml", bytes: Array(text.utf8))])
    }
}

extension ServerConfiguration {
    /// The default number of updates kept per subscription.
    static let keptUpdatesForTests = ServerConfiguration(path: "", daemonVersion: "").maximumKeptUpdatesPerSubscription
}

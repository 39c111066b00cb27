import Foundation
import Testing
import Waymark
import WaymarkLocation
import WaymarkProtocol
import WaymarkServerTestSupport

extension ClientLibraryTests.WaymarkdTests {
    /// Deferred delivery with the real daemon on a walk (`docs/protocol.md`, "Deferred
    /// delivery"): the `batch` events' exact contents and boundaries.
    @Test("batches end when the oldest held fix is the timeout old, or when the distance is travelled; none lost, none repeated")
    func batchesOnTheWire() throws {
        let daemon = try walk()
        defer { daemon.stop() }
        let client = try RawClient(path: DaemonProcess.socket)
        try client.hello()
        // By time: 9.5 s holds the fixes of 10 scenario seconds (a fix every second).
        let byTime = try subscription(client, Batching(timeout: .milliseconds(9_500)))
        let byDistance = try subscription(client, Batching(distance: 20, timeout: .seconds(600)))
        var batches: [UInt64: [BatchEvent]] = [:]
        while batches[byTime, default: []].count < 6 || batches[byDistance, default: []].count < 5 {
            switch try client.readMessage(seconds: 30) {
            case .event(.batch(let batch)): batches[batch.subscription, default: []].append(batch)
            case .event(.update(let update)): Issue.record("an update event for a batched subscription: \(update)")
            default: break
            }
        }
        // The first batches hold the receiver's start (its unavailable update ends one at once).
        let timed = batches[byTime, default: []].dropFirst(2)
        let travelled = batches[byDistance, default: []].dropFirst(2)
        for batch in timed + travelled {
            #expect(!batch.more && batch.overflow == 0)
            #expect(batch.updates.allSatisfy { $0.location != nil && !$0.isStationary && $0.diagnostics.isEmpty })
        }
        for batch in timed {
            #expect(batch.updates.count == 10)
        }
        for batch in travelled {
            let locations = batch.updates.compactMap(\.location)
            let steps = zip(locations, locations.dropFirst()).map { $1.distance(from: $0) }
            // Ended by the step that reached 20 m, not before.
            #expect(steps.reduce(0, +) >= 20)
            #expect(steps.dropLast().reduce(0, +) < 20)
        }
        // Across the batches of each subscription: every fix once, in order, a second apart.
        for batches in [timed, travelled] {
            let times = batches.flatMap { $0.updates.compactMap { $0.location?.timestamp.nanosecondsSinceEpoch } }
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 1_000_000_000 }, "\(times)")
        }
    }

    @Test("the library's sequence yields a batched subscription's updates in the order taken, none lost")
    func batchesInTheLibrary() async throws {
        let daemon = try walk()
        defer { daemon.stop() }
        let options = DeliveryOptions(batching: Batching(timeout: .milliseconds(9_500)))
        var times: [Int64] = []
        var arrivals: [ContinuousClock.Instant] = []
        for try await update in LocationUpdate.liveUpdates(.fitness, options: options) {
            guard let location = update.location else { continue }
            times.append(location.timestamp.nanosecondsSinceEpoch)
            arrivals.append(.now)
            if times.count == 30 { break }
        }
        // After the receiver's first fix (taken between two seconds), a fix every second.
        let steady = times.dropFirst()
        #expect(zip(steady, steady.dropFirst()).allSatisfy { $1 - $0 == 1_000_000_000 }, "\(times)")
        // Held: a batch waits 9.5 scenario seconds (2.4 s here), where fixes one by one would
        // come every 0.25 s (load only makes waits longer, never shorter).
        let longestWait = zip(arrivals, arrivals.dropFirst()).map { $1 - $0 }.max() ?? .zero
        #expect(longestWait > .seconds(1.5), "longest wait \(longestWait)")
    }

    private func subscription(_ client: RawClient, _ batching: Batching) throws -> UInt64 {
        let reply = try client.request(.startLiveUpdates(.fitness, DeliveryOptions(batching: batching)))
        let subscription: UInt64? = if case .success(.subscription(let subscription)) = reply.outcome { subscription } else { nil }
        return try #require(subscription, "startLiveUpdates: \(reply.outcome)")
    }
}

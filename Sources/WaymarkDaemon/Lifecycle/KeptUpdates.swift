package import WaymarkLocation

/// The updates a kept subscription produced while its app was away (`docs/semantics.md`,
/// "Consumers that come and go"): at most ``capacity``, the newest kept; each one dropped is
/// counted, exactly, in the `missed` of the oldest that remains, so that the app learns how
/// many it lost and where.
package struct KeptUpdates: Sendable {
    /// One kept update and how many older ones were dropped just before it.
    package struct Entry: Sendable, Equatable {
        package var update: LocationUpdate
        package var missed: Int
    }

    /// How many updates are kept at most.
    package let capacity: Int
    /// The kept updates, oldest first.
    package private(set) var entries: [Entry] = []
    /// The last update the app was sent before it left.
    package let lastDelivered: LocationUpdate?

    /// An empty queue keeping at most `capacity` updates (at least one), for a subscription
    /// whose app was last sent `lastDelivered`.
    package init(capacity: Int, lastDelivered: LocationUpdate? = nil) {
        self.capacity = max(1, capacity)
        self.lastDelivered = lastDelivered
    }

    /// What the app gets when it re-takes the subscription: the kept updates or, when none
    /// came (a paused subscription stays silent until the device moves), the last one it was
    /// sent, since a restarted process knows nothing of where the device is or whether it rests.
    package var retaken: [Entry] {
        guard entries.isEmpty, let lastDelivered else { return entries }
        return [Entry(update: lastDelivered, missed: 0)]
    }

    /// Keeps `update`, dropping the oldest kept one if the queue is full.
    package mutating func append(_ update: LocationUpdate) {
        entries.append(Entry(update: update, missed: 0))
        guard entries.count > capacity else { return }
        // One update a second at most: the count cannot come near overflowing.
        let oldest = entries.removeFirst()
        entries[0].missed += oldest.missed + 1
    }
}

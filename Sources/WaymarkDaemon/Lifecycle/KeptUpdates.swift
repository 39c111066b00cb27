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
    /// An empty queue keeping at most `capacity` updates (at least one).
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
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

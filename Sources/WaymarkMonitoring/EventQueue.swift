/// The events waiting for an app that is not connected: at most ``capacity``, the newest kept.
/// When full, the oldest is dropped and counted, so the app learns on reconnection that it
/// missed some (each record's last event still tells every condition's current state).
package struct EventQueue<Event: Sendable>: Sendable {
    /// The events one app may have waiting: 5 transitions for each of the 20 conditions.
    package static var defaultCapacity: Int { 100 }

    /// The most events kept.
    package let capacity: Int
    /// The waiting events, oldest first.
    package private(set) var events: [Event] = []
    /// Events dropped since the queue was last drained.
    package private(set) var dropped = 0

    /// An empty queue holding at most `capacity` events (at least one).
    package init(capacity: Int = Self.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// A queue rebuilt from stored events and drop count (untrusted: only the newest
    /// `capacity` are kept, the others counted as dropped).
    package init(capacity: Int = Self.defaultCapacity, restoring stored: [Event], dropped: Int) {
        self.init(capacity: capacity)
        let excess = max(0, stored.count - self.capacity)
        events = Array(stored.dropFirst(excess))
        self.dropped = Self.saturatingSum(max(0, dropped), excess)
    }

    /// Queues `event`, dropping the oldest when full.
    package mutating func append(_ event: Event) {
        if events.count >= capacity {
            events.removeFirst()
            dropped = Self.saturatingSum(dropped, 1)
        }
        events.append(event)
    }

    /// Takes every waiting event, oldest first, and the number dropped before them.
    package mutating func drain() -> (events: [Event], dropped: Int) {
        defer {
            events = []
            dropped = 0
        }
        return (events, dropped)
    }

    private static func saturatingSum(_ count: Int, _ more: Int) -> Int {
        let (sum, overflow) = count.addingReportingOverflow(more)
        return overflow ? .max : sum
    }
}

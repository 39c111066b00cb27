import WaymarkSystem

/// Identifies a scheduled timer, for ``EventLoop/cancel(_:)``.
package struct TimerID: Hashable, Sendable {
    internal let rawValue: UInt64
}

/// Pending timers in deadline order. An event loop has a handful, so a sorted array serves:
/// latest first, so the earliest is removed from the end. Timers with equal deadlines fire in
/// the order they were scheduled.
internal struct TimerQueue<Handler> {
    /// One pending timer.
    internal struct Entry {
        internal var deadline: MonotonicInstant
        internal let id: TimerID
        internal let interval: Duration?
        internal let handler: Handler
    }

    private var entries: [Entry] = []
    private var lastID: UInt64 = 0

    /// How many timers are pending.
    internal var count: Int { entries.count }

    /// The deadline of the earliest timer, or `nil` when there are none.
    internal var earliestDeadline: MonotonicInstant? { entries.last?.deadline }

    /// Adds a timer that fires at `deadline`, then every `interval` if one is given.
    internal mutating func schedule(
        at deadline: MonotonicInstant, repeating interval: Duration?, _ handler: Handler
    ) -> TimerID {
        precondition(interval.map { $0 > .zero } ?? true, "a repeating timer needs a positive interval")
        lastID += 1
        let id = TimerID(rawValue: lastID)
        insert(Entry(deadline: deadline, id: id, interval: interval, handler: handler))
        return id
    }

    /// Removes the timer `id`; a timer that already fired or was cancelled is ignored.
    internal mutating func cancel(_ id: TimerID) {
        entries.removeAll { $0.id == id }
    }

    /// Removes and returns the earliest timer if its deadline is not after `now`. A repeating
    /// timer is queued again first, one interval on (missed periods are skipped, not replayed),
    /// so its handler can cancel it.
    internal mutating func popDue(at now: MonotonicInstant) -> Entry? {
        guard let entry = entries.last, entry.deadline <= now else { return nil }
        entries.removeLast()
        if let interval = entry.interval {
            var next = entry
            next.deadline = entry.deadline + interval
            if next.deadline <= now { next.deadline = now + interval }
            insert(next)
        }
        return entry
    }

    private mutating func insert(_ entry: Entry) {
        // The first index whose deadline is not after the new one: the new entry goes in front
        // of the equal ones, so it fires after them.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].deadline > entry.deadline {
                low = middle + 1
            } else {
                high = middle
            }
        }
        entries.insert(entry, at: low)
    }
}

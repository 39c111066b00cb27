import WaymarkSystem

/// The connections that have yet to say `hello`, with the instant by which they must, in the
/// order they connected (one timeout for all, so that is also deadline order): one timer
/// serves them all, however many connect.
struct HelloDeadlines {
    private var entries: [(client: ClientID, deadline: MonotonicInstant)] = []
    private var first = 0

    /// The earliest deadline, if any connection waits.
    var earliest: MonotonicInstant? { first < entries.count ? entries[first].deadline : nil }

    /// Adds a connection that must greet by `deadline` (not before any added earlier).
    mutating func append(_ client: ClientID, deadline: MonotonicInstant) {
        entries.append((client, deadline))
    }

    /// Removes `client`'s deadline: it said `hello`, or left.
    mutating func remove(_ client: ClientID) {
        guard let index = entries[first...].firstIndex(where: { $0.client == client }) else { return }
        entries.remove(at: index)
        if first == entries.count {
            entries = []
            first = 0
        }
    }

    /// Removes and returns the connections whose deadline is not after `now`.
    mutating func popDue(at now: MonotonicInstant) -> [ClientID] {
        var due: [ClientID] = []
        while first < entries.count, entries[first].deadline <= now {
            due.append(entries[first].client)
            first += 1
        }
        if first == entries.count {
            entries = []
            first = 0
        } else if first >= entries.count / 2 {
            entries.removeSubrange(..<first)
            first = 0
        }
        return due
    }
}

import WaymarkProtocol

/// What a connection has still to send: replies in order, and at most one update per
/// subscription.
///
/// Replies are never dropped. Updates coalesce: a newer update for a subscription replaces the
/// one waiting, and the one finally sent carries in `missed` how many were dropped since the
/// last one sent. So a client that stops reading costs at most one update per subscription
/// plus its replies, which ``replyBytes`` lets the server bound.
struct OutputQueue {
    private struct PendingUpdate {
        /// The update's JSON (``UpdateEvent/encode(_:)``), shared with the other clients.
        var update: [UInt8]
        var missed: Int
    }

    /// The message being written and how much of it has been.
    private var current: [UInt8] = []
    private var written = 0
    private var replies: [[UInt8]] = []
    private var firstReply = 0
    /// Bytes of replies waiting behind ``current``.
    private(set) var replyBytes = 0
    private var updates: [UInt64: PendingUpdate] = [:]
    private var updateOrder: [UInt64] = []

    /// Whether nothing is waiting.
    var isEmpty: Bool { written == current.count && firstReply == replies.count && updateOrder.isEmpty }

    /// Queues a reply (a complete line).
    mutating func append(reply line: [UInt8]) {
        replies.append(line)
        replyBytes += line.count
    }

    /// Queues an encoded update for `subscription`; returns whether it replaced one that was
    /// waiting.
    mutating func append(encodedUpdate update: [UInt8], subscription: UInt64) -> Bool {
        if var pending = updates[subscription] {
            pending.update = update
            pending.missed += 1
            updates[subscription] = pending
            return true
        }
        updates[subscription] = PendingUpdate(update: update, missed: 0)
        updateOrder.append(subscription)
        return false
    }

    /// Forgets the update waiting for `subscription`, if any.
    mutating func removeUpdate(for subscription: UInt64) {
        guard updates.removeValue(forKey: subscription) != nil else { return }
        updateOrder.removeAll { $0 == subscription }
    }

    /// The bytes to write next, moving the next message up when the current one is done;
    /// empty when nothing is waiting. The second value is true when a message was moved up.
    mutating func nextBytes() -> (bytes: ArraySlice<UInt8>, isNewMessage: Bool) {
        var isNew = false
        if written == current.count {
            guard let line = takeNext() else { return ([], false) }
            current = line
            written = 0
            isNew = true
        }
        return (current[written...], isNew)
    }

    /// Records that `count` bytes of ``nextBytes()`` were written.
    mutating func consume(_ count: Int) {
        written += count
    }

    private mutating func takeNext() -> [UInt8]? {
        if firstReply < replies.count {
            let line = replies[firstReply]
            firstReply += 1
            replyBytes -= line.count
            if firstReply == replies.count {
                replies.removeAll(keepingCapacity: true)
                firstReply = 0
            }
            return line
        }
        guard !updateOrder.isEmpty else { return nil }
        let subscription = updateOrder.removeFirst()
        let pending = updates.removeValue(forKey: subscription)!
        return UpdateEvent.line(subscription: subscription, encodedUpdate: pending.update, missed: pending.missed)
    }
}

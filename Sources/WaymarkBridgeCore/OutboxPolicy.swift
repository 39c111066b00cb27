/// The outbox's bound: at most `limit` messages wait for the broker; a message beyond it
/// pushes out the oldest waiting one (not the one on its way to the broker), which is counted
/// as dropped. Newer locations matter more than older ones, so the oldest go first.
package struct OutboxPolicy: Hashable, Sendable {
    /// The most messages kept.
    package let limit: Int

    /// A bound of `limit` messages (at least 2: one on its way and one waiting).
    package init(limit: Int) {
        self.limit = max(limit, 2)
    }

    /// How many of the oldest messages to drop when `queued` messages are in the outbox.
    package func overflow(queued: Int) -> Int {
        max(queued - limit, 0)
    }
}

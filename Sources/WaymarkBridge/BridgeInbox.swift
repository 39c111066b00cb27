import Synchronization
package import WaymarkBridgeCore
package import WaymarkLocation

/// Hands messages from the task reading live updates, and region events from the task reading
/// the monitor, to the bridge's loop. Bounded: if the loop falls behind (a disk stalling its
/// commits), the oldest messages go first and are counted with the outbox's drops, while a
/// region event is refused (its task waits), since dropping one would lose it (the daemon
/// takes a later acknowledgement for it). It also keeps the newest fixes, to find the one
/// that decided a region event.
package final class BridgeInbox: Sendable {
    /// A region event and how to acknowledge it to the daemon once the outbox committed it.
    struct PendingEvent: Sendable {
        var event: RegionEvent
        var acknowledge: @Sendable (UInt64) -> Void
    }

    private struct Contents {
        var messages: [OutgoingMessage] = []
        var events: [PendingEvent] = []
        var dropped = 0
        var diagnostics: [String] = []
        var fixes = RecentFixes()
    }

    private let contents = Mutex(Contents())
    private let policy: OutboxPolicy

    init(policy: OutboxPolicy) {
        self.policy = policy
    }

    /// Queues `message` (if any), records the diagnostics of the update it came from and its `fix`.
    package func submit(_ message: OutgoingMessage?, diagnostics: [String], fix: Location?) {
        contents.withLock { contents in
            contents.diagnostics = diagnostics
            if let fix { contents.fixes.record(fix) }
            guard let message else { return }
            contents.messages.append(message)
            let overflow = policy.overflow(queued: contents.messages.count)
            contents.messages.removeFirst(overflow)
            contents.dropped += overflow
        }
    }

    /// The most region events waiting for the loop: as many as the daemon keeps for one app.
    static let mostEvents = 100

    /// Queues `event`, unless ``mostEvents`` wait already (then `false`: submit it again
    /// later); `acknowledge` is called with its sequence once the outbox has it.
    package func submit(_ event: RegionEvent, acknowledge: @escaping @Sendable (UInt64) -> Void) -> Bool {
        contents.withLock { contents in
            guard contents.events.count < Self.mostEvents else { return false }
            contents.events.append(PendingEvent(event: event, acknowledge: acknowledge))
            return true
        }
    }

    /// The fix of time `date` if it came, or `nil` if it did not come and no later fix has
    /// either (it may still be on its way); `.some(nil)` when it will not come.
    package func fix(at date: Timestamp) -> Location?? {
        contents.withLock { contents in
            if let fix = contents.fixes.fix(at: date) { return fix }
            return contents.fixes.hasReached(date) ? .some(nil) : nil
        }
    }

    /// Takes the queued messages and events and how many were dropped since the last call, and reads the diagnostics.
    func take() -> (messages: [OutgoingMessage], events: [PendingEvent], dropped: Int, diagnostics: [String]) {
        contents.withLock { contents in
            defer { (contents.messages, contents.events, contents.dropped) = ([], [], 0) }
            return (contents.messages, contents.events, contents.dropped, contents.diagnostics)
        }
    }
}

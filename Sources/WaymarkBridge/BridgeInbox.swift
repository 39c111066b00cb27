import Synchronization
package import WaymarkBridgeCore

/// Hands messages from the task reading live updates to the bridge's loop. Bounded like the
/// outbox: if the loop falls behind (a disk stalling its commits), the oldest messages go
/// first and are counted with the outbox's drops.
package final class BridgeInbox: Sendable {
    private struct Contents {
        var messages: [OutgoingMessage] = []
        var dropped = 0
        var diagnostics: [String] = []
    }

    private let contents = Mutex(Contents())
    private let policy: OutboxPolicy

    init(policy: OutboxPolicy) {
        self.policy = policy
    }

    /// Queues `message` (if any) and records the diagnostics of the update it came from.
    package func submit(_ message: OutgoingMessage?, diagnostics: [String]) {
        contents.withLock { contents in
            contents.diagnostics = diagnostics
            guard let message else { return }
            contents.messages.append(message)
            let overflow = policy.overflow(queued: contents.messages.count)
            contents.messages.removeFirst(overflow)
            contents.dropped += overflow
        }
    }

    /// Takes the queued messages and how many were dropped since the last call, and reads the diagnostics.
    func take() -> (messages: [OutgoingMessage], dropped: Int, diagnostics: [String]) {
        contents.withLock { contents in
            defer { (contents.messages, contents.dropped) = ([], 0) }
            return (contents.messages, contents.dropped, contents.diagnostics)
        }
    }
}

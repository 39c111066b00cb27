package import WaymarkLocation
import WaymarkProtocol

/// What a connection has still to send: messages in order (replies from the daemon,
/// requests from a client), and a few updates per subscription.
///
/// Messages are never dropped. Updates coalesce: a newer update for a subscription replaces the
/// one waiting if both say the same about the stream (`isStationary` and the diagnostics),
/// and the one finally sent carries in `missed` how many were dropped since the last one sent.
/// An update that changes that state (the pause, the resume, a diagnostic set or cleared)
/// waits un-coalesced behind the others, so a client that reads again learns of it; at most
/// ``maximumUpdatesPerSubscription`` wait per subscription, the oldest giving way (its count
/// going to `missed`). So a client that stops reading costs a bounded number of updates per
/// subscription plus its replies, which ``messageBytes`` lets the server bound.
///
/// What waits costs no more than its bytes (``socketFilled()``): thousands of clients that do
/// not read each hold their unwritten bytes, not the spare capacity of the buffers their
/// messages were built in, nor a copy of an update all of them share.
package struct OutputQueue {
    /// Updates waiting per subscription at most: the newest states.
    package static let maximumUpdatesPerSubscription = 4

    /// What an update says about its stream beyond the location: updates that agree on it
    /// may replace one another.
    package struct StreamState: Equatable {
        var isStationary: Bool
        var diagnostics: Diagnostics

        package init(_ update: LocationUpdate) {
            isStationary = update.isStationary
            diagnostics = update.diagnostics
        }
    }

    private struct PendingUpdate {
        let subscription: UInt64
        let state: StreamState
        /// The update's JSON (``UpdateEvent/encode(_:)``), shared with the other clients.
        var update: [UInt8]
        var missed: Int
    }

    /// The message being written and how much of it has been.
    private var current: [UInt8] = []
    private var written = 0
    /// Whether any of ``current`` was written (its unwritten rest may have moved to the front).
    private var isCurrentBegun = false
    /// The update ``current`` was made from, while none of it is written: it goes back to
    /// wait in ``updates`` if the socket takes none of it (``socketFilled()``).
    private var currentUpdate: PendingUpdate?
    private var messages: [[UInt8]] = []
    private var firstMessage = 0
    /// Bytes of messages waiting behind ``current``.
    package private(set) var messageBytes = 0
    /// Waiting updates, oldest first.
    private var updates: [PendingUpdate] = []

    /// Whether nothing is waiting.
    package var isEmpty: Bool { written == current.count && firstMessage == messages.count && updates.isEmpty }

    /// An empty queue.
    package init() {}

    /// Queues a message (a complete line). Behind others it waits, in storage of its size.
    package mutating func append(message line: [UInt8]) {
        messages.append(isEmpty ? line : Self.fitted(line[...]))
        messageBytes += line.count
    }

    /// Queues an encoded update for `subscription` saying `state`; returns how many waiting
    /// updates it replaced or pushed out (0 or 1).
    package mutating func append(encodedUpdate update: [UInt8], state: StreamState, subscription: UInt64) -> Int {
        if let newest = updates.lastIndex(where: { $0.subscription == subscription }), updates[newest].state == state {
            updates[newest].update = update
            updates[newest].missed += 1
            return 1
        }
        let waiting = updates.indices.filter { updates[$0].subscription == subscription }
        updates.append(PendingUpdate(subscription: subscription, state: state, update: update, missed: 0))
        guard waiting.count == Self.maximumUpdatesPerSubscription else { return 0 }
        let oldest = updates.remove(at: waiting[0])
        updates[waiting[1] - 1].missed += oldest.missed + 1
        return 1
    }

    /// Forgets the updates waiting for `subscription`, if any.
    package mutating func removeUpdates(for subscription: UInt64) {
        updates.removeAll { $0.subscription == subscription }
    }

    /// The bytes to write next, moving the next message up when the current one is done;
    /// empty when nothing is waiting. The second value is true when none of the message is
    /// written yet.
    package mutating func nextBytes() -> (bytes: ArraySlice<UInt8>, isNewMessage: Bool) {
        if written == current.count {
            currentUpdate = nil
            written = 0
            isCurrentBegun = false
            guard let line = takeNext() else {
                // Nothing waits: the last message's storage goes.
                current = []
                return ([], false)
            }
            current = line
        }
        return (current[written...], !isCurrentBegun)
    }

    /// Records that `count` bytes of ``nextBytes()`` were written.
    package mutating func consume(_ count: Int) {
        written += count
        guard count > 0 else { return }
        isCurrentBegun = true
        currentUpdate = nil
    }

    /// Keeps what waits in the least memory, once the socket takes no more for now: an update
    /// not yet begun goes back to wait with the others (where a newer one may still replace
    /// it), a message begun keeps only its unwritten bytes, and one not begun drops the spare
    /// capacity of the buffer it was built in.
    package mutating func socketFilled() {
        if let pending = currentUpdate {
            updates.insert(pending, at: 0)
            currentUpdate = nil
            current = []
            written = 0
        } else if written < current.count, written > 0 || current.capacity > current.count {
            current = Self.fitted(current[written...])
            written = 0
        }
    }

    private mutating func takeNext() -> [UInt8]? {
        if firstMessage < messages.count {
            let line = messages[firstMessage]
            firstMessage += 1
            messageBytes -= line.count
            if firstMessage == messages.count {
                messages.removeAll(keepingCapacity: false)
                firstMessage = 0
            }
            return line
        }
        guard !updates.isEmpty else { return nil }
        let pending = updates.removeFirst()
        currentUpdate = pending
        return UpdateEvent.line(subscription: pending.subscription, encodedUpdate: pending.update, missed: pending.missed)
    }

    /// `bytes` in storage of their size.
    private static func fitted(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: bytes)
        }
    }
}

import WaymarkProtocol
import WaymarkSystem

/// One client's connection: its socket, who it is, what it asked for, and what it has still
/// to receive. Owned by the ``Server`` on the loop's thread.
final class Connection {
    let id: ClientID
    let descriptor: FileDescriptor
    let credentials: PeerCredentials
    var lines = LineBuffer()
    /// The bytes ``lines`` holds as counted in the server's ``InputBudget``.
    var bufferedInputBytes = 0
    /// Whether the server must come back to this connection without waiting for its socket:
    /// it stopped handling its lines for the turn, or until its replies are written.
    var hasUnhandledInput = false
    /// Whether it waits in the server's queue of connections to serve next turn.
    var isQueuedForNextTurn = false
    var output = OutputQueue()
    /// Whether `hello` was exchanged.
    var isGreeted = false
    /// Whether the client may still send (false after end of file).
    var isReading = true
    /// The id of its `bye`, once it said it: nothing more is read, and the reply comes once
    /// its pending location requests are answered.
    var bye: MessageID?
    /// Whether the connection closes once its output is written (after `bye`).
    var closesWhenFlushed = false
    /// Its live-updates subscriptions.
    var subscriptions: Set<SubscriptionID> = []
    /// Its unanswered location requests, by the server's id, with the client's id.
    var requests: [RequestID: MessageID] = [:]
    /// The events the loop watches the socket for now.
    var interest: IOEvents = .readable

    init(id: ClientID, descriptor: FileDescriptor, credentials: PeerCredentials) {
        self.id = id
        self.descriptor = descriptor
        self.credentials = credentials
    }

    /// Whether requests are still read and handled: not after `bye` or a refusal.
    var takesRequests: Bool { bye == nil && !closesWhenFlushed }

    /// The events to watch for given the state: readable while the client may send and the
    /// server wants its next request (not while lines read wait, nor while replies are
    /// unwritten: a client that does not read its replies is not read either); writable
    /// while output waits.
    var wantedInterest: IOEvents {
        var wanted: IOEvents = []
        if isReading && takesRequests && !hasUnhandledInput && output.replyBytes == 0 { wanted.insert(.readable) }
        if !output.isEmpty { wanted.insert(.writable) }
        return wanted
    }
}

import WaymarkProtocol
import WaymarkSystem

/// One client's connection: its socket, who it is, what it asked for, and what it has still
/// to receive. Owned by the ``Server`` on the loop's thread.
final class Connection {
    let id: ClientID
    let descriptor: FileDescriptor
    let credentials: PeerCredentials
    var lines = LineBuffer()
    var output = OutputQueue()
    /// Whether `hello` was exchanged.
    var isGreeted = false
    /// Whether the client may still send (false after end of file).
    var isReading = true
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

    /// The events to watch for given the state: readable while the client may send, writable
    /// while output waits.
    var wantedInterest: IOEvents {
        var wanted: IOEvents = []
        if isReading && !closesWhenFlushed { wanted.insert(.readable) }
        if !output.isEmpty { wanted.insert(.writable) }
        return wanted
    }
}

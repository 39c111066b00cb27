import WaymarkAuthorization
import WaymarkConnection
import WaymarkEngine
import WaymarkGpsd
import WaymarkProtocol
import WaymarkSystem

/// One client's connection: its socket (a ``LineConnection``), who it is, and where it stands
/// in the conversation. What it holds is in the server's book (``Holdings``). Owned by the
/// ``Server`` on the loop's thread.
final class Connection {
    let id: ClientID
    let credentials: PeerCredentials
    /// What the kernel says of the peer (read once at accept), for its identity and policy.
    let facts: ProcessFacts
    /// What the policy files say of the peer.
    let policy: EffectivePolicy
    /// Who the app is, from `hello` on (``Server/identify(_:declaredAppID:)``).
    var app: AppIdentity?
    var link: LineConnection
    /// The bytes ``link``'s lines hold as counted in the server's ``InputBudget``.
    var bufferedInputBytes = 0
    /// Whether the server must come back to this connection without waiting for its socket:
    /// it stopped handling its lines for the turn, or until its replies are written.
    var hasUnhandledInput = false
    /// Whether it waits in the server's queue of connections to serve next turn.
    var isQueuedForNextTurn = false
    /// Whether `hello` was exchanged.
    var isGreeted = false
    /// Whether the client may still send (false after end of file).
    var isReading = true
    /// The id of its `bye`, once it said it: nothing more is read, and the reply comes once
    /// its pending location requests are answered.
    var bye: MessageID?
    /// Whether the connection closes once its output is written (after `bye`).
    var closesWhenFlushed = false
    /// The app's monitors open on this connection, by the number `openMonitor` gave.
    var openMonitors: [UInt64: String] = [:]
    /// The last number `openMonitor` gave on this connection.
    var lastMonitorHandle: UInt64 = 0
    /// Whether this connection asked for its app's visits (`startVisitMonitoring`).
    var receivesVisits = false
    /// gpsd's side of the conversation, for a client of the gpsd endpoint (``GpsdClient``);
    /// nil for Waymark's protocol.
    var gpsd: GpsdClient?

    init(id: ClientID, descriptor: FileDescriptor, peer: PeerProcess, policies: PolicySet, gpsd: GpsdClient? = nil) {
        self.gpsd = gpsd
        self.id = id
        credentials = peer.credentials
        facts = ProcessFacts(uid: peer.credentials.uid, cgroupText: peer.cgroup, executableLink: peer.executableLink, statText: peer.stat)
        policy = policies.policy(for: facts)
        link = LineConnection(descriptor: descriptor)
    }

    var descriptor: FileDescriptor { link.descriptor }

    /// The bytes of input it holds: its lines, or gpsd's commands not yet answered.
    var heldInputBytes: Int { gpsd?.session.heldBytes ?? link.lines.allocatedBytes }

    /// Whether requests are still read and handled: not after `bye` or a refusal.
    var takesRequests: Bool { bye == nil && !closesWhenFlushed }

    /// The events to watch for given the state: readable while the client may send and the
    /// server wants its next request (not while lines read wait, nor while replies are
    /// unwritten: a client that does not read its replies is not read either); writable
    /// while output waits.
    var wantedInterest: IOEvents {
        var wanted: IOEvents = []
        if isReading && takesRequests && !hasUnhandledInput && link.output.messageBytes == 0 { wanted.insert(.readable) }
        if !link.output.isEmpty { wanted.insert(.writable) }
        return wanted
    }
}

/// A client of the gpsd endpoint: its ``GpsdSession`` and the live-updates subscription its
/// `?WATCH` holds while it watches. A class, so that a connection of Waymark's protocol (most
/// of them) holds a reference to none, not the session's room.
final class GpsdClient {
    var session: GpsdSession
    var subscription: SubscriptionID?
    /// Whether its last update was delivered unreduced: only then may it read the receiver's
    /// sentences, which carry the precise position, and the satellites in view (SKY's
    /// `satellites`), whose azimuths and elevations at a known time place the receiver too.
    var mayReadSentences = false

    init(session: GpsdSession) {
        self.session = session
    }
}

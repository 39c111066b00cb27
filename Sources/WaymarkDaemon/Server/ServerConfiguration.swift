package import WaymarkAuthorization
import WaymarkProtocol
package import WaymarkSystem

/// How the server listens and what it allows each client (`docs/protocol.md`, "Limits").
package struct ServerConfiguration: Sendable {
    /// The socket's path (see ``WaymarkProtocol/SocketPath``); its directory is created if missing.
    package var path: String
    /// A listening socket the service manager passed (``SocketActivation``): the server
    /// accepts on it instead of creating a socket at ``path``, and leaves its file in place.
    package var activatedSocket: FileDescriptor?
    /// The socket file's permissions: owner and group may connect.
    package var mode: UInt32 = 0o660
    /// The daemon's version, for `hello` and `status`.
    package var daemonVersion: String
    /// Connections beyond this many are closed at once (the server also raises the process's
    /// descriptor limit so that this many can be open).
    package var maximumClients = 4_096
    /// Connections one user (peer uid) may hold, so that no user can take every slot; users in
    /// ``privilegedUsers`` may hold more (``connectionLimit(of:)``).
    package var maximumClientsPerUser = 128
    /// Root and the daemon's own user: the operator's tools and a development daemon's own
    /// clients are not held to ``maximumClientsPerUser``, but to ``maximumClients`` less
    /// ``clientsReservedForOtherUsers``.
    package var privilegedUsers: Set<UInt32> = [0, CurrentProcess.effectiveUserID]
    /// Connections no privileged user may take, so that a runaway client of root (a script
    /// connecting in a loop) cannot lock the other users out.
    package var clientsReservedForOtherUsers = 64
    /// A connection that has not said `hello` this long after connecting is closed.
    package var helloTimeout = Duration.seconds(10)
    /// Bytes of unfinished input (partial lines, lines not yet handled) all connections may
    /// hold together; a connection that passes it is refused and closed.
    package var maximumBufferedInputBytes = 4 << 20
    /// Bytes of unfinished input the connections of one user may hold together.
    package var maximumBufferedInputBytesPerUser = 1 << 20
    /// Requests handled per connection per turn of the loop, so that every client and source
    /// gets its turn however much one client sends.
    package var maximumRequestsPerTurn = 8
    /// The kernel's send buffer per connection (`SO_SNDBUF`): small, so that updates a client
    /// does not read wait in the daemon, where they coalesce, instead of in the kernel.
    package var sendBufferBytes: Int32 = 4_096
    /// Live-updates subscriptions one connection may hold.
    package var maximumSubscriptionsPerClient = 64
    /// Updates the batches (`DeliveryOptions.batching`) of one user's subscriptions may hold
    /// together, each batch counted at its capacity: at about 250 bytes an update, 1 MB a user
    /// (the per-subscription and per-connection limits alone let one user hold 2 GB).
    package var maximumBatchedUpdatesPerUser = 4_000
    /// Unanswered `requestLocation` requests one connection may have.
    package var maximumPendingRequestsPerClient = 16
    /// Unsent reply bytes after which a client that does not read is disconnected.
    package var maximumQueuedReplyBytes = 1 << 20
    /// Unsent message bytes the connections of one user may leave together, and all
    /// connections together: a client more than ``laggingClientBytes`` behind is disconnected
    /// when its user's, or everyone's, pass these (messages that do not coalesce, such as gpsd's
    /// reports, would otherwise take 1 MiB for each of thousands of connections).
    package var maximumQueuedMessageBytesPerUser = 2 << 20
    package var maximumQueuedMessageBytes = 8 << 20
    /// Unsent message bytes past which a client is behind enough for the shared budgets above
    /// to be checked when more is queued for it.
    package var laggingClientBytes = 64 << 10
    /// The policy files (`/etc/waymark/apps.d`): who each app is and what it may do.
    package var policies = PolicySet()
    /// How long what an app held waits for it after its connection ends without `bye`, and
    /// how long it has to re-take it after it connects again (`docs/semantics.md`, "Consumers
    /// that come and go"); zero keeps nothing, unless a background activity session is held.
    package var rejoinWindow = Duration.seconds(5)
    /// Updates kept per subscription while its app is away: the newest.
    package var maximumKeptUpdatesPerSubscription = 32
    /// Subscriptions an app that is away keeps at most: the newest.
    package var maximumKeptSubscriptionsPerApp = 8
    /// Pending `requestLocation`s an app that is away keeps at most: the newest (as many as
    /// one connection may have pending, ``maximumPendingRequestsPerClient``); each keeps one
    /// answer.
    package var maximumKeptRequestsPerApp = 16
    /// Apps that may have something kept at once; one that leaves beyond it keeps nothing.
    /// With the bounds above, kept updates take at most 64 × 8 × 32 of them, about 5 MB, and
    /// kept requests 64 × 16 answers.
    package var maximumKeptApps = 64
    /// Where the daemon writes an app's relaunch trigger (its policy's `relaunch`) to have it
    /// started; nil: apps are not relaunched.
    package var relaunchDirectory: String?
    /// How long an app whose trigger was written has to connect; then, as the seeds say ("a
    /// few seconds after the app is launched again"), the rejoin window from its `hello`. 90 s
    /// is systemd's default start timeout (`DefaultTimeoutStartSec`): a unit not started by
    /// then has failed.
    package var relaunchStartTimeout = Duration.seconds(90)
    /// Background activity sessions one connection may hold.
    package var maximumActivitiesPerClient = 16
    /// Where gpsd's clients are served too; nil: only Waymark's socket (the default).
    package var gpsd: GpsdEndpoint?

    /// The connections `user` may hold at once.
    package func connectionLimit(of user: UInt32) -> Int {
        privilegedUsers.contains(user) ? maximumClients - clientsReservedForOtherUsers : maximumClientsPerUser
    }

    /// A configuration for the socket at `path`.
    package init(path: String, daemonVersion: String) {
        self.path = path
        self.daemonVersion = daemonVersion
    }
}

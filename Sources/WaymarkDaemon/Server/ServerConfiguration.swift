import Glibc
import WaymarkProtocol
import WaymarkSystem

/// How the server listens and what it allows each client.
public struct ServerConfiguration: Sendable {
    /// The socket's path (see ``WaymarkProtocol/SocketPath``); its directory is created if missing.
    public var path: String
    /// A listening socket the service manager passed (``SocketActivation``): the server
    /// accepts on it instead of creating a socket at ``path``, and leaves its file in place.
    public var activatedSocket: FileDescriptor?
    /// The socket file's permissions: owner and group may connect.
    public var mode: mode_t = 0o660
    /// The daemon's version, for `hello` and `status`.
    public var daemonVersion: String
    /// Connections beyond this many are closed at once (the server also raises the process's
    /// descriptor limit so that this many can be open).
    public var maximumClients = 4_096
    /// Live-updates subscriptions one connection may hold.
    public var maximumSubscriptionsPerClient = 64
    /// Unanswered `requestLocation` requests one connection may have.
    public var maximumPendingRequestsPerClient = 16
    /// Unsent reply bytes after which a client that does not read is disconnected.
    public var maximumQueuedReplyBytes = 1 << 20

    /// A configuration for the socket at `path`.
    public init(path: String, daemonVersion: String) {
        self.path = path
        self.daemonVersion = daemonVersion
    }
}

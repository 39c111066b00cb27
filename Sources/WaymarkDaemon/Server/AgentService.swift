package import WaymarkLocation
import WaymarkProtocol
package import WaymarkSystem

/// A connection to the daemon, unique per daemon run.
package typealias ClientID = UInt64
/// A live-updates subscription, unique per daemon run, assigned by the server.
package typealias SubscriptionID = UInt64
/// A `requestLocation` request, unique per daemon run, assigned by the server (which maps it
/// to the client's own JSON id).
package typealias RequestID = UInt64

/// What the server asks of the rest of the daemon (the agent: engine, sources, power).
///
/// Every call comes on the event loop's thread and must not block. The server has already
/// validated the request and answered what it can answer itself (ids, ownership, limits);
/// results go back through the ``UpdateSink`` the agent was given.
package protocol AgentService: AnyObject {
    /// A client connected; `credentials` are the kernel's (`SO_PEERCRED`), for authorization.
    func clientConnected(_ client: ClientID, credentials: PeerCredentials)
    /// The client said `hello`, naming its app (or not).
    func clientIdentified(_ client: ClientID, appID: String?)
    /// The client is gone (closed, `bye`, or disconnected by the server). Its subscriptions
    /// and requests end with it: the server does not call ``stopLiveUpdates(_:for:)`` for them.
    func clientDisconnected(_ client: ClientID)
    /// Start delivering updates for `subscription` through ``UpdateSink/send(_:subscription:to:)``.
    func startLiveUpdates(_ subscription: SubscriptionID, for client: ClientID, configuration: LiveConfiguration)
    /// Stop delivering updates for `subscription`.
    func stopLiveUpdates(_ subscription: SubscriptionID, for client: ClientID)
    /// Answer once, within `timeout`, through ``UpdateSink/send(_:request:to:)``.
    func requestLocation(_ request: RequestID, for client: ClientID, desiredAccuracy: Double, timeout: Duration)
    /// The client withdrew `request` (the server has answered it): release what it holds.
    func cancelRequest(_ request: RequestID, for client: ClientID)
    /// The daemon's status. The server fills in `clients`, `liveSubscriptions` and
    /// `pendingRequests` from its own tables.
    func status() -> StatusReport
}

/// Where the agent sends what clients asked for; the ``Server`` is one. Calls must come on
/// the event loop's thread. Sends for a client, subscription or request that has ended are
/// ignored, so the agent need not track disconnects precisely.
package protocol UpdateSink: AnyObject {
    /// Delivers a live update.
    func send(_ update: LocationUpdate, subscription: SubscriptionID, to client: ClientID)
    /// Answers a `requestLocation` request.
    func send(_ result: Result<Location, LocationError>, request: RequestID, to client: ClientID)
}

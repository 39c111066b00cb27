package import WaymarkLocation
package import WaymarkEngine
package import WaymarkFix
import WaymarkProtocol
package import WaymarkSystem

/// A connection to the daemon, unique per daemon run.
package struct ClientID: RunUniqueID {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// What the server asks of the rest of the daemon (the agent: engine, sources, power).
///
/// Every call comes on the event loop's thread and must not block. The server has already
/// validated the request and answered what it can answer itself (ids, ownership, limits);
/// results go back through the ``UpdateSink`` the agent was given. Which client holds which
/// subscription and request is the server's book (``Holdings``): the agent knows them by id.
package protocol AgentService: AnyObject {
    /// A client connected; `credentials` are the kernel's (`SO_PEERCRED`), for authorization.
    func clientConnected(_ client: ClientID, credentials: PeerCredentials)
    /// The client said `hello`, naming its app (or not).
    func clientIdentified(_ client: ClientID, appID: String?)
    /// The client is gone (closed, `bye`, or disconnected by the server); `subscriptions` and
    /// `requests` are what it held, which end with it (the server does not call
    /// ``stopLiveUpdates(_:)`` or ``cancelRequest(_:)`` for them).
    func clientDisconnected(_ client: ClientID, releasing subscriptions: Set<SubscriptionID>, _ requests: Set<RequestID>)
    /// Start delivering updates for `subscription` through ``UpdateSink/send(_:subscription:)``,
    /// as `options` say.
    func startLiveUpdates(_ subscription: SubscriptionID, configuration: LiveConfiguration, options: DeliveryOptions)
    /// Stop delivering updates for `subscription`.
    func stopLiveUpdates(_ subscription: SubscriptionID)
    /// Answer once, within `timeout`, through ``UpdateSink/send(_:request:)``.
    func requestLocation(_ request: RequestID, desiredAccuracy: Double, timeout: Duration)
    /// The client withdrew `request` (the server has answered it), or its app left it and did
    /// not re-take it in time: release what it holds.
    func cancelRequest(_ request: RequestID)
    /// The newest location and its age, however old; asking never powers the receiver.
    func lastKnownLocation() -> LastKnownLocation?
    /// The satellites the receiver last described (empty before any), for gpsd's SKY.
    var sky: SkyView { get }

    /// A monitor's conditions changed (added or removed): the monitors' next fix may have.
    func monitorsChanged()
    /// The daemon's status. The server fills in `clients`, `liveSubscriptions` and
    /// `pendingRequests` from its own tables.
    func status() -> StatusReport
}

/// Where the agent sends what clients asked for; the ``Server`` is one. Calls must come on
/// the event loop's thread. Sends for a subscription or request that has ended (its client
/// gone) are ignored, so the agent need not track disconnects precisely.
package protocol UpdateSink: AnyObject {
    /// Delivers a live update.
    func send(_ update: LocationUpdate, subscription: SubscriptionID)
    /// Delivers a deferred subscription's batch, oldest first, with how many older updates
    /// it dropped because it was full.
    func send(batch updates: [LocationUpdate], overflow: Int, subscription: SubscriptionID)
    /// Answers a `requestLocation` request.
    func send(_ result: Result<Location, LocationError>, request: RequestID)
    /// Delivers monitor events to the connections of their apps that have the monitor open.
    func deliver(_ deliveries: [MonitorDelivery])
    /// Delivers arrivals and departures to the connections of the apps that monitor visits.
    func deliver(visits: [Visit])
}

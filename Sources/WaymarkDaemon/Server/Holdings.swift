import WaymarkAuthorization
import WaymarkEngine
import WaymarkLocation
import WaymarkProtocol
import WaymarkSystem

/// The one book of who holds what: each client's live subscriptions (with their
/// configurations and delivery options), pending location requests, background activity sessions and in-use
/// delegations, and for each the client that holds it; and what apps whose connections ended left to re-take
/// (`docs/semantics.md`, "Consumers that come and go"). The server keeps it; the agent and the
/// engine know subscriptions and requests only by their ids.
struct Holdings {
    /// What a subscription was started with; re-taking matches both.
    struct LiveTerms: Hashable {
        var configuration: LiveConfiguration
        var options: DeliveryOptions
    }

    /// What one client holds: a few of each (``ServerConfiguration`` bounds them), in arrays,
    /// not dictionaries: a dictionary of one entry costs about 250 bytes, kept by each of
    /// thousands of connections.
    private struct Held {
        var subscriptions: [(id: SubscriptionID, terms: LiveTerms)] = []
        /// Pending requests with the client's own message ids and what they asked.
        var requests: [(id: RequestID, message: MessageID, parameters: LocationRequest)] = []
        var activities: Set<BackgroundActivityID> = []
    }

    /// What an app left when a connection of it ended, until it re-takes it or its deadline.
    private struct Kept {
        var subscriptions: [SubscriptionID: (terms: LiveTerms, updates: KeptUpdates)] = [:]
        var requests: KeptRequests
        var activities: Set<BackgroundActivityID> = []
        /// When what is not re-taken by then ends; nil while a background activity session
        /// holds it for an app that is away.
        var deadline: MonotonicInstant?
        /// The app's relaunch trigger (its policy's `relaunch`), if it has one.
        var relaunch: String?
        /// Whether the app was asked to start since it left.
        var isRelaunchRequested = false
    }

    private enum Holder: Equatable {
        case client(ClientID)
        case app(AppIdentity)
    }

    private var byClient: [ClientID: Held] = [:]
    private var kept: [AppIdentity: Kept] = [:]
    private var subscriptionHolders: [SubscriptionID: Holder] = [:]
    /// The last update sent for each subscription a connected client holds.
    private var lastDelivered: [SubscriptionID: LocationUpdate] = [:]
    /// Who holds each request the engine runs (answered kept requests are the app's alone).
    private var requestHolders: [RequestID: Holder] = [:]
    private var lastSubscription: SubscriptionID = 0
    private var lastRequest: RequestID = 0
    private var lastActivity: BackgroundActivityID = 0
    /// Who handed "in use" to whom.
    var delegations = InUseDelegations()

    /// Live subscriptions, of all clients and of apps that are away.
    var subscriptionCount: Int { subscriptionHolders.count }
    /// Pending requests, of all clients and of apps that are away.
    var requestCount: Int { requestHolders.count }
    /// Apps that are away and have something kept.
    var keptAppCount: Int { kept.count }

    /// What each app that is away keeps, as `status` counts it.
    var keptCounts: [AppIdentity: StatusReport.SessionCounts] {
        kept.mapValues { entry in
            StatusReport.SessionCounts(
                keptSubscriptions: entry.subscriptions.count, keptRequests: entry.requests.entries.count,
                keptBackgroundActivitySessions: entry.activities.count)
        }
    }

    /// The subscriptions `client` holds, oldest first.
    func subscriptions(of client: ClientID) -> [SubscriptionID] { byClient[client]?.subscriptions.map(\.id).sorted() ?? [] }
    /// How many subscriptions `client` holds.
    func subscriptionCount(of client: ClientID) -> Int { byClient[client]?.subscriptions.count ?? 0 }
    /// How many updates the batches of `clients`' subscriptions, and of those kept for the
    /// apps that `user` mints (``AppIdentity/mintingUID``), may hold: each at its capacity.
    func batchCapacity(of clients: some Sequence<ClientID>, keptFor user: UInt32) -> Int {
        let held = clients.reduce(0) { total, client in
            total + (byClient[client]?.subscriptions ?? []).reduce(0) { $0 + ($1.terms.options.batching?.capacity ?? 0) }
        }
        return kept.lazy.filter { $0.key.mintingUID == user }.reduce(held) { total, entry in
            total + entry.value.subscriptions.values.reduce(0) { $0 + ($1.terms.options.batching?.capacity ?? 0) }
        }
    }
    /// How many requests `client` has pending.
    func requestCount(of client: ClientID) -> Int { byClient[client]?.requests.count ?? 0 }
    /// How many background activity sessions `client` holds.
    func activityCount(of client: ClientID) -> Int { byClient[client]?.activities.count ?? 0 }

    /// The connected client that holds `subscription`, if any.
    func holder(of subscription: SubscriptionID) -> ClientID? {
        guard case .client(let client) = subscriptionHolders[subscription] else { return nil }
        return client
    }

    // MARK: Subscriptions

    /// A new subscription for `client` with `terms`.
    mutating func addSubscription(for client: ClientID, _ terms: LiveTerms) -> SubscriptionID {
        lastSubscription = lastSubscription.next
        byClient[client, default: Held()].subscriptions.append((lastSubscription, terms))
        subscriptionHolders[lastSubscription] = .client(client)
        return lastSubscription
    }

    /// Notes that `update` was sent for `subscription`, if a connected client holds it: what
    /// its app gets when it re-takes the subscription with nothing kept (``KeptUpdates/retaken``).
    mutating func delivered(_ update: LocationUpdate, for subscription: SubscriptionID) {
        guard case .client = subscriptionHolders[subscription] else { return }
        lastDelivered[subscription] = update
    }

    /// Ends `subscription` if `client` holds it; returns whether it did.
    mutating func removeSubscription(_ subscription: SubscriptionID, of client: ClientID) -> Bool {
        guard subscriptionHolders[subscription] == .client(client) else { return false }
        subscriptionHolders[subscription] = nil
        lastDelivered[subscription] = nil
        byClient[client]?.subscriptions.removeAll { $0.id == subscription }
        return true
    }

    // MARK: Requests

    /// A new pending request of `client`, which named it `message` and asked `parameters`.
    mutating func addRequest(for client: ClientID, message: MessageID, parameters: LocationRequest) -> RequestID {
        lastRequest = lastRequest.next
        byClient[client, default: Held()].requests.append((lastRequest, message, parameters))
        requestHolders[lastRequest] = .client(client)
        return lastRequest
    }

    /// Takes `request` off the book once answered, if a connected client holds it; returns who
    /// asked and under which id.
    mutating func takeRequest(_ request: RequestID) -> (client: ClientID, message: MessageID)? {
        guard case .client(let client) = requestHolders[request],
            let index = byClient[client]?.requests.firstIndex(where: { $0.id == request }),
            let held = byClient[client]?.requests.remove(at: index)
        else { return nil }
        requestHolders[request] = nil
        return (client, held.message)
    }

    /// The oldest pending request `client` named `message`.
    func oldestRequest(of client: ClientID, named message: MessageID) -> RequestID? {
        byClient[client]?.requests.filter { $0.message == message }.map(\.id).min()
    }

    // MARK: Background activity sessions

    /// A new background activity session for `client`.
    mutating func addActivity(for client: ClientID) -> BackgroundActivityID {
        lastActivity = lastActivity.next
        byClient[client, default: Held()].activities.insert(lastActivity)
        return lastActivity
    }

    /// Ends `activity` if `client` holds it; returns whether it did.
    mutating func removeActivity(_ activity: BackgroundActivityID, of client: ClientID) -> Bool {
        byClient[client]?.activities.remove(activity) != nil
    }

    // MARK: Clients that leave

    /// Forgets everything `client` held and returns it, for the agent to release (the client
    /// said `bye`, or the daemon stops).
    mutating func removeClient(_ client: ClientID) -> (subscriptions: Set<SubscriptionID>, requests: Set<RequestID>) {
        delegations.removeClient(client)
        guard let held = byClient.removeValue(forKey: client) else { return ([], []) }
        for subscription in held.subscriptions {
            subscriptionHolders[subscription.id] = nil
            lastDelivered[subscription.id] = nil
        }
        for request in held.requests { requestHolders[request.id] = nil }
        return (Set(held.subscriptions.map(\.id)), Set(held.requests.map(\.id)))
    }

    /// Moves what `client` held to its `app`, to be re-taken: its subscriptions (their updates
    /// kept, at most `updateCapacity` each), pending requests (the engine runs them on) and
    /// background activity sessions. They are kept until `now + window`, or while a background
    /// activity session is kept, until the app comes back; an app keeps at most
    /// `maximumSubscriptions` subscriptions and `maximumRequests` requests, the newest, and
    /// at most `maximumApps` apps keep anything. Returns what ends now, for the agent to
    /// release: what does not fit.
    mutating func keep(
        _ client: ClientID, as app: AppIdentity, relaunch: String?, now: MonotonicInstant, window: Duration,
        updateCapacity: Int, maximumSubscriptions: Int, maximumRequests: Int, maximumApps: Int
    ) -> (subscriptions: Set<SubscriptionID>, requests: Set<RequestID>) {
        delegations.removeClient(client)
        guard let held = byClient[client] else { return ([], []) }
        let keeps = !held.activities.isEmpty || window > .zero
        guard keeps, kept[app] != nil || kept.count < maximumApps else { return removeClient(client) }
        byClient[client] = nil
        var entry = kept[app] ?? Kept(requests: KeptRequests(capacity: maximumRequests))
        var endedRequests = Set<RequestID>()
        for asked in held.requests.sorted(by: { $0.id < $1.id }) {
            requestHolders[asked.id] = .app(app)
            for dropped in entry.requests.append(asked.id, asked.parameters) {
                requestHolders[dropped] = nil
                endedRequests.insert(dropped)
            }
        }
        entry.relaunch = relaunch
        entry.isRelaunchRequested = false
        for (subscription, terms) in held.subscriptions {
            let last = lastDelivered.removeValue(forKey: subscription)
            entry.subscriptions[subscription] = (terms, KeptUpdates(capacity: updateCapacity, lastDelivered: last))
            subscriptionHolders[subscription] = .app(app)
        }
        entry.activities.formUnion(held.activities)
        entry.deadline = entry.activities.isEmpty ? now + window : nil
        var ended = Set<SubscriptionID>()
        for subscription in entry.subscriptions.keys.sorted().dropLast(maximumSubscriptions) {
            entry.subscriptions[subscription] = nil
            subscriptionHolders[subscription] = nil
            ended.insert(subscription)
        }
        kept[app] = entry
        return (ended, endedRequests)
    }

    /// Keeps `update` for `subscription` if its app is away; returns the app if it was.
    mutating func keep(_ update: LocationUpdate, for subscription: SubscriptionID) -> AppIdentity? {
        guard case .app(let app) = subscriptionHolders[subscription] else { return nil }
        kept[app]?.subscriptions[subscription]?.updates.append(update)
        return app
    }

    /// Keeps the answer to `request` if its app is away; returns the app if it was.
    mutating func keep(_ answer: Result<Location, LocationError>, for request: RequestID) -> AppIdentity? {
        guard case .app(let app) = requestHolders[request] else { return nil }
        requestHolders[request] = nil
        guard kept[app]?.requests.answer(request, with: answer) == true else { return nil }
        return app
    }

    /// The relaunch trigger of `app`, which is away and has something waiting, the first time
    /// it is asked for since the app left; the app then has until `now + startTimeout` to
    /// connect (and from its `hello` the rejoin window to re-take what it left); a relaunch
    /// that does not bring it back ends it, even what a background activity session kept.
    mutating func requestRelaunch(of app: AppIdentity, now: MonotonicInstant, startTimeout: Duration) -> String? {
        guard let entry = kept[app], let relaunch = entry.relaunch, !entry.isRelaunchRequested else { return nil }
        kept[app]?.isRelaunchRequested = true
        kept[app]?.deadline = max(entry.deadline ?? now + startTimeout, now + startTimeout)
        return relaunch
    }

    /// Whether an app that has not come back was asked to start with `trigger`.
    func isRelaunchRequested(_ trigger: String) -> Bool {
        kept.values.contains { $0.isRelaunchRequested && $0.relaunch == trigger }
    }

    /// `app` connected again: what it does not re-take by `now + window` ends. Returns the
    /// relaunch trigger asked for since it left, which has served.
    mutating func rejoined(_ app: AppIdentity, now: MonotonicInstant, window: Duration) -> String? {
        kept[app]?.deadline = now + window
        guard let entry = kept[app], entry.isRelaunchRequested else { return nil }
        return entry.relaunch
    }

    /// Hands `client` of `app` the kept subscription of the app with `terms` (the same
    /// configuration and delivery options; the oldest, if several), with the updates kept for it
    /// (``KeptUpdates/retaken``).
    mutating func retakeSubscription(
        of app: AppIdentity, _ terms: LiveTerms, by client: ClientID
    ) -> (subscription: SubscriptionID, updates: [KeptUpdates.Entry])? {
        guard var entry = kept[app],
            let subscription = entry.subscriptions.filter({ $0.value.terms == terms }).keys.min(),
            let taken = entry.subscriptions.removeValue(forKey: subscription)
        else { return nil }
        store(entry, for: app)
        byClient[client, default: Held()].subscriptions.append((subscription, terms))
        subscriptionHolders[subscription] = .client(client)
        return (subscription, taken.updates.retaken)
    }

    /// Hands `client` of `app`, which asks `parameters` under its id `message`, the kept request
    /// of the app asked with the same parameters (the oldest, if several), with its answer if
    /// the engine gave it while the app was away; a pending one runs on, its timeout counting
    /// from when it was first asked.
    mutating func retakeRequest(
        of app: AppIdentity, _ parameters: LocationRequest, by client: ClientID, message: MessageID
    ) -> KeptRequests.Entry? {
        guard var entry = kept[app], let taken = entry.requests.retake(parameters) else { return nil }
        store(entry, for: app)
        byClient[client, default: Held()].requests.append((taken.request, message, parameters))
        requestHolders[taken.request] = .client(client)
        return taken
    }

    /// Hands `client` of `app` a kept background activity session of the app (the oldest).
    mutating func retakeActivity(of app: AppIdentity, by client: ClientID) -> BackgroundActivityID? {
        guard var entry = kept[app], let activity = entry.activities.min() else { return nil }
        entry.activities.remove(activity)
        store(entry, for: app)
        byClient[client, default: Held()].activities.insert(activity)
        return activity
    }

    /// When the next kept app's deadline passes, if any has one.
    var earliestDeadline: MonotonicInstant? { kept.values.compactMap(\.deadline).min() }

    /// Ends what apps left and did not re-take by `now`; returns their subscriptions and the
    /// requests the engine still runs, for the agent to release, and their relaunch triggers.
    mutating func expire(
        at now: MonotonicInstant
    ) -> (subscriptions: Set<SubscriptionID>, requests: Set<RequestID>, triggers: [String]) {
        var ended = Set<SubscriptionID>()
        var endedRequests = Set<RequestID>()
        var triggers: [String] = []
        for (app, entry) in kept {
            guard let deadline = entry.deadline, deadline <= now else { continue }
            kept[app] = nil
            if entry.isRelaunchRequested, let relaunch = entry.relaunch { triggers.append(relaunch) }
            for subscription in entry.subscriptions.keys {
                subscriptionHolders[subscription] = nil
                ended.insert(subscription)
            }
            for request in entry.requests.pending {
                requestHolders[request] = nil
                endedRequests.insert(request)
            }
        }
        return (ended, endedRequests, triggers)
    }

    private mutating func store(_ entry: Kept, for app: AppIdentity) {
        kept[app] = entry.subscriptions.isEmpty && entry.requests.entries.isEmpty && entry.activities.isEmpty ? nil : entry
    }
}

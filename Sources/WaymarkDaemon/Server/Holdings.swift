import WaymarkEngine
import WaymarkProtocol

/// The one book of who holds what: each client's live subscriptions and pending location
/// requests, and for each of those the client that holds it (and, for a request, the id the
/// client gave it). The server keeps it; the agent and the engine know subscriptions and
/// requests only by their ids.
struct Holdings {
    private struct Held {
        var subscriptions: Set<SubscriptionID> = []
        /// Pending requests with the client's own message ids.
        var requests: [RequestID: MessageID] = [:]
    }

    private var byClient: [ClientID: Held] = [:]
    private var subscriptionHolders: [SubscriptionID: ClientID] = [:]
    private var requestHolders: [RequestID: ClientID] = [:]
    private var lastSubscription: SubscriptionID = 0
    private var lastRequest: RequestID = 0

    /// Live subscriptions, of all clients.
    var subscriptionCount: Int { subscriptionHolders.count }
    /// Pending requests, of all clients.
    var requestCount: Int { requestHolders.count }

    /// How many subscriptions `client` holds.
    func subscriptionCount(of client: ClientID) -> Int { byClient[client]?.subscriptions.count ?? 0 }
    /// How many requests `client` has pending.
    func requestCount(of client: ClientID) -> Int { byClient[client]?.requests.count ?? 0 }

    /// Who holds `subscription`, if it is live.
    func holder(of subscription: SubscriptionID) -> ClientID? { subscriptionHolders[subscription] }

    /// A new subscription for `client`.
    mutating func addSubscription(for client: ClientID) -> SubscriptionID {
        lastSubscription = lastSubscription.next
        byClient[client, default: Held()].subscriptions.insert(lastSubscription)
        subscriptionHolders[lastSubscription] = client
        return lastSubscription
    }

    /// Ends `subscription` if `client` holds it; returns whether it did.
    mutating func removeSubscription(_ subscription: SubscriptionID, of client: ClientID) -> Bool {
        guard subscriptionHolders[subscription] == client else { return false }
        subscriptionHolders[subscription] = nil
        byClient[client]?.subscriptions.remove(subscription)
        return true
    }

    /// A new pending request of `client`, which named it `message`.
    mutating func addRequest(for client: ClientID, message: MessageID) -> RequestID {
        lastRequest = lastRequest.next
        byClient[client, default: Held()].requests[lastRequest] = message
        requestHolders[lastRequest] = client
        return lastRequest
    }

    /// Takes `request` off the book once answered; returns who asked and under which id.
    mutating func takeRequest(_ request: RequestID) -> (client: ClientID, message: MessageID)? {
        guard let client = requestHolders.removeValue(forKey: request),
            let message = byClient[client]?.requests.removeValue(forKey: request)
        else { return nil }
        return (client, message)
    }

    /// The oldest pending request `client` named `message`.
    func oldestRequest(of client: ClientID, named message: MessageID) -> RequestID? {
        byClient[client]?.requests.filter { $0.value == message }.keys.min()
    }

    /// Forgets everything `client` held and returns it, for the agent to release.
    mutating func removeClient(_ client: ClientID) -> (subscriptions: Set<SubscriptionID>, requests: Set<RequestID>) {
        guard let held = byClient.removeValue(forKey: client) else { return ([], []) }
        for subscription in held.subscriptions { subscriptionHolders[subscription] = nil }
        for request in held.requests.keys { requestHolders[request] = nil }
        return (held.subscriptions, Set(held.requests.keys))
    }
}

import WaymarkEngine
import WaymarkLocation

/// What a subscription was started with, kept by an enforcing daemon to run it at the agent
/// exactly while its client may have locations.
struct SubscriptionDemand {
    let configuration: LiveConfiguration
    let options: DeliveryOptions
    /// Whether the agent runs it: a demand on the receiver.
    var isRunning = false
    /// Whether its client was told it may not have locations (and had none from it since).
    var wasWithheld = false
}

/// Authorization decides demand (docs/authorization.md, "In the daemon"): the subscription of
/// an app that may not have locations now (denied, undecided, not in use, …) is no demand on
/// the receiver. The agent does not run it; its client gets the update that says why, once
/// per change of its flags; it starts when the app may, and stops when it may no longer. One
/// withheld that starts while the device is stationary gets the last fix at once, with
/// `isStationary` (the next fix may be far off: the receiver is down while nothing moves).
extension Server {
    /// Hands the new `subscription` of `client` to the agent, if the client may have locations.
    func startSubscription(
        _ subscription: SubscriptionID, configuration: LiveConfiguration, options: DeliveryOptions, for client: ClientID
    ) {
        // Unenforced, everyone may: nothing to keep (thousands of subscriptions cost nothing more).
        guard authorizer.isEnforcing else {
            agent.startLiveUpdates(subscription, configuration: configuration, options: options)
            return
        }
        demands[subscription] = SubscriptionDemand(configuration: configuration, options: options)
        reconsiderDemand(of: client)
    }

    /// Runs each subscription of `client` at the agent exactly while the client may have
    /// locations; each one withheld gets the update with the authorization's flags.
    func reconsiderDemand(of client: ClientID) {
        let delivers = authorizer.deliversLocations(to: client)
        for subscription in holdings.subscriptions(of: client) {
            // Sending may end the connection.
            guard connections[client] != nil, let demand = demands[subscription] else { continue }
            if delivers {
                guard !demand.isRunning else { continue }
                demands[subscription] = SubscriptionDemand(configuration: demand.configuration, options: demand.options, isRunning: true)
                if demand.wasWithheld { sendLastFixIfStationary(to: subscription) }
                agent.startLiveUpdates(subscription, configuration: demand.configuration, options: demand.options)
            } else {
                demands[subscription] = SubscriptionDemand(
                    configuration: demand.configuration, options: demand.options, isRunning: false, wasWithheld: true)
                if demand.isRunning { agent.stopLiveUpdates(subscription) }
                // Through the authorizer, which sends only the flags, and not the same again.
                send(LocationUpdate(location: nil, diagnostics: Diagnostics()), subscription: subscription)
            }
        }
    }

    /// Sends `subscription` the last fix with `isStationary`, if the device is stationary.
    private func sendLastFixIfStationary(to subscription: SubscriptionID) {
        let status = agent.status()
        guard status.isStationary, let location = status.lastLocation else { return }
        send(LocationUpdate(location: location, isStationary: true), subscription: subscription)
    }

    /// Forgets what `subscriptions`, which ended, were started with.
    func endDemand(_ subscriptions: some Sequence<SubscriptionID>) {
        guard !demands.isEmpty else { return }
        for subscription in subscriptions { demands[subscription] = nil }
    }
}

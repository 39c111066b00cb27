package import WaymarkAuthorization
import WaymarkConnection
import WaymarkEngine
import WaymarkEventLoop
import WaymarkLocation
import WaymarkProtocol
import WaymarkSystem

/// Consumers that come and go (`docs/semantics.md`): who an app is, what it keeps when its
/// connection ends, how it re-takes it, and its background activity sessions.
extension Server: AuthorizationPeers {
    // MARK: Identity

    /// Who the app on `connection` is, from `hello` on: the one place the server decides it
    /// (`PolicySet.identity(of:declaredAppID:)`, docs/authorization.md). Whatever the app left
    /// when an earlier connection ended must be re-taken within the rejoin window from now.
    func identify(_ connection: Connection, declaredAppID: String?) -> AppIdentity {
        let app = configuration.policies.identity(of: connection.facts, declaredAppID: declaredAppID)
        connection.app = app
        guard let loop else { return app }
        // The triggers asked for it since it left (for what it kept, for its monitors' events) have served.
        let served = [holdings.rejoined(app, now: loop.now, window: configuration.rejoinWindow), monitorRelaunches.rejoined(app)]
        for trigger in Set(served.compactMap { $0 }) { withdrawRelaunch(trigger) }
        scheduleKeptExpiry()
        return app
    }

    /// The uid and policy of the connection `client`, read once at accept (``AuthorizationPeers``).
    func identity(of client: ClientID) -> (uid: UInt32, policy: EffectivePolicy)? {
        connections[client].map { ($0.credentials.uid, $0.policy) }
    }

    /// Why the app on the connection `client` counts as in use (nil: no such connection): the
    /// one call point of the in-use evidence (`InUseEvidence`, docs/authorization.md), for
    /// the authorization's decisions. A background activity session can only be started in
    /// use, so each one held was started in use.
    package func inUseEvidence(of client: ClientID) -> InUseEvidence? {
        guard let connection = connections[client] else { return nil }
        return InUseEvidence(
            policy: connection.policy, connected: true,
            backgroundActivityStartedInUse: holdings.activityCount(of: client) > 0,
            delegated: holdings.delegations.acceptedCount(of: client) > 0)
    }

    /// Has the authorizer decide again for `clients`, whose in-use evidence changed (a
    /// background activity session or a delegation ended): an app in use only through it is
    /// not any more.
    func inUseChanged(_ clients: some Sequence<ClientID>) {
        for client in clients { authorizer.refresh(client: client) }
    }

    /// Whether the app on `connection` is in use by itself, not only through a delegation.
    private func isInUseByItself(_ connection: Connection) -> Bool {
        inUseEvidence(of: connection.id)?.subtracting(.delegation).isInUse == true
    }

    /// The sessions connected clients hold and what apps that are away keep, in all and per
    /// app (those holding or keeping any), for `status`: every app for an operator, else the
    /// app on `connection` alone; at most 64, by name, each named briefly (a status line stays
    /// far below the limit).
    func sessionCounts(for connection: Connection) -> (StatusReport.SessionCounts, [StatusReport.AppSessions]) {
        var byApp = holdings.keptCounts
        for (id, client) in connections {
            guard let app = client.app else { continue }
            byApp[app] = (byApp[app] ?? StatusReport.SessionCounts())
                + StatusReport.SessionCounts(
                    serviceSessions: authorizer.serviceSessionCount(of: id), backgroundActivitySessions: holdings.activityCount(of: id))
        }
        let total = byApp.values.reduce(StatusReport.SessionCounts(), +)
        let shown = authorizer.isOperator(connection.id) ? byApp : byApp.filter { $0.key == connection.app }
        let apps = shown.filter { !$0.value.isEmpty }.sorted { $0.key.description < $1.key.description }.prefix(64)
        return (total, apps.map { StatusReport.AppSessions(app: $0.key.briefDescription, counts: $0.value) })
    }

    // MARK: Keeping and re-taking

    /// Hands what `connection` held to its app to re-take, and returns what ends now (its
    /// pending requests, and everything if it never said `hello`).
    func keepHoldings(of connection: Connection) -> (subscriptions: Set<SubscriptionID>, requests: Set<RequestID>) {
        guard let app = connection.app, let loop else { return holdings.removeClient(connection.id) }
        let ended = holdings.keep(
            connection.id, as: app, relaunch: connection.policy.relaunch, now: loop.now, window: configuration.rejoinWindow,
            updateCapacity: configuration.maximumKeptUpdatesPerSubscription,
            maximumSubscriptions: configuration.maximumKeptSubscriptionsPerApp,
            maximumRequests: configuration.maximumKeptRequestsPerApp, maximumApps: configuration.maximumKeptApps)
        scheduleKeptExpiry()
        return ended
    }

    /// The app's kept subscription with `terms`, now held by `connection`, if there is one;
    /// its kept updates wait in ``retakenUpdates`` for the reply to go first.
    func retakeSubscription(_ terms: Holdings.LiveTerms, for connection: Connection) -> SubscriptionID? {
        guard let app = connection.app,
            let retaken = holdings.retakeSubscription(of: app, terms, by: connection.id)
        else { return nil }
        log("client \(connection.id) re-took subscription \(retaken.subscription), \(retaken.updates.count) updates to send")
        retakenUpdates[retaken.subscription] = retaken.updates
        return retaken.subscription
    }

    /// The app's kept request asked with `parameters`, now held by `connection` under its id
    /// `message`, if there is one, with its answer if it came while the app was away.
    func retakeRequest(_ message: MessageID, _ parameters: LocationRequest, for connection: Connection) -> KeptRequests.Entry? {
        guard let app = connection.app,
            let retaken = holdings.retakeRequest(of: app, parameters, by: connection.id, message: message)
        else { return nil }
        log("client \(connection.id) re-took request \(retaken.request)\(retaken.answer == nil ? ", still pending" : " with its answer")")
        return retaken
    }

    /// Sends the updates kept for a re-taken subscription, oldest first, each with how many
    /// were dropped before it. They are messages (never coalesced), at most
    /// ``ServerConfiguration/maximumKeptUpdatesPerSubscription`` of them.
    func send(_ kept: [KeptUpdates.Entry], for subscription: SubscriptionID, to connection: Connection) {
        for entry in kept {
            // What the app may see now, as every other update.
            guard let update = authorizer.authorize(entry.update, for: connection.id, subscription: subscription) else { continue }
            connection.link.output.append(message: UpdateEvent.line(
                subscription: subscription.rawValue, encodedUpdate: UpdateEvent.encode(update), missed: entry.missed))
        }
        flush(connection)
    }

    /// Keeps `update` for `subscription` if its app is away, and asks for the app to be
    /// started if its policy says how (``relaunch(_:trigger:)``).
    func keep(_ update: LocationUpdate, for subscription: SubscriptionID) {
        guard let app = holdings.keep(update, for: subscription) else { return }
        askForRelaunch(of: app)
    }

    /// Keeps the answer to `request` if its app is away, for the app to re-take, and asks for
    /// the app to be started as for an update.
    func keep(_ answer: Result<Location, LocationError>, for request: RequestID) {
        guard let app = holdings.keep(answer, for: request) else { return }
        log("request \(request) was answered while \(app) was away: kept for it to re-take")
        askForRelaunch(of: app)
    }

    /// Asks for `app`, away with something waiting, to be started, the first time since it left.
    private func askForRelaunch(of app: AppIdentity) {
        guard let loop,
            let trigger = holdings.requestRelaunch(of: app, now: loop.now, startTimeout: configuration.relaunchStartTimeout)
        else { return }
        relaunch(app, trigger: trigger)
        scheduleKeptExpiry()
    }

    /// Asks for `app` to be started, without privileges of the daemon's own: it writes the
    /// file `trigger` in ``ServerConfiguration/relaunchDirectory``, which a systemd path unit
    /// watches (`PathExists=`) to start the app's unit as the app's own user (README,
    /// "Relaunching a consumer"). The file stays while the daemon wants the app started: until
    /// the app connects again or what it kept ends (``withdrawRelaunch(_:)``). A path unit
    /// does not watch while the unit it starts is active, so a file written while that unit is
    /// still stopping is seen only by `PathExists=` when it re-arms (`PathChanged=` missed it).
    func relaunch(_ app: AppIdentity, trigger: String) {
        guard let directory = configuration.relaunchDirectory else {
            log("\(app) has something waiting and a relaunch trigger, but the daemon has no relaunch directory")
            return
        }
        let path = directory + "/" + trigger
        do throws(SystemError) {
            let file = try FileDescriptor.create(path, permissions: 0o644)
            defer { try? file.close() }
            try file.writeAll(Array("\(app)\n".utf8))
            log("asked for \(app) to be started: wrote \(path)")
        } catch {
            log("could not ask for \(app) to be started: \(error)")
        }
    }

    /// Removes the relaunch trigger file `trigger`: it has served (its app connected again) or
    /// what its app kept has ended; a path unit on it would otherwise start the app again each
    /// time it stops.
    func withdrawRelaunch(_ trigger: String) {
        guard let directory = configuration.relaunchDirectory else { return }
        let path = directory + "/" + trigger
        do throws(SystemError) {
            try FileSystem.remove(path)
        } catch {
            log("could not remove the relaunch trigger \(path): \(error)")
        }
    }

    /// Keeps one timer, at the earliest deadline of what apps that left keep and of the
    /// relaunches their monitors' events asked for; there it ends what was not re-taken and
    /// withdraws the triggers nothing asks for any more.
    func scheduleKeptExpiry() {
        guard let loop else { return }
        let next = [holdings.earliestDeadline, monitorRelaunches.earliestDeadline].compactMap { $0 }.min()
        guard next != keptTimer?.deadline else { return }
        if let keptTimer { loop.cancel(keptTimer.id) }
        keptTimer = nil
        guard let next else { return }
        let id = loop.schedule(at: next) { [weak self] loop in
            guard let self else { return }
            keptTimer = nil
            let expired = holdings.expire(at: loop.now)
            let triggers = expired.triggers + monitorRelaunches.expire(at: loop.now)
            for trigger in Set(triggers) where !holdings.isRelaunchRequested(trigger) && !monitorRelaunches.isRequested(trigger) {
                withdrawRelaunch(trigger)
            }
            for subscription in expired.subscriptions {
                log("subscription \(subscription) ended: its app did not re-take it within \(configuration.rejoinWindow)")
                endDemand([subscription])
                agent.stopLiveUpdates(subscription)
            }
            for request in expired.requests.sorted() {
                log("request \(request) ended: its app did not re-take it within \(configuration.rejoinWindow)")
                agent.cancelRequest(request)
            }
            scheduleKeptExpiry()
        }
        keptTimer = (id, next)
    }

    // MARK: Background activity sessions

    /// `startBackgroundActivitySession`: re-takes one the app kept, else starts one if the app
    /// is in use.
    func startBackgroundActivity(_ connection: Connection) throws(ProtocolError) -> BackgroundActivityID {
        if let app = connection.app, let retaken = holdings.retakeActivity(of: app, by: connection.id) { return retaken }
        guard holdings.activityCount(of: connection.id) < configuration.maximumActivitiesPerClient else {
            throw ProtocolError(.limitExceeded, "a connection may hold \(configuration.maximumActivitiesPerClient) background activity sessions")
        }
        guard inUseEvidence(of: connection.id)?.isInUse == true else {
            throw ProtocolError(
                .insufficientlyInUse,
                "a background activity session can only be started while the app is in use (interactive by policy, holding one, or delegated to)")
        }
        return holdings.addActivity(for: connection.id)
    }

    /// `stopBackgroundActivitySession`: Core Location's `invalidate()`. An app no longer in use
    /// by itself then revokes what it delegated.
    func invalidateBackgroundActivity(_ activity: BackgroundActivityID, _ connection: Connection) throws(ProtocolError) {
        guard holdings.removeActivity(activity, of: connection.id) else {
            throw ProtocolError(.unknownSubscription, "background activity session \(activity) is not held by this connection")
        }
        defer { inUseChanged([connection.id]) }
        guard holdings.delegations.givenCount(of: connection.id) > 0, !isInUseByItself(connection)
        else { return }
        let receivers = holdings.delegations.revokeAll(givenBy: connection.id)
        log("client \(connection.id) is no longer in use: its delegations to \(receivers.sorted()) are revoked")
        inUseChanged(receivers.sorted())
    }

    // MARK: In-use delegation

    /// `startInUseDelegation`: an app in use by itself (not through a delegation) hands a
    /// token for another app to accept.
    func startInUseDelegation(_ connection: Connection) throws(ProtocolError) -> (InUseDelegationID, String) {
        guard holdings.delegations.givenCount(of: connection.id) < configuration.maximumActivitiesPerClient else {
            throw ProtocolError(.limitExceeded, "a connection may give \(configuration.maximumActivitiesPerClient) in-use delegations")
        }
        guard isInUseByItself(connection) else {
            throw ProtocolError(.insufficientlyInUse, "only an app in use by itself (interactive by policy or holding a background activity session) may delegate")
        }
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try RandomBytes.generate(count: 16)
        } catch {
            throw ProtocolError(.internalError, "no token: \(error)")
        }
        let token = bytes.map { byte in String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16) }.joined()
        return (holdings.delegations.add(by: connection.id, token: token), token)
    }

    /// `acceptInUseDelegation`: takes the delegation `token` names.
    func acceptInUseDelegation(_ token: String, _ connection: Connection) throws(ProtocolError) -> InUseDelegationID {
        guard let id = holdings.delegations.accept(token, by: connection.id) else {
            throw ProtocolError(.unknownSubscription, "no delegation of another connection waits for this token")
        }
        return id
    }

    /// `stopInUseDelegation`: the giver revokes it, or the app that accepted it gives it back.
    func stopInUseDelegation(_ id: InUseDelegationID, _ connection: Connection) throws(ProtocolError) {
        let receiver = holdings.delegations.receiver(of: id)
        guard holdings.delegations.end(id, by: connection.id) else {
            throw ProtocolError(.unknownSubscription, "delegation \(id) was not given to or by this connection")
        }
        if let receiver { inUseChanged([receiver]) }
    }
}

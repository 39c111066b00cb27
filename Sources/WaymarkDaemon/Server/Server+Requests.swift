import WaymarkEngine
import WaymarkLocation
import WaymarkConnection
import WaymarkProtocol
import WaymarkSystem

extension Server {
    /// Decodes one request line and answers it, or hands it to the agent.
    func handle(line: [UInt8], from connection: Connection) {
        let request: Request
        do throws(RejectedRequest) {
            request = try Request(line: line)
        } catch {
            send(error.reply, to: connection)
            return
        }
        let outcome: Result<ReplyResult, ProtocolError>
        do throws(ProtocolError) {
            // nil: answered later (requestLocation by the agent, bye after the requests).
            guard let result = try perform(request, for: connection) else { return }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        send(Reply(id: request.id, operation: request.operation.name, outcome: outcome), to: connection)
        if case .success(.subscription(let number)) = outcome, case .startLiveUpdates(let configuration, let options) = request.operation {
            // After the reply is queued, so the subscription's first update follows it.
            let subscription = SubscriptionID(rawValue: number)
            holdImplicitSession(connection.id)
            if let kept = retakenUpdates.removeValue(forKey: subscription) {
                send(kept, for: subscription, to: connection)
                reconsiderDemand(of: connection.id)
            } else {
                startSubscription(subscription, configuration: configuration, options: options, for: connection.id)
            }
        }
        if case .success(.session) = outcome {
            // After the reply too, so the session's first diagnostics follow it (a background
            // activity session or an accepted delegation may have made the app in use).
            authorizer.refresh(client: connection.id)
        }
        // Monitor events after the reply too: the monitor's number is known to the client then.
        if case .success(.monitor(let handle)) = outcome { sendPendingMonitorEvents(handle, to: connection) }
        if case .success = outcome, case .startVisitMonitoring = request.operation { sendKeptVisits(to: connection) }
        if !monitorDeliveriesAfterReply.isEmpty {
            let deliveries = monitorDeliveriesAfterReply
            monitorDeliveriesAfterReply = []
            deliver(deliveries)
        }
    }

    /// Performs a request; returns its result, or `nil` when the agent answers later.
    private func perform(_ request: Request, for connection: Connection) throws(ProtocolError) -> ReplyResult? {
        let operation = request.operation
        guard operation.name.introducedIn <= ProtocolVersion.current else {
            throw ProtocolError(
                .unsupportedOperation,
                "\(operation.name.rawValue) arrives with protocol version \(operation.name.introducedIn); this daemon speaks version \(ProtocolVersion.current)",
                availableInVersion: operation.name.introducedIn)
        }
        switch operation {
        case .hello(let hello): return try greet(connection, hello)
        case .bye:
            connection.bye = request.id
            sayGoodbyeIfDone(connection)
            return nil
        default: break
        }
        guard connection.isGreeted else {
            throw ProtocolError(.helloRequired, "the first request on a connection must be hello")
        }
        switch operation {
        case .status: return .status(statusReport(for: connection))
        case .startLiveUpdates(let configuration, let options):
            return .subscription(try subscribe(connection, Holdings.LiveTerms(configuration: configuration, options: options)).rawValue)
        case .stopLiveUpdates(let subscription):
            try unsubscribe(SubscriptionID(rawValue: subscription), connection)
            return .done
        case .requestLocation(let parameters):
            try requestLocation(request.id, parameters, connection)
            return nil
        case .cancelRequest(let id):
            try cancelRequest(id, connection)
            return .done
        case .lastKnownLocation:
            let last = agent.lastKnownLocation()
            // What the app may see now, as on every path; the age stays the fix's.
            guard let location = try authorizer.lastLocation(last?.location, for: connection.id), let age = last?.age else {
                return .lastKnown(nil)
            }
            return .lastKnown(LastKnownLocation(location: location, age: age))
        case .startBackgroundActivitySession: return .session(try startBackgroundActivity(connection).rawValue)
        case .stopBackgroundActivitySession(let session):
            try invalidateBackgroundActivity(BackgroundActivityID(rawValue: session), connection)
            return .done
        case .startInUseDelegation:
            let (id, token) = try startInUseDelegation(connection)
            return .delegation(session: id.rawValue, token: token)
        case .acceptInUseDelegation(let token): return .session(try acceptInUseDelegation(token, connection).rawValue)
        case .stopInUseDelegation(let session):
            try stopInUseDelegation(InUseDelegationID(rawValue: session), connection)
            return .done
        case .authorizationStatus: return .authorization(authorizer.status(of: connection.id))
        case .startServiceSession(let session): return .session(try authorizer.startSession(connection.id, session).rawValue)
        case .stopServiceSession(let session):
            try authorizer.stopSession(connection.id, SessionID(rawValue: session))
            authorizer.refresh(client: connection.id)
            return .done
        case .authorizationApps(let after): return .apps(try authorizer.apps(for: connection.id, after: after))
        case .authorizeApp(let request):
            try authorizer.authorize(request, by: connection.id)
            return .done
        case .setLocationServices(let enabled):
            try authorizer.setLocationServices(enabled, by: connection.id)
            return .done
        case .answerTemporaryFullAccuracy(let app, let granted):
            try authorizer.answerTemporaryFullAccuracy(app, granted: granted, by: connection.id)
            return .done
        default:
            guard let result = try performMonitorOperation(operation, for: connection) else {
                throw ProtocolError(.unsupportedOperation, "\(operation.name.rawValue) is not served by this daemon yet")
            }
            return result
        }
    }

    /// Answers `bye` once the connection's location requests are answered, and closes it
    /// when everything is written.
    func sayGoodbyeIfDone(_ connection: Connection) {
        guard let id = connection.bye, holdings.requestCount(of: connection.id) == 0 else { return }
        connection.closesWhenFlushed = true
        send(Reply(id: id, operation: .bye, outcome: .success(.done)), to: connection)
    }

    private func greet(_ connection: Connection, _ hello: Hello) throws(ProtocolError) -> ReplyResult {
        guard !connection.isGreeted else { throw ProtocolError(.invalidMessage, "hello was already exchanged on this connection") }
        guard hello.version >= ProtocolVersion.oldest else {
            throw ProtocolError(
                .unsupportedVersion,
                "protocol version \(hello.version) is older than this daemon speaks (\(ProtocolVersion.oldest) to \(ProtocolVersion.current))")
        }
        try Authorizer.validate(hello)
        connection.isGreeted = true
        stopAwaitingHello(from: connection.id)
        let app = identify(connection, declaredAppID: hello.appID)
        authorizer.clientIdentified(connection.id, hello, as: app)
        agent.clientIdentified(connection.id, appID: hello.appID)
        log("client \(connection.id) (pid \(connection.credentials.pid), uid \(connection.credentials.uid)) is \(app)")
        return .hello(HelloResult(
            daemonVersion: configuration.daemonVersion, protocolVersion: min(hello.version, ProtocolVersion.current),
            pid: Int(CurrentProcess.id)))
    }

    private func statusReport(for connection: Connection) -> StatusReport {
        var report = agent.status()
        report.lastLocation = (try? authorizer.lastLocation(report.lastLocation, for: connection.id)) ?? nil
        report.connectedApps = authorizer.connectedApps(for: connection.id) { connections[$0]?.credentials }
        report.clients = connections.count
        report.liveSubscriptions = holdings.subscriptionCount
        report.pendingRequests = holdings.requestCount
        (report.sessions, report.appSessions) = sessionCounts(for: connection)
        return report
    }

    private func subscribe(_ connection: Connection, _ terms: Holdings.LiveTerms) throws(ProtocolError) -> SubscriptionID {
        if let retaken = retakeSubscription(terms, for: connection) { return retaken }
        guard holdings.subscriptionCount(of: connection.id) < configuration.maximumSubscriptionsPerClient else {
            throw ProtocolError(.limitExceeded, "a connection may hold \(configuration.maximumSubscriptionsPerClient) live-updates subscriptions")
        }
        if let capacity = terms.options.batching?.capacity {
            let user = connection.credentials.uid
            let clients = connections.values.lazy.filter { $0.credentials.uid == user }.map(\.id)
            let taken = holdings.batchCapacity(of: clients, keptFor: user)
            let budget = configuration.maximumBatchedUpdatesPerUser
            guard capacity <= budget - taken else {
                throw ProtocolError(
                    .limitExceeded, "the batches of one user's subscriptions may hold \(budget) updates together; \(taken) are taken, this one asks \(capacity)")
            }
        }
        return holdings.addSubscription(for: connection.id, terms)
    }

    func unsubscribe(_ subscription: SubscriptionID, _ connection: Connection) throws(ProtocolError) {
        guard holdings.removeSubscription(subscription, of: connection.id) else {
            throw ProtocolError(.unknownSubscription, "subscription \(subscription) is not held by this connection")
        }
        connection.link.output.removeUpdates(for: subscription.rawValue)
        authorizer.subscriptionEnded(connection.id, subscription)
        endDemand([subscription])
        holdImplicitSession(connection.id)
        agent.stopLiveUpdates(subscription)
    }

    private func requestLocation(_ id: MessageID, _ parameters: LocationRequest, _ connection: Connection) throws(ProtocolError) {
        guard holdings.requestCount(of: connection.id) < configuration.maximumPendingRequestsPerClient else {
            throw ProtocolError(.limitExceeded, "a connection may have \(configuration.maximumPendingRequestsPerClient) location requests pending")
        }
        let retaken = retakeRequest(id, parameters, for: connection)
        let request = retaken?.request ?? holdings.addRequest(for: connection.id, message: id, parameters: parameters)
        holdImplicitSession(connection.id)
        do throws(ProtocolError) {
            try authorizer.admitRequest(connection.id)
        } catch {
            _ = holdings.takeRequest(request)
            holdImplicitSession(connection.id)
            // A re-taken request the app may not have now ends; one the engine still runs is released.
            if let retaken, retaken.answer == nil { agent.cancelRequest(request) }
            throw error
        }
        guard let retaken else {
            agent.requestLocation(request, desiredAccuracy: parameters.desiredAccuracy, timeout: parameters.timeout)
            return
        }
        // Answered while the app was away: the answer goes to the re-taker now, once.
        if let answer = retaken.answer { send(answer, request: request) }
    }

    /// Withdraws the connection's oldest pending request with the client's id `id`: it gets
    /// its one reply (`cancelled`) now, and the agent releases what it held for it.
    private func cancelRequest(_ id: MessageID, _ connection: Connection) throws(ProtocolError) {
        guard let request = holdings.oldestRequest(of: connection.id, named: id) else {
            throw ProtocolError(.unknownRequest, "no requestLocation with id \(id) is pending on this connection")
        }
        _ = holdings.takeRequest(request)
        holdImplicitSession(connection.id)
        send(Reply(id: id, operation: .requestLocation, outcome: .failure(ProtocolError(.cancelled, "cancelled by cancelRequest"))), to: connection)
        agent.cancelRequest(request)
    }

    /// Tells the authorizer whether the client holds the implicit session of iterating updates,
    /// asking for locations and iterating a monitor's events (it does while it holds a
    /// subscription, a request or an open monitor), and has it decide again.
    func holdImplicitSession(_ client: ClientID) {
        let holds =
            holdings.subscriptionCount(of: client) > 0 || holdings.requestCount(of: client) > 0
            || connections[client]?.openMonitors.isEmpty == false
        if authorizer.setImplicitSession(client, held: holds) { authorizer.refresh(client: client) }
    }
}

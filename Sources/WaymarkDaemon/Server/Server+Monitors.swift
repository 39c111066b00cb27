import WaymarkAuthorization
import WaymarkEventLoop
package import WaymarkLocation
import WaymarkMonitoring
import WaymarkProtocol
import WaymarkStore

/// Protocol version 3 over the ``MonitorCenter`` (docs/protocol.md, "Monitors"): a
/// connection opens its app's monitors by name and gets a number for each; the conditions and
/// their events belong to the app (its identity from `hello`), whether or not it is connected.
extension Server {
    /// Performs a monitor operation; nil for the operations that are not.
    func performMonitorOperation(_ operation: Operation, for connection: Connection) throws(ProtocolError) -> ReplyResult? {
        switch operation {
        case .openMonitor(let name): return .monitor(try openMonitor(name, connection))
        case .closeMonitor(let handle):
            let (name, app) = try monitorName(handle, connection)
            connection.openMonitors[handle] = nil
            releaseMonitors([name], of: app)
            holdImplicitSession(connection.id)
            return .done
        case .addCondition(let request):
            let (name, app) = try monitorName(request.monitor, connection)
            let assumed = request.assuming.flatMap { ConditionState(rawValue: $0.rawValue) }
            let events = try refusing { () throws(MonitorRefusal) in
                if let condition = try Self.monitoredCondition(request.condition) {
                    try monitors.add(condition, identifier: request.identifier, assuming: assumed, to: name, of: app, at: monitorDate)
                } else {
                    try monitors.addUnknownKind(identifier: request.identifier, to: name, of: app, at: monitorDate)
                }
            }
            // After the reply, like every event.
            monitorDeliveriesAfterReply += events
            agent.monitorsChanged()
            return .done
        case .removeCondition(let handle, let identifier):
            let (name, app) = try monitorName(handle, connection)
            if try refusing({ () throws(MonitorRefusal) in try monitors.remove(identifier, from: name, of: app, at: monitorDate) }) { agent.monitorsChanged() }
            return .done
        case .monitorRecord(let handle, let identifier):
            let (name, app) = try monitorName(handle, connection)
            return .record(monitors.monitor(name, of: app)?.record(for: identifier).map(Self.protocolRecord))
        case .monitorIdentifiers(let handle):
            let (name, app) = try monitorName(handle, connection)
            return .identifiers(monitors.monitor(name, of: app)?.identifiers ?? [])
        case .acknowledgeMonitorEvents(let handle, let through):
            let (name, app) = try monitorName(handle, connection)
            do throws(StoreError) {
                try monitors.acknowledge(through: Int64(clamping: through), of: app, monitor: name)
            } catch {
                throw ProtocolError(.internalError, "the store could not take the acknowledgement: \(error)")
            }
            return .done
        case .acknowledgeVisits(let through):
            guard let app = connection.app else { throw ProtocolError(.helloRequired, "the first request on a connection must be hello") }
            do throws(StoreError) {
                try monitors.acknowledgeVisits(through: Int64(clamping: through), of: app)
            } catch {
                throw ProtocolError(.internalError, "the store could not take the acknowledgement: \(error)")
            }
            return .done
        case .visits(let after):
            let access = monitorAccess(of: connection)
            guard access != .none else { throw ProtocolError(.authorizationDenied, "the app is not authorized to use location now") }
            let diary: [Visit]
            do throws(StoreError) {
                diary = try monitors.visitDiary()
            } catch {
                throw ProtocolError(.internalError, "the store could not read the visit diary: \(error)")
            }
            return .visits(VisitDiaryPage(page: diary.compactMap { visitReport($0, reduced: access == .accuracyLimited) }, after: after))
        case .startVisitMonitoring, .stopVisitMonitoring:
            guard let app = connection.app else { throw ProtocolError(.helloRequired, "the first request on a connection must be hello") }
            let monitoring = operation == .startVisitMonitoring
            let changed = try refusing { () throws(MonitorRefusal) in try monitors.setVisitMonitoring(monitoring, of: app, at: monitorDate) }
            if monitoring { monitorPolicies[app] = connection.policy }
            // Stopping is the app's: none of its connections gets visits any more.
            connection.receivesVisits = monitoring
            if !monitoring { for other in connections.values where other.app == app { other.receivesVisits = false } }
            if changed { agent.monitorsChanged() }
            return .done
        default: return nil
        }
    }

    /// `visit` as an app may see it: under reduced accuracy its centre is the cell's,
    /// as every location it gets (docs/authorization.md); nil when not even that is allowed.
    private func visitReport(_ visit: Visit, reduced: Bool) -> Visit? {
        var centre = Location(
            latitude: visit.latitude, longitude: visit.longitude, horizontalAccuracy: visit.horizontalAccuracy, timestamp: visit.arrivalDate)
        if reduced {
            guard let cell = authorizer.reduce(centre) else { return nil }
            centre = cell
        }
        return Visit(
            latitude: centre.latitude, longitude: centre.longitude, horizontalAccuracy: centre.horizontalAccuracy,
            arrivalDate: visit.arrivalDate, departureDate: visit.departureDate)
    }

    /// Lets the centre forget those of the monitors `names` of `app` that are empty, once no
    /// connection of the app holds them open (``MonitorCenter/release(_:of:)``).
    func releaseMonitors(_ names: some Sequence<String>, of app: AppIdentity) {
        for name in names where !connections.values.contains(where: { $0.app == app && $0.openMonitors.values.contains(name) }) {
            monitors.release(name, of: app)
        }
    }

    /// Opens the monitor `name` of the connection's app and returns its number on this
    /// connection (the same number when it is open already).
    private func openMonitor(_ name: String, _ connection: Connection) throws(ProtocolError) -> UInt64 {
        guard let app = connection.app else { throw ProtocolError(.helloRequired, "the first request on a connection must be hello") }
        if let open = connection.openMonitors.first(where: { $0.value == name }) { return open.key }
        try refusing { () throws(MonitorRefusal) in try monitors.open(name, for: app) }
        monitorPolicies[app] = connection.policy
        connection.lastMonitorHandle += 1
        connection.openMonitors[connection.lastMonitorHandle] = name
        holdImplicitSession(connection.id)
        return connection.lastMonitorHandle
    }

    /// Sends `handle`'s unacknowledged events after the reply to `openMonitor`: the events of
    /// the time the app was away, across restarts of the daemon too.
    func sendPendingMonitorEvents(_ handle: UInt64, to connection: Connection) {
        guard let app = connection.app, let name = connection.openMonitors[handle] else { return }
        let pending: PendingMonitorEvents
        do throws(StoreError) {
            pending = try monitors.pendingEvents(of: app)
        } catch {
            log("monitor \(name) of \(app): pending events unreadable: \(error)")
            return
        }
        deliver(pending.events.filter { $0.monitor == name }.map { MonitorDelivery(app: app, monitor: name, sequence: $0.sequence, event: $0.event) })
    }

    /// Sends each delivery to every connection of its app that has its monitor open and may
    /// have its events now; the others find it queued when they open the monitor (when it is
    /// stored), and an app that is not connected is asked to start if it can be.
    package func deliver(_ deliveries: [MonitorDelivery]) {
        guard !deliveries.isEmpty else { return }
        // An event that could not be stored is not kept for its app: no relaunch would deliver it.
        relaunchAbsentApps(deliveries.filter { $0.sequence != nil }.map(\.app))
        for connection in connections.values {
            guard let app = connection.app, !connection.openMonitors.isEmpty, deliveries.contains(where: { $0.app == app }),
                monitorAccess(of: connection) != .none
            else { continue }
            for delivery in deliveries where delivery.app == app {
                for (handle, name) in connection.openMonitors where name == delivery.monitor {
                    // A client that does not read is disconnected as slow, as for replies.
                    guard connections[connection.id] === connection else { break }
                    let event = Event.monitorEvent(
                        monitor: handle, sequence: delivery.sequence.flatMap { UInt64(exactly: $0) }, event: Self.protocolEvent(delivery.event))
                    send(line: ServerMessage.event(event).line, to: connection)
                }
            }
        }
    }

    /// Sends each arrival and departure to every connection that asked for its app's visits and
    /// may have them now (under reduced accuracy, with the cell's centre). For an app that may
    /// have them but has no such connection (away, or its connections dropped as slow), they
    /// are kept in the store until it acknowledges them, and it is asked to start.
    package func deliver(visits: [Visit]) {
        var keptFor: [AppIdentity] = []
        for app in monitors.visitMonitoringApps where monitorAccess(of: app) != .none {
            var taken = false
            for connection in connections.values where connection.app == app && connection.receivesVisits {
                if sendVisits(visits.map { (nil, $0) }, to: connection) { taken = true }
            }
            if !taken, let kept = monitors.keep(visits, for: app, at: monitorDate), !kept.isEmpty { keptFor.append(app) }
        }
        relaunchAbsentApps(keptFor)
    }

    /// Sends the visits kept for the connection's app, oldest first, after the reply to
    /// `startVisitMonitoring`: before any new one, across restarts of the daemon too. They
    /// stay kept until the app acknowledges them (`acknowledgeVisits`), and while it may not
    /// have them.
    func sendKeptVisits(to connection: Connection) {
        guard let app = connection.app else { return }
        let pending: PendingVisits
        do throws(StoreError) {
            pending = try monitors.pendingVisits(of: app)
        } catch {
            log("visits of \(app): kept visits unreadable: \(error)")
            return
        }
        sendVisits(pending.visits.map { (UInt64(exactly: $0.sequence), $0.visit) }, to: connection)
    }

    /// Sends `visits` as `visit` events to `connection` as it may see them now (nothing when it
    /// may not); false when the connection is gone (a client that does not read is
    /// disconnected as slow, as for replies).
    @discardableResult
    private func sendVisits(_ visits: [(sequence: UInt64?, visit: Visit)], to connection: Connection) -> Bool {
        let access = monitorAccess(of: connection)
        guard access != .none else { return connections[connection.id] === connection }
        for (sequence, visit) in visits {
            guard connections[connection.id] === connection else { return false }
            guard let report = visitReport(visit, reduced: access == .accuracyLimited) else { continue }
            send(line: ServerMessage.event(.visit(sequence: sequence, report)).line, to: connection)
        }
        return connections[connection.id] === connection
    }

    /// What `app` may have of its monitors: read from a connection of it when one is
    /// connected, else from the authorization now under ``policy(ofAbsent:)``; its events
    /// wait in the store until a connection that may have them opens the monitor.
    func monitorAccess(of app: AppIdentity) -> MonitorAccess {
        if let connection = connections.values.first(where: { $0.app == app }) { return monitorAccess(of: connection) }
        return Self.monitorAccess(authorizer.status(of: app, policy: policy(ofAbsent: app)))
    }

    /// The policy of `app`, which is not connected: its last connection's when it opened a
    /// monitor since the daemon started, else what the entries naming it decide
    /// (`PolicySet.policy(of:)`: after a restart, before it connects).
    private func policy(ofAbsent app: AppIdentity) -> EffectivePolicy {
        monitorPolicies[app] ?? configuration.policies.policy(of: app)
    }

    private func monitorAccess(of connection: Connection) -> MonitorAccess {
        Self.monitorAccess(authorizer.status(of: connection.id))
    }

    private static func monitorAccess(_ status: AuthorizationStatus) -> MonitorAccess {
        switch status.state {
        case .always, .whenInUse: status.fullAccuracy ? .full : .accuracyLimited
        default: .none
        }
    }

    /// Asks for each of `apps` (which have a monitor event or a visit kept in the store) that
    /// is not connected to be started, when its policy names a relaunch trigger
    /// (``relaunch(_:trigger:)``), once until it connects or the start timeout passes.
    private func relaunchAbsentApps(_ apps: [AppIdentity]) {
        guard let loop else { return }
        for app in apps {
            guard !connections.values.contains(where: { $0.app == app }), let trigger = policy(ofAbsent: app).relaunch,
                let requested = monitorRelaunches.request(trigger, of: app, now: loop.now, startTimeout: configuration.relaunchStartTimeout)
            else { continue }
            relaunch(app, trigger: requested)
            scheduleKeptExpiry()
        }
    }

    /// The name and app of the monitor `handle` open on `connection`.
    private func monitorName(_ handle: UInt64, _ connection: Connection) throws(ProtocolError) -> (String, AppIdentity) {
        guard let app = connection.app, let name = connection.openMonitors[handle] else {
            throw ProtocolError(.unknownSubscription, "monitor \(handle) is not open on this connection")
        }
        return (name, app)
    }

    /// The date of a change made by a request, on the fixes' clock.
    private var monitorDate: Timestamp { monitors.date() }

    /// Runs a centre operation, turning its refusal into the protocol's error.
    private func refusing<Result>(_ body: () throws(MonitorRefusal) -> Result) throws(ProtocolError) -> Result {
        do throws(MonitorRefusal) {
            return try body()
        } catch {
            switch error {
            case .invalidIdentifier:
                throw ProtocolError(.invalidMessage, "a monitor's name and a condition's identifier are 1 … \(Monitor.maximumIdentifierLength) bytes, without control characters")
            case .recordLimitReached: throw ProtocolError(.limitExceeded, "a monitor keeps at most \(Monitor.recordLimit) conditions")
            case .monitorLimitReached: throw ProtocolError(.limitExceeded, "an app keeps at most \(MonitorStore.maximumMonitorsPerApp) monitors")
            case .uidMonitorLimitReached(let uid):
                throw ProtocolError(.limitExceeded, "the apps of uid \(uid) keep at most \(MonitorStore.maximumMonitorsPerUID) monitors together")
            case .uidConditionLimitReached(let uid):
                throw ProtocolError(
                    .limitExceeded, "the apps of uid \(uid) keep at most \(MonitorStore.maximumConditionsPerUID) conditions together")
            case .uidVisitMonitoringLimitReached(let uid):
                throw ProtocolError(
                    .limitExceeded, "at most \(MonitorStore.maximumVisitMonitoringAppsPerUID) apps of uid \(uid) keep the visit service")
            case .unknownMonitor: throw ProtocolError(.unknownSubscription, "the monitor is not open")
            case .invalidRegion:
                throw ProtocolError(
                    .invalidMessage,
                    "condition: the centre must be on the globe and the radius \(CircularRegion.radiusRange.lowerBound) … \(CircularRegion.radiusRange.upperBound) m")
            }
        }
    }

    static func protocolEvent(_ event: WaymarkMonitoring.MonitorEvent) -> WaymarkProtocol.MonitorEvent {
        WaymarkProtocol.MonitorEvent(
            identifier: event.identifier, state: MonitorState(rawValue: event.state.rawValue) ?? .unknown, date: event.date,
            diagnostics: event.diagnostics.map(\.rawValue))
    }

    static func protocolRecord(_ record: ConditionRecord) -> MonitorRecord {
        let condition: Condition =
            switch record.condition {
            case .circularGeographic(let region):
                .circularGeographic(CircularGeographicCondition(latitude: region.latitude, longitude: region.longitude, radius: region.radius))
            // Only its kind is kept.
            case .beaconIdentity: .beaconIdentity(nil)
            }
        return MonitorRecord(condition: condition, lastEvent: protocolEvent(record.lastEvent))
    }

    /// What the monitors keep of `condition`: a circle on the globe (else `invalidMessage`), or
    /// the kind of a condition Waymark cannot watch; nil for a kind it does not know.
    private static func monitoredCondition(_ condition: Condition) throws(MonitorRefusal) -> MonitoredCondition? {
        switch condition {
        case .circularGeographic(let circle):
            guard let region = CircularRegion(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius) else {
                throw .invalidRegion
            }
            return .circularGeographic(region)
        case .beaconIdentity: return .beaconIdentity
        case .unsupported: return nil
        }
    }
}

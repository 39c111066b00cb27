import WaymarkAuthorization
package import WaymarkClock
import WaymarkEngine
import WaymarkLocation
import WaymarkProtocol
package import WaymarkStore
import WaymarkSystem

/// The daemon's authorization (docs/authorization.md): who each client is, what its app may
/// have, its sessions and their diagnostics, the operator's changes (stored before they are
/// applied and acknowledged), and reduced accuracy on every path a location leaves by. The
/// server calls it on the loop's thread; it never blocks on a client.
///
/// Without a store (a development daemon), every app is authorized always with full accuracy
/// and operator operations are refused: nothing is enforced, and the daemon says so at start.
package final class Authorizer {
    /// What enforcing needs: the store (the one writer) and the administrators.
    package struct Enforcement {
        /// The store; changes go through it first.
        package var store: AuthorizationStore
        /// The gid of `waymark-admin`, if the group exists.
        package var administratorGroup: UInt32?

        /// Creates the settings.
        package init(store: AuthorizationStore, administratorGroup: UInt32?) {
            self.store = store
            self.administratorGroup = administratorGroup
        }
    }

    /// The most service sessions one connection may hold.
    package static let maximumSessionsPerClient = 64

    private let enforcement: Enforcement?
    private var book: AuthorizationBook
    private var reduced: ReducedAccuracy
    private var clients: [ClientID: AuthorizedClient] = [:]
    /// The connections of each app.
    private var members: [AppIdentity: Set<ClientID>] = [:]
    /// The apps holding at least one session, to see the last one end.
    private var appsHoldingSessions: Set<AppIdentity> = []
    private var lastSession: SessionID = 0
    private let now: () -> Instant
    private let log: (String) -> Void

    /// Where session diagnostics go (the server): the client, the session, the flags' names.
    var sendSessionDiagnostics: (ClientID, SessionID, [String]) -> Void = { _, _, _ in }
    /// Where a client's new decision goes (the server) when whether it may have locations, or
    /// what its updates say, changed.
    var decisionChanged: (ClientID) -> Void = { _ in }
    /// Where an operator's change goes (the server), once every decision is made again: what
    /// apps away may have of their monitors changed with it.
    var authorizationChanged: () -> Void = {}
    /// Who each client is (the server, the one owner of its identity and policy).
    weak var peers: (any AuthorizationPeers)?

    /// An authorizer enforcing `enforcement` (nil: nothing is enforced), with the device's
    /// reduced-accuracy `secret`; `now` is the timeline's clock (reduced accuracy's cadence).
    package init(
        enforcement: Enforcement?, secret: [UInt8], now: @escaping () -> Instant, log: @escaping (String) -> Void = { _ in }
    ) throws(StoreError) {
        self.enforcement = enforcement
        book = AuthorizationBook(try enforcement?.store.snapshot() ?? AuthorizationSnapshot())
        reduced = ReducedAccuracy(secret: secret)
        self.now = now
        self.log = log
    }

    /// An authorizer that enforces nothing (development daemons and tests of other parts).
    package static func unenforced() -> Authorizer {
        // Without enforcement no location is ever reduced: neither the secret nor the clock is used.
        try! Authorizer(enforcement: nil, secret: Array(repeating: 0, count: ReducedAccuracy.minimumSecretBytes), now: { .zero })
    }

    /// Whether authorization is enforced.
    package var isEnforcing: Bool { enforcement != nil }

    // MARK: Clients

    /// The operator proof of `client`: its user is root or in `waymark-admin` now.
    private func proof(of client: ClientID) -> Operator? {
        guard let uid = peers?.identity(of: client)?.uid else { return nil }
        return Operator.verify(uid: uid, groups: UserGroups.groups(ofUser: uid), administratorGroup: enforcement?.administratorGroup)
    }

    /// Refuses a `hello` whose usage description is over its bound.
    static func validate(_ hello: Hello) throws(ProtocolError) {
        if let description = hello.usageDescription, description.utf8.count > AuthorizationLimits.maximumUsageDescriptionBytes {
            throw ProtocolError(
                .invalidMessage, "usageDescription: at most \(AuthorizationLimits.maximumUsageDescriptionBytes) bytes")
        }
    }

    /// The client said `hello` (validated with ``validate(_:)``) and is `app` (the server's
    /// one decision of who it is).
    func clientIdentified(_ client: ClientID, _ hello: Hello, as app: AppIdentity) {
        clients[client] = AuthorizedClient(
            app: app, usageDescription: hello.usageDescription ?? "", decision: enforcement == nil ? Self.everything : Self.nothing)
        members[app, default: []].insert(client)
        if let declared = hello.appID, app != .appID(declared) { log("client \(client) declared appID \(DisplayText.escaped(declared)), which no policy binds to it") }
        refresh(app)
    }

    /// The client is gone, with its sessions.
    func clientDisconnected(_ client: ClientID) {
        let removed = clients.removeValue(forKey: client)
        clients.releaseSpareCapacity()
        guard let app = removed?.app else { return }
        members[app]?.remove(client)
        if members[app]?.isEmpty == true { members[app] = nil }
        refresh(app)
    }

    /// Who the connected clients are, for `status`: all of them for an operator, else
    /// `client` alone; `credentials` gives each one's pid and uid.
    func connectedApps(for client: ClientID, credentials: (ClientID) -> PeerCredentials?) -> [StatusReport.ConnectedApp] {
        // At most 64, the oldest, each app named briefly: a status line must stay far below the
        // protocol's line limit.
        let shown = isOperator(client) ? Array(clients.keys.sorted().prefix(64)) : [client]
        return shown.compactMap { id in
            guard let app = clients[id]?.app, let peer = credentials(id) else { return nil }
            return StatusReport.ConnectedApp(pid: Int(peer.pid), uid: Int(peer.uid), app: app.briefDescription)
        }
    }

    /// Whether `client` is an operator's (root or `waymark-admin`), who sees every app in `status`.
    func isOperator(_ client: ClientID) -> Bool { proof(of: client) != nil }

    // MARK: Sessions

    /// How many service sessions `client` holds (not counting its implicit one).
    func serviceSessionCount(of client: ClientID) -> Int { clients[client]?.sessions.count ?? 0 }

    /// Starts a service session for `client`; its diagnostics follow with ``refresh(client:)``.
    func startSession(_ client: ClientID, _ request: ServiceSessionRequest) throws(ProtocolError) -> SessionID {
        guard var record = clients[client] else { return 0 }
        if let key = request.fullAccuracyPurposeKey, !AuthorizationLimits.isPurposeKey(key) {
            throw ProtocolError(
                .invalidMessage,
                "fullAccuracyPurposeKey: expected 1 to \(AuthorizationLimits.maximumPurposeKeyBytes) of A-Z a-z 0-9 . - _")
        }
        guard record.sessions.count < Self.maximumSessionsPerClient else {
            throw ProtocolError(.limitExceeded, "a connection may hold \(Self.maximumSessionsPerClient) sessions")
        }
        let goal = SessionGoal(SessionAuthorization(request.authorization), fullAccuracyPurposeKey: request.fullAccuracyPurposeKey)
        let startedInUse = HeldSession.startsInUse(appInUse: inUse(client).isInUse, held: heldSessions(of: record.app))
        lastSession = lastSession.next
        record.sessions[lastSession] = .explicit(goal, startedInUse: startedInUse)
        clients[client] = record
        return lastSession
    }

    /// Ends a session of `client`.
    func stopSession(_ client: ClientID, _ session: SessionID) throws(ProtocolError) {
        guard clients[client]?.sessions.removeValue(forKey: session) != nil else {
            throw ProtocolError(.unknownSubscription, "session \(session) is not held by this connection")
        }
        clients[client]?.sent[session] = nil
    }

    /// Whether `client` holds the implicit session of live updates and location requests;
    /// returns whether that changed.
    func setImplicitSession(_ client: ClientID, held: Bool) -> Bool {
        guard enforcement != nil, var record = clients[client], (record.implicit != nil) != held else { return false }
        let startedInUse = HeldSession.startsInUse(appInUse: inUse(client).isInUse, held: heldSessions(of: record.app))
        record.implicit = held ? .implicit(startedInUse: startedInUse) : nil
        clients[client] = record
        return true
    }

    /// A subscription ended: its withheld state goes.
    func subscriptionEnded(_ client: ClientID, _ subscription: SubscriptionID) {
        clients[client]?.withheld[subscription] = nil
    }

    /// Decides again for the app of `client` after its sessions or its in-use evidence changed.
    func refresh(client: ClientID) {
        if let app = clients[client]?.app { refresh(app) }
    }

    // MARK: Locations

    /// `update` as `client` may see it on `subscription`: flags added, the location reduced;
    /// or, when it may have none, an update with only the authorization flags (nothing of the
    /// receiver's state), nil when that would repeat what was sent already.
    func authorize(_ update: LocationUpdate, for client: ClientID, subscription: SubscriptionID) -> LocationUpdate? {
        guard var record = clients[client] else { return nil }
        var authorized = update
        if !record.decision.deliversLocations { authorized = LocationUpdate(location: nil, diagnostics: Diagnostics()) }
        authorized.diagnostics.formUnion(record.decision.locationUpdateDiagnostics)
        guard record.decision.deliversLocations else {
            guard record.withheld[subscription] != authorized.diagnostics else { return nil }
            record.withheld[subscription] = authorized.diagnostics
            clients[client] = record
            return authorized
        }
        if record.withheld.removeValue(forKey: subscription) != nil { clients[client] = record }
        if record.decision.accuracy == .reduced, let location = authorized.location {
            authorized.location = reduced.reduce(location, at: now())
        }
        return authorized
    }

    /// Whether `client` may have locations now (its subscriptions are a demand on the receiver).
    func deliversLocations(to client: ClientID) -> Bool {
        clients[client]?.decision.deliversLocations ?? (enforcement == nil)
    }

    /// Whether a location request of `client` may be served; the error says why not.
    func admitRequest(_ client: ClientID) throws(ProtocolError) {
        guard let decision = clients[client]?.decision, !decision.deliversLocations else { return }
        throw Self.denied(decision)
    }

    /// The answer to a location request of `client`, as it may see it.
    func authorize(_ location: Location, for client: ClientID) -> Result<Location, ProtocolError> {
        guard let decision = clients[client]?.decision else { return .failure(ProtocolError(.internalError, "unknown client")) }
        guard decision.deliversLocations else { return .failure(Self.denied(decision)) }
        guard decision.accuracy == .reduced else { return .success(location) }
        guard let reducedLocation = reduced.reduce(location, at: now()) else {
            return .failure(ProtocolError(.locationUnknown, "no location could be had before the timeout"))
        }
        return .success(reducedLocation)
    }

    /// `location` reduced to its cell by the reducer every path shares, for what the app's
    /// authorization already allows at reduced accuracy (a visit under `accuracyLimited`): no
    /// session or in-use evidence is asked, as Core Location's visits need none.
    func reduce(_ location: Location) -> Location? {
        reduced.reduce(location, at: now())
    }

    /// The daemon's last location as `client` may see it (in `status` and `lastKnownLocation`):
    /// what a location request would give it now, without asking the operator anything; throws
    /// `authorizationDenied` when it may have none.
    func lastLocation(_ location: Location?, for client: ClientID) throws(ProtocolError) -> Location? {
        guard let record = clients[client] else { return nil }
        let decision =
            record.implicit != nil
            ? record.decision : decide(client, app: record.app, held: heldSessions(of: record.app) + [.implicit(startedInUse: false)])
        guard decision.deliversLocations else { throw Self.denied(decision) }
        guard let location else { return nil }
        return decision.accuracy == .reduced ? reduced.reduce(location, at: now()) : location
    }

    /// The answer to `authorizationStatus`.
    func status(of client: ClientID) -> WaymarkProtocol.AuthorizationStatus {
        guard let app = clients[client]?.app, let policy = peers?.identity(of: client)?.policy else {
            return AuthorizationStatus(state: .always, fullAccuracy: true)
        }
        return status(of: app, policy: policy)
    }

    /// The authorization of `app` under `policy`, connected or not (an app away keeps its
    /// monitors: what it may have of them follows the operator's changes at once).
    func status(of app: AppIdentity, policy: EffectivePolicy) -> WaymarkProtocol.AuthorizationStatus {
        guard enforcement != nil else { return AuthorizationStatus(state: .always, fullAccuracy: true) }
        // Core Location: with location services off, every app reads as denied.
        guard book.snapshot.locationServicesEnabled else { return AuthorizationStatus(state: .denied, fullAccuracy: false) }
        let decided = book.authorization(of: app, policy: policy)
        return AuthorizationStatus(
            state: WaymarkProtocol.AuthorizationState(decided.state),
            fullAccuracy: decided.accuracy == .full || book.temporaryFullAccuracy[app] == .granted)
    }

    // MARK: Deciding

    private static let nothing = AuthorizationDecision(deliversLocations: false, accuracy: .full, diagnostics: [], question: nil)
    private static let everything = AuthorizationDecision(deliversLocations: true, accuracy: .full, diagnostics: [], question: nil)

    private static func denied(_ decision: AuthorizationDecision) -> ProtocolError {
        ProtocolError(.authorizationDenied, "the app is not authorized to use location now: \(decision.updateDiagnostics)")
    }

    /// Why `client` is in use: an interactive policy, a background activity session, an
    /// accepted delegation (the server's evidence); nothing for a client that is gone.
    private func inUse(_ client: ClientID) -> InUseEvidence {
        peers?.inUseEvidence(of: client) ?? []
    }

    private func heldSessions(of app: AppIdentity) -> [HeldSession] {
        (members[app] ?? []).flatMap { clients[$0]?.held ?? [] }
    }

    /// The decision for `client` of `app` holding `held`; nothing for a client that is gone.
    private func decide(_ client: ClientID, app: AppIdentity, held: [HeldSession]) -> AuthorizationDecision {
        guard enforcement != nil else { return Self.everything }
        guard let policy = peers?.identity(of: client)?.policy else { return Self.nothing }
        return book.decide(app, policy: policy, inUse: inUse(client), sessions: held)
    }

    /// Decides for every connection of `app`, records the question a decision raises, and
    /// sends each session's diagnostics when they changed.
    private func refresh(_ app: AppIdentity) {
        // Unenforced, every decision is "everything" from the start: nothing to decide again
        // (and thousands of connections of one uid cost nothing per subscription).
        guard enforcement != nil else { return }
        let connections = (members[app] ?? []).sorted()
        let held = heldSessions(of: app)
        if held.isEmpty {
            if appsHoldingSessions.remove(app) != nil { book.lastSessionEnded(app) }
        } else {
            appsHoldingSessions.insert(app)
        }
        var sessionEvents: [(ClientID, SessionID, [String])] = []
        var changed: [ClientID] = []
        for member in connections {
            guard var record = clients[member] else { continue }
            var decision = decide(member, app: app, held: held)
            if let question = decision.question {
                ask(question, for: app, client: member, usageDescription: record.usageDescription)
                decision = decide(member, app: app, held: held)
            }
            if decision.deliversLocations != record.decision.deliversLocations
                || decision.locationUpdateDiagnostics != record.decision.locationUpdateDiagnostics
            {
                changed.append(member)
            }
            record.decision = decision
            for (session, goal) in record.sessions.sorted(by: { $0.key < $1.key }) {
                let flags = decision.sessionDiagnostics(for: goal)
                guard record.sent[session] != flags else { continue }
                record.sent[session] = flags
                sessionEvents.append((member, session, flags.names))
            }
            clients[member] = record
        }
        // Once every decision is in the book: sending may end a connection, which decides again.
        for (client, session, flags) in sessionEvents { sendSessionDiagnostics(client, session, flags) }
        for client in changed { decisionChanged(client) }
    }

    private func refreshAll() {
        for app in members.keys { refresh(app) }
    }

    private func ask(_ question: OperatorQuestion, for app: AppIdentity, client: ClientID, usageDescription: String) {
        guard let uid = peers?.identity(of: client)?.uid else { return }
        do {
            guard let change = try book.ask(question, for: app, uid: uid, usageDescription: usageDescription)
            else {
                log("\(app) asks for temporary full accuracy")
                return
            }
            try enforcement?.store.apply(change, at: .now)
            book.apply(change)
            log("\(app) asks for authorization")
        } catch {
            // Over the caps: it stays "in progress" for the app and is recorded on a later decision.
            log("\(app): its request was not recorded: \(error)")
        }
    }

    // MARK: The operator

    private func verify(_ client: ClientID) throws(ProtocolError) -> (Operator, Enforcement) {
        guard let enforcement else {
            throw ProtocolError(.permissionDenied, "this daemon enforces no authorization (it was started without a store)")
        }
        guard let proof = proof(of: client) else {
            throw ProtocolError(.permissionDenied, "only root or a member of \(UserGroups.administratorGroupName) may change authorization")
        }
        return (proof, enforcement)
    }

    /// Stores `change`, then applies it, then decides again for everyone: acknowledged once
    /// this returns.
    private func commit(_ change: AuthorizationChange, _ enforcement: Enforcement) throws(ProtocolError) {
        do throws(StoreError) {
            try enforcement.store.apply(change, at: .now)
        } catch {
            throw ProtocolError(.internalError, "the authorization store refused the change: \(error)")
        }
        book.apply(change)
        refreshAll()
        authorizationChanged()
    }

    /// `authorizationApps`: the page after `after`.
    func apps(for client: ClientID, after: AppReference?) throws(ProtocolError) -> AuthorizationApps {
        let (proof, _) = try verify(client)
        return AuthorizationApps(
            locationServicesEnabled: book.snapshot.locationServicesEnabled,
            page: book.apps(by: proof).map(AuthorizationAppEntry.init), after: after)
    }

    /// `authorizeApp`.
    func authorize(_ request: AuthorizeAppRequest, by client: ClientID) throws(ProtocolError) {
        let (proof, enforcement) = try verify(client)
        let app = try Self.identity(request.app)
        let accuracy = request.fullAccuracy.map { $0 ? AccuracyAuthorization.full : .reduced }
        let change: AuthorizationChange
        switch request.authorization {
        case nil:
            change = book.setAccuracy(app, accuracy ?? .full, by: proof)
        case .whenInUse?, .always?:
            let grant: AuthorizationGrant = request.authorization == .always ? .authorizedAlways : .authorizedWhenInUse
            change = book.grant(app, grant, accuracy: accuracy ?? book.snapshot.decisions[app]?.accuracy ?? .full, by: proof)
        case .denied?:
            guard accuracy == nil else { throw ProtocolError(.invalidMessage, "fullAccuracy: denying keeps the accuracy; set it apart") }
            change = book.deny(app, by: proof)
        case .notDetermined?:
            guard accuracy == nil else { throw ProtocolError(.invalidMessage, "fullAccuracy: a reset forgets the accuracy too") }
            change = book.reset(app, by: proof)
        case .restricted?:
            throw ProtocolError(.invalidMessage, "authorization: restricted is a policy's lock (apps.d), not a decision")
        }
        try commit(change, enforcement)
        log("operator uid \(proof.uid): \(app) now \(book.snapshot.decisions[app].map { "\($0.state.rawValue), \($0.accuracy.rawValue) accuracy" } ?? "undecided")")
    }

    /// `setLocationServices`.
    func setLocationServices(_ enabled: Bool, by client: ClientID) throws(ProtocolError) {
        let (proof, enforcement) = try verify(client)
        try commit(book.setLocationServices(enabled, by: proof), enforcement)
        log("operator uid \(proof.uid): location services \(enabled ? "on" : "off")")
    }

    /// `answerTemporaryFullAccuracy`: kept in memory until the app's last session ends.
    func answerTemporaryFullAccuracy(_ reference: AppReference, granted: Bool, by client: ClientID) throws(ProtocolError) {
        let (proof, _) = try verify(client)
        let app = try Self.identity(reference)
        guard appsHoldingSessions.contains(app) else {
            throw ProtocolError(.invalidMessage, "app: \(app) holds no session; temporary full accuracy lasts only while it does")
        }
        book.answerTemporaryFullAccuracy(app, granted: granted, by: proof)
        refresh(app)
        authorizationChanged()
        log("operator uid \(proof.uid): temporary full accuracy \(granted ? "given to" : "refused to") \(app)")
    }

    private static func identity(_ reference: AppReference) throws(ProtocolError) -> AppIdentity {
        guard let kind = AppIdentity.Kind(rawValue: reference.kind), !reference.key.isEmpty else {
            let kinds = AppIdentity.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ProtocolError(.invalidMessage, "app: expected a kind (\(kinds)) and a key, found \(reference)")
        }
        // The longest key an app has: an executable's path, at most PATH_MAX.
        guard reference.key.utf8.count <= 4_096 else { throw ProtocolError(.invalidMessage, "app.key: at most 4096 bytes") }
        return AppIdentity(kind, reference.key)
    }
}

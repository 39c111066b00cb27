import WaymarkAuthorization
import WaymarkEngine
import WaymarkLocation

/// A service or background activity session, unique per daemon run.
package struct SessionID: RunUniqueID {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// What the ``Authorizer`` knows of one connection once `hello` named its app: the app, the
/// sessions it holds, and the decision in force. Who the client is (credentials, process
/// facts, policy) is the server's, read once at accept (``AuthorizationPeers``).
struct AuthorizedClient {
    /// The app, from `hello`.
    let app: AppIdentity
    /// What the app says it needs location for, from `hello`.
    var usageDescription: String
    /// Its explicit service sessions.
    var sessions: [SessionID: HeldSession] = [:]
    /// The implicit session, while it holds live updates or location requests.
    var implicit: HeldSession?
    /// The flags last sent for each session.
    var sent: [SessionID: AuthorizationDiagnostics] = [:]
    /// The update diagnostics last sent on each subscription whose locations are withheld:
    /// the same again is not repeated at the receiver's rate.
    var withheld: [SubscriptionID: Diagnostics] = [:]
    /// The decision in force for it.
    var decision: AuthorizationDecision

    init(app: AppIdentity, usageDescription: String, decision: AuthorizationDecision) {
        self.app = app
        self.usageDescription = usageDescription
        self.decision = decision
    }

    /// Every session it holds, the implicit one included.
    var held: [HeldSession] { Array(sessions.values) + (implicit.map { [$0] } ?? []) }
}

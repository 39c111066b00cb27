import WaymarkAuthorization
import WaymarkEngine
import WaymarkLocation

/// A service or background activity session, unique per daemon run.
package struct SessionID: RunUniqueID {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// What the ``Authorizer`` knows of one connection: who the kernel says it is and its policy
/// (read once at accept), the app it is (from `hello`), the sessions it holds,
/// and the decision in force.
struct AuthorizedClient {
    let facts: ProcessFacts
    let policy: EffectivePolicy
    /// The app, once `hello` named it (or not).
    var app: AppIdentity?
    /// What the app says it needs location for, from `hello`.
    var usageDescription = ""
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

    /// Every session it holds, the implicit one included.
    var held: [HeldSession] { Array(sessions.values) + (implicit.map { [$0] } ?? []) }
}

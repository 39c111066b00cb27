package import WaymarkAuthorization
package import WaymarkSystem

/// An app the store knows, with the operator's decision about it.
package struct AppRecord: Hashable, Sendable {
    /// Who the app is.
    package var identity: AppIdentity
    /// The `appID` a policy binds to this identity, if any.
    package var appID: String?
    /// Its authorization.
    package var authorization: AuthorizationState
    /// Its accuracy authorization.
    package var accuracy: AccuracyAuthorization
    /// When any of this last changed.
    package var updatedAt: RealtimeInstant
}

/// An app's request for authorization that the operator has not answered yet.
package struct PendingRequest: Hashable, Sendable {
    /// Who asked.
    package var identity: AppIdentity
    /// Why, in the app's words (shown to the operator; the latest request's text).
    package var usageDescription: String
    /// What it asked for (the latest request's).
    package var requested: AuthorizationGrant
    /// The uid of the process that asked; nil for a request stored before schema version 2.
    package var uid: UInt32?
    /// When it first asked.
    package var firstRequestedAt: RealtimeInstant
}

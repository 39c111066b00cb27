/// The operator's decision about an app, as stored.
package struct DecidedAuthorization: Hashable, Sendable {
    /// Its state.
    package var state: AuthorizationState
    /// Its accuracy.
    package var accuracy: AccuracyAuthorization

    /// A decision of `state` with `accuracy`.
    package init(_ state: AuthorizationState, accuracy: AccuracyAuthorization) {
        self.state = state
        self.accuracy = accuracy
    }

    /// Whether this decides nothing (`notDetermined` with full accuracy, as after a reset):
    /// such an app has no entry in ``AuthorizationSnapshot/decisions``.
    package var isUndecided: Bool { state == .notDetermined && accuracy == .full }
}

/// An app's request that waits for the operator.
package struct PendingAuthorization: Hashable, Sendable {
    /// What it asked for.
    package var requested: AuthorizationGrant
    /// Why, in the app's words (at most ``AuthorizationLimits/maximumUsageDescriptionBytes``).
    package var usageDescription: String
    /// The uid of the process that asked (requests are capped per uid).
    package var uid: UInt32

    /// A request for `requested` from `uid`.
    package init(requested: AuthorizationGrant, usageDescription: String, uid: UInt32) {
        self.requested = requested
        self.usageDescription = usageDescription
        self.uid = uid
    }
}

/// One change to the persistent authorization data. The daemon writes it to the store
/// (`AuthorizationStore.apply`) and only then applies it to the ``AuthorizationBook`` and
/// acknowledges it: nothing acknowledged is lost by a crash. The operator's changes carry
/// the ``Operator`` proof.
package enum AuthorizationChange: Hashable, Sendable {
    /// An app's request waits for the operator (a repeated one keeps its first time).
    case request(AppIdentity, PendingAuthorization)
    /// The operator decided `state` (accuracy unchanged when nil), answering any request.
    case decide(AppIdentity, AuthorizationState, AccuracyAuthorization?, by: Operator)
    /// The operator forgot the decision: `notDetermined`, full accuracy, no request.
    case reset(AppIdentity, by: Operator)
    /// The operator switched location services on or off for the board.
    case setLocationServices(Bool, by: Operator)
}

/// The persistent authorization data, as the store loads it.
package struct AuthorizationSnapshot: Hashable, Sendable {
    /// The board's location-services switch.
    package var locationServicesEnabled = true
    /// The operator's decisions (an app with nothing decided is absent).
    package var decisions: [AppIdentity: DecidedAuthorization] = [:]
    /// The requests waiting for the operator.
    package var pending: [AppIdentity: PendingAuthorization] = [:]

    /// Empty data: services on, nothing decided.
    package init() {}
}

/// The bounds that keep a client from growing the daemon's memory or database.
package enum AuthorizationLimits {
    /// The longest usage description a client may send, in UTF-8 bytes.
    package static let maximumUsageDescriptionBytes = 1_024
    /// The longest `fullAccuracyPurposeKey` (ASCII letters, digits, `.`, `-`, `_`).
    package static let maximumPurposeKeyBytes = 64
    /// Requests waiting for the operator from one uid (a uid can run many apps).
    package static let maximumPendingRequestsPerUID = 8
    /// Requests waiting for the operator in all.
    package static let maximumPendingRequests = 64

    /// Whether `key` is a purpose key a session may name.
    package static func isPurposeKey(_ key: String) -> Bool {
        key.utf8.count <= maximumPurposeKeyBytes && PolicyFile.isAppID(key)
    }
}

/// A request an app may not make.
package enum AuthorizationRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The purpose key is empty, too long or has other characters than the allowed.
    case invalidPurposeKey

    package var description: String {
        switch self {
        case .invalidPurposeKey:
            "a fullAccuracyPurposeKey is 1 to \(AuthorizationLimits.maximumPurposeKeyBytes) ASCII letters, digits, '.', '-' or '_'"
        }
    }
}

import WaymarkJSON

/// The authorization goal of a service session (`CLServiceSession.AuthorizationRequirement`).
package enum ServiceSessionAuthorization: String, Hashable, Sendable, CaseIterable, ProtocolNamed {
    /// No authorization is asked for; the session only keeps the app "in use".
    case none
    /// Use while the app is in use.
    case whenInUse
    /// Use at any time.
    case always
}

/// The parameters of `startServiceSession` (protocol version 2).
package struct ServiceSessionRequest: Hashable, Sendable {
    /// What the session needs.
    package var authorization: ServiceSessionAuthorization
    /// Asks for temporary full accuracy, for the purpose the key names.
    package var fullAccuracyPurposeKey: String?

    /// Creates a request.
    package init(authorization: ServiceSessionAuthorization, fullAccuracyPurposeKey: String? = nil) {
        self.authorization = authorization
        self.fullAccuracyPurposeKey = fullAccuracyPurposeKey
    }
}

/// An app's authorization state, as the operator decided it.
package enum AuthorizationState: String, Hashable, Sendable, CaseIterable, ProtocolNamed {
    /// Nobody has decided yet.
    case notDetermined
    /// Refused.
    case denied
    /// Refused by policy.
    case restricted
    /// Allowed while the app is in use.
    case whenInUse
    /// Allowed at any time.
    case always
}

/// The answer to `authorizationStatus` (protocol version 2).
package struct AuthorizationStatus: Hashable, Sendable {
    /// The app's authorization.
    package var state: AuthorizationState
    /// Whether the app gets precise locations (`false`: reduced accuracy).
    package var fullAccuracy: Bool

    /// Creates a status.
    package init(state: AuthorizationState, fullAccuracy: Bool) {
        self.state = state
        self.fullAccuracy = fullAccuracy
    }

    /// Writes the members of the `result` object.
    func writeMembers(to buffer: inout JSONBuffer) {
        buffer.member("authorization", text: state.rawValue)
        buffer.member("fullAccuracy", fullAccuracy)
    }

    init(_ fields: Fields) throws(ProtocolError) {
        self.init(state: try fields.named("authorization", as: AuthorizationState.self), fullAccuracy: try fields.bool("fullAccuracy"))
    }
}

/// An app's authorization, with Core Location's names.
package enum AuthorizationState: String, Hashable, Sendable, CaseIterable {
    case notDetermined, denied, restricted, authorizedWhenInUse, authorizedAlways
}

/// What an app may ask for and the operator may grant: "when in use" or "always".
package enum AuthorizationGrant: String, Hashable, Sendable, CaseIterable {
    case authorizedWhenInUse, authorizedAlways

    /// The state an app is in once this is granted.
    package var state: AuthorizationState {
        switch self {
        case .authorizedWhenInUse: .authorizedWhenInUse
        case .authorizedAlways: .authorizedAlways
        }
    }
}

/// Whether an app gets precise locations or ones reduced to a cell a few kilometres wide.
package enum AccuracyAuthorization: String, Hashable, Sendable, CaseIterable {
    case full, reduced
}

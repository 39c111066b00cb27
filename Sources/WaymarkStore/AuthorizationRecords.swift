package import WaymarkSystem

/// Who an app is, as the kernel says (never as the client claims): its systemd unit, else its
/// executable, else its uid. `key` is the unit's name, the executable's path or the decimal uid.
package struct AppIdentity: Hashable, Sendable, CustomStringConvertible {
    /// Which of the kernel's facts identifies the app.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case unit, executable, uid
    }

    /// Which of the kernel's facts identifies the app.
    package var kind: Kind
    /// The unit's name, the executable's path or the decimal uid.
    package var key: String

    /// The app identified by `key` of `kind`.
    package init(_ kind: Kind, _ key: String) {
        self.kind = kind
        self.key = key
    }

    /// `unit:gpsd-logger.service`, `executable:/usr/bin/tracker`, `uid:1001`.
    package var description: String { "\(kind.rawValue):\(key)" }
}

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
    /// When it first asked.
    package var firstRequestedAt: RealtimeInstant
}

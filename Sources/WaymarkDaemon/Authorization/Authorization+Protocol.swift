import WaymarkAuthorization
import WaymarkProtocol

// The authorization core's values as the protocol names them.

extension SessionAuthorization {
    init(_ goal: ServiceSessionAuthorization) {
        switch goal {
        case .none: self = .none
        case .whenInUse: self = .whenInUse
        case .always: self = .always
        }
    }
}

extension WaymarkProtocol.AuthorizationState {
    init(_ state: WaymarkAuthorization.AuthorizationState) {
        switch state {
        case .notDetermined: self = .notDetermined
        case .denied: self = .denied
        case .restricted: self = .restricted
        case .authorizedWhenInUse: self = .whenInUse
        case .authorizedAlways: self = .always
        }
    }
}

extension AuthorizationAppEntry {
    init(_ entry: AppAuthorizationEntry) {
        let temporary: (TemporaryAccuracyState, String?) =
            switch entry.temporaryFullAccuracy {
            case .none: (.none, nil)
            case .requested(let purposeKey): (.requested, purposeKey)
            case .granted: (.granted, nil)
            case .declined: (.declined, nil)
            }
        self.init(
            app: AppReference(kind: entry.identity.kind.rawValue, key: entry.identity.key),
            authorization: entry.decided.map { WaymarkProtocol.AuthorizationState($0.state) },
            fullAccuracy: entry.decided.map { $0.accuracy == .full },
            request: entry.pending.map { pending in
                WaitingRequest(
                    authorization: WaymarkProtocol.AuthorizationState(pending.requested.state),
                    usageDescription: pending.usageDescription, uid: Int(pending.uid))
            },
            temporaryFullAccuracy: temporary.0, purposeKey: temporary.1)
    }
}

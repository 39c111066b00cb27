import WaymarkProtocol

/// An app's authorization (`CLAuthorizationStatus`).
public enum AuthorizationStatus: String, Hashable, Sendable, CaseIterable {
    /// The operator has not decided.
    case notDetermined
    /// A policy locks the app out.
    case restricted
    /// Denied, or location services are off.
    case denied
    /// Allowed at any time.
    case authorizedAlways
    /// Allowed while the app is in use.
    case authorizedWhenInUse
}

/// Whether an app gets precise locations (`CLAccuracyAuthorization`).
public enum AccuracyAuthorization: String, Hashable, Sendable, CaseIterable {
    /// Precise locations.
    case fullAccuracy
    /// Locations reduced to a cell a few kilometres wide, at most one new one per 20 minutes.
    case reducedAccuracy
}

extension WaymarkAgent {
    /// This app's authorization and accuracy, as the daemon decided them (Core Location's
    /// `authorizationStatus` and `accuracyAuthorization`). To ask for authorization, hold a
    /// ``ServiceSession``; the operator sees `WAYMARK_USAGE_DESCRIPTION` with the request.
    ///
    /// - Throws: ``WaymarkError`` when the daemon is unreachable or refuses.
    public static func authorization() async throws -> (status: AuthorizationStatus, accuracy: AccuracyAuthorization) {
        guard case .authorization(let answer) = try await DaemonClient.shared.call(.authorizationStatus) else {
            throw WaymarkError.unexpectedResult(.authorizationStatus)
        }
        let status: AuthorizationStatus =
            switch answer.state {
            case .notDetermined: .notDetermined
            case .restricted: .restricted
            case .denied: .denied
            case .always: .authorizedAlways
            case .whenInUse: .authorizedWhenInUse
            }
        return (status, answer.fullAccuracy ? .fullAccuracy : .reducedAccuracy)
    }
}

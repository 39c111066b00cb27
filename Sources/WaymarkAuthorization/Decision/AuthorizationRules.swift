package import WaymarkLocation

/// Temporary full accuracy of an app with reduced accuracy: asked for by a session with a
/// `fullAccuracyPurposeKey`, answered by the operator, lapsing when the app's last session
/// ends (it is never stored: sessions do not outlive the daemon).
package enum TemporaryFullAccuracy: Hashable, Sendable {
    /// Nothing asked or given.
    case none
    /// Asked for the purpose `purposeKey`; the operator has not answered.
    case requested(purposeKey: String)
    /// Given by the operator.
    case granted
    /// Refused by the operator.
    case declined
}

/// Everything a decision about one app depends on (docs/authorization.md, "Decisions").
package struct AuthorizationInput: Hashable, Sendable {
    /// The board's location-services switch.
    package var locationServicesEnabled = true
    /// The app's state, policy applied.
    package var authorization: AuthorizationState
    /// The app's accuracy, policy applied.
    package var accuracy: AccuracyAuthorization
    /// Temporary full accuracy.
    package var temporaryFullAccuracy = TemporaryFullAccuracy.none
    /// Whether the app's authorization request waits for the operator.
    package var requestPending = false
    /// Whether only explicit sessions count (policy).
    package var requiresExplicitSessions = false
    /// Why the app is in use, if it is.
    package var inUse: InUseEvidence = []
    /// The sessions it holds, with the implicit session of the path asked about (updates).
    package var sessions: [HeldSession] = []

    /// An input for an app in `authorization` with `accuracy`.
    package init(authorization: AuthorizationState, accuracy: AccuracyAuthorization = .full) {
        self.authorization = authorization
        self.accuracy = accuracy
    }
}

/// A question the daemon records for the operator (`waymark auth pending`).
package enum OperatorQuestion: Hashable, Sendable {
    /// Authorize the app (it holds a goal of at least `.whenInUse`, is in use, undecided).
    case authorization(AuthorizationGrant)
    /// Give the app temporary full accuracy for `purposeKey`.
    case temporaryFullAccuracy(purposeKey: String)
}

/// What an app gets: whether locations reach it, how precise, the diagnostics, and what to
/// ask the operator now.
package struct AuthorizationDecision: Hashable, Sendable {
    /// Whether locations are delivered.
    package var deliversLocations: Bool
    /// The accuracy of what is delivered (full, or reduced by ``ReducedAccuracy``).
    package var accuracy: AccuracyAuthorization
    /// Every flag of the app's sessions taken together.
    package let diagnostics: AuthorizationDiagnostics
    /// The flags an update carries (``updateDiagnostics``) as the `Diagnostics` of an update,
    /// made once per decision: adding them to each update is a union, not a lookup by name.
    package let locationUpdateDiagnostics: Diagnostics
    /// A question to record for the operator (``diagnostics`` already says it is in progress).
    package var question: OperatorQuestion?

    /// A decision.
    package init(
        deliversLocations: Bool, accuracy: AccuracyAuthorization, diagnostics: AuthorizationDiagnostics, question: OperatorQuestion?
    ) {
        self.deliversLocations = deliversLocations
        self.accuracy = accuracy
        self.diagnostics = diagnostics
        locationUpdateDiagnostics = Diagnostics(diagnostics.intersection(.updateFlags))
        self.question = question
    }

    /// The flags an update carries.
    package var updateDiagnostics: AuthorizationDiagnostics { diagnostics.intersection(.updateFlags) }

    /// The flags the diagnostics of `session` carry: those of the app, with
    /// `alwaysAuthorizationDenied` only for an `.always` goal and `fullAccuracyDenied` only for
    /// a session that asks for full accuracy.
    package func sessionDiagnostics(for session: HeldSession) -> AuthorizationDiagnostics {
        var flags = diagnostics.intersection(.sessionFlags)
        if session.goal.authorization != .always { flags.remove(.alwaysAuthorizationDenied) }
        if session.goal.fullAccuracyPurposeKey == nil { flags.remove(.fullAccuracyDenied) }
        return flags
    }
}

/// Core Location's authorization rules on a board (docs/authorization.md, "Decisions"; the
/// quotes are from "What's new in location authorization", WWDC24, and "What's New in Core
/// Location", WWDC15). Pure: the same input always gives the same decision.
package enum AuthorizationRules {
    /// The decision for `input`.
    package static func decide(_ input: AuthorizationInput) -> AuthorizationDecision {
        let global = !input.locationServicesEnabled
        let state = input.authorization
        var flags: AuthorizationDiagnostics = []
        // "if location services are disabled system-wide … .authorizationDenied will be true as well"
        if global { flags.formUnion([.authorizationDenied, .authorizationDeniedGlobally]) }
        if state == .denied { flags.insert(.authorizationDenied) }
        if state == .restricted { flags.insert(.authorizationRestricted) }
        let effectiveAccuracy: AccuracyAuthorization =
            input.accuracy == .full || input.temporaryFullAccuracy == .granted ? .full : .reduced

        // "the effect of these implicit sessions can be disabled entirely"
        let counted = input.requiresExplicitSessions ? input.sessions.filter { $0.origin == .explicit } : input.sessions
        if counted.isEmpty, input.sessions.contains(where: { $0.origin == .implicit }) {
            return AuthorizationDecision(
                deliversLocations: false, accuracy: effectiveAccuracy, diagnostics: flags.union(.serviceSessionRequired),
                question: nil)
        }
        let goal = counted.map(\.goal.authorization).max()
        let inUse = input.inUse.isInUse
        var access = false
        var question: OperatorQuestion?
        if !global {
            switch state {
            case .notDetermined:
                guard let goal, goal >= .whenInUse else { break }
                if input.requestPending {
                    flags.insert(.authorizationRequestInProgress)
                } else if inUse {
                    question = .authorization(goal == .always ? .authorizedAlways : .authorizedWhenInUse)
                    flags.insert(.authorizationRequestInProgress)
                } else {
                    // ".insufficientlyInUse for when Core Location can't yet ask for authorization"
                    flags.insert(.insufficientlyInUse)
                }
            case .authorizedWhenInUse:
                access = inUse
            case .authorizedAlways:
                // "Always authorization will only be effective when you hold one of these, and
                // you can only start holding one when your app is in the foreground."
                access = inUse || counted.contains { $0.origin == .explicit && $0.goal.authorization == .always && $0.startedInUse }
            case .denied, .restricted:
                break
            }
            let authorized = state == .authorizedWhenInUse || state == .authorizedAlways
            if authorized, !access { flags.insert(.insufficientlyInUse) }
            // ".alwaysAuthorizationDenied, when you have set a goal of Always authorization, but it was not granted"
            if goal == .always, state == .authorizedWhenInUse || state == .denied || state == .restricted {
                flags.insert(.alwaysAuthorizationDenied)
            }
            if authorized, effectiveAccuracy == .reduced {
                flags.insert(.accuracyLimited)
                if let purposeKey = counted.lazy.compactMap(\.goal.fullAccuracyPurposeKey).first {
                    switch input.temporaryFullAccuracy {
                    case .requested:
                        flags.insert(.authorizationRequestInProgress)
                    case .none where access && inUse:
                        question = .temporaryFullAccuracy(purposeKey: purposeKey)
                        flags.insert(.authorizationRequestInProgress)
                    case .none, .declined, .granted:
                        flags.insert(.fullAccuracyDenied)
                    }
                }
            }
        }
        return AuthorizationDecision(
            deliversLocations: access, accuracy: effectiveAccuracy, diagnostics: flags, question: question)
    }
}

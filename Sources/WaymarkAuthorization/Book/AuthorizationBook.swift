/// The daemon's authorization data in memory (a mirror of the store, plus temporary full
/// accuracy, which lapses with the sessions and is never stored), and the operations on it.
///
/// Operations that change persistent data return an ``AuthorizationChange`` without applying
/// it: the daemon stores it, then calls ``apply(_:)``. Pure: no clock, no I/O.
package struct AuthorizationBook: Sendable {
    /// The persistent data.
    package private(set) var snapshot: AuthorizationSnapshot
    /// Temporary full accuracy, by app; absent means `.none`.
    package private(set) var temporaryFullAccuracy: [AppIdentity: TemporaryFullAccuracy] = [:]

    /// A book over the data the store loaded.
    package init(_ snapshot: AuthorizationSnapshot) {
        self.snapshot = snapshot
    }

    // MARK: Decisions

    /// The app's state and accuracy with its policy applied: a `restricted` lock wins; then
    /// the operator's decision; then the policy's authorization given in advance; else
    /// `notDetermined`. The accuracy is the operator's if they set one, else the policy's,
    /// else full.
    package func authorization(of app: AppIdentity, policy: EffectivePolicy) -> DecidedAuthorization {
        let decided = snapshot.decisions[app]
        let accuracy = decided?.accuracy ?? policy.accuracy ?? .full
        if policy.isRestricted { return DecidedAuthorization(.restricted, accuracy: accuracy) }
        if let decided, decided.state != .notDetermined { return decided }
        return DecidedAuthorization(policy.authorization ?? .notDetermined, accuracy: accuracy)
    }

    /// The decision for `app` under `policy`, in use for the reasons `inUse`, holding `sessions`.
    package func decide(
        _ app: AppIdentity, policy: EffectivePolicy, inUse: InUseEvidence, sessions: [HeldSession]
    ) -> AuthorizationDecision {
        let authorization = authorization(of: app, policy: policy)
        var input = AuthorizationInput(authorization: authorization.state, accuracy: authorization.accuracy)
        input.locationServicesEnabled = snapshot.locationServicesEnabled
        input.temporaryFullAccuracy = temporaryFullAccuracy[app] ?? .none
        input.requestPending = snapshot.pending[app] != nil
        input.requiresExplicitSessions = policy.requiresExplicitSessions
        input.inUse = inUse
        input.sessions = sessions
        return AuthorizationRules.decide(input)
    }

    // MARK: What apps do

    /// Records the `question` a decision raised for `app` (run by `uid`, which explained
    /// itself with `usageDescription`): an authorization request becomes a change to store; a
    /// temporary full accuracy request is kept here. Nil when nothing is to be stored; an
    /// invalid purpose key is refused.
    package mutating func ask(
        _ question: OperatorQuestion, for app: AppIdentity, uid: UInt32, usageDescription: String
    ) throws(AuthorizationRequestError) -> AuthorizationChange? {
        switch question {
        case .authorization(let grant):
            // The store refuses a description past the limit, and requests past the caps.
            return .request(app, PendingAuthorization(requested: grant, usageDescription: usageDescription, uid: uid))
        case .temporaryFullAccuracy(let purposeKey):
            guard AuthorizationLimits.isPurposeKey(purposeKey) else { throw .invalidPurposeKey }
            temporaryFullAccuracy[app] = .requested(purposeKey: purposeKey)
            return nil
        }
    }

    /// The app's last session ended: temporary full accuracy (given, refused or asked) lapses.
    package mutating func lastSessionEnded(_ app: AppIdentity) {
        temporaryFullAccuracy[app] = nil
    }

    // MARK: What the operator does

    /// Authorizes `app` for `grant` with `accuracy`.
    package func grant(_ app: AppIdentity, _ grant: AuthorizationGrant, accuracy: AccuracyAuthorization, by proof: Operator) -> AuthorizationChange {
        .decide(app, grant.state, accuracy, by: proof)
    }

    /// Denies `app` (its accuracy is kept for a later grant).
    package func deny(_ app: AppIdentity, by proof: Operator) -> AuthorizationChange {
        .decide(app, .denied, nil, by: proof)
    }

    /// Changes only the accuracy of `app`, keeping its state.
    package func setAccuracy(_ app: AppIdentity, _ accuracy: AccuracyAuthorization, by proof: Operator) -> AuthorizationChange {
        .decide(app, snapshot.decisions[app]?.state ?? .notDetermined, accuracy, by: proof)
    }

    /// Forgets the decision about `app`.
    package func reset(_ app: AppIdentity, by proof: Operator) -> AuthorizationChange {
        .reset(app, by: proof)
    }

    /// Switches location services for the board.
    package func setLocationServices(_ enabled: Bool, by proof: Operator) -> AuthorizationChange {
        .setLocationServices(enabled, by: proof)
    }

    /// Gives (or refuses) `app` temporary full accuracy until its last session ends.
    package mutating func answerTemporaryFullAccuracy(_ app: AppIdentity, granted: Bool, by proof: Operator) {
        temporaryFullAccuracy[app] = granted ? .granted : .declined
    }

    /// Every app the book knows (decided, asking, or with temporary accuracy), by identity,
    /// for `waymark auth list`.
    package func apps(by proof: Operator) -> [AppAuthorizationEntry] {
        let identities = Set(snapshot.decisions.keys).union(snapshot.pending.keys).union(temporaryFullAccuracy.keys)
        return identities.sorted { ($0.kind.rawValue, $0.key) < ($1.kind.rawValue, $1.key) }.map { app in
            AppAuthorizationEntry(
                identity: app, decided: snapshot.decisions[app], pending: snapshot.pending[app],
                temporaryFullAccuracy: temporaryFullAccuracy[app] ?? .none)
        }
    }

    /// The apps with a question for the operator, for `waymark auth pending`.
    package func pending(by proof: Operator) -> [AppAuthorizationEntry] {
        apps(by: proof).filter { entry in
            if entry.pending != nil { return true }
            if case .requested = entry.temporaryFullAccuracy { return true }
            return false
        }
    }

    // MARK: Applying stored changes

    /// Applies `change`, which the store has written.
    package mutating func apply(_ change: AuthorizationChange) {
        switch change {
        case .request(let app, let request):
            snapshot.pending[app] = request
        case .decide(let app, let state, let accuracy, _):
            let decided = DecidedAuthorization(state, accuracy: accuracy ?? snapshot.decisions[app]?.accuracy ?? .full)
            snapshot.decisions[app] = decided.isUndecided ? nil : decided
            snapshot.pending[app] = nil
        case .reset(let app, _):
            snapshot.decisions[app] = nil
            snapshot.pending[app] = nil
        case .setLocationServices(let enabled, _):
            snapshot.locationServicesEnabled = enabled
        }
    }
}

/// One app as the operator sees it.
package struct AppAuthorizationEntry: Hashable, Sendable {
    /// Who it is.
    package var identity: AppIdentity
    /// The operator's decision, if any.
    package var decided: DecidedAuthorization?
    /// Its request, if one waits.
    package var pending: PendingAuthorization?
    /// Its temporary full accuracy.
    package var temporaryFullAccuracy: TemporaryFullAccuracy
}

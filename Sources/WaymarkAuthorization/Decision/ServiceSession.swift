/// The authorization goal of a service session (`CLServiceSession.AuthorizationRequirement`).
package enum SessionAuthorization: Int, Hashable, Sendable, Comparable, CaseIterable {
    /// No authorization is asked for; the session only declares interest.
    case none
    /// Use while the app is in use.
    case whenInUse
    /// Use at any time.
    case always

    package static func < (lhs: SessionAuthorization, rhs: SessionAuthorization) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a held session asks for: its authorization goal and, for a `fullAccuracyPurposeKey`
/// session, the purpose it names.
package struct SessionGoal: Hashable, Sendable {
    /// The authorization goal.
    package var authorization: SessionAuthorization
    /// The purpose for which full accuracy is needed, if the session asks for it.
    package var fullAccuracyPurposeKey: String?

    /// A goal of `authorization`, with full accuracy for `fullAccuracyPurposeKey` if given.
    package init(_ authorization: SessionAuthorization, fullAccuracyPurposeKey: String? = nil) {
        self.authorization = authorization
        self.fullAccuracyPurposeKey = fullAccuracyPurposeKey
    }
}

/// A session an app holds, as the decision sees it.
package struct HeldSession: Hashable, Sendable {
    /// Where a session comes from.
    package enum Origin: Hashable, Sendable {
        /// A `CLServiceSession` the app started (`startServiceSession`).
        case explicit
        /// Iterating `liveUpdates` (or a monitor's events): a `.whenInUse` goal, never full
        /// accuracy, never `always` ("What's new in location authorization", WWDC24).
        case implicit
    }

    /// What it asks for.
    package var goal: SessionGoal
    /// Where it comes from.
    package var origin: Origin
    /// Whether the app was in use when the session started, or another session started in
    /// use was held then (the chain the seed allows: "a session which was started in the
    /// foreground, or while another one was in effect").
    package var startedInUse: Bool

    /// An explicit session with `goal`.
    package static func explicit(_ goal: SessionGoal, startedInUse: Bool) -> HeldSession {
        HeldSession(goal: goal, origin: .explicit, startedInUse: startedInUse)
    }

    /// The implicit session of iterating updates.
    package static func implicit(startedInUse: Bool) -> HeldSession {
        HeldSession(goal: SessionGoal(.whenInUse), origin: .implicit, startedInUse: startedInUse)
    }

    /// Whether a session starting now counts as started in use: the app is in use, or it holds
    /// a session that was.
    package static func startsInUse(appInUse: Bool, held: [HeldSession]) -> Bool {
        appInUse || held.contains(where: \.startedInUse)
    }
}

/// Why an app counts as "in use" on a board without a screen (docs/authorization.md). Any one
/// of them is enough.
package struct InUseEvidence: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A policy marks the app interactive and it is connected.
    package static let interactiveConnection = InUseEvidence(rawValue: 1 << 0)
    /// It holds a background activity session that was started in use.
    package static let backgroundActivitySession = InUseEvidence(rawValue: 1 << 1)
    /// An app in use has delegated work to it (the seed's Apple Watch case, 2015).
    package static let delegation = InUseEvidence(rawValue: 1 << 2)

    /// The evidence a daemon has: the app's `policy` marks it interactive and it is
    /// `connected`; it holds a background activity session started in use; an app in use
    /// `delegated` to it.
    package init(policy: EffectivePolicy, connected: Bool, backgroundActivityStartedInUse: Bool, delegated: Bool) {
        self = []
        if policy.isInteractive, connected { insert(.interactiveConnection) }
        if backgroundActivityStartedInUse { insert(.backgroundActivitySession) }
        if delegated { insert(.delegation) }
    }

    /// Whether the app is in use.
    package var isInUse: Bool { !isEmpty }
}

import Testing
import WaymarkAuthorization
import WaymarkLocation

/// Every diagnostic flag, row by row, derived from the seeds: "What's new in location
/// authorization" (WWDC24, 10212) and "What's New in Core Location" (WWDC15, 714). Each row
/// quotes the line it follows.
@Suite("authorization decisions, flag by flag")
struct DiagnosticsTableTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var seed: String
        var input: AuthorizationInput
        var delivers: Bool
        var flags: AuthorizationDiagnostics
        var question: OperatorQuestion? = nil
        var testDescription: String { seed }
    }

    static let updates = HeldSession.implicit(startedInUse: true)
    static let updatesInBackground = HeldSession.implicit(startedInUse: false)
    static let whenInUse = HeldSession.explicit(SessionGoal(.whenInUse), startedInUse: true)
    static let alwaysInUse = HeldSession.explicit(SessionGoal(.always), startedInUse: true)
    static let alwaysInBackground = HeldSession.explicit(SessionGoal(.always), startedInUse: false)
    static let navigation = HeldSession.explicit(SessionGoal(.whenInUse, fullAccuracyPurposeKey: "Navigation"), startedInUse: true)

    static func input(
        _ state: AuthorizationState, accuracy: AccuracyAuthorization = .full, services: Bool = true,
        pending: Bool = false, explicitOnly: Bool = false, inUse: InUseEvidence = [], temporary: TemporaryFullAccuracy = .none,
        _ sessions: [HeldSession]
    ) -> AuthorizationInput {
        var input = AuthorizationInput(authorization: state, accuracy: accuracy)
        input.locationServicesEnabled = services
        input.requestPending = pending
        input.requiresExplicitSessions = explicitOnly
        input.inUse = inUse
        input.temporaryFullAccuracy = temporary
        input.sessions = sessions
        return input
    }

    static let rows: [Row] = [
        Row(
            seed: "\"if location services are disabled system-wide … .authorizationDenied will be true as well\"",
            input: input(.authorizedAlways, services: false, inUse: .interactiveConnection, [updates]),
            delivers: false, flags: [.authorizationDenied, .authorizationDeniedGlobally]),
        Row(
            seed: "global switch off before anyone decided: \"subject to that denial\", nothing asked",
            input: input(.notDetermined, services: false, inUse: .interactiveConnection, [updates]),
            delivers: false, flags: [.authorizationDenied, .authorizationDeniedGlobally]),
        Row(
            seed: "\"the person using your app does not want to share their location with it\" (.authorizationDenied)",
            input: input(.denied, inUse: .interactiveConnection, [updates]),
            delivers: false, flags: [.authorizationDenied]),
        Row(
            seed: "restricted: locked by the operator's policy, nothing to ask",
            input: input(.restricted, inUse: .interactiveConnection, [updates]),
            delivers: false, flags: [.authorizationRestricted]),
        Row(
            seed: "\"Core Location will present requests … to try to get your app into one of these states\": undecided, in use",
            input: input(.notDetermined, inUse: .interactiveConnection, [updates]),
            delivers: false, flags: [.authorizationRequestInProgress], question: .authorization(.authorizedWhenInUse)),
        Row(
            seed: "a request already waiting for the operator is not asked again",
            input: input(.notDetermined, pending: true, [updates]),
            delivers: false, flags: [.authorizationRequestInProgress]),
        Row(
            seed: "\".insufficientlyInUse for when Core Location can't yet ask for authorization on your app's behalf\"",
            input: input(.notDetermined, [updatesInBackground]),
            delivers: false, flags: [.insufficientlyInUse]),
        Row(
            seed: "\"the first diagnostic will arrive with the .authorizationRequestInProgress property already false\" (granted)",
            input: input(.authorizedWhenInUse, inUse: .interactiveConnection, [whenInUse]),
            delivers: true, flags: []),
        Row(
            seed: "whenInUse and not in use: \"being backgrounded without a LiveActivity or CLBackgroundActivitySession\"",
            input: input(.authorizedWhenInUse, [updatesInBackground]),
            delivers: false, flags: [.insufficientlyInUse]),
        Row(
            seed: "whenInUse in a background activity session started in use: \"it keeps the app effectively in-use\" (WWDC23)",
            input: input(.authorizedWhenInUse, inUse: .backgroundActivitySession, [updatesInBackground]),
            delivers: true, flags: []),
        Row(
            seed: "\"in use status will be transferred to the iPhone app\" (WWDC15): delegated by an app in use",
            input: input(.authorizedWhenInUse, inUse: .delegation, [updatesInBackground]),
            delivers: true, flags: []),
        Row(
            seed: "\".alwaysAuthorizationDenied, when you have set a goal of Always authorization, but it was not granted\"",
            input: input(.authorizedWhenInUse, inUse: .interactiveConnection, [alwaysInUse]),
            delivers: true, flags: [.alwaysAuthorizationDenied]),
        Row(
            seed: "an always goal of a denied app: denied, and always not granted",
            input: input(.denied, inUse: .interactiveConnection, [alwaysInUse]),
            delivers: false, flags: [.authorizationDenied, .alwaysAuthorizationDenied]),
        Row(
            seed: "undecided with an always goal, in use: the request asks for always",
            input: input(.notDetermined, inUse: .interactiveConnection, [alwaysInUse]),
            delivers: false, flags: [.authorizationRequestInProgress], question: .authorization(.authorizedAlways)),
        Row(
            seed: "\"Always authorization will only be effective when you hold one of these\": always app, updates only, not in use",
            input: input(.authorizedAlways, [updatesInBackground]),
            delivers: false, flags: [.insufficientlyInUse]),
        Row(
            seed: "\"a session which was started in the foreground … asserts that continued interest\"",
            input: input(.authorizedAlways, [alwaysInUse, updatesInBackground]),
            delivers: true, flags: []),
        Row(
            seed: "\"you can only start holding one when your app is in the foreground\": always session started in the background",
            input: input(.authorizedAlways, [alwaysInBackground, updatesInBackground]),
            delivers: false, flags: [.insufficientlyInUse]),
        Row(
            seed: "\"disabled entirely by setting the NSLocation-Require-Explicit-Service-Session key\": updates alone",
            input: input(.authorizedWhenInUse, explicitOnly: true, inUse: .interactiveConnection, [updates]),
            delivers: false, flags: [.serviceSessionRequired]),
        Row(
            seed: "\"after which you just need to take that explicit session again\"",
            input: input(.authorizedWhenInUse, explicitOnly: true, inUse: .interactiveConnection, [whenInUse, updates]),
            delivers: true, flags: []),
        Row(
            seed: "explicit sessions required, none held, undecided: nothing asked (\"to take more control over when Core Location will ask\")",
            input: input(.notDetermined, explicitOnly: true, inUse: .interactiveConnection, [updates]),
            delivers: false, flags: [.serviceSessionRequired]),
        Row(
            seed: "\".accuracyLimited as approximate location is updated only every 15 to 20 minutes\"",
            input: input(.authorizedWhenInUse, accuracy: .reduced, inUse: .interactiveConnection, [updates]),
            delivers: true, flags: [.accuracyLimited]),
        Row(
            seed: "\"implicit service sessions don't require full-accuracy\": reduced app iterating updates asks nothing",
            input: input(.authorizedAlways, accuracy: .reduced, inUse: .interactiveConnection, [updates]),
            delivers: true, flags: [.accuracyLimited]),
        Row(
            seed: "\"create an additional CLServiceSession with a fullAccuracyPurposeKey\": asks for temporary full accuracy",
            input: input(.authorizedWhenInUse, accuracy: .reduced, inUse: .interactiveConnection, [whenInUse, navigation, updates]),
            delivers: true, flags: [.accuracyLimited, .authorizationRequestInProgress],
            question: .temporaryFullAccuracy(purposeKey: "Navigation")),
        Row(
            seed: "temporary full accuracy refused: fullAccuracyDenied",
            input: input(.authorizedWhenInUse, accuracy: .reduced, inUse: .interactiveConnection, temporary: .declined, [navigation, updates]),
            delivers: true, flags: [.accuracyLimited, .fullAccuracyDenied]),
        Row(
            seed: "\"Core Location won't ask people to adjust your app's authorization level while it's in the background\"",
            input: input(.authorizedAlways, accuracy: .reduced, [alwaysInUse, navigation, updatesInBackground]),
            delivers: true, flags: [.accuracyLimited, .fullAccuracyDenied]),
        Row(
            seed: "temporary full accuracy given: full accuracy, nothing to report",
            input: input(.authorizedWhenInUse, accuracy: .reduced, inUse: .interactiveConnection, temporary: .granted, [navigation, updates]),
            delivers: true, flags: []),
        Row(
            seed: "a .none goal: \"with the .none authorization goal, to take more control over when Core Location will ask\"",
            input: input(.notDetermined, inUse: .interactiveConnection, [HeldSession.explicit(SessionGoal(.none), startedInUse: true)]),
            delivers: false, flags: []),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        let decision = AuthorizationRules.decide(row.input)
        #expect(decision.diagnostics == row.flags)
        #expect(decision.deliversLocations == row.delivers)
        #expect(decision.question == row.question)
    }

    @Test("every flag is set by some row")
    func everyFlagIsCovered() {
        let set = Self.rows.reduce(AuthorizationDiagnostics()) { $0.union($1.flags) }
        #expect(set.names == AuthorizationDiagnostics.named.map(\.1))
    }

    @Test("session diagnostics: alwaysAuthorizationDenied only on the always session, fullAccuracyDenied only on the purpose-key one; updates carry neither but accuracyLimited")
    func perSessionFlags() {
        let decision = AuthorizationRules.decide(
            Self.input(.authorizedWhenInUse, accuracy: .reduced, inUse: .interactiveConnection, temporary: .declined,
                [Self.whenInUse, Self.alwaysInUse, Self.navigation, Self.updates]))
        #expect(decision.diagnostics == [.alwaysAuthorizationDenied, .fullAccuracyDenied, .accuracyLimited])
        #expect(decision.sessionDiagnostics(for: Self.whenInUse) == [])
        #expect(decision.sessionDiagnostics(for: Self.alwaysInUse) == [.alwaysAuthorizationDenied])
        #expect(decision.sessionDiagnostics(for: Self.navigation) == [.fullAccuracyDenied])
        #expect(decision.updateDiagnostics == [.accuracyLimited])
        #expect(decision.updateDiagnostics.names == ["accuracyLimited"])
        #expect(decision.locationUpdateDiagnostics.names == ["accuracyLimited"])
    }

    @Test("an update's Diagnostics carry the same flags as the decision, each under its own name, and add to what the update had")
    func updateDiagnosticsValue() {
        for (flag, name) in AuthorizationDiagnostics.named {
            #expect(Diagnostics(flag).names == [name])
        }
        let every = AuthorizationDiagnostics.named.reduce(AuthorizationDiagnostics()) { $0.union($1.0) }
        let decision = AuthorizationDecision(deliversLocations: false, accuracy: .reduced, diagnostics: every, question: nil)
        var update = Diagnostics()
        update.locationUnavailable = true
        update.formUnion(decision.locationUpdateDiagnostics)
        #expect(Set(update.names) == Set(decision.updateDiagnostics.names + ["locationUnavailable"]))
    }

    @Test("a session started while another started in use was held counts as started in use (\"or while another one was in effect\")")
    func sessionChain() {
        #expect(HeldSession.startsInUse(appInUse: false, held: [Self.alwaysInUse]))
        #expect(!HeldSession.startsInUse(appInUse: false, held: [Self.alwaysInBackground, Self.updatesInBackground]))
        #expect(HeldSession.startsInUse(appInUse: true, held: []))
    }
}

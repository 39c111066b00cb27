import Testing
import WaymarkAuthorization

@Suite("the authorization book")
struct AuthorizationBookTests {
    let tracker = AppIdentity.systemUnit("tracker.service")
    let root = Operator.verify(uid: 0, groups: [], administratorGroup: nil)!
    let interactive: InUseEvidence = .interactiveConnection
    let updates = [HeldSession.implicit(startedInUse: true)]

    @Test("only root or a member of waymark-admin is the operator")
    func operatorProof() {
        #expect(Operator.verify(uid: 0, groups: [], administratorGroup: nil)?.uid == 0)
        #expect(Operator.verify(uid: 1000, groups: [1000, 990], administratorGroup: 990)?.uid == 1000)
        #expect(Operator.verify(uid: 1000, groups: [1000], administratorGroup: 990) == nil)
        #expect(Operator.verify(uid: 1000, groups: [1000, 990], administratorGroup: nil) == nil)
    }

    @Test("a request waits for the operator; the first answer ends it")
    func requestThenGrant() throws {
        var book = AuthorizationBook(AuthorizationSnapshot())
        let first = book.decide(tracker, policy: EffectivePolicy(), inUse: interactive, sessions: updates)
        #expect(first.question == .authorization(.authorizedWhenInUse))
        #expect(first.updateDiagnostics == [.authorizationRequestInProgress])
        let change = try #require(try book.ask(first.question!, for: tracker, uid: 998, usageDescription: "Logs trips"))
        #expect(change == .request(tracker, PendingAuthorization(requested: .authorizedWhenInUse, usageDescription: "Logs trips", uid: 998)))
        book.apply(change)
        let waiting = book.decide(tracker, policy: EffectivePolicy(), inUse: interactive, sessions: updates)
        #expect(waiting.question == nil && waiting.updateDiagnostics == [.authorizationRequestInProgress] && !waiting.deliversLocations)
        #expect(book.pending(by: root).map(\.identity) == [tracker])
        book.apply(book.grant(tracker, .authorizedWhenInUse, accuracy: .reduced, by: root))
        #expect(book.pending(by: root).isEmpty)
        let granted = book.decide(tracker, policy: EffectivePolicy(), inUse: interactive, sessions: updates)
        #expect(granted.deliversLocations && granted.accuracy == .reduced && granted.updateDiagnostics == [.accuracyLimited])
    }

    @Test("deny and reset answer too; the global switch denies everyone")
    func denyResetAndSwitch() {
        var book = AuthorizationBook(AuthorizationSnapshot())
        book.apply(.request(tracker, PendingAuthorization(requested: .authorizedAlways, usageDescription: "", uid: 998)))
        book.apply(book.deny(tracker, by: root))
        #expect(book.pending(by: root).isEmpty)
        #expect(book.decide(tracker, policy: EffectivePolicy(), inUse: interactive, sessions: updates).updateDiagnostics == [.authorizationDenied])
        book.apply(book.reset(tracker, by: root))
        #expect(book.authorization(of: tracker, policy: EffectivePolicy()) == DecidedAuthorization(.notDetermined, accuracy: .full))
        #expect(book.snapshot.decisions.isEmpty)
        book.apply(book.grant(tracker, .authorizedAlways, accuracy: .full, by: root))
        book.apply(book.setLocationServices(false, by: root))
        let off = book.decide(tracker, policy: EffectivePolicy(), inUse: interactive, sessions: updates)
        #expect(off.updateDiagnostics == [.authorizationDenied, .authorizationDeniedGlobally] && !off.deliversLocations)
        book.apply(book.setLocationServices(true, by: root))
        #expect(book.decide(tracker, policy: EffectivePolicy(), inUse: interactive, sessions: updates).deliversLocations)
    }

    @Test("policy: a restricted lock beats the operator; a pre-authorization holds until the operator decides")
    func policyOverlay() {
        var book = AuthorizationBook(AuthorizationSnapshot())
        var policy = EffectivePolicy()
        policy.authorization = .authorizedWhenInUse
        policy.accuracy = .reduced
        #expect(book.authorization(of: tracker, policy: policy) == DecidedAuthorization(.authorizedWhenInUse, accuracy: .reduced))
        // The operator's accuracy, even without a state, beats the policy's.
        var full = policy
        full.accuracy = .full
        book.apply(book.setAccuracy(tracker, .reduced, by: root))
        #expect(book.authorization(of: tracker, policy: full) == DecidedAuthorization(.authorizedWhenInUse, accuracy: .reduced))
        book.apply(book.deny(tracker, by: root))
        #expect(book.authorization(of: tracker, policy: policy).state == .denied)
        book.apply(book.grant(tracker, .authorizedAlways, accuracy: .full, by: root))
        var locked = policy
        locked.isRestricted = true
        #expect(book.authorization(of: tracker, policy: locked).state == .restricted)
        #expect(book.decide(tracker, policy: locked, inUse: interactive, sessions: updates).updateDiagnostics == [.authorizationRestricted])
        book.apply(book.setAccuracy(tracker, .reduced, by: root))
        #expect(book.authorization(of: tracker, policy: EffectivePolicy()) == DecidedAuthorization(.authorizedAlways, accuracy: .reduced))
    }

    @Test("temporary full accuracy: asked by a purpose-key session, given by the operator, lapsing with the last session")
    func temporaryFullAccuracy() throws {
        var book = AuthorizationBook(AuthorizationSnapshot())
        book.apply(book.grant(tracker, .authorizedWhenInUse, accuracy: .reduced, by: root))
        let navigation = [HeldSession.explicit(SessionGoal(.whenInUse, fullAccuracyPurposeKey: "Navigation"), startedInUse: true)] + updates
        let asked = book.decide(tracker, policy: EffectivePolicy(), inUse: interactive, sessions: navigation)
        #expect(asked.question == .temporaryFullAccuracy(purposeKey: "Navigation"))
        #expect(try book.ask(asked.question!, for: tracker, uid: 998, usageDescription: "") == nil)
        #expect(book.pending(by: root).map(\.temporaryFullAccuracy) == [.requested(purposeKey: "Navigation")])
        book.answerTemporaryFullAccuracy(tracker, granted: true, by: root)
        let full = book.decide(tracker, policy: EffectivePolicy(), inUse: interactive, sessions: navigation)
        #expect(full.accuracy == .full && full.updateDiagnostics == [] && full.deliversLocations)
        book.lastSessionEnded(tracker)
        let lapsed = book.decide(tracker, policy: EffectivePolicy(), inUse: interactive, sessions: updates)
        #expect(lapsed.accuracy == .reduced && lapsed.updateDiagnostics == [.accuracyLimited])
        #expect(throws: AuthorizationRequestError.invalidPurposeKey) {
            try book.ask(.temporaryFullAccuracy(purposeKey: String(repeating: "k", count: 65)), for: tracker, uid: 998, usageDescription: "")
        }
    }

    @Test("list shows every app the book knows, by identity")
    func list() {
        var book = AuthorizationBook(AuthorizationSnapshot())
        let logger = AppIdentity.userUnit("logger.service", uid: 1000)
        book.apply(.request(logger, PendingAuthorization(requested: .authorizedWhenInUse, usageDescription: "x", uid: 1000)))
        book.apply(book.grant(tracker, .authorizedAlways, accuracy: .full, by: root))
        #expect(book.apps(by: root).map(\.identity) == [tracker, logger])
        #expect(book.apps(by: root)[0].decided == DecidedAuthorization(.authorizedAlways, accuracy: .full))
    }
}

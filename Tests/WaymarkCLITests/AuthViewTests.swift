import Testing
import WaymarkCLI
import WaymarkProtocol

@Suite("waymark auth list and pending")
struct AuthViewTests {
    @Test("a question without a usage description or a purpose ends with its uid, not a dangling colon")
    func questionsWithoutWords() {
        let entry = AuthorizationAppEntry(
            app: AppReference(kind: "executable", key: "0:/usr/bin/waymark"), authorization: nil, fullAccuracy: nil,
            request: WaitingRequest(authorization: .whenInUse, usageDescription: "", uid: 0),
            temporaryFullAccuracy: .requested, purposeKey: nil)
        #expect(AuthView.describe(entry) == [
            "executable:0:/usr/bin/waymark  undecided, full accuracy", "  asks for whenInUse (uid 0)", "  asks for temporary full accuracy",
        ])
    }
}

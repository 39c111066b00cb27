import Foundation
import Glibc
import Testing
import WaymarkAuthorization
import WaymarkStore
import WaymarkSystem

/// The calls docs/authorization.md ("Wiring") lists for the daemon, in its order, against real
/// files, a real store and a real socket: they fit together and do what the page says.
@Suite("authorization wiring, as the daemon will do it")
struct WiringTests {
    @Test("start, accept, decide, ask, answer, restart")
    func wiring() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let policyDirectory = directory.path + "/apps.d"
        try FileManager.default.createDirectory(atPath: policyDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let policyText = "[[app]]\nuid = \(geteuid())\ninteractive = true\napp_id = \"org.example.test\"\n"
        #expect(FileManager.default.createFile(atPath: policyDirectory + "/test.toml", contents: Data(policyText.utf8), attributes: [.posixPermissions: 0o644]))

        // At start.
        let files = try ConfigurationDirectory(path: policyDirectory, suffix: ".toml", trustedOwners: [geteuid()]).read()
        let policies = try PolicySet(files: files.map { (path: $0.path, bytes: $0.bytes) })
        let store = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
        var book = AuthorizationBook(try store.snapshot())
        var secret = try store.deviceSecret()
        if secret == nil { secret = try store.keepDeviceSecret(try RandomBytes.generate(count: 32)) }
        let reduced = ReducedAccuracy(secret: try #require(secret))
        #expect(reduced.current == nil)
        let adminGroup = UserGroups.groupID(named: UserGroups.administratorGroupName)

        // At accept.
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let peer = try FileDescriptor(rawValue: pair[0]).peerProcess()
        let facts = ProcessFacts(uid: peer.credentials.uid, cgroupText: peer.cgroup, executableLink: peer.executableLink, statText: peer.stat)
        let app = policies.identity(of: facts, declaredAppID: "org.example.test")
        #expect(app == .appID("org.example.test"))
        let policy = policies.policy(for: facts)
        let proof = Operator.verify(uid: facts.uid, groups: UserGroups.groups(ofUser: facts.uid), administratorGroup: adminGroup)
        #expect((proof != nil) == (geteuid() == 0))

        // A decision raises a request, stored before it is applied.
        let inUse = InUseEvidence(policy: policy, connected: true, backgroundActivityStartedInUse: false, delegated: false)
        let held = [HeldSession.implicit(startedInUse: HeldSession.startsInUse(appInUse: inUse.isInUse, held: []))]
        let asking = book.decide(app, policy: policy, inUse: inUse, sessions: held)
        #expect(asking.updateDiagnostics == [.authorizationRequestInProgress])
        let question = try #require(asking.question)
        let change = try #require(try book.ask(question, for: app, uid: facts.uid, usageDescription: "tests the wiring"))
        try store.apply(change, at: .now)
        book.apply(change)

        // The operator answers.
        let root = try #require(Operator.verify(uid: 0, groups: [], administratorGroup: adminGroup))
        #expect(book.pending(by: root).map(\.identity) == [app])
        let grant = book.grant(app, .authorizedWhenInUse, accuracy: .reduced, by: root)
        try store.apply(grant, at: .now)
        book.apply(grant)
        let granted = book.decide(app, policy: policy, inUse: inUse, sessions: held)
        #expect(granted.deliversLocations && granted.accuracy == .reduced && granted.updateDiagnostics == [.accuracyLimited])

        // A restarted daemon finds the same.
        let restarted = AuthorizationStore(database: try StoreSchema.open(path: directory.database))
        #expect(try restarted.snapshot() == book.snapshot)
        #expect(try restarted.deviceSecret() == secret)
    }
}

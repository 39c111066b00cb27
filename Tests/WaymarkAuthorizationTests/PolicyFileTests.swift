import Foundation
import Testing
import WaymarkAuthorization

@Suite("policy files")
struct PolicyFileTests {
    static let example = """
        # /etc/waymark/apps.d/board.toml
        [[app]]
        unit = "tracker.service"
        app_id = "com.example.tracker"
        authorization = "always"
        accuracy = "reduced"
        require_explicit_sessions = true

        [[app]]
        executable = "/usr/bin/kiosk"
        uid = 1000
        interactive = true

        [[app]]
        uid = 1002
        restricted = true
        """

    @Test("relaunch names a trigger file, and nothing that could leave the relaunch directory")
    func relaunch() throws {
        let entries = try PolicyFile.parse("[[app]]\nunit = \"tracker.service\"\nrelaunch = \"tracker\"\n", file: "r.toml")
        #expect(entries.first?.relaunch == "tracker")
        #expect(PolicySet(entries).policy(for: ProcessFacts(uid: 7, unit: SystemdUnit("tracker.service"))).relaunch == "tracker")
        for bad in ["../etc", "a/b", ".hidden", "", String(repeating: "x", count: 65)] {
            #expect(throws: PolicyError.self) {
                try PolicyFile.parse("[[app]]\nuid = 1\nrelaunch = \"\(bad)\"\n", file: "r.toml")
            }
        }
    }

    @Test("every key of docs/authorization.md")
    func example() throws {
        let entries = try PolicyFile.parse(Self.example, file: "board.toml")
        #expect(entries.count == 3)
        #expect(entries[0].selector == AppSelector(unit: "tracker.service"))
        #expect(entries[0].appID == "com.example.tracker")
        #expect(entries[0].authorization == .authorizedAlways && entries[0].accuracy == .reduced)
        #expect(entries[0].requiresExplicitSessions && !entries[0].isInteractive && !entries[0].isRestricted)
        #expect(entries[0].origin == "board.toml:2")
        #expect(entries[1].selector == AppSelector(executable: "/usr/bin/kiosk", uid: 1000) && entries[1].isInteractive)
        #expect(entries[2].selector == AppSelector(uid: 1002) && entries[2].isRestricted)
    }

    @Test("errors name the file and line", arguments: [
        ("[[app]]\nunit = \"a.service\"\ncolour = \"blue\"\n", "p.toml:3: colour: unknown key"),
        ("[[app]]\nauthorization = \"always\"\n", "p.toml:1: an [[app]] needs unit, executable, uid or terminal"),
        ("[[app]]\nterminal = false\n", "p.toml:2: terminal: only true"),
        ("[[app]]\nuid = -1\n", "p.toml:2: uid: expected a uid"),
        ("[[app]]\nuid = 4294967295\n", "p.toml:2: uid: expected a uid"),
        ("[[app]]\nunit = \"tracker\"\n", "p.toml:2: unit: \"tracker\" is not a .service or .scope unit name"),
        ("[[app]]\nexecutable = \"bin/x\"\n", "p.toml:2: executable: expected an absolute path"),
        ("[[app]]\nuid = 5\nauthorization = \"sometimes\"\n", "p.toml:3: authorization: expected one of"),
        ("[[app]]\nuid = 5\nrestricted = true\nauthorization = \"always\"\n", "p.toml:4: authorization: an app locked as restricted"),
        ("[[app]]\nuid = 5\naccuracy = \"reduced\"\n", "p.toml:3: accuracy: accuracy goes with"),
        ("[[app]]\nuid = 5\napp_id = \"com example\"\n", "p.toml:3: app_id: expected 1 to 255"),
        ("[[app]]\nuid = 5\ninteractive = \"yes\"\n", "p.toml:3: interactive: expected true or false"),
        ("uid = 5\n", "p.toml:1: uid outside an [[app]] table"),
        ("[apps]\nuid = 5\n", "p.toml:2: uid outside an [[app]] table"),
        ("[[apps]]\nuid = 5\n", "p.toml:1: unknown table [[apps]]"),
        ("[[app]]\nuid = 5\nuid = 6\n", "p.toml:3: key 'uid' is set twice"),
    ])
    func errors(_ text: String, _ expected: String) {
        #expect {
            _ = try PolicyFile.parse(text, file: "p.toml")
        } throws: { error in
            (error as? PolicyError)?.description.hasPrefix(expected) == true
        }
    }

    @Test("terminal = true selects the processes in the foreground of a terminal, whoever runs them")
    func terminalSelector() throws {
        let entries = try PolicyFile.parse("[[app]]\nterminal = true\ninteractive = true\n", file: "p.toml")
        #expect(entries.map(\.selector) == [AppSelector(atTerminal: true)])
        let policies = PolicySet(entries)
        #expect(policies.policy(for: ProcessFacts(uid: 1500, atTerminal: true)).isInteractive)
        #expect(!policies.policy(for: ProcessFacts(uid: 1500)).isInteractive)
        #expect(!policies.policy(for: ProcessFacts(uid: 998, unit: SystemdUnit("tracker.service"))).isInteractive)
        // Who the app is does not change: the terminal is evidence of use, not an identity.
        #expect(policies.identity(of: ProcessFacts(uid: 1500, atTerminal: true), declaredAppID: nil) == .user(1500))
    }

    @Test("a file may hold at most 256 entries")
    func tooManyEntries() throws {
        let text = String(repeating: "[[app]]\nuid = 7\n", count: PolicyFile.maximumEntries + 1)
        #expect(throws: PolicyError.self) { try PolicyFile.parse(text, file: "p.toml") }
        #expect(try PolicyFile.parse(String(repeating: "[[app]]\nuid = 7\n", count: PolicyFile.maximumEntries), file: "p.toml").count == 256)
    }

    @Test("selectors: a unit alone is a system unit, with uid a user unit; every given fact must match")
    func selectors() {
        let system = ProcessFacts(uid: 998, unit: SystemdUnit("tracker.service"), executable: "/usr/bin/tracker")
        let user = ProcessFacts(uid: 1000, unit: SystemdUnit("tracker.service", userManager: 1000), executable: "/usr/bin/tracker")
        #expect(AppSelector(unit: "tracker.service").matches(system))
        #expect(!AppSelector(unit: "tracker.service").matches(user))
        #expect(AppSelector(unit: "tracker.service", uid: 1000).matches(user))
        #expect(!AppSelector(unit: "tracker.service", uid: 1000).matches(system))
        #expect(AppSelector(executable: "/usr/bin/tracker").matches(system) && AppSelector(executable: "/usr/bin/tracker").matches(user))
        #expect(!AppSelector(executable: "/usr/bin/tracker", uid: 1000).matches(system))
        #expect(!AppSelector().matches(system))
    }

    @Test("entries that disagree: the lesser privilege wins; locks and marks add up")
    func merging() throws {
        let text = """
            [[app]]
            executable = "/usr/bin/tracker"
            authorization = "always"
            accuracy = "full"
            [[app]]
            uid = 1000
            authorization = "whenInUse"
            accuracy = "reduced"
            interactive = true
            [[app]]
            unit = "tracker.service"
            uid = 1000
            require_explicit_sessions = true
            """
        let policies = PolicySet(try PolicyFile.parse(text, file: "p.toml"))
        let facts = ProcessFacts(uid: 1000, unit: SystemdUnit("tracker.service", userManager: 1000), executable: "/usr/bin/tracker")
        let policy = policies.policy(for: facts)
        #expect(policy.authorization == .authorizedWhenInUse && policy.accuracy == .reduced)
        #expect(policy.isInteractive && policy.requiresExplicitSessions && !policy.isRestricted)
        let elsewhere = policies.policy(for: ProcessFacts(uid: 1001, executable: "/usr/bin/tracker"))
        #expect(elsewhere.authorization == .authorizedAlways && elsewhere.accuracy == .full && !elsewhere.isInteractive)
        #expect(policies.policy(for: ProcessFacts(uid: 1001)) == EffectivePolicy())
    }
}

@Suite("the board's policy from its files")
struct PolicySetTests {
    @Test("files are read in order; one bad file (or bytes that are not UTF-8) and none is used")
    func files() throws {
        let good = (path: "apps.d/a.toml", bytes: Array("[[app]]\nuid = 1000\ninteractive = true\n".utf8))
        let policies = try PolicySet(files: [good, (path: "apps.d/b.toml", bytes: Array("[[app]]\nuid = 1001\nrestricted = true\n".utf8))])
        #expect(policies.entries.map(\.origin) == ["apps.d/a.toml:1", "apps.d/b.toml:1"])
        #expect(throws: PolicyError(file: "apps.d/c.toml", line: nil, "not UTF-8 text")) {
            try PolicySet(files: [good, (path: "apps.d/c.toml", bytes: [0x5B, 0xFF])])
        }
        #expect(throws: PolicyError.self) { try PolicySet(files: [good, (path: "apps.d/d.toml", bytes: Array("[[app]]\n".utf8))]) }
    }

    @Test("in use: interactive and connected, a background activity session started in use, or delegation")
    func inUse() throws {
        var interactive = EffectivePolicy()
        interactive.isInteractive = true
        #expect(InUseEvidence(policy: interactive, connected: true, backgroundActivityStartedInUse: false, delegated: false) == .interactiveConnection)
        #expect(!InUseEvidence(policy: interactive, connected: false, backgroundActivityStartedInUse: false, delegated: false).isInUse)
        #expect(!InUseEvidence(policy: EffectivePolicy(), connected: true, backgroundActivityStartedInUse: false, delegated: false).isInUse)
        #expect(InUseEvidence(policy: EffectivePolicy(), connected: true, backgroundActivityStartedInUse: true, delegated: true) == [.backgroundActivitySession, .delegation])
    }
}

@Suite("the example policy of docs/authorization")
struct ExamplePolicyTests {
    @Test("docs/authorization/apps.d/board.toml parses, with the meaning its comments give")
    func example() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/authorization/apps.d")
        let path = directory.appendingPathComponent("board.toml").path
        let policies = try PolicySet(files: [(path: path, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))])
        let logger = ProcessFacts(uid: 998, unit: SystemdUnit("trip-logger.service"), executable: "/usr/bin/trip-logger")
        #expect(policies.identity(of: logger, declaredAppID: "org.example.triplogger") == .appID("org.example.triplogger"))
        #expect(policies.policy(for: logger).authorization == .authorizedAlways && policies.policy(for: logger).requiresExplicitSessions)
        #expect(policies.policy(for: ProcessFacts(uid: 1000, executable: "/usr/bin/kiosk-map")).isInteractive)
        let weather = ProcessFacts(uid: 1001, unit: SystemdUnit("weather.service", userManager: 1001))
        #expect(policies.policy(for: weather).authorization == .authorizedWhenInUse)
        #expect(policies.policy(for: ProcessFacts(uid: 1500, executable: "/usr/bin/anything")).isRestricted)
    }

    @Test("the installed policy, Board/apps.d/terminal.toml: a command at a terminal is in use, a service is not")
    func installed() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Board/apps.d/terminal.toml").path
        let policies = try PolicySet(files: [(path: path, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))])
        var interactive = EffectivePolicy()
        interactive.isInteractive = true
        #expect(policies.policy(for: ProcessFacts(uid: 1500, atTerminal: true)) == interactive)
        #expect(policies.policy(for: ProcessFacts(uid: 1500)) == EffectivePolicy())
        #expect(policies.policy(for: ProcessFacts(uid: 998, unit: SystemdUnit("tracker.service"))) == EffectivePolicy())
    }
}

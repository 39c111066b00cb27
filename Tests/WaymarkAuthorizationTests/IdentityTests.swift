import Testing
import WaymarkAuthorization

@Suite("who an app is")
struct IdentityTests {
    static func unit(_ text: String) -> SystemdUnit? {
        ControlGroup.unit(inProcCgroup: Array(text.utf8))
    }

    @Test("a system service is its unit")
    func systemService() {
        #expect(Self.unit("0::/system.slice/tracker.service\n") == SystemdUnit("tracker.service"))
        #expect(Self.unit("0::/system.slice/system-getty.slice/getty@tty1.service\n") == SystemdUnit("getty@tty1.service"))
    }

    @Test("a user service is a unit of that user's manager")
    func userService() {
        #expect(
            Self.unit("0::/user.slice/user-1000.slice/user@1000.service/app.slice/logger.service\n")
                == SystemdUnit("logger.service", userManager: 1000))
        #expect(
            Self.unit("0::/user.slice/user-1001.slice/user@1001.service/app.slice/app-foo-1234.scope\n")
                == SystemdUnit("app-foo-1234.scope", userManager: 1001))
    }

    @Test("a login session is no app; the user manager itself is its own unit")
    func sessionsAndManagers() {
        #expect(Self.unit("0::/user.slice/user-1000.slice/session-4.scope\n") == nil)
        #expect(Self.unit("0::/user.slice/user-1000.slice/user@1000.service/init.scope\n") == SystemdUnit("user@1000.service"))
        #expect(Self.unit("0::/\n") == nil)
        #expect(Self.unit("0::/init.scope\n") == SystemdUnit("init.scope"))
    }

    @Test("below a unit, its delegated subtree proves nothing: the outermost unit counts")
    func delegatedSubtree() {
        // A container (Delegate=yes) may name its own cgroups anything, gpsd.service included.
        #expect(Self.unit("0::/system.slice/docker-4f2a.scope/system.slice/gpsd.service\n") == SystemdUnit("docker-4f2a.scope"))
        #expect(
            Self.unit("0::/user.slice/user-1000.slice/user@1000.service/app.slice/a.service/tracker.service\n")
                == SystemdUnit("a.service", userManager: 1000))
        // A cgroup name with a newline forges a second line: ambiguous, so no unit at all.
        #expect(Self.unit("0::/user.slice/user-1000.slice/session-2.scope/x\n0::/system.slice/gpsd.service\n") == nil)
        #expect(Self.unit("1:name=systemd:/user.slice/x\n1:name=systemd:/system.slice/gpsd.service\n") == nil)
        // Under a login session, a cgroup named like a system service is still no unit.
        #expect(Self.unit("0::/user.slice/user-1000.slice/session-2.scope/tracker.service\n") == nil)
    }

    @Test("a cgroup v1 hierarchy's name=systemd line, when there is no unified one")
    func legacyHierarchy() {
        let text = "12:cpu,cpuacct:/system.slice/x.service\n1:name=systemd:/system.slice/tracker.service\n"
        #expect(Self.unit(text) == SystemdUnit("tracker.service"))
    }

    @Test("hostile text yields no unit rather than a forged one", arguments: [
        "0::/system.slice/evil\nname.service\n", "0::/system.slice/ünïcode.service\n", "0::/system.slice/.service/../x.service",
        "0::/system.slice/" + String(repeating: "a", count: 300) + ".service\n", "garbage", "", "0::",
        "0::/user.slice/user-1000.slice/user@99999999999.service/app.slice/x.service",
    ])
    func hostile(_ text: String) {
        let unit = Self.unit(text)
        #expect(unit == nil || unit?.name == "user@99999999999.service")
        #expect(unit?.userManager == nil)
    }

    @Test("random bytes never trap and never yield an invalid name")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0:/.@-_servicecopeslicuser1\n\\ü".utf8)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0..<120, using: &generator)).map { _ in
                Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            if let unit = ControlGroup.unit(inProcCgroup: bytes) {
                #expect(ControlGroup.isUnitName(Substring(unit.name)))
            }
            _ = ExecutableLink.path(fromLink: bytes)
        }
    }

    @Test("the executable: absolute, the kernel's \" (deleted)\" mark removed, anything else refused")
    func executable() {
        #expect(ExecutableLink.path(fromLink: Array("/usr/bin/tracker".utf8)) == "/usr/bin/tracker")
        #expect(ExecutableLink.path(fromLink: Array("/usr/bin/tracker (deleted)".utf8)) == "/usr/bin/tracker")
        #expect(ExecutableLink.path(fromLink: Array("tracker".utf8)) == nil)
        #expect(ExecutableLink.path(fromLink: []) == nil)
        #expect(ExecutableLink.path(fromLink: Array("/a\0b".utf8)) == nil)
        #expect(ExecutableLink.path(fromLink: [UInt8(ascii: "/"), 0xFF]) == nil)
        #expect(ExecutableLink.path(fromLink: Array(("/" + String(repeating: "x", count: 4_096)).utf8)) == nil)
    }

    @Test("the rule: unit, else executable and uid, else uid; a declared appID only where a policy binds it")
    func rule() {
        var bound = AppPolicy(selector: AppSelector(unit: "tracker.service"), origin: "apps.d/t.toml:1")
        bound.appID = "com.example.tracker"
        var byUID = AppPolicy(selector: AppSelector(uid: 1000), origin: "apps.d/t.toml:5")
        byUID.appID = "com.example.shell"
        let policies = PolicySet([bound, byUID])
        let service = ProcessFacts(uid: 998, unit: SystemdUnit("tracker.service"), executable: "/usr/bin/tracker")
        #expect(policies.identity(of: service, declaredAppID: "com.example.tracker") == .appID("com.example.tracker"))
        // The same claim from another unit is not believed; it is known by its unit.
        let other = ProcessFacts(uid: 998, unit: SystemdUnit("other.service"), executable: "/usr/bin/tracker")
        #expect(policies.identity(of: other, declaredAppID: "com.example.tracker") == .systemUnit("other.service"))
        #expect(policies.identity(of: service, declaredAppID: nil) == .systemUnit("tracker.service"))
        let user = ProcessFacts(uid: 1001, unit: SystemdUnit("logger.service", userManager: 1001), executable: "/usr/bin/logger")
        #expect(policies.identity(of: user, declaredAppID: "com.example.shell") == .userUnit("logger.service", uid: 1001))
        let shell = ProcessFacts(uid: 1000, unit: nil, executable: "/usr/bin/python3")
        #expect(policies.identity(of: shell, declaredAppID: "com.example.shell") == .appID("com.example.shell"))
        #expect(policies.identity(of: shell, declaredAppID: "com.example.tracker") == .executable("/usr/bin/python3", uid: 1000))
        #expect(policies.identity(of: ProcessFacts(uid: 1002), declaredAppID: nil) == .user(1002))
    }

    @Test("an app known only by its identity has the policy of the entries that name it, and none that need a fact it does not carry")
    func policyOfAnIdentity() {
        /// An entry for `selector` with the trigger `relaunch`, changed by `change`.
        func entry(_ selector: AppSelector, _ relaunch: String?, _ change: (inout AppPolicy) -> Void = { _ in }) -> AppPolicy {
            var entry = AppPolicy(selector: selector, origin: "apps.d/a.toml")
            entry.relaunch = relaunch
            change(&entry)
            return entry
        }
        let policies = PolicySet([
            entry(AppSelector(unit: "tracker.service"), "tracker"),
            entry(AppSelector(unit: "tracker.service", uid: 1000), "user-tracker"),
            entry(AppSelector(executable: "/usr/bin/logger", uid: 1000), "logger") { $0.authorization = .denied },
            entry(AppSelector(uid: 1001), "geofence") { $0.appID = "com.example.geofence" },
            entry(AppSelector(uid: 1002), "shell"),
            entry(AppSelector(uid: 1002, atTerminal: true), nil) { $0.isRestricted = true },
        ])
        #expect(policies.policy(of: .systemUnit("tracker.service")).relaunch == "tracker")
        #expect(policies.policy(of: .userUnit("tracker.service", uid: 1000)).relaunch == "user-tracker")
        #expect(policies.policy(of: .userUnit("tracker.service", uid: 1001)).relaunch == nil)
        let logger = policies.policy(of: .executable("/usr/bin/logger", uid: 1000))
        #expect(logger.relaunch == "logger" && logger.authorization == .denied)
        #expect(policies.policy(of: .executable("/usr/bin/logger", uid: 1003)).relaunch == nil)
        #expect(policies.policy(of: .appID("com.example.geofence")).relaunch == "geofence")
        // The uid's own entry, not the one that needs a terminal (a fact an identity does not carry).
        let shell = policies.policy(of: .user(1002))
        #expect(shell.relaunch == "shell" && !shell.isRestricted)
        #expect(policies.policy(of: AppIdentity(.executable, "no uid")) == EffectivePolicy())
    }

    @Test("the display form names the kind and escapes control characters")
    func display() {
        #expect(AppIdentity.systemUnit("tracker.service").description == "unit:tracker.service")
        #expect(AppIdentity.userUnit("logger.service", uid: 1000).description == "userUnit:1000:logger.service")
        #expect(AppIdentity.executable("/tmp/x\nforged log line", uid: 1000).description == "executable:1000:/tmp/x\\u{a}forged log line")
        #expect(AppIdentity.user(1002).description == "uid:1002")
        #expect(AppIdentity.user(1002).briefDescription == "uid:1002")
    }

    @Test("a brief display form is at most 128 bytes, cut on a character and marked, for status lists")
    func briefDisplay() {
        // The longest path the kernel gives, of two-byte characters and control characters.
        let path = "/" + String(repeating: "é\u{1}", count: 1_365)
        let brief = AppIdentity.executable(path, uid: 1000).briefDescription
        #expect(brief.utf8.count <= AppIdentity.briefDescriptionBytes && brief.utf8.count > AppIdentity.briefDescriptionBytes - 8)
        #expect(brief.hasPrefix("executable:1000:/é\\u{1}é") && brief.hasSuffix("…"))
        let fits = "executable:1000:/" + String(repeating: "a", count: AppIdentity.briefDescriptionBytes - 17)
        #expect(AppIdentity.executable(String(fits.dropFirst(16)), uid: 1000).briefDescription == fits)
        #expect(ProcessFacts(uid: 5, cgroupText: Array("0::/system.slice/a.service\n".utf8), executableLink: nil, statText: nil)
            == ProcessFacts(uid: 5, unit: SystemdUnit("a.service"), executable: nil))
    }

    /// `/proc/PID/stat` of a process named `name` in process group `group`, on terminal
    /// `terminal` whose foreground group is `foreground` (proc(5): pid (comm) state ppid pgrp
    /// session tty_nr tpgid flags …).
    static func stat(name: String = "waymark", group: Int = 4242, terminal: Int = 34816, foreground: Int = 4242) -> [UInt8] {
        Array("4242 (\(name)) S 4200 \(group) 4200 \(terminal) \(foreground) 4194560 117 0 0 0 1 0 0 0 20 0 1 0 51234 5\n".utf8)
    }

    @Test("at a terminal: a controlling terminal whose foreground group is the process's own")
    func terminalForeground() {
        #expect(ProcessStat.isInTerminalForeground(stat: Self.stat()))
        // A service: no terminal (tty_nr 0, tpgid -1).
        #expect(!ProcessStat.isInTerminalForeground(stat: Self.stat(terminal: 0, foreground: -1)))
        // A job sent to the background of the shell.
        #expect(!ProcessStat.isInTerminalForeground(stat: Self.stat(foreground: 4300)))
        #expect(ProcessFacts(uid: 5, cgroupText: nil, executableLink: nil, statText: Self.stat()).atTerminal)
        #expect(!ProcessFacts(uid: 5, cgroupText: nil, executableLink: nil, statText: nil).atTerminal)
    }

    @Test("the command name is the process's own: parentheses and numbers in it forge no field")
    func hostileCommandName() {
        #expect(!ProcessStat.isInTerminalForeground(stat: Self.stat(name: "x) S 1 4242 1 34816 4242", terminal: 0, foreground: -1)))
        #expect(ProcessStat.isInTerminalForeground(stat: Self.stat(name: ") (")))
        for text in ["", ")", "1 (a) S 1 2 3", "1 (a) S 1 2 3 4 99999999999999999999999 2", "1 (a) S 1 x 3 4 x 6", "no parenthesis 1 2 3 4 5 6"] {
            #expect(!ProcessStat.isInTerminalForeground(stat: Array(text.utf8)))
        }
    }
}

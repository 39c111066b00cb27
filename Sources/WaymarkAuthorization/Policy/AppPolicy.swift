/// One `[[app]]` entry of a policy file (`/etc/waymark/apps.d/*.toml`): which processes it
/// applies to and what the operator decided for them in advance.
package struct AppPolicy: Hashable, Sendable {
    /// Which processes the entry applies to.
    package var selector: AppSelector
    /// The declared `appID` that counts for those processes (nil: a declared appID is ignored).
    package var appID: String?
    /// Authorization given in advance (`authorizedWhenInUse`, `authorizedAlways` or `denied`);
    /// the operator's own decision, once made, takes precedence.
    package var authorization: AuthorizationState?
    /// Accuracy given in advance with `authorization`.
    package var accuracy: AccuracyAuthorization?
    /// Locked as `restricted`: no decision of the operator's can authorize it.
    package var isRestricted = false
    /// In use while connected (the app is what a person is interacting with).
    package var isInteractive = false
    /// Iterating updates holds no implicit session: only explicit ones count.
    package var requiresExplicitSessions = false
    /// The trigger the daemon touches to have the app started again when something waits for
    /// it (a file of that name in its relaunch directory, which a systemd path unit watches).
    package var relaunch: String?
    /// `file:line` of the entry, for messages.
    package var origin: String

    /// An entry for `selector` with nothing decided yet.
    package init(selector: AppSelector, origin: String) {
        self.selector = selector
        self.origin = origin
    }
}

extension AppPolicy {
    /// Whether the entry selects exactly the app `app` (``PolicySet/policy(of:)``).
    func names(_ app: AppIdentity) -> Bool {
        guard !selector.atTerminal else { return false }
        switch app.kind {
        case .appID: return appID == app.key
        case .unit: return selector.unit == app.key && selector.uid == nil && selector.executable == nil
        case .userUnit:
            guard let (uid, name) = Self.split(app.key) else { return false }
            return selector.unit == name && selector.uid == uid && selector.executable == nil
        case .executable:
            guard let (uid, path) = Self.split(app.key) else { return false }
            return selector.executable == path && selector.unit == nil && (selector.uid ?? uid) == uid
        case .uid: return selector.uid.map { String($0) } == app.key && selector.unit == nil && selector.executable == nil
        }
    }

    /// `UID:rest` (a user unit's or an executable's key) as the uid and the rest.
    private static func split(_ key: String) -> (UInt32, String)? {
        guard let colon = key.firstIndex(of: ":"), let uid = UInt32(key[..<colon]) else { return nil }
        return (uid, String(key[key.index(after: colon)...]))
    }
}

/// The kernel facts an entry matches: every field given must match; at least one is given.
package struct AppSelector: Hashable, Sendable {
    /// A unit name: a system unit, or with `uid` a unit of that user's manager.
    package var unit: String?
    /// An executable's absolute path.
    package var executable: String?
    /// The process's uid.
    package var uid: UInt32?
    /// Only processes in the foreground of a terminal (``ProcessFacts/atTerminal``).
    package var atTerminal = false

    /// A selector of the given facts.
    package init(unit: String? = nil, executable: String? = nil, uid: UInt32? = nil, atTerminal: Bool = false) {
        self.unit = unit
        self.executable = executable
        self.uid = uid
        self.atTerminal = atTerminal
    }

    /// Whether a process with `facts` is one this selects.
    package func matches(_ facts: ProcessFacts) -> Bool {
        if let uid, facts.uid != uid { return false }
        if let executable, facts.executable != executable { return false }
        if atTerminal, !facts.atTerminal { return false }
        if let unit {
            guard let running = facts.unit, running.name == unit, running.userManager == uid else { return false }
        }
        return unit != nil || executable != nil || uid != nil || atTerminal
    }
}

/// What the entries matching one process say together. Where they disagree, the lesser
/// privilege wins: any lock or interactive or explicit-session mark applies, and the least of
/// the authorizations and accuracies given in advance.
package struct EffectivePolicy: Hashable, Sendable {
    /// Locked as `restricted`.
    package var isRestricted = false
    /// In use while connected.
    package var isInteractive = false
    /// Only explicit sessions count.
    package var requiresExplicitSessions = false
    /// Authorization given in advance.
    package var authorization: AuthorizationState?
    /// Accuracy given in advance.
    package var accuracy: AccuracyAuthorization?
    /// The relaunch trigger of the first entry that names one.
    package var relaunch: String?

    /// No policy.
    package init() {}

    /// Adds the decisions of `entry`.
    mutating func merge(_ entry: AppPolicy) {
        isRestricted = isRestricted || entry.isRestricted
        isInteractive = isInteractive || entry.isInteractive
        requiresExplicitSessions = requiresExplicitSessions || entry.requiresExplicitSessions
        relaunch = relaunch ?? entry.relaunch
        if let given = entry.authorization {
            authorization = authorization.map { Self.privilege($0) <= Self.privilege(given) ? $0 : given } ?? given
        }
        if let given = entry.accuracy {
            accuracy = accuracy == .reduced ? .reduced : given
        }
    }

    private static func privilege(_ state: AuthorizationState) -> Int {
        switch state {
        case .restricted, .denied: 0
        case .notDetermined: 1
        case .authorizedWhenInUse: 2
        case .authorizedAlways: 3
        }
    }
}

/// Every policy entry of the board.
package struct PolicySet: Hashable, Sendable {
    /// The entries, in file order (files by name).
    package var entries: [AppPolicy]

    /// The set of `entries`.
    package init(_ entries: [AppPolicy] = []) {
        self.entries = entries
    }

    /// The policy of the board from its files (`ConfigurationDirectory` of `/etc/waymark/apps.d`,
    /// in name order), each the path and bytes read: all of it, or the first file's error (a
    /// half-read policy could leave an app less restricted than the operator wrote).
    package init(files: [(path: String, bytes: [UInt8])]) throws(PolicyError) {
        var entries: [AppPolicy] = []
        for file in files {
            guard let text = String(validating: file.bytes, as: UTF8.self) else {
                throw PolicyError(file: file.path, line: nil, "not UTF-8 text")
            }
            entries += try PolicyFile.parse(text, file: file.path)
        }
        self.init(entries)
    }

    /// What the entries matching `facts` decide.
    package func policy(for facts: ProcessFacts) -> EffectivePolicy {
        var policy = EffectivePolicy()
        for entry in entries where entry.selector.matches(facts) { policy.merge(entry) }
        return policy
    }

    /// What the entries that name `app` itself decide, for an app known only by its identity
    /// (one not connected since the daemon started, whose monitors the daemon keeps): the
    /// entries binding its appID; for a unit, those selecting that unit (of that user's
    /// manager); for an executable, those selecting that path (and its uid, if they name one);
    /// for a uid, those selecting the uid alone. An entry that needs a fact the identity does
    /// not carry (a terminal, a unit of an executable's app) is left out: whether it would
    /// match is not known.
    package func policy(of app: AppIdentity) -> EffectivePolicy {
        var policy = EffectivePolicy()
        for entry in entries where entry.names(app) { policy.merge(entry) }
        return policy
    }

    /// Who the process with `facts` is, given the `appID` it declared: the rule of
    /// docs/authorization.md. A declared appID counts only where an entry binds it to facts
    /// this process has; otherwise the app is its unit (system or user), else its executable
    /// and uid, else its uid.
    package func identity(of facts: ProcessFacts, declaredAppID: String?) -> AppIdentity {
        if let declaredAppID, entries.contains(where: { $0.appID == declaredAppID && $0.selector.matches(facts) }) {
            return .appID(declaredAppID)
        }
        if let unit = facts.unit {
            return unit.userManager.map { .userUnit(unit.name, uid: $0) } ?? .systemUnit(unit.name)
        }
        if let executable = facts.executable { return .executable(executable, uid: facts.uid) }
        return .user(facts.uid)
    }
}

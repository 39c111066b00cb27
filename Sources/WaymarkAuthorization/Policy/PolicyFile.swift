import WaymarkBoard
import WaymarkSystem

/// Reads the text of one policy file (`/etc/waymark/apps.d/*.toml`, docs/authorization.md):
/// `[[app]]` tables and nothing else. Every problem is a ``PolicyError`` with the file and
/// line; an unknown key or table is refused (a typo must not silently widen or narrow access).
package enum PolicyFile {
    /// The most entries one file may hold.
    package static let maximumEntries = 256
    /// The longest appID (reverse-DNS names: ASCII letters, digits, `.`, `-`, `_`).
    package static let maximumAppIDLength = 255
    /// The longest relaunch trigger name.
    package static let maximumTriggerLength = 64

    static let keys: Set<String> = [
        "unit", "executable", "uid", "app_id", "authorization", "accuracy", "restricted", "interactive",
        "require_explicit_sessions", "relaunch", "terminal",
    ]

    /// The entries of the policy file `file` whose text is `text`.
    package static func parse(_ text: String, file: String) throws(PolicyError) -> [AppPolicy] {
        let document: TOMLDocument
        do throws(TOMLParser.SyntaxError) {
            document = try TOMLParser.parse(text)
        } catch {
            throw PolicyError(file: file, line: error.line, "\(error.message) (write [[app]] tables of key = value lines)")
        }
        for (name, table) in document.tables.sorted(by: { $0.value.line < $1.value.line }) {
            if let key = table.keys.first {
                throw PolicyError(file: file, line: table.entries[key]?.line, "\(key) outside an [[app]] table")
            }
            if !name.isEmpty { throw PolicyError(file: file, line: table.line, "unknown table [\(name)]; write [[app]]") }
        }
        for (name, tables) in document.tableArrays where name != "app" {
            throw PolicyError(file: file, line: tables.first?.line, "unknown table [[\(name)]]; write [[app]]")
        }
        let tables = document.tableArrays["app"] ?? []
        guard tables.count <= maximumEntries else {
            throw PolicyError(file: file, line: tables[maximumEntries].line, "more than \(maximumEntries) [[app]] entries in one file")
        }
        var entries: [AppPolicy] = []
        for table in tables { entries.append(try entry(table, file: file)) }
        return entries
    }

    /// Whether `text` is an appID a client may declare and a policy may bind.
    /// Whether `text` can name a relaunch trigger: an appID's characters, at most
    /// ``maximumTriggerLength``, and not a hidden file (nor `.` or `..`).
    package static func isTriggerName(_ text: String) -> Bool {
        isAppID(text) && text.utf8.count <= maximumTriggerLength && !text.hasPrefix(".")
    }

    package static func isAppID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumAppIDLength
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    private static func entry(_ table: TOMLTable, file: String) throws(PolicyError) -> AppPolicy {
        let fields = PolicyFields(table: table, file: file)
        for key in table.keys where !keys.contains(key) {
            throw fields.error(key, "unknown key; the keys are \(keys.sorted().joined(separator: ", "))")
        }
        var selector = AppSelector()
        if let unit = try fields.string("unit") {
            guard ControlGroup.isUnitName(Substring(unit)) else {
                throw fields.error("unit", "\"\(DisplayText.escaped(unit))\" is not a .service or .scope unit name")
            }
            selector.unit = unit
        }
        if let executable = try fields.string("executable") {
            guard ExecutableLink.path(fromLink: Array(executable.utf8)) == executable else {
                throw fields.error("executable", "expected an absolute path of at most \(ExecutableLink.maximumLength) bytes")
            }
            selector.executable = executable
        }
        selector.uid = try fields.uid("uid")
        if let terminal = try fields.boolean("terminal") {
            guard terminal else { throw fields.error("terminal", "only true (processes at a terminal); leave it out to select both") }
            selector.atTerminal = true
        }
        guard selector.unit != nil || selector.executable != nil || selector.uid != nil || selector.atTerminal else {
            throw PolicyError(file: file, line: table.line, "an [[app]] needs unit, executable, uid or terminal to say which processes it is")
        }
        var policy = AppPolicy(selector: selector, origin: "\(file):\(table.line)")
        if let appID = try fields.string("app_id") {
            guard isAppID(appID) else {
                throw fields.error("app_id", "expected 1 to \(maximumAppIDLength) ASCII letters, digits, '.', '-' or '_'")
            }
            policy.appID = appID
        }
        policy.authorization = try fields.choice(
            "authorization", ["whenInUse": .authorizedWhenInUse, "always": .authorizedAlways, "denied": .denied])
        policy.accuracy = try fields.choice("accuracy", ["full": AccuracyAuthorization.full, "reduced": .reduced])
        policy.isRestricted = try fields.boolean("restricted") ?? false
        policy.isInteractive = try fields.boolean("interactive") ?? false
        policy.requiresExplicitSessions = try fields.boolean("require_explicit_sessions") ?? false
        if let relaunch = try fields.string("relaunch") {
            guard isTriggerName(relaunch) else {
                throw fields.error("relaunch", "expected a file name: 1 to \(maximumTriggerLength) ASCII letters, digits, '.', '-' or '_', not starting with '.'")
            }
            policy.relaunch = relaunch
        }
        if policy.isRestricted, policy.authorization != nil {
            throw fields.error("authorization", "an app locked as restricted cannot also be authorized; remove one")
        }
        if policy.accuracy != nil, policy.authorization == nil || policy.authorization == .denied {
            throw fields.error("accuracy", "accuracy goes with authorization = \"whenInUse\" or \"always\"")
        }
        return policy
    }
}

/// The typed values of one `[[app]]` table.
private struct PolicyFields {
    let table: TOMLTable
    let file: String

    func error(_ key: String, _ message: String) -> PolicyError {
        PolicyError(file: file, line: table.entries[key]?.line ?? table.line, "\(key): \(message)")
    }

    func string(_ key: String) throws(PolicyError) -> String? {
        guard let value = table.entries[key]?.value else { return nil }
        guard case .string(let text) = value else { throw error(key, "expected a string, found \(value.description)") }
        return text
    }

    func boolean(_ key: String) throws(PolicyError) -> Bool? {
        guard let value = table.entries[key]?.value else { return nil }
        guard case .boolean(let flag) = value else { throw error(key, "expected true or false, found \(value.description)") }
        return flag
    }

    func uid(_ key: String) throws(PolicyError) -> UInt32? {
        guard let value = table.entries[key]?.value else { return nil }
        // 4294967295 is (uid_t)-1, "no user".
        guard case .integer(let number) = value, (0..<Int(UInt32.max)).contains(number) else {
            throw error(key, "expected a uid from 0 to \(UInt32.max - 1), found \(value.description)")
        }
        return UInt32(number)
    }

    func choice<Value>(_ key: String, _ names: [String: Value]) throws(PolicyError) -> Value? {
        guard let text = try string(key) else { return nil }
        guard let value = names[text] else {
            throw error(key, "expected one of \(names.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return value
    }
}

/// A policy file that cannot be used: `apps.d/tracker.toml:3: uid: expected a uid …`.
package struct PolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's path.
    package var file: String
    /// The 1-based line, when the problem is on one.
    package var line: Int?
    /// What is wrong.
    package var message: String

    /// An error in `file` at `line`.
    package init(file: String, line: Int?, _ message: String) {
        self.file = file
        self.line = line.flatMap { $0 > 0 ? $0 : nil }
        self.message = message
    }

    /// `FILE:LINE: MESSAGE`.
    package var description: String {
        "\(line.map { "\(file):\($0)" } ?? file): \(message)"
    }
}

/// The systemd unit of a process, from the text of `/proc/PID/cgroup`.
///
/// The unit is the outermost `*.service` or `*.scope` component of the cgroup v2 path (line
/// `0::/…`, or the `name=systemd` line of a v1 hierarchy), skipping `*.slice` components, as
/// systemd itself reads it (`cg_path_get_unit`). Everything below a unit is that unit's own
/// subtree: a unit with `Delegate=yes` (a container, the user manager) may create cgroups
/// there with any name, so a deeper component named `gpsd.service` proves nothing. Below
/// `user@UID.service` the outermost unit is a unit of that user's manager. A login session's
/// `session-N.scope` is not an app (everything typed in one SSH login would be one app), so
/// it yields no unit.
package enum ControlGroup {
    /// The longest unit name systemd accepts.
    package static let maximumUnitNameLength = 255

    /// The unit the process runs in, or nil (no unit, a login session, unparseable text).
    ///
    /// The kernel does not escape a newline in a cgroup's name, and a process may name the
    /// cgroups of its own delegated subtree, so a second `0::` (or `name=systemd`) line may be
    /// forged: text with more than one is ambiguous and gives no unit.
    package static func unit(inProcCgroup bytes: [UInt8]) -> SystemdUnit? {
        var unified: [Substring] = []
        var legacy: [Substring] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("0::") { unified.append(line.dropFirst(3)) }
            else if let range = line.firstRange(of: ":name=systemd:") { legacy.append(line[range.upperBound...]) }
        }
        guard unified.count <= 1, legacy.count <= 1, let path = unified.first ?? legacy.first else { return nil }
        return unit(inPath: path)
    }

    /// The unit of the cgroup `path` (such as `/system.slice/tracker.service`), or nil.
    package static func unit(inPath path: Substring) -> SystemdUnit? {
        var components = path.split(separator: "/").makeIterator()
        guard let outer = firstUnit(&components) else { return nil }
        if let uid = userManagerUID(outer) {
            guard let inner = firstUnit(&components) else { return SystemdUnit(String(outer)) }
            // The user manager's own process (init.scope) is not an app of that user.
            return inner == "init.scope" ? SystemdUnit(String(outer)) : SystemdUnit(String(inner), userManager: uid)
        }
        return isLoginSession(outer) ? nil : SystemdUnit(String(outer))
    }

    /// The next unit component, skipping slices; nil at the end or at a component that is
    /// neither a slice nor a valid unit name.
    private static func firstUnit(_ components: inout IndexingIterator<[Substring]>) -> Substring? {
        while let component = components.next() {
            if hasSuffix(component, ".slice") { continue }
            return isUnitName(component) ? component : nil
        }
        return nil
    }

    /// The uid of `user@UID.service`, or nil for another unit.
    private static func userManagerUID(_ unit: Substring) -> UInt32? {
        guard unit.hasPrefix("user@"), unit.hasSuffix(".service") else { return nil }
        let digits = unit.dropFirst("user@".count).dropLast(".service".count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return UInt32(digits)
    }

    /// `session-N.scope`: the scope logind makes for each login.
    private static func isLoginSession(_ unit: Substring) -> Bool {
        unit.hasPrefix("session-") && unit.hasSuffix(".scope")
    }

    /// Whether `name` is a service or scope unit's name (what a policy may select).
    package static func isUnitName(_ name: Substring) -> Bool {
        hasSuffix(name, ".service") || hasSuffix(name, ".scope")
    }

    /// Whether `name` is a valid name ending in `suffix` after a non-empty prefix.
    private static func hasSuffix(_ name: Substring, _ suffix: String) -> Bool {
        name.count > suffix.count && name.hasSuffix(suffix) && isValidName(name)
    }

    /// systemd's unit name alphabet: ASCII letters, digits and `:-_.\@`, at most 255 bytes.
    private static func isValidName(_ name: Substring) -> Bool {
        name.utf8.count <= maximumUnitNameLength && !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                    UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "@"):
                    true
                default: false
                }
            }
    }
}

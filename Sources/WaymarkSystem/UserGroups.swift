package import Glibc

/// Group membership as the user database (`/etc/passwd`, `/etc/group`, NSS) records it: who
/// may act as Waymark's operator (root or a member of `waymark-admin`, docs/authorization.md).
package enum UserGroups {
    /// The name of the group whose members may change authorization.
    package static let administratorGroupName = "waymark-admin"

    /// Every group of `uid`: its primary group and its supplementary groups (getgrouplist(3));
    /// empty when the user database does not know `uid`.
    package static func groups(ofUser uid: uid_t) -> [gid_t] {
        withEntryBuffer { buffer -> [gid_t] in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            guard system_getpwuid_r(uid, &entry, buffer.baseAddress!, buffer.count, &result) == 0, result != nil,
                let name = entry.pw_name
            else { return [] }
            var count: Int32 = 64
            while count <= 65_536 {
                var groups = [gid_t](repeating: 0, count: Int(count))
                var found = count
                if groups.withUnsafeMutableBufferPointer({ system_getgrouplist(name, entry.pw_gid, $0.baseAddress!, &found) }) >= 0 {
                    return Array(groups.prefix(Int(found)))
                }
                count = max(found, count * 2)
            }
            return []
        }
    }

    /// The gid of the group `name`, or nil when there is no such group.
    package static func groupID(named name: String) -> gid_t? {
        withEntryBuffer { buffer -> gid_t? in
            var entry = group()
            var result: UnsafeMutablePointer<group>?
            guard system_getgrnam_r(name, &entry, buffer.baseAddress!, buffer.count, &result) == 0, result != nil else {
                return nil
            }
            return entry.gr_gid
        }
    }

    /// Runs `body` with a buffer large enough for the user database's entries.
    private static func withEntryBuffer<Result>(_ body: (UnsafeMutableBufferPointer<CChar>) -> Result) -> Result {
        var buffer = [CChar](repeating: 0, count: 65_536)
        return buffer.withUnsafeMutableBufferPointer { body($0) }
    }
}

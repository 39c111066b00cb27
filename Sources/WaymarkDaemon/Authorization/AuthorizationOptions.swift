import WaymarkAuthorization
import WaymarkClock
import WaymarkStore
import WaymarkSystem

/// Where the daemon keeps authorization (the store, of which it is the one writer) and reads
/// its policies (`apps.d`), and what it opens at start (docs/authorization.md).
package struct AuthorizationOptions: Sendable {
    /// The store's database file.
    package var storePath: String
    /// The policy directory (root's, not writable by others); nil or missing: no policies.
    package var policyDirectory: String?

    /// Creates options.
    package init(storePath: String, policyDirectory: String?) {
        self.storePath = storePath
        self.policyDirectory = policyDirectory
    }

    /// Opens the store, reads the policies (one bad file and the daemon does not start) and
    /// the device's secret (made once), and returns the authorizer.
    func makeAuthorizer(now: @escaping () -> Instant, log: @escaping (String) -> Void) throws -> Authorizer {
        let files = try policyDirectory.map { try ConfigurationDirectory(path: $0, suffix: ".toml").read() } ?? []
        let policies = try PolicySet(files: files.map { (path: $0.path, bytes: $0.bytes) })
        let store = AuthorizationStore(database: try StoreSchema.open(path: storePath))
        let secret = try store.deviceSecret() ?? store.keepDeviceSecret(try RandomBytes.generate(count: 32))
        let enforcement = Authorizer.Enforcement(
            store: store, policies: policies, administratorGroup: UserGroups.groupID(named: UserGroups.administratorGroupName))
        log("authorization: store \(storePath), \(policies.entries.count) policy entries from \(files.count) files")
        return try Authorizer(enforcement: enforcement, secret: secret, now: now, log: log)
    }
}

import WaymarkAuthorization
import WaymarkClock
import WaymarkStore
import WaymarkSystem

/// Where the daemon keeps authorization (the store, of which it is the one writer), and what
/// it opens at start (docs/authorization.md). The policies (`apps.d`) are the daemon's, read
/// once for identities, relaunch and authorization.
package struct AuthorizationOptions: Sendable {
    /// The store's database file.
    package var storePath: String

    /// Creates options.
    package init(storePath: String) {
        self.storePath = storePath
    }

    /// Opens the store and the device's secret (made once), and returns the authorizer (the
    /// server tells it each client's policy).
    func makeAuthorizer(now: @escaping () -> Instant, log: @escaping (String) -> Void) throws -> Authorizer {
        let store = AuthorizationStore(database: try StoreSchema.open(path: storePath))
        let secret = try store.deviceSecret() ?? store.keepDeviceSecret(try RandomBytes.generate(count: 32))
        let enforcement = Authorizer.Enforcement(
            store: store, administratorGroup: UserGroups.groupID(named: UserGroups.administratorGroupName))
        log("authorization: store \(storePath)")
        return try Authorizer(enforcement: enforcement, secret: secret, now: now, log: log)
    }
}

import WaymarkAuthorization
import WaymarkClock
import WaymarkDaemon
import WaymarkMonitoring
import WaymarkStore

/// The authorizer and the monitors over one store file, as `waymarkd --store` makes them (a
/// fixed device secret, the authorizer's clock at zero), for a test daemon.
struct StoredParts {
    let authorizer: Authorizer
    let monitors: MonitorCenter

    /// The parts over the store at `path`, created at the schema's version when new.
    init(path: String) throws {
        let database = try StoreSchema.open(path: path)
        authorizer = try Authorizer(
            enforcement: Authorizer.Enforcement(store: AuthorizationStore(database: database), administratorGroup: nil),
            secret: Array(repeating: 7, count: ReducedAccuracy.minimumSecretBytes), now: { .zero })
        monitors = try MonitorCenter(store: MonitorStore(database: database), travel: .walking)
    }
}

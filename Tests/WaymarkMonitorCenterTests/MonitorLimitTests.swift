import Testing
import WaymarkAuthorization
import WaymarkClock
import WaymarkDaemon
import WaymarkLocation
import WaymarkMonitoring
import WaymarkStore
import WaymarkSystem
import WaymarkTestFixtures

/// A uid makes a new app with each copy of a program (docs/authorization.md), so the limits
/// on what apps keep in the daemon count its apps together: one user cannot grow the daemon's
/// memory and store without bound by copying a program (docs/monitoring.md, "In the daemon").
@Suite("Monitor limits per uid", .ownThread)
struct MonitorLimitTests {
    static let date = Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)

    /// The `index`th copy of a program run by `uid`: a new app each.
    static func copy(_ index: Int, uid: UInt32 = 1000) -> AppIdentity { .executable("/home/u/copy\(index)/py", uid: uid) }

    @Test
    func theAppsAUIDMakesShareOneMonitorLimit() throws {
        let file = try MonitorCenterTests.StoreFile()
        defer { file.remove() }
        let center = try file.center()
        for index in 0..<MonitorStore.maximumMonitorsPerUID {
            try center.open("m", for: Self.copy(index))
            try Self.add("c", to: center, of: Self.copy(index))
        }
        #expect(throws: MonitorRefusal.uidMonitorLimitReached(1000)) { try center.open("m", for: Self.copy(99)) }
        #expect(throws: MonitorRefusal.uidMonitorLimitReached(1000)) { try center.open("other", for: Self.copy(0)) }
        #expect(throws: MonitorRefusal.uidMonitorLimitReached(1000)) { try center.open("m", for: .userUnit("tracker.service", uid: 1000)) }
        #expect(throws: MonitorRefusal.uidMonitorLimitReached(1000)) { try center.open("m", for: .user(1000)) }
        try center.open("m", for: Self.copy(0))  // open already: not a new monitor

        // Another uid, and the apps only root makes, have their own limits.
        try center.open("m", for: Self.copy(0, uid: 1001))
        for index in 0..<MonitorStore.maximumMonitorsPerApp { try center.open("m\(index)", for: .appID("org.example.chart")) }
        #expect(throws: MonitorRefusal.monitorLimitReached) { try center.open("more", for: .appID("org.example.chart")) }
        try center.open("m", for: .systemUnit("geofence.service"))

        let restarted = try file.center()
        #expect(throws: MonitorRefusal.uidMonitorLimitReached(1000)) { try restarted.open("m", for: Self.copy(99)) }
        #expect(restarted.monitor("m", of: Self.copy(MonitorStore.maximumMonitorsPerUID - 1)) != nil, "kept across a restart")
    }

    @Test
    func theAppsAUIDMakesShareOneConditionLimit() throws {
        let center = MonitorCenter.unkept()
        let perApp = Monitor.recordLimit
        for index in 0..<MonitorStore.maximumConditionsPerUID / perApp {
            try center.open("m", for: Self.copy(index))
            for condition in 0..<perApp { try Self.add("c\(condition)", to: center, of: Self.copy(index)) }
        }
        try center.open("m", for: Self.copy(99))
        #expect(throws: MonitorRefusal.uidConditionLimitReached(1000)) { try Self.add("c0", to: center, of: Self.copy(99)) }
        try Self.add("c0", to: center, of: Self.copy(0))  // replaces its own: nothing more kept
        // Removing a condition frees its place; another uid has its own.
        #expect(try center.remove("c0", from: "m", of: Self.copy(0), at: Self.date))
        try Self.add("c0", to: center, of: Self.copy(99))
        #expect(throws: MonitorRefusal.uidConditionLimitReached(1000)) { try Self.add("c1", to: center, of: Self.copy(99)) }
        try center.open("m", for: Self.copy(0, uid: 1001))
        try Self.add("c0", to: center, of: Self.copy(0, uid: 1001))
    }

    static func add(_ identifier: String, to center: MonitorCenter, of app: AppIdentity) throws(MonitorRefusal) {
        _ = try center.add(MonitorCenterTests.region(around: here), identifier: identifier, assuming: nil, to: "m", of: app, at: date)
    }

    @Test
    func aStoreBeyondAUIDsLimitIsLoadedOnlyUpToIt() throws {
        let file = try MonitorCenterTests.StoreFile()
        defer { file.remove() }
        // Written past the centre (an older daemon, or a tampered file): the store's own
        // check is per app.
        let store = try MonitorStore(database: StoreSchema.open(path: file.path))
        let count = MonitorStore.maximumMonitorsPerUID + 4
        var monitor = try #require(Monitor(name: "m"))
        _ = try monitor.add(MonitorCenterTests.region(around: Self.here), identifier: "c", assuming: nil, watchedElsewhere: 0, at: Self.date)
        for index in 0..<count {
            try store.save(monitor, of: Self.copy(index), queueing: [], at: RealtimeInstant(nanosecondsSinceEpoch: 0))
        }
        for index in 0..<count { try store.setVisitMonitoring(true, of: Self.copy(index), at: RealtimeInstant(nanosecondsSinceEpoch: 0)) }
        let center = try file.center()
        let loaded = (0..<count).filter { center.monitor("m", of: Self.copy($0)) != nil }
        #expect(loaded == Array(0..<MonitorStore.maximumMonitorsPerUID), "in the order first saved")
        #expect(center.visitMonitoringApps.count == MonitorStore.maximumVisitMonitoringAppsPerUID)
    }

    @Test("an empty monitor no connection holds is forgotten: its name frees its place")
    func anEmptyMonitorReleasedIsForgotten() throws {
        let file = try MonitorCenterTests.StoreFile()
        defer { file.remove() }
        let center = try file.center()
        let app = AppIdentity.appID("org.example.chart")
        for index in 0..<MonitorStore.maximumMonitorsPerApp { try center.open("m\(index)", for: app) }
        #expect(throws: MonitorRefusal.monitorLimitReached) { try center.open("more", for: app) }
        // "m" had a condition, removed since; "m1" keeps one.
        for name in ["m0", "m1"] {
            _ = try center.add(MonitorCenterTests.region(around: Self.here), identifier: "c", assuming: nil, to: name, of: app, at: Self.date)
        }
        #expect(try center.remove("c", from: "m0", of: app, at: Self.date))
        for index in 0..<MonitorStore.maximumMonitorsPerApp { center.release("m\(index)", of: app) }
        #expect(center.monitor("m0", of: app) == nil)
        #expect(center.monitor("m1", of: app)?.identifiers == ["c"], "one watching something stays")
        for index in 0..<MonitorStore.maximumMonitorsPerApp - 1 { try center.open("n\(index)", for: app) }
        #expect(throws: MonitorRefusal.monitorLimitReached) { try center.open("more", for: app) }

        let store = try MonitorStore(database: StoreSchema.open(path: file.path))
        #expect(try store.monitorNames(of: app) == ["m1"], "the store forgot the one whose condition was removed")
    }

    @Test("an empty monitor left in the store is not loaded, and the store forgets it")
    func anEmptyMonitorInTheStoreIsForgottenAtStart() throws {
        let file = try MonitorCenterTests.StoreFile()
        defer { file.remove() }
        let store = try MonitorStore(database: StoreSchema.open(path: file.path))
        try store.save(try #require(Monitor(name: "empty")), of: Self.copy(0), queueing: [], at: RealtimeInstant(nanosecondsSinceEpoch: 0))
        let center = try file.center()
        #expect(center.monitor("empty", of: Self.copy(0)) == nil)
        #expect(try store.monitorNames(of: Self.copy(0)).isEmpty)
    }

    @Test
    func theAppsAUIDMakesShareOneVisitServiceLimit() throws {
        let center = MonitorCenter.unkept()
        for index in 0..<MonitorStore.maximumVisitMonitoringAppsPerUID {
            #expect(try center.setVisitMonitoring(true, of: Self.copy(index), at: Self.date))
        }
        #expect(throws: MonitorRefusal.uidVisitMonitoringLimitReached(1000)) { try center.setVisitMonitoring(true, of: Self.copy(99), at: Self.date) }
        #expect(try center.setVisitMonitoring(true, of: Self.copy(0, uid: 1001), at: Self.date))
        #expect(try center.setVisitMonitoring(false, of: Self.copy(0), at: Self.date), "stopping is never refused")
        #expect(try center.setVisitMonitoring(true, of: Self.copy(99), at: Self.date), "a place was freed")
    }

    static let here = Location(latitude: 47.3769, longitude: 8.5417, horizontalAccuracy: 5, timestamp: date)
}

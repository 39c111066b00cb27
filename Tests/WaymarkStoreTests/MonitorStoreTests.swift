import Testing
import WaymarkAuthorization
import WaymarkLocation
import WaymarkMonitoring
@testable import WaymarkStore
import WaymarkSystem

@Suite("monitor store")
struct MonitorStoreTests {
    let app = AppIdentity(.unit, "tracker.service")
    let time = RealtimeInstant(nanosecondsSinceEpoch: 1_795_392_000_000_000_000)

    static func date(_ seconds: Int64) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: 1_795_392_000_000_000_000 + seconds * 1_000_000_000)
    }

    static func circle(_ radius: Double, latitude: Double = 48.85, longitude: Double = 2.35) -> MonitoredCondition {
        .circularGeographic(CircularRegion(latitude: latitude, longitude: longitude, radius: radius)!)
    }

    @Test func aMonitorSurvivesReopeningWithItsStatesAndOrder() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        var monitor = try #require(Monitor(name: "places"))
        _ = try monitor.add(Self.circle(200), identifier: "home", assuming: .satisfied, at: Self.date(0))
        _ = try monitor.add(.beaconIdentity, identifier: "beacon", at: Self.date(1))
        _ = try monitor.add(Self.circle(50, latitude: -33.9, longitude: 151.2), identifier: "work", at: Self.date(2))
        let events = monitor.evaluate(
            Location(latitude: 48.85, longitude: 2.35, horizontalAccuracy: 5, timestamp: Self.date(3)), accuracyLimited: false)
        try MonitorStore(database: try StoreSchema.open(path: directory.database)).save(monitor, of: app, queueing: events, at: time)

        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        let restored = try #require(try store.monitor(named: "places", of: app))
        #expect(restored.records == monitor.records)
        #expect(restored.identifiers == ["home", "beacon", "work"])
        #expect(restored.record(for: "beacon")?.lastEvent.diagnostics == [.conditionUnsupported])
        #expect(try store.monitorNames(of: app) == ["places"])
        #expect(try store.monitor(named: "other", of: app) == nil)
        #expect(try store.monitor(named: "places", of: AppIdentity(.unit, "other.service")) == nil)
    }

    @Test func savingReplacesTheStoredRecords() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        var monitor = try #require(Monitor(name: "places"))
        _ = try monitor.add(Self.circle(200), identifier: "home", at: Self.date(0))
        _ = try monitor.add(Self.circle(300), identifier: "park", at: Self.date(0))
        try store.save(monitor, of: app, queueing: [], at: time)
        monitor.remove(identifier: "home")
        try store.save(monitor, of: app, queueing: [], at: time)
        #expect(try store.monitor(named: "places", of: app)?.identifiers == ["park"])
    }

    @Test func eventsStayQueuedUntilAcknowledged() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        let monitor = try #require(Monitor(name: "places"))
        let events = (0..<3).map { MonitorEvent(identifier: "home", state: $0 % 2 == 0 ? .satisfied : .unsatisfied, date: Self.date(Int64($0))) }
        let queued = try store.save(monitor, of: app, queueing: events, at: time)
        #expect(queued.map(\.event) == events)
        #expect(queued.map(\.sequence) == queued.map(\.sequence).sorted())
        #expect(try store.pendingEvents(of: app) == PendingMonitorEvents(events: queued, dropped: 0))

        try store.acknowledgeEvents(through: queued[1].sequence, of: app, monitor: monitor.name)
        #expect(try store.pendingEvents(of: app).events == [queued[2]])
        // Another app's queue is its own.
        #expect(try store.pendingEvents(of: AppIdentity(.unit, "other.service")).events.isEmpty)
        try store.acknowledgeEvents(through: queued[2].sequence, of: AppIdentity(.unit, "other.service"), monitor: monitor.name)
        #expect(try store.pendingEvents(of: app).events == [queued[2]])

        // Sequence numbers are never reused, even once the queue is empty.
        try store.acknowledgeEvents(through: queued[2].sequence, of: app, monitor: monitor.name)
        let later = try store.save(monitor, of: app, queueing: [events[0]], at: time)
        #expect(later.map(\.sequence) == [queued[2].sequence + 1])
    }

    @Test func anAcknowledgementCoversItsOwnMonitorOnly() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        let places = try #require(Monitor(name: "places"))
        let work = try #require(Monitor(name: "work"))
        let event = MonitorEvent(identifier: "x", state: .satisfied, date: Self.date(1))
        let first = try store.save(work, of: app, queueing: [event], at: time)
        let second = try store.save(places, of: app, queueing: [event], at: time)
        // The app has opened "places" only: its acknowledgement through the newest sequence
        // must not take the events of "work", which it has not seen.
        try store.acknowledgeEvents(through: try #require(second.last?.sequence), of: app, monitor: "places")
        #expect(try store.pendingEvents(of: app).events == first)
    }

    @Test func aFullQueueDropsTheOldestAndCountsThem() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        let monitor = try #require(Monitor(name: "places"))
        let capacity = MonitorStore.eventQueueCapacity
        let events = (0..<capacity + 7).map { MonitorEvent(identifier: "e\($0)", state: .satisfied, date: Self.date(Int64($0))) }
        let first = try store.save(monitor, of: app, queueing: Array(events.prefix(capacity - 1)), at: time)
        let second = try store.save(monitor, of: app, queueing: Array(events.dropFirst(capacity - 1)), at: time)
        #expect(first.count == capacity - 1 && second.count == 8)
        let pending = try store.pendingEvents(of: app)
        #expect(pending.dropped == 7)
        #expect(pending.events.map(\.event) == Array(events.suffix(capacity)))

        // The count goes with the first acknowledgement: the app was told.
        try store.acknowledgeEvents(through: pending.events[0].sequence, of: app, monitor: monitor.name)
        #expect(try store.pendingEvents(of: app).dropped == 0)
        #expect(try store.pendingEvents(of: app).events.count == capacity - 1)
    }

    @Test func aSaveThatDropsItsOwnEventsReturnsOnlyTheKeptOnes() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        let monitor = try #require(Monitor(name: "places"))
        let events = (0..<MonitorStore.eventQueueCapacity + 3).map { MonitorEvent(identifier: "e\($0)", state: .satisfied, date: Self.date(Int64($0))) }
        let queued = try store.save(monitor, of: app, queueing: events, at: time)
        #expect(queued.map(\.event) == Array(events.suffix(MonitorStore.eventQueueCapacity)))
        #expect(try store.pendingEvents(of: app).events == queued)
        #expect(try store.pendingEvents(of: app).dropped == 3)
    }

    @Test func monitorsPerAppAreBounded() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        for index in 0..<MonitorStore.maximumMonitorsPerApp {
            try store.save(try #require(Monitor(name: "m\(index)")), of: app, queueing: [], at: time)
        }
        let error = #expect(throws: StoreError.self) {
            try store.save(Monitor(name: "one more")!, of: app, queueing: [MonitorEvent(identifier: "x", state: .unknown, date: Self.date(0))], at: time)
        }
        #expect(error?.kind == .limitExceeded)
        #expect(try store.monitorNames(of: app).count == MonitorStore.maximumMonitorsPerApp)
        #expect(try store.pendingEvents(of: app).events.isEmpty, "a refused save writes nothing")
        // An existing monitor is still saved.
        try store.save(try #require(Monitor(name: "m0")), of: app, queueing: [], at: time)
    }

    @Test func aHandEditedConditionIsLeftOutAndToldNotATrapNorTheEndOfTheOthers() throws {
        let watch = try DamageWatch()
        let (database, store) = (watch.database, watch.store)
        var monitor = try #require(Monitor(name: "places"))
        _ = try monitor.add(Self.circle(200), identifier: "home", at: Self.date(0))
        _ = try monitor.add(Self.circle(300), identifier: "work", at: Self.date(0))
        try store.save(monitor, of: app, queueing: [MonitorEvent(identifier: "home", state: .unknown, date: Self.date(0))], at: time)
        // As a hand edit can: past the schema's checks.
        try database.execute("PRAGMA ignore_check_constraints = ON")
        for edit in ["diagnostics = 'accuracyLimited,sunspots'", "radius = -5", "latitude = 9e999", "state = 'inside'", "assumedState = ''"] {
            try database.execute("UPDATE conditions SET \(edit) WHERE identifier = 'home'")
            watch.told = []
            #expect(try store.monitor(named: "places", of: app)?.identifiers == ["work"], "\(edit)")
            #expect(watch.told.count == 1 && watch.told.allSatisfy { $0.kind == .unexpectedValue }, "\(edit)")
            // The file, the monitor and the condition are named.
            let told = watch.told.first?.description ?? ""
            #expect(told.contains(watch.directory.database) && told.contains("monitor places"), "\(told)")
            try store.save(monitor, of: app, queueing: [], at: time)
        }
        try database.execute("PRAGMA ignore_check_constraints = OFF")
        // The schema refuses an unknown state outright.
        #expect(throws: StoreError.self) { try database.execute("UPDATE pendingEvents SET state = 'inside'") }
    }

    @Test func aHandEditedVisitIsLeftOutAndTold() throws {
        let watch = try DamageWatch()
        let (database, store) = (watch.database, watch.store)
        let good = Visit(latitude: 48.85, longitude: 2.35, horizontalAccuracy: 12, arrivalDate: Self.date(0), departureDate: Self.date(60))
        let bad = Visit(latitude: 1, longitude: 2, horizontalAccuracy: 3, arrivalDate: Self.date(100), departureDate: nil)
        try store.record(good)
        try store.record(bad)
        let edits = ["latitude = 9e999", "longitude = -181", "horizontalAccuracy = -1", "departureDate = 0"]
        for edit in edits {
            try database.execute("UPDATE visits SET latitude = 1, longitude = 2, horizontalAccuracy = 3, departureDate = NULL WHERE arrivalDate = \(Self.date(100).nanosecondsSinceEpoch)")
            #expect(try store.visits().count == 2)
            try database.execute("UPDATE visits SET \(edit) WHERE arrivalDate = \(Self.date(100).nanosecondsSinceEpoch)")
            watch.told = []
            #expect(try store.visits() == [good], "\(edit)")
            #expect(watch.told.count == 1 && watch.told.first?.description.contains("the visit diary") == true, "\(edit): \(watch.told)")
        }
    }

    @Test func theVisitDiaryCompletesArrivalsAndIsBounded() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let store = MonitorStore(database: try StoreSchema.open(path: directory.database))
        let arrival = Visit(latitude: 48.85, longitude: 2.35, horizontalAccuracy: 12, arrivalDate: Self.date(0), departureDate: nil)
        try store.record(arrival)
        #expect(try store.visits() == [arrival])
        var departure = arrival
        departure.departureDate = Self.date(900)
        departure.horizontalAccuracy = 8
        try store.record(departure)
        #expect(try store.visits() == [departure])

        for index in 1...MonitorStore.maximumVisits {
            try store.record(Visit(latitude: 1, longitude: 2, horizontalAccuracy: 3, arrivalDate: Self.date(Int64(index) * 1000), departureDate: nil))
        }
        let visits = try store.visits()
        #expect(visits.count == MonitorStore.maximumVisits)
        #expect(visits.first?.arrivalDate == Self.date(1000), "the oldest visit goes first")
    }
}

/// A store over a new file, with the damaged rows it leaves out collected in `told`.
private final class DamageWatch {
    let directory: StoreDirectory
    let database: Database
    let store: MonitorStore
    var told: [StoreError] = []

    init() throws {
        directory = try StoreDirectory()
        database = try StoreSchema.open(path: directory.database)
        store = MonitorStore(database: database)
        store.damaged = { [unowned self] in told.append($0) }
    }

    deinit { directory.remove() }
}

import Foundation
import Testing
import WaymarkAuthorization
import WaymarkClock
import WaymarkDaemon
import WaymarkLocation
import WaymarkMonitoring
import WaymarkSimulation
import WaymarkStore
import WaymarkSystem
import WaymarkTestFixtures

/// The daemon's monitors over a real store (docs/monitoring.md, "In the daemon").
@Suite("Monitor centre", .ownThread)
struct MonitorCenterTests {
    static let app = AppIdentity(.unit, "geofence.service")
    static let radius = 100.0

    /// A private directory with the store, removed by `remove()`.
    struct StoreFile {
        let directory = NSTemporaryDirectory() + "waymark-monitor-\(UUID().uuidString)"
        var path: String { directory + "/store.db" }

        init() throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }

        func center() throws -> MonitorCenter {
            try MonitorCenter(store: MonitorStore(database: StoreSchema.open(path: path)), travel: .driving)
        }

        func remove() { try? FileManager.default.removeItem(atPath: directory) }
    }

    static func region(around place: Location) -> MonitoredCondition {
        .circularGeographic(CircularRegion(latitude: place.latitude, longitude: place.longitude, radius: radius)!)
    }

    @Test("every crossing of every place's circle is reported once, in order, with the truth's state", arguments: ScenarioFixes.names)
    func crossingsOnAScenario(_ name: String) throws {
        let file = try StoreFile()
        defer { file.remove() }
        let scenario = try ScenarioFixes(name)
        let places = Array(scenario.trajectory.stayPlaces(separation: 300).prefix(Monitor.conditionLimit))
        let center = try file.center()
        try center.open("places", for: Self.app)
        let samples = scenario.samples()
        for (index, place) in places.enumerated() {
            #expect(try center.add(Self.region(around: place), identifier: "p\(index)", assuming: nil, to: "places", of: Self.app, at: samples[0].truth.timestamp).isEmpty)
        }
        var deliveries: [MonitorDelivery] = []
        for sample in samples { deliveries += center.evaluate(sample.fix) }

        var checkedTransitions = 0
        for (index, place) in places.enumerated() {
            let events = deliveries.filter { $0.event.identifier == "p\(index)" }.map(\.event)
            let distances = samples.map { (date: $0.truth.timestamp, metres: $0.truth.distance(from: place)) }
            // The right state: the truth is on that side of the border when the event is dated.
            for event in events {
                let truth = try #require(distances.first { $0.date == event.date }).metres
                #expect(event.state == (truth < Self.radius ? .satisfied : .unsatisfied), "\(name) p\(index) \(event)")
            }
            // No flapping: states alternate, and there are no more events than true crossings.
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.state != $1.state })
            let sides = distances.map { $0.metres < Self.radius }
            let crossings = zip(sides, sides.dropFirst()).count { $0 != $1 }
            #expect(events.count <= crossings + 1)
            // Every crossing from clearly inside to clearly outside (or back) has its event.
            let margin = ScenarioFixes.accuracy + ScenarioFixes.noise
            var clear: (state: ConditionState, date: Timestamp)?
            for distance in distances {
                let state: ConditionState? =
                    distance.metres + margin <= Self.radius ? .satisfied : distance.metres - margin > Self.radius ? .unsatisfied : nil
                guard let state, state != clear?.state else { continue }
                let from = clear?.date ?? distances[0].date
                #expect(events.contains { $0.state == state && $0.date >= from && $0.date <= distance.date }, "\(name) p\(index): no \(state) by \(distance.date)")
                clear = (state, distance.date)
                checkedTransitions += 1
            }
        }
        #expect(checkedTransitions >= places.count, "each place is at least entered once")
        // Events are kept in order for the app, one sequence each.
        let sequences = deliveries.compactMap(\.sequence)
        #expect(sequences.count == deliveries.count && sequences == sequences.sorted())
    }

    @Test("events while the app is away wait in the store, survive a restart, and are not repeated once acknowledged")
    func disconnectedAndRestarted() throws {
        let file = try StoreFile()
        defer { file.remove() }
        let origin = Location(latitude: 47.3769, longitude: 8.5417, horizontalAccuracy: 5, timestamp: Timestamp(nanosecondsSinceEpoch: 1_795_392_000_000_000_000))
        func fix(east metres: Double, at seconds: Int64) -> Location {
            Location(
                latitude: origin.latitude, longitude: origin.longitude + metres / (111_320 * cos(origin.latitude * .pi / 180)),
                horizontalAccuracy: 5, timestamp: Timestamp(nanosecondsSinceEpoch: origin.timestamp.nanosecondsSinceEpoch + seconds * 1_000_000_000))
        }
        do {
            let center = try file.center()
            try center.open("home", for: Self.app)
            _ = try center.add(Self.region(around: origin), identifier: "home", assuming: .satisfied, to: "home", of: Self.app, at: origin.timestamp)
            #expect(center.evaluate(fix(east: 0, at: 1)).isEmpty, "the assumed state is not repeated")
            #expect(center.evaluate(fix(east: 500, at: 60)).map(\.event.state) == [.unsatisfied])
        }
        // The daemon restarts: the monitor is watched again at once, before the app reconnects.
        let center = try file.center()
        #expect(center.monitor("home", of: Self.app)?.record(for: "home")?.lastEvent.state == .unsatisfied)
        #expect(center.evaluate(fix(east: 500, at: 61)).isEmpty)
        #expect(center.evaluate(fix(east: 0, at: 120)).map(\.event.state) == [.satisfied])
        let pending = try center.pendingEvents(of: Self.app)
        #expect(pending.events.map(\.event.state) == [.unsatisfied, .satisfied])
        #expect(pending.dropped == 0)
        try center.acknowledge(through: try #require(pending.events.last?.sequence), of: Self.app, monitor: "home")
        #expect(try center.pendingEvents(of: Self.app).events.isEmpty)
        #expect(try file.center().pendingEvents(of: Self.app).events.isEmpty)
    }

    @Test("limits and diagnostics: 20 conditions per app across monitors, beacons unsupported, reduced accuracy, no store")
    func limitsAndDiagnostics() throws {
        let file = try StoreFile()
        defer { file.remove() }
        let center = try file.center()
        let date = Timestamp(nanosecondsSinceEpoch: 1_795_392_000_000_000_000)
        let place = Location(latitude: 1, longitude: 2, horizontalAccuracy: 5, timestamp: date)
        try center.open("a", for: Self.app)
        try center.open("b", for: Self.app)
        for index in 0..<12 { #expect(try center.add(Self.region(around: place), identifier: "a\(index)", assuming: nil, to: "a", of: Self.app, at: date).isEmpty) }
        for index in 0..<8 { #expect(try center.add(Self.region(around: place), identifier: "b\(index)", assuming: nil, to: "b", of: Self.app, at: date).isEmpty) }
        let over = try center.add(Self.region(around: place), identifier: "b8", assuming: nil, to: "b", of: Self.app, at: date)
        #expect(over.map(\.event.state) == [.unmonitored] && over.first?.event.diagnostics == [.conditionLimitExceeded])
        let beacon = try center.add(.beaconIdentity, identifier: "beacon", assuming: nil, to: "a", of: Self.app, at: date)
        #expect(beacon.first?.event.diagnostics == [.conditionUnsupported])
        // Another app has its own 20.
        let other = AppIdentity(.unit, "other.service")
        try center.open("a", for: other)
        #expect(try center.add(Self.region(around: place), identifier: "x", assuming: nil, to: "a", of: other, at: date).isEmpty)
        #expect(throws: MonitorRefusal.unknownMonitor) { try center.add(.beaconIdentity, identifier: "y", assuming: nil, to: "nope", of: other, at: date) }
        #expect(throws: MonitorRefusal.invalidIdentifier) { try center.open("", for: other) }

        // Reduced accuracy: one event with the state kept and accuracyLimited, nothing decided.
        center.access = { $0 == other ? .accuracyLimited : .full }
        let limited = center.evaluate(place).filter { $0.app == other }
        #expect(limited.map(\.event.diagnostics) == [[.accuracyLimited]])
        #expect(limited.map(\.event.state) == [.unknown])
        // Not authorized: nothing evaluated, no fix asked for it.
        center.access = { $0 == other ? .none : .full }
        #expect(center.evaluate(place).filter { $0.app == other }.isEmpty)
        center.access = { _ in .none }
        #expect(center.nextFix(after: place, at: .zero) == nil)
        center.access = { _ in .full }

        // Without a store the events still go out, once, saying they are not kept.
        let unkept = try MonitorCenter(store: nil, travel: .walking)
        try unkept.open("a", for: Self.app)
        _ = try unkept.add(Self.region(around: place), identifier: "a", assuming: nil, to: "a", of: Self.app, at: date)
        let events = unkept.evaluate(place)
        #expect(events.map(\.sequence) == [nil])
        #expect(events.first?.event.diagnostics == [.persistenceUnavailable])
        #expect(events.first?.event.state == .satisfied)
    }

    @Test("a store that cannot write (a full disk) is told and logged: the added condition's state goes out at once with persistenceUnavailable, and holds in memory")
    func fullStore() throws {
        let file = try StoreFile()
        defer { file.remove() }
        let database = try StoreSchema.open(path: file.path)
        let center = try MonitorCenter(store: MonitorStore(database: database), travel: .driving)
        var failures: [String] = []
        center.storeFailed = { what, error in failures.append("\(what): \(error)") }
        let date = Timestamp(nanosecondsSinceEpoch: 1_795_392_000_000_000_000)
        let place = Location(latitude: 1, longitude: 2, horizontalAccuracy: 5, timestamp: date)
        try center.open("places", for: Self.app)
        #expect(try center.add(Self.region(around: place), identifier: "kept", assuming: nil, to: "places", of: Self.app, at: date).isEmpty)
        #expect(failures.isEmpty)
        // Every write fails from now on, as on a full disk or a failing card.
        try database.execute("PRAGMA query_only = 1")
        let told = try center.add(Self.region(around: place), identifier: "unkept", assuming: .satisfied, to: "places", of: Self.app, at: date)
        let event = try #require(told.first)
        #expect(told.count == 1 && event.sequence == nil)
        #expect(event.event.state == .satisfied && event.event.diagnostics == [.persistenceUnavailable])
        #expect(failures.count == 1 && failures[0].contains("monitor places") && failures[0].contains("readonly"), "\(failures)")
        #expect(center.monitor("places", of: Self.app)?.record(for: "unkept")?.lastEvent.diagnostics == [.persistenceUnavailable])
        #expect(center.monitor("places", of: Self.app)?.record(for: "kept")?.lastEvent.diagnostics == [])
    }

    @Test("the app's limit of 20 holds on restore across its monitors")
    func limitOnRestoreIsTheApps() throws {
        let file = try StoreFile()
        defer { file.remove() }
        let date = Timestamp(nanosecondsSinceEpoch: 1_795_392_000_000_000_000)
        let place = Location(latitude: 1, longitude: 2, horizontalAccuracy: 5, timestamp: date)
        // Two monitors stored with 15 watched conditions each (a file written by hand, or by a
        // build that counted per monitor): the first 20 in saving order are watched again.
        let store = MonitorStore(database: try StoreSchema.open(path: file.path))
        for name in ["a", "b"] {
            var monitor = try #require(Monitor(name: name))
            for index in 0..<15 { _ = try monitor.add(Self.region(around: place), identifier: "\(name)\(index)", at: date) }
            try store.save(monitor, of: Self.app, queueing: [], at: RealtimeInstant(nanosecondsSinceEpoch: 0))
        }
        let center = try file.center()
        #expect(center.monitor("a", of: Self.app)?.watchedCount == 15)
        #expect(center.monitor("b", of: Self.app)?.watchedCount == 5)
        let kept = try #require(center.monitor("b", of: Self.app)?.record(for: "b14")?.lastEvent)
        #expect(kept.state == .unmonitored && kept.diagnostics == [.conditionLimitExceeded])
    }

    @Test("the next fix: none with nothing watched, later far from every border", arguments: ScenarioFixes.names.prefix(1))
    func schedule(_ name: String) throws {
        let center = try MonitorCenter(store: nil, travel: .walking)
        let place = Location(latitude: 1, longitude: 2, horizontalAccuracy: 5, timestamp: Timestamp(nanosecondsSinceEpoch: 0))
        #expect(center.nextFix(after: place, at: .zero) == nil)
        try center.open("a", for: Self.app)
        _ = try center.add(Self.region(around: place), identifier: "a", assuming: nil, to: "a", of: Self.app, at: place.timestamp)
        // 5 m accurate at the centre of a 100 m circle: 95 m of margin at 3 m/s.
        let next = try #require(center.nextFix(after: place, at: .zero))
        #expect(abs((next - Instant.zero).seconds - 95.0 / 3) < 0.01)
    }

    @Test("visit monitoring alone asks the demand of a condition far away: a fix at once, then one each 10 min the engine holds while still; none when stopped, denied, or after a restart that stopped it")
    func visitMonitoringDemand() throws {
        let file = try StoreFile()
        defer { file.remove() }
        let here = Location(latitude: 47.3769, longitude: 8.5417, horizontalAccuracy: 5, timestamp: Timestamp(nanosecondsSinceEpoch: 0))
        let later = Instant.zero + .seconds(42)
        // The anchor: a monitor whose only circle is 1000 km away, as the daemon plans it.
        let anchor = MonitorCenter.unkept(travel: .driving)
        try anchor.open("far", for: Self.app)
        let far = Location(latitude: 56.4, longitude: 8.5417, horizontalAccuracy: 5, timestamp: here.timestamp)
        _ = try anchor.add(Self.region(around: far), identifier: "far", assuming: nil, to: "far", of: Self.app, at: here.timestamp)

        let center = try file.center()
        #expect(center.nextFix(after: nil, at: .zero) == nil && center.nextFix(after: here, at: later) == nil)
        #expect(try center.setVisitMonitoring(true, of: Self.app, at: here.timestamp))
        #expect(try !center.setVisitMonitoring(true, of: Self.app, at: here.timestamp), "started already")
        #expect(center.nextFix(after: nil, at: .zero) == .zero, "no fix yet: one at once")
        let next = try #require(center.nextFix(after: here, at: later))
        #expect(next == anchor.nextFix(after: here, at: later), "the far condition's demand")
        #expect(next == later + EvaluationScheduler.maximumWait)
        // A near condition of a monitor keeps its own, sooner, demand.
        try center.open("near", for: Self.app)
        _ = try center.add(Self.region(around: here), identifier: "near", assuming: nil, to: "near", of: Self.app, at: here.timestamp)
        #expect(try #require(center.nextFix(after: here, at: later)) < next)
        #expect(try center.remove("near", from: "near", of: Self.app, at: here.timestamp))

        // Kept in the store: a restarted centre still monitors the app's visits.
        let restarted = try file.center()
        #expect(restarted.visitMonitoringApps == [Self.app])
        #expect(restarted.nextFix(after: here, at: later) == next)
        // Not authorized: its visits ask for nothing.
        restarted.access = { _ in .none }
        #expect(restarted.nextFix(after: nil, at: .zero) == nil && restarted.nextFix(after: here, at: later) == nil)
        restarted.access = { _ in .full }
        #expect(try restarted.setVisitMonitoring(false, of: Self.app, at: here.timestamp))
        #expect(restarted.nextFix(after: here, at: later) == nil)
        #expect(try file.center().visitMonitoringApps.isEmpty, "the stop is kept")
    }

    @Test("the visit diary matches the scenario's still stretches of 5 min or more", arguments: ScenarioFixes.names)
    func visits(_ name: String) throws {
        let file = try StoreFile()
        defer { file.remove() }
        let scenario = try ScenarioFixes(name)
        let center = try file.center()
        var still = false
        for sample in scenario.samples() {
            if sample.isMoving == still {
                still.toggle()
                center.visitInput(still ? .stationaryStarted(sample.truth.timestamp) : .stationaryEnded(sample.truth.timestamp))
            }
            center.visitInput(.location(sample.fix))
            if let due = center.visitArrivalDue, due <= sample.truth.timestamp { center.visitInput(.tick(sample.truth.timestamp)) }
        }
        let diary = try MonitorStore(database: StoreSchema.open(path: file.path)).visits()
        var stays: [Range<Instant>] = []
        var from = Instant.zero
        for moving in scenario.trajectory.movingIntervals + [scenario.trajectory.end..<scenario.trajectory.end] {
            if moving.lowerBound - from > VisitDetector.minimumDwell { stays.append(from..<moving.lowerBound) }
            from = max(from, moving.upperBound)
        }
        #expect(diary.count == stays.count, "\(name): \(diary.count) visits for \(stays.count) stays")
        for (stay, visit) in zip(stays, diary) {
            #expect(abs(visit.arrivalDate.secondsSinceEpoch - scenario.trajectory.utc(at: stay.lowerBound).secondsSinceEpoch) <= 5)
            if stay.upperBound < scenario.trajectory.end {
                let left = try #require(visit.departureDate)
                #expect(abs(left.secondsSinceEpoch - scenario.trajectory.utc(at: stay.upperBound).secondsSinceEpoch) <= 5)
            }
        }
    }
}

package import WaymarkAuthorization
package import WaymarkClock
package import WaymarkLocation
package import WaymarkMonitoring
package import WaymarkStore
import WaymarkSystem

/// An event for an app: with its sequence number while it is kept until acknowledged, or
/// without one (and with `persistenceUnavailable`) when the store could not keep it.
package struct MonitorDelivery: Hashable, Sendable {
    /// The app the event is for.
    package var app: AppIdentity
    /// The monitor's name.
    package var monitor: String
    /// The sequence the app acknowledges (``MonitorStore/acknowledgeEvents(through:of:)``), or
    /// nil when the event is not stored.
    package var sequence: Int64?
    /// The event.
    package var event: MonitorEvent

    /// The delivery of `event` of the monitor `monitor` of `app`, stored under `sequence`.
    package init(app: AppIdentity, monitor: String, sequence: Int64?, event: MonitorEvent) {
        self.app = app
        self.monitor = monitor
        self.sequence = sequence
        self.event = event
    }
}

/// What an app may have of its monitors, from its authorization (docs/monitoring.md,
/// "Authorization").
package enum MonitorAccess: Hashable, Sendable {
    /// Its conditions are evaluated and their events delivered.
    case full
    /// Approximate location only: nothing is decided; each watched condition says
    /// `accuracyLimited` once.
    case accuracyLimited
    /// Not authorized: its conditions are not evaluated (no event is made, no fix is spent on
    /// them) until it is.
    case none
}

/// Why a monitor operation was refused.
package enum MonitorRefusal: Error, Hashable, Sendable {
    /// The monitor name or the identifier is empty or longer than 128 bytes.
    case invalidIdentifier
    /// The monitor holds 100 records already.
    case recordLimitReached
    /// The app keeps ``MonitorStore/maximumMonitorsPerApp`` monitors already.
    case monitorLimitReached
    /// The apps of the uid that made this one keep ``MonitorStore/maximumMonitorsPerUID``
    /// monitors already.
    case uidMonitorLimitReached(UInt32)
    /// The apps of the uid that made this one keep ``MonitorStore/maximumConditionsPerUID``
    /// conditions already.
    case uidConditionLimitReached(UInt32)
    /// The apps of the uid that made this one keep
    /// ``MonitorStore/maximumVisitMonitoringAppsPerUID`` visit services already.
    case uidVisitMonitoringLimitReached(UInt32)
    /// No monitor of that name is open for the app.
    case unknownMonitor
    /// A circle's centre is not on the globe or its radius is out of range.
    case invalidRegion
}

/// Every app's monitors, kept and evaluated by the daemon whether or not the app is connected
/// (docs/monitoring.md, "In the daemon"): conditions added and removed, fixes evaluated, each
/// change stored with its events in one transaction, the events kept until the app
/// acknowledges them, the next fix the monitors need, and the visit diary.
///
/// Not `Sendable`: the daemon's loop owns it. Dates come from the caller.
package final class MonitorCenter {
    /// The travel mode whose speed bounds how soon a border can be reached.
    package let travel: TravelMode
    /// What `app` may have of its monitors now: the one point where authorization reaches
    /// them. The daemon sets it from its authorizer (``Server``); until then every app has
    /// full accuracy.
    package var access: (AppIdentity) -> MonitorAccess = { _ in .full }

    /// Now on the fixes' clock, to date the changes requests make (a condition added is dated
    /// so that the next fix is not older than it). The daemon's agent sets it from its last
    /// fix; until then the system clock.
    package var date: () -> Timestamp = { Timestamp(nanosecondsSinceEpoch: RealtimeInstant.now.nanosecondsSinceEpoch) }

    /// Told when the store could not keep a change (a full disk, a failing card): the daemon
    /// logs it. The change holds in memory until the daemon stops.
    package var storeFailed: (String, StoreError) -> Void = { _, _ in }

    private let store: MonitorStore?
    private var monitors: [AppIdentity: [String: Monitor]] = [:]
    private var visits = VisitDetector()
    /// The apps that monitor visits (`startVisitMonitoring`), connected or not.
    package private(set) var visitMonitoringApps: Set<AppIdentity> = []

    /// The centre over `store` (nil: persistence unavailable), with every stored monitor of
    /// every app loaded, so that conditions are watched from the start, connected or not.
    package init(store: MonitorStore?, travel: TravelMode) throws(StoreError) {
        self.store = store
        self.travel = travel
        // In the order they were first saved, each app's limit counting its monitors before,
        // and each uid's too: the file is not trusted to hold no more than they allow.
        var watched: [AppIdentity: Int] = [:]
        for (app, name) in try store?.monitorsOfEveryApp() ?? [] where monitorLimit(of: app) == nil {
            guard let monitor = try store?.monitor(named: name, of: app, watchedElsewhere: watched[app, default: 0]) else { continue }
            // An empty one no app holds (a daemon stopped before its app closed it) is gone.
            guard !monitor.records.isEmpty else {
                try? store?.forget(name, of: app)  // tried again at the next start
                continue
            }
            guard
                app.mintingUID.map({ conditionCount(of: $0) + monitor.records.count <= MonitorStore.maximumConditionsPerUID }) ?? true
            else { continue }
            monitors[app, default: [:]][name] = monitor
            watched[app, default: 0] += monitor.watchedCount
        }
        for app in try store?.visitMonitoringApps() ?? [] where visitMonitoringLimit(of: app) == nil {
            visitMonitoringApps.insert(app)
        }
    }

    /// A centre without a store: every event goes out once with `persistenceUnavailable`.
    package static func unkept(travel: TravelMode = .walking) -> MonitorCenter {
        // Without a store there is nothing to load, so nothing can throw.
        try! MonitorCenter(store: nil, travel: travel)
    }

    /// Opens (creating when new) the monitor `name` of `app`.
    package func open(_ name: String, for app: AppIdentity) throws(MonitorRefusal) {
        guard monitors[app]?[name] == nil else { return }
        guard let monitor = Monitor(name: name) else { throw .invalidIdentifier }
        if let refusal = monitorLimit(of: app) { throw refusal }
        monitors[app, default: [:]][name] = monitor
    }

    /// Forgets the monitor `name` of `app` if it holds no condition; the server calls it
    /// when no connection of the app holds that monitor open any more. An empty monitor
    /// watches nothing, and forgotten its name no longer counts against the limits: an app
    /// that opens a monitor, removes its last condition or adds none, and closes it, is back
    /// where it was. Opening it again makes it anew.
    package func release(_ name: String, of app: AppIdentity) {
        guard let monitor = monitors[app]?[name], monitor.records.isEmpty else { return }
        monitors[app]?[name] = nil
        if monitors[app]?.isEmpty == true { monitors[app] = nil }
        // A row the store could not delete is forgotten when the daemon next starts.
        try? store?.forget(name, of: app)
    }

    /// Why `app` may not open one more monitor, or nil when it may: its own limit, and its
    /// uid's when a uid can make such apps at will.
    private func monitorLimit(of app: AppIdentity) -> MonitorRefusal? {
        guard monitors[app, default: [:]].count < MonitorStore.maximumMonitorsPerApp else { return .monitorLimitReached }
        guard let uid = app.mintingUID else { return nil }
        let kept = monitors.reduce(0) { $0 + ($1.key.mintingUID == uid ? $1.value.count : 0) }
        return kept < MonitorStore.maximumMonitorsPerUID ? nil : .uidMonitorLimitReached(uid)
    }

    /// The conditions the apps `uid` made keep, in all their monitors.
    private func conditionCount(of uid: UInt32) -> Int {
        monitors.reduce(0) { kept, app in
            app.key.mintingUID == uid ? app.value.values.reduce(kept) { $0 + $1.records.count } : kept
        }
    }

    /// Why `app` may not start the visit service, or nil when it may (its uid's limit).
    private func visitMonitoringLimit(of app: AppIdentity) -> MonitorRefusal? {
        guard let uid = app.mintingUID else { return nil }
        let kept = visitMonitoringApps.count(where: { $0.mintingUID == uid })
        return kept < MonitorStore.maximumVisitMonitoringAppsPerUID ? nil : .uidVisitMonitoringLimitReached(uid)
    }

    /// The monitor `name` of `app`, if open.
    package func monitor(_ name: String, of app: AppIdentity) -> Monitor? {
        monitors[app]?[name]
    }

    /// Adds `condition` under `identifier` to the monitor `name` of `app`, stores it and
    /// returns the event to deliver at once, if any (`unmonitored` with its diagnostic).
    package func add(
        _ condition: MonitoredCondition, identifier: String, assuming: ConditionState?, to name: String, of app: AppIdentity,
        at date: Timestamp
    ) throws(MonitorRefusal) -> [MonitorDelivery] {
        guard var monitor = monitors[app]?[name] else { throw .unknownMonitor }
        if let uid = app.mintingUID, !monitor.records.contains(where: { $0.identifier == identifier }),
            conditionCount(of: uid) >= MonitorStore.maximumConditionsPerUID
        {
            throw .uidConditionLimitReached(uid)
        }
        let elsewhere = monitors[app, default: [:]].filter { $0.key != name }.values.reduce(0) { $0 + $1.watchedCount }
        let event: MonitorEvent?
        do throws(Monitor.Refusal) {
            event = try monitor.add(condition, identifier: identifier, assuming: assuming, watchedElsewhere: elsewhere, at: date)
        } catch {
            switch error {
            case .invalidIdentifier: throw .invalidIdentifier
            case .recordLimitReached: throw .recordLimitReached
            }
        }
        return keep(monitor, of: app, events: event.map { [$0] } ?? [], at: date, added: identifier)
    }

    /// Answers a condition of a kind the protocol does not know (a newer client's) under
    /// `identifier` in the monitor `name` of `app`: it replaces the condition of that
    /// identifier, if any, but cannot be kept (the store knows the kinds it knows), so it is
    /// only the event to deliver at once: `unmonitored` with `conditionUnsupported`.
    package func addUnknownKind(identifier: String, to name: String, of app: AppIdentity, at date: Timestamp) throws(MonitorRefusal) -> [MonitorDelivery] {
        guard var monitor = monitors[app]?[name] else { throw .unknownMonitor }
        guard Monitor.isValidIdentifier(identifier) else { throw .invalidIdentifier }
        if monitor.remove(identifier: identifier) { _ = keep(monitor, of: app, events: [], at: date) }
        let event = MonitorEvent(identifier: identifier, state: .unmonitored, date: date, diagnostics: [.conditionUnsupported])
        return [MonitorDelivery(app: app, monitor: name, sequence: nil, event: event)]
    }

    /// Removes the condition `identifier` from the monitor `name` of `app`; false if none.
    package func remove(_ identifier: String, from name: String, of app: AppIdentity, at date: Timestamp) throws(MonitorRefusal) -> Bool {
        guard var monitor = monitors[app]?[name] else { throw .unknownMonitor }
        guard monitor.remove(identifier: identifier) else { return false }
        _ = keep(monitor, of: app, events: [], at: date)
        return true
    }

    /// Evaluates every monitor of every app against `location`; returns the events, app by
    /// app, in each monitor's order.
    package func evaluate(_ location: Location) -> [MonitorDelivery] {
        var deliveries: [MonitorDelivery] = []
        for (app, named) in monitors.sorted(by: { $0.key.description < $1.key.description }) {
            let access = access(app)
            guard access != .none else { continue }
            for (_, var monitor) in named.sorted(by: { $0.key < $1.key }) {
                let events = monitor.evaluate(location, accuracyLimited: access == .accuracyLimited)
                guard !events.isEmpty else { continue }
                deliveries += keep(monitor, of: app, events: events, at: location.timestamp)
            }
        }
        return deliveries
    }

    /// The instant the monitors need their next fix, after `last` taken at `instant` (nil: no
    /// fix yet, so one is needed at `instant` when anything is watched), or nil (nothing
    /// watched for an app that may have it): the engine's ``EngineEvent/fixNeeded(at:)``,
    /// which the engine holds while the device is stationary.
    ///
    /// While an app that may have them monitors visits, the engine must know stationarity:
    /// the demand is at most the one of a condition far from the device
    /// (``EvaluationScheduler/farFromEveryBorder(after:)``), which the engine holds while
    /// still, so that a visit costs a fix at the start and at the end of motion, and none
    /// while still.
    package func nextFix(after last: Location?, at instant: Instant) -> Instant? {
        let all = monitors.lazy.filter { self.access($0.key) != .none }.flatMap(\.value.values)
        let visitsWatched = watchesVisits
        guard let last else {
            return visitsWatched || all.contains(where: { $0.watchedCount > 0 }) ? instant : nil
        }
        let monitorsNeed = EvaluationScheduler.nextFix(after: last, at: instant, watching: all, travel: travel)
        guard visitsWatched else { return monitorsNeed }
        let farAway = EvaluationScheduler.farFromEveryBorder(after: instant)
        return monitorsNeed.map { min($0, farAway) } ?? farAway
    }

    /// Whether an app that may have them monitors visits: the engine must then know when the
    /// device stops (``EngineEvent``'s `restChecks`).
    package var watchesVisits: Bool { visitMonitoringApps.contains { access($0) != .none } }

    /// Starts (`monitoring`) or stops the visit monitoring of `app`, kept in the store; false
    /// when it was so already. Without a store, or when the write fails, it holds until the
    /// daemon stops. Starting is refused beyond the uid's limit.
    @discardableResult
    package func setVisitMonitoring(_ monitoring: Bool, of app: AppIdentity, at date: Timestamp) throws(MonitorRefusal) -> Bool {
        guard visitMonitoringApps.contains(app) != monitoring else { return false }
        if monitoring, let refusal = visitMonitoringLimit(of: app) { throw refusal }
        if monitoring { visitMonitoringApps.insert(app) } else { visitMonitoringApps.remove(app) }
        do throws(StoreError) {
            try store?.setVisitMonitoring(monitoring, of: app, at: RealtimeInstant(nanosecondsSinceEpoch: date.nanosecondsSinceEpoch))
        } catch {
            storeFailed("the visit monitoring of \(app)", error)
        }
        return true
    }

    /// The events `app` has not acknowledged, to send when it connects.
    package func pendingEvents(of app: AppIdentity) throws(StoreError) -> PendingMonitorEvents {
        try store?.pendingEvents(of: app) ?? PendingMonitorEvents(events: [], dropped: 0)
    }

    /// `app` has the events of its monitor `name` up to `sequence`.
    package func acknowledge(through sequence: Int64, of app: AppIdentity, monitor name: String) throws(StoreError) {
        try store?.acknowledgeEvents(through: sequence, of: app, monitor: name)
    }

    /// Whether events of `app` are kept until acknowledged (false: no store, every event is
    /// `persistenceUnavailable`).
    package var isPersistent: Bool { store != nil }

    /// Feeds the visit detector and writes each visit it completes to the diary.
    @discardableResult
    package func visitInput(_ input: VisitInput) -> [Visit] {
        let completed = visits.handle(input)
        for visit in completed {
            do throws(StoreError) { try store?.record(visit) } catch { storeFailed("a visit in the diary", error) }
        }
        return completed
    }

    /// Keeps `visits` for `app`, away when they happened, until it acknowledges them; nil
    /// when they cannot be kept (no store, or it failed): the diary still has them.
    package func keep(_ visits: [Visit], for app: AppIdentity, at date: Timestamp) -> [QueuedVisit]? {
        try? store?.keep(visits, for: app, at: RealtimeInstant(nanosecondsSinceEpoch: date.nanosecondsSinceEpoch))
    }

    /// The visits kept for `app`, to send when it starts visit monitoring again.
    package func pendingVisits(of app: AppIdentity) throws(StoreError) -> PendingVisits {
        try store?.pendingVisits(of: app) ?? PendingVisits(visits: [], dropped: 0)
    }

    /// `app` has the visits kept for it up to `sequence`.
    package func acknowledgeVisits(through sequence: Int64, of app: AppIdentity) throws(StoreError) {
        try store?.acknowledgeVisits(through: sequence, of: app)
    }

    /// When the visit detector needs its timer.
    package var visitArrivalDue: Timestamp? { visits.arrivalDue }

    /// The visit diary, oldest arrival first (empty without a store: visits are kept only there).
    package func visitDiary() throws(StoreError) -> [Visit] {
        try store?.visits() ?? []
    }

    /// Keeps `monitor` in memory and in the store with its events, and returns them for
    /// delivery. When the store cannot keep them, they go out once with `persistenceUnavailable`,
    /// and so does the state of the condition just `added` when it made no event, its record
    /// saying so too: the app learns that the condition will not outlive the daemon.
    private func keep(
        _ monitor: Monitor, of app: AppIdentity, events: [MonitorEvent], at date: Timestamp, added: String? = nil
    ) -> [MonitorDelivery] {
        guard let store else {
            monitors[app, default: [:]][monitor.name] = monitor
            return unkept(events, of: monitor.name, for: app)
        }
        do throws(StoreError) {
            let time = RealtimeInstant(nanosecondsSinceEpoch: date.nanosecondsSinceEpoch)
            let queued = try store.save(monitor, of: app, queueing: events, at: time)
            monitors[app, default: [:]][monitor.name] = monitor
            return queued.map { MonitorDelivery(app: app, monitor: $0.monitor, sequence: $0.sequence, event: $0.event) }
        } catch {
            storeFailed("monitor \(monitor.name) of \(app)", error)
            var held = monitor
            var told = events
            if let added {
                // Its record says so too, until a later change is kept.
                held.markUnkept(added)
                if !events.contains(where: { $0.identifier == added }), let record = held.record(for: added) { told.append(record.lastEvent) }
            }
            monitors[app, default: [:]][monitor.name] = held
            return unkept(told, of: monitor.name, for: app)
        }
    }

    /// `events` to go out once, not kept: each with `persistenceUnavailable`.
    private func unkept(_ events: [MonitorEvent], of monitor: String, for app: AppIdentity) -> [MonitorDelivery] {
        events.map { event in
            var unkept = event
            let diagnostics = Set(event.diagnostics + [.persistenceUnavailable])
            unkept.diagnostics = MonitorDiagnostic.allCases.filter(diagnostics.contains)
            return MonitorDelivery(app: app, monitor: monitor, sequence: nil, event: unkept)
        }
    }
}

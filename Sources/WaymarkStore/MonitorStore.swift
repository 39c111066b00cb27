package import WaymarkAuthorization
package import WaymarkMonitoring
package import WaymarkLocation
package import WaymarkSystem

/// The monitors of issue 15 over the daemon's ``Database``: each app's named monitors with
/// their conditions, states and last events, the events the app has not acknowledged yet, and
/// the device's visit diary. Each call is one transaction, on disk when it returns.
///
/// Delivery (docs/store.md, "Monitor schema"): an event is stored in the same transaction as
/// the state change that made it, and stays queued until its app acknowledges it by sequence
/// number. A crash therefore loses no event; an event sent but not acknowledged before a crash
/// or a disconnection is sent again with the same sequence, which the client library skips when
/// it has seen it.
package final class MonitorStore {
    /// Monitors one app may keep (Core Location does not limit them; the file must be bounded).
    package static let maximumMonitorsPerApp = 16
    /// Monitors the apps one uid can make at will keep together (``AppIdentity/mintingUID``):
    /// each copy of a program is a new app, so a per-app limit alone bounds nothing.
    package static let maximumMonitorsPerUID = 64
    /// Conditions (records, watched or not) those apps keep together: what one app may keep,
    /// 16 monitors of 100. Removing a condition frees its place.
    package static let maximumConditionsPerUID = maximumMonitorsPerApp * Monitor.recordLimit
    /// Apps of one uid (as above) that keep the visit service together.
    package static let maximumVisitMonitoringAppsPerUID = 16
    /// Events kept per app until acknowledged; beyond, the oldest are dropped and counted.
    package static let eventQueueCapacity = EventQueue<MonitorEvent>.defaultCapacity
    /// Visits kept in the diary (about a year at three a day); beyond, the oldest go.
    package static let maximumVisits = 1_000

    let database: Database

    /// Told of each stored row left out as damaged (a value the schema does not allow: a
    /// hand-edited file), with what it was; the daemon logs it. The other rows are read.
    package var damaged: (StoreError) -> Void = { _ in }

    /// The store over `database`, whose schema is at ``StoreSchema``'s version.
    package init(database: Database) {
        self.database = database
    }

    /// The names of the monitors `app` keeps, in the order they were first saved.
    package func monitorNames(of app: AppIdentity) throws(StoreError) -> [String] {
        try database.rows(
            "SELECT name FROM monitors JOIN apps ON apps.id = monitors.app WHERE identityKind = ? AND identityKey = ? ORDER BY monitors.id",
            Self.key(app)
        ) { row throws(StoreError) in try row.string(0) }
    }

    /// The monitor `name` of `app` as stored, rebuilt through
    /// ``Monitor/init(name:restoring:watchedElsewhere:)`` (which re-applies every rule to the
    /// untrusted file, the app's limit counting the `watchedElsewhere` conditions of its monitors
    /// already rebuilt), or nil when none is stored.
    package func monitor(named name: String, of app: AppIdentity, watchedElsewhere: Int = 0) throws(StoreError) -> Monitor? {
        guard let id = try monitorRowID(named: name, of: app) else { return nil }
        let records = try database.rows(
            """
            SELECT identifier, kind, latitude, longitude, radius, assumedState, state, stateDate, diagnostics
            FROM conditions WHERE monitor = ? ORDER BY position
            """, [.integer(id)], skippingDamaged: skipped("monitor \(name) of \(app)"), read: Self.record)
        return Monitor(name: name, restoring: records, watchedElsewhere: watchedElsewhere)
    }

    /// Writes `monitor` (all its records, replacing those stored) for `app`, and queues `events`
    /// (the ones the change produced) for it, in one transaction; returns the queued events with
    /// their sequence numbers. A new monitor beyond ``maximumMonitorsPerApp`` is refused
    /// (`limitExceeded`) and nothing is written.
    @discardableResult
    package func save(
        _ monitor: Monitor, of app: AppIdentity, queueing events: [MonitorEvent], at time: RealtimeInstant
    ) throws(StoreError) -> [QueuedMonitorEvent] {
        try database.transaction { () throws(StoreError) in
            let appID = try database.appRowID(of: app, at: time)
            let monitorID = try monitorRowID(creating: monitor.name, appRowID: appID)
            try database.run("DELETE FROM conditions WHERE monitor = ?", [.integer(monitorID)])
            for (position, record) in monitor.records.enumerated() {
                try database.run(
                    """
                    INSERT INTO conditions (monitor, position, identifier, kind, latitude, longitude, radius, assumedState,
                        state, stateDate, diagnostics)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.integer(monitorID), .integer(Int64(position)), .text(record.identifier)] + Self.values(record))
            }
            return try queue(events, monitor: monitor.name, appRowID: appID)
        }
    }

    /// Forgets the monitor `name` of `app`: its conditions and its unacknowledged events go
    /// with it. Nothing happens when it is not stored.
    package func forget(_ name: String, of app: AppIdentity) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            guard let appID = try database.existingAppRowID(of: app) else { return }
            try database.run("DELETE FROM pendingEvents WHERE app = ? AND monitor = ?", [.integer(appID), .text(name)])
            try database.run("DELETE FROM monitors WHERE app = ? AND name = ?", [.integer(appID), .text(name)])
        }
    }

    /// The events `app` has not acknowledged, oldest first, and the number dropped before them.
    package func pendingEvents(of app: AppIdentity) throws(StoreError) -> PendingMonitorEvents {
        guard let appID = try database.existingAppRowID(of: app) else { return PendingMonitorEvents(events: [], dropped: 0) }
        let events = try database.rows(
            "SELECT sequence, monitor, identifier, state, date, diagnostics FROM pendingEvents WHERE app = ? ORDER BY sequence",
            [.integer(appID)], skippingDamaged: skipped("the events kept for \(app)")
        ) { row throws(StoreError) in
            QueuedMonitorEvent(
                sequence: try row.int64(0), monitor: try row.string(1),
                event: MonitorEvent(
                    identifier: try row.string(2), state: try row.enumeration(3),
                    date: Timestamp(nanosecondsSinceEpoch: try row.int64(4)), diagnostics: try Self.diagnostics(row, 5)))
        }
        let dropped = try database.rows("SELECT count FROM droppedEvents WHERE app = ?", [.integer(appID)]) {
            row throws(StoreError) in try row.int64(0)
        }.first ?? 0
        return PendingMonitorEvents(events: events, dropped: Int(clamping: dropped))
    }

    /// Forgets the events of the monitor `monitor` of `app` up to and including `sequence`, and
    /// the count of dropped events (reported with the pending events the app acknowledges
    /// from): the app has them. The events of its other monitors stay: an app may not have
    /// opened them yet, and their sequences interleave.
    package func acknowledgeEvents(through sequence: Int64, of app: AppIdentity, monitor: String) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            guard let appID = try database.existingAppRowID(of: app) else { return }
            try database.run(
                "DELETE FROM pendingEvents WHERE app = ? AND monitor = ? AND sequence <= ?",
                [.integer(appID), .text(monitor), .integer(sequence)])
            try database.run("DELETE FROM droppedEvents WHERE app = ?", [.integer(appID)])
        }
    }

    /// Writes `visit` to the diary: an arrival adds it, the departure completes the visit of the
    /// same arrival date (or adds it whole, when the arrival was never written). The oldest
    /// visits beyond ``maximumVisits`` are forgotten.
    package func record(_ visit: Visit) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            try database.run(
                """
                INSERT INTO visits (arrivalDate, departureDate, latitude, longitude, horizontalAccuracy) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (arrivalDate) DO UPDATE SET departureDate = excluded.departureDate, latitude = excluded.latitude,
                    longitude = excluded.longitude, horizontalAccuracy = excluded.horizontalAccuracy
                """, Self.values(visit))
            try database.run(
                "DELETE FROM visits WHERE arrivalDate NOT IN (SELECT arrivalDate FROM visits ORDER BY arrivalDate DESC LIMIT ?)",
                [.integer(Int64(Self.maximumVisits))])
        }
    }

    /// The visit diary, oldest arrival first.
    package func visits() throws(StoreError) -> [Visit] {
        try database.rows(
            "SELECT arrivalDate, departureDate, latitude, longitude, horizontalAccuracy FROM visits ORDER BY arrivalDate",
            skippingDamaged: skipped("the visit diary")
        ) { row throws(StoreError) in try Self.visit(row, from: 0) }
    }

    /// What a damaged row of `place` (a monitor's conditions, an app's kept events) is told
    /// with: the file and the place before what was read.
    func skipped(_ place: String) -> (StoreError) -> Void {
        { [self] error in
            var placed = error
            placed.operation = "\(database.path), \(place): \(error.operation)"
            damaged(placed)
        }
    }

    /// Appends `events` to the app's queue and drops the oldest beyond the capacity, counting
    /// them. Inside a transaction.
    private func queue(_ events: [MonitorEvent], monitor: String, appRowID appID: Int64) throws(StoreError) -> [QueuedMonitorEvent] {
        var queued: [QueuedMonitorEvent] = []
        for event in events {
            let sequences = try database.rows(
                "INSERT INTO pendingEvents (app, monitor, identifier, state, date, diagnostics) VALUES (?, ?, ?, ?, ?, ?) RETURNING sequence",
                [
                    .integer(appID), .text(monitor), .text(event.identifier), .text(event.state.rawValue),
                    .integer(event.date.nanosecondsSinceEpoch), .text(Self.text(event.diagnostics)),
                ]
            ) { row throws(StoreError) in try row.int64(0) }
            guard let sequence = sequences.first else {
                throw StoreError(.unexpectedValue, operation: "queue an event of \(monitor)", message: "no sequence returned")
            }
            queued.append(QueuedMonitorEvent(sequence: sequence, monitor: monitor, event: event))
        }
        guard let newestDropped = try trim("pendingEvents", counting: "droppedEvents", to: Self.eventQueueCapacity, appRowID: appID) else {
            return queued
        }
        return queued.filter { $0.sequence > newestDropped }
    }

    /// Drops the oldest rows of the app's queue `table` beyond `capacity` and adds their number
    /// to its count in `droppedTable`; returns the newest sequence dropped, nil when none was.
    /// Inside a transaction. The tables are the schema's, never a caller's text.
    func trim(_ table: StaticString, counting droppedTable: StaticString, to capacity: Int, appRowID appID: Int64) throws(StoreError) -> Int64? {
        let excess = try database.rows(
            "SELECT sequence FROM \(table) WHERE app = ? ORDER BY sequence DESC LIMIT -1 OFFSET ?",
            [.integer(appID), .integer(Int64(capacity))]
        ) { row throws(StoreError) in try row.int64(0) }
        guard let newestDropped = excess.first else { return nil }
        try database.run("DELETE FROM \(table) WHERE app = ? AND sequence <= ?", [.integer(appID), .integer(newestDropped)])
        try database.run(
            """
            INSERT INTO \(droppedTable) (app, count) VALUES (?, ?)
            ON CONFLICT (app) DO UPDATE SET count = min(count + excluded.count, 9223372036854775807)
            """, [.integer(appID), .integer(Int64(excess.count))])
        return newestDropped
    }

    /// The row id of the monitor `name` of `app`, or nil.
    private func monitorRowID(named name: String, of app: AppIdentity) throws(StoreError) -> Int64? {
        guard let appID = try database.existingAppRowID(of: app) else { return nil }
        return try monitorRowID(named: name, appRowID: appID)
    }

    /// The row id of the monitor `name` of the app at `appID`, or nil.
    private func monitorRowID(named name: String, appRowID appID: Int64) throws(StoreError) -> Int64? {
        try database.rows("SELECT id FROM monitors WHERE app = ? AND name = ?", [.integer(appID), .text(name)]) {
            row throws(StoreError) in try row.int64(0)
        }.first
    }

    /// The row id of the monitor `name` of the app at `appID`, inserted when new (within
    /// ``maximumMonitorsPerApp``). Inside a transaction.
    private func monitorRowID(creating name: String, appRowID appID: Int64) throws(StoreError) -> Int64 {
        if let id = try monitorRowID(named: name, appRowID: appID) { return id }
        let count = try database.rows("SELECT count(*) FROM monitors WHERE app = ?", [.integer(appID)]) {
            row throws(StoreError) in try row.int64(0)
        }.first ?? 0
        guard count < Self.maximumMonitorsPerApp else {
            throw StoreError(
                .limitExceeded, operation: "open monitor \(name)",
                message: "the app keeps \(count) monitors, the most one app may keep")
        }
        let ids = try database.rows("INSERT INTO monitors (app, name) VALUES (?, ?) RETURNING id", [.integer(appID), .text(name)]) {
            row throws(StoreError) in try row.int64(0)
        }
        guard let id = ids.first else {
            throw StoreError(.unexpectedValue, operation: "open monitor \(name)", message: "inserted but no id returned")
        }
        return id
    }
}

extension MonitorStore {
    /// Starts (`monitoring`) or stops the visit monitoring of `app`, on disk when it returns;
    /// stopping forgets the visits kept for it.
    package func setVisitMonitoring(_ monitoring: Bool, of app: AppIdentity, at time: RealtimeInstant) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            if monitoring {
                let appID = try database.appRowID(of: app, at: time)
                try database.run("INSERT INTO visitMonitoring (app) VALUES (?) ON CONFLICT (app) DO NOTHING", [.integer(appID)])
            } else if let appID = try database.existingAppRowID(of: app) {
                // The visits kept for it go too: the app no longer wants them.
                for table in ["visitMonitoring", "pendingVisits", "droppedVisits"] {
                    try database.run("DELETE FROM \(table) WHERE app = ?", [.integer(appID)])
                }
            }
        }
    }

    /// Every app that monitors visits, for the daemon at start.
    package func visitMonitoringApps() throws(StoreError) -> [AppIdentity] {
        try database.rows(
            "SELECT identityKind, identityKey FROM visitMonitoring JOIN apps ON apps.id = visitMonitoring.app ORDER BY apps.id"
        ) { row throws(StoreError) in AppIdentity(try row.enumeration(0), try row.string(1)) }
    }

    /// Every stored monitor as (app, name), for the daemon at start.
    package func monitorsOfEveryApp() throws(StoreError) -> [(app: AppIdentity, name: String)] {
        try database.rows(
            "SELECT identityKind, identityKey, name FROM monitors JOIN apps ON apps.id = monitors.app ORDER BY monitors.id"
        ) { row throws(StoreError) in (app: AppIdentity(try row.enumeration(0), try row.string(1)), name: try row.string(2)) }
    }
}

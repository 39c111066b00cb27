package import WaymarkAuthorization
package import WaymarkLocation
package import WaymarkSystem

/// A visit event (an arrival or a departure) kept for an app until it acknowledges it, under
/// its place in the app's queue of visits (increasing, never reused).
package struct QueuedVisit: Hashable, Sendable {
    /// The sequence the app acknowledges, unique in the store and increasing.
    package var sequence: Int64
    /// The arrival (departure date nil) or the departure.
    package var visit: Visit

    package init(sequence: Int64, visit: Visit) {
        self.sequence = sequence
        self.visit = visit
    }
}

/// An app's kept visit events, oldest first, and how many older ones were dropped because its
/// queue was full.
package struct PendingVisits: Hashable, Sendable {
    /// The visit events, oldest first.
    package var visits: [QueuedVisit]
    /// Visit events dropped (oldest first) since the app last acknowledged.
    package var dropped: Int

    package init(visits: [QueuedVisit], dropped: Int) {
        self.visits = visits
        self.dropped = dropped
    }
}

/// The visit events of an app that monitors visits and was away when they happened
/// (docs/store.md, "Monitor schema"): kept in order like its monitor events, until it
/// acknowledges them by sequence.
extension MonitorStore {
    /// Visit events kept per app: a stay gives two (arrival, departure), so 50 stays of 5 min
    /// or more, several days of errands for an app that stays away; older ones are in the
    /// diary (``visits()``). Beyond, the oldest are dropped and counted.
    package static let visitQueueCapacity = 100

    /// Keeps `visits` for `app`, in order, dropping the oldest beyond ``visitQueueCapacity``;
    /// returns those kept with their sequences. One transaction.
    @discardableResult
    package func keep(_ visits: [Visit], for app: AppIdentity, at time: RealtimeInstant) throws(StoreError) -> [QueuedVisit] {
        try database.transaction { () throws(StoreError) in
            let appID = try database.appRowID(of: app, at: time)
            var kept: [QueuedVisit] = []
            for visit in visits {
                let sequences = try database.rows(
                    """
                    INSERT INTO pendingVisits (app, arrivalDate, departureDate, latitude, longitude, horizontalAccuracy)
                    VALUES (?, ?, ?, ?, ?, ?) RETURNING sequence
                    """, [.integer(appID)] + Self.values(visit)
                ) { row throws(StoreError) in try row.int64(0) }
                guard let sequence = sequences.first else {
                    throw StoreError(.unexpectedValue, operation: "keep a visit", message: "no sequence returned")
                }
                kept.append(QueuedVisit(sequence: sequence, visit: visit))
            }
            guard let newestDropped = try trim("pendingVisits", counting: "droppedVisits", to: Self.visitQueueCapacity, appRowID: appID) else {
                return kept
            }
            return kept.filter { $0.sequence > newestDropped }
        }
    }

    /// The visit events kept for `app`, oldest first, and the number dropped before them.
    package func pendingVisits(of app: AppIdentity) throws(StoreError) -> PendingVisits {
        guard let appID = try database.existingAppRowID(of: app) else { return PendingVisits(visits: [], dropped: 0) }
        let visits = try database.rows(
            """
            SELECT sequence, arrivalDate, departureDate, latitude, longitude, horizontalAccuracy
            FROM pendingVisits WHERE app = ? ORDER BY sequence
            """, [.integer(appID)], skippingDamaged: skipped("the visits kept for \(app)")
        ) { row throws(StoreError) in QueuedVisit(sequence: try row.int64(0), visit: try Self.visit(row, from: 1)) }
        let dropped = try database.rows("SELECT count FROM droppedVisits WHERE app = ?", [.integer(appID)]) {
            row throws(StoreError) in try row.int64(0)
        }.first ?? 0
        return PendingVisits(visits: visits, dropped: Int(clamping: dropped))
    }

    /// Forgets the visit events of `app` up to and including `sequence`, and the count of
    /// those dropped before them: the app has them.
    package func acknowledgeVisits(through sequence: Int64, of app: AppIdentity) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            guard let appID = try database.existingAppRowID(of: app) else { return }
            try database.run("DELETE FROM pendingVisits WHERE app = ? AND sequence <= ?", [.integer(appID), .integer(sequence)])
            try database.run("DELETE FROM droppedVisits WHERE app = ?", [.integer(appID)])
        }
    }
}

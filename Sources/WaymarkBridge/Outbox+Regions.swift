import WaymarkBoard
import WaymarkBridgeCore
import WaymarkLocation
import WaymarkStore

/// The bridge's regions in its outbox database: when each was first watched (OwnTracks'
/// `wtst`), its last published state, and the receipts of the monitor events taken, so that
/// an event the daemon sends again (its acknowledgement lost in a crash) is not published twice.
extension Outbox {
    /// The receipts kept: more than the daemon keeps unacknowledged for one app (100).
    static let receiptsKept = 1_000

    /// The configured `regions` with their creation times: a new region, or one whose centre
    /// or radius changed, is created `now` with no state; the others keep theirs. Regions no
    /// longer configured are forgotten.
    func regions(_ configured: [MQTTSettings.Region], now: Int64) throws(StoreError) -> [OwnTracksRegion] {
        try database.transaction { () throws(StoreError) in
            var result: [OwnTracksRegion] = []
            for region in configured {
                let known = try database.rows(
                    "SELECT created FROM regions WHERE name = ? AND latitude = ? AND longitude = ? AND radius = ?",
                    [.text(region.name), .real(region.latitude), .real(region.longitude), .real(region.radius)]
                ) { row throws(StoreError) in try row.int64(0) }.first
                if known == nil {
                    try database.run(
                        "INSERT OR REPLACE INTO regions (name, latitude, longitude, radius, created, state) VALUES (?, ?, ?, ?, ?, NULL)",
                        [.text(region.name), .real(region.latitude), .real(region.longitude), .real(region.radius), .integer(now)])
                }
                result.append(
                    OwnTracksRegion(name: region.name, latitude: region.latitude, longitude: region.longitude, radius: region.radius, created: known ?? now))
            }
            let names = Set(configured.map(\.name))
            let stored = try database.rows("SELECT name FROM regions") { row throws(StoreError) in try row.string(0) }
            for name in stored where !names.contains(name) {
                try database.run("DELETE FROM regions WHERE name = ?", [.text(name)])
            }
            return result
        }
    }

    /// What taking a region event did.
    enum Taking {
        /// Its receipt was here: it came again and changed nothing.
        case repeated
        /// Taken: the message of the transition it made, if any.
        case taken(OutgoingMessage?)
    }

    /// Applies `event` (inside the caller's transaction): records its receipt and the region's
    /// new state, and makes the message of its transition, if any.
    func take(_ event: RegionEvent, transition: (RegionEvent, OwnTracksPayload.Transition) -> OutgoingMessage?) throws(StoreError) -> Taking {
        let date = SQLValue.integer(event.date.nanosecondsSinceEpoch)
        if let sequence = event.sequence.flatMap(Int64.init(exactly:)) {
            let receipt: [SQLValue] = [.integer(sequence), .text(event.region), .text(event.state.rawValue), date]
            let taken = try database.rows(
                "SELECT 1 FROM receipts WHERE sequence = ? AND region = ? AND state = ? AND date = ?", receipt
            ) { _ throws(StoreError) in true }
            guard taken.isEmpty else { return .repeated }
            try database.run("INSERT OR REPLACE INTO receipts (sequence, region, state, date) VALUES (?, ?, ?, ?)", receipt)
            try database.run(
                "DELETE FROM receipts WHERE sequence <= (SELECT sequence FROM receipts ORDER BY sequence DESC LIMIT 1 OFFSET ?)",
                [.integer(Int64(Self.receiptsKept))])
        }
        let rows = try database.rows("SELECT state FROM regions WHERE name = ?", [.text(event.region)]) {
            row throws(StoreError) in try row.optionalString(0).flatMap(RegionEvent.State.init(rawValue:))
        }
        // A condition of the monitor that is no longer a configured region publishes nothing.
        guard let previous = rows.first else { return .taken(nil) }
        try database.run(
            "UPDATE regions SET state = ? WHERE name = ?", [.optionalText(event.state(after: previous)?.rawValue), .text(event.region)])
        return .taken(event.transition(after: previous).flatMap { transition(event, $0) })
    }

}

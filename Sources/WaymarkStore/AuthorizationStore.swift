package import WaymarkAuthorization
package import WaymarkSystem

/// The authorization data of issue 13 over the daemon's ``Database``: apps and the operator's
/// decisions, pending requests, the global location-services switch. Each call is one
/// transaction, on disk when it returns. It records; it decides nothing (policy lives above it).
package final class AuthorizationStore {
    let database: Database

    /// The store over `database`, whose schema is at ``StoreSchema``'s version.
    package init(database: Database) {
        self.database = database
    }

    /// The app `identity`, or nil when the store has never heard of it.
    package func app(_ identity: AppIdentity) throws(StoreError) -> AppRecord? {
        try database.rows(Self.selectApps + " WHERE identityKind = ? AND identityKey = ?", Self.key(identity), read: Self.app)
            .first
    }

    /// Every app the store knows, by identity.
    package func apps() throws(StoreError) -> [AppRecord] {
        try database.rows(Self.selectApps + " ORDER BY identityKind, identityKey", read: Self.app)
    }

    /// Records that `identity` (run by `uid`) asked for `requested`, explaining why with
    /// `usageDescription`. A repeated request keeps the time of the first and takes the latest
    /// text and level. A client cannot grow the database without bound: a description longer
    /// than ``AuthorizationLimits/maximumUsageDescriptionBytes``, or a new request beyond
    /// ``AuthorizationLimits/maximumPendingRequestsPerUID`` for its uid or
    /// ``AuthorizationLimits/maximumPendingRequests`` in all, is refused (`limitExceeded`)
    /// and nothing is written.
    package func recordPendingRequest(
        _ identity: AppIdentity, usageDescription: String, requested: AuthorizationGrant, uid: UInt32,
        at time: RealtimeInstant
    ) throws(StoreError) {
        let operation = "record the request of \(identity)"
        let bytes = usageDescription.utf8.count
        guard bytes <= AuthorizationLimits.maximumUsageDescriptionBytes else {
            throw StoreError(
                .limitExceeded, operation: operation,
                message: "the usage description has \(bytes) bytes, more than \(AuthorizationLimits.maximumUsageDescriptionBytes)")
        }
        try database.transaction { () throws(StoreError) in
            let waiting = try database.rows(
                """
                SELECT count(*), count(CASE WHEN uid = ? THEN 1 END),
                    count(CASE WHEN identityKind = ? AND identityKey = ? THEN 1 END)
                FROM pendingRequests JOIN apps ON apps.id = pendingRequests.app
                """, [.integer(Int64(uid))] + Self.key(identity)
            ) { row throws(StoreError) in (all: try row.int64(0), ofUID: try row.int64(1), ofApp: try row.int64(2)) }
            if let waiting = waiting.first, waiting.ofApp == 0 {
                guard waiting.ofUID < AuthorizationLimits.maximumPendingRequestsPerUID else {
                    throw StoreError(
                        .limitExceeded, operation: operation,
                        message: "uid \(uid) has \(waiting.ofUID) requests waiting, the most one uid may have")
                }
                guard waiting.all < AuthorizationLimits.maximumPendingRequests else {
                    throw StoreError(
                        .limitExceeded, operation: operation, message: "\(waiting.all) requests are waiting, the most there may be")
                }
            }
            let app = try database.appRowID(of: identity, at: time)
            try database.run(
                """
                INSERT INTO pendingRequests (app, usageDescription, requestedAuthorization, uid, firstRequestedAt)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (app) DO UPDATE SET
                    usageDescription = excluded.usageDescription, requestedAuthorization = excluded.requestedAuthorization,
                    uid = excluded.uid
                """,
                [.integer(app), .text(usageDescription), .text(requested.rawValue), .integer(Int64(uid)), Self.value(time)])
        }
    }

    /// The requests no one has answered yet, oldest first.
    package func pendingRequests() throws(StoreError) -> [PendingRequest] {
        try database.rows(
            """
            SELECT identityKind, identityKey, usageDescription, requestedAuthorization, uid, firstRequestedAt
            FROM pendingRequests JOIN apps ON apps.id = pendingRequests.app
            ORDER BY firstRequestedAt, identityKind, identityKey
            """
        ) { row throws(StoreError) in
            PendingRequest(
                identity: try Self.identity(row, 0), usageDescription: try row.string(2),
                requested: try row.enumeration(3), uid: try Self.uid(row, 4),
                firstRequestedAt: RealtimeInstant(nanosecondsSinceEpoch: try row.int64(5)))
        }
    }

    /// Authorizes `identity` for `grant` with `accuracy`, answering its pending request if any.
    package func grant(
        _ identity: AppIdentity, _ grant: AuthorizationGrant, accuracy: AccuracyAuthorization, at time: RealtimeInstant
    ) throws(StoreError) {
        try decide(identity, grant.state, accuracy: accuracy, at: time)
    }

    /// Denies `identity`, answering its pending request if any; its accuracy is kept.
    package func deny(_ identity: AppIdentity, at time: RealtimeInstant) throws(StoreError) {
        try decide(identity, .denied, accuracy: nil, at: time)
    }

    /// Forgets the decision about `identity`: `notDetermined`, full accuracy, no pending request.
    /// Its `appID` binding is kept.
    package func reset(_ identity: AppIdentity, at time: RealtimeInstant) throws(StoreError) {
        try decide(identity, .notDetermined, accuracy: .full, at: time)
    }

    /// Binds the declared `appID` to `identity` (nil removes the binding).
    package func bindAppID(_ appID: String?, to identity: AppIdentity, at time: RealtimeInstant) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            let app = try database.appRowID(of: identity, at: time)
            try database.run(
                "UPDATE apps SET appID = ?, updatedAt = ? WHERE id = ?", [.optionalText(appID), Self.value(time), .integer(app)])
        }
    }

    /// Whether location services are on for the whole board (on until switched off).
    package func locationServicesEnabled() throws(StoreError) -> Bool {
        try database.rows("SELECT value FROM settings WHERE key = ?", [.text(Self.locationServicesKey)]) {
            row throws(StoreError) in try row.bool(0)
        }.first ?? true
    }

    /// Switches location services on or off for the whole board.
    package func setLocationServicesEnabled(_ enabled: Bool) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            try database.run(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(Self.locationServicesKey), .bool(enabled)])
        }
    }

    /// Sets the state (and the accuracy, unless nil) of `identity` and removes its pending request.
    func decide(
        _ identity: AppIdentity, _ state: AuthorizationState, accuracy: AccuracyAuthorization?, at time: RealtimeInstant
    ) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            let app = try database.appRowID(of: identity, at: time)
            try database.run(
                "UPDATE apps SET authorization = ?, accuracy = coalesce(?, accuracy), updatedAt = ? WHERE id = ?",
                [.text(state.rawValue), .optionalText(accuracy?.rawValue), Self.value(time), .integer(app)])
            try database.run("DELETE FROM pendingRequests WHERE app = ?", [.integer(app)])
        }
    }

    private static let locationServicesKey = "locationServicesEnabled"

    /// The uid in `column`: NULL (a request from before version 2) or 0 to 2^32 - 2.
    private static func uid(_ row: Row, _ column: Int32) throws(StoreError) -> UInt32? {
        if row.isNull(column) { return nil }
        let value = try row.int64(column)
        guard let uid = UInt32(exactly: value), uid != UInt32.max else {
            throw StoreError(.unexpectedValue, operation: "read a uid", message: "\(value) is not a uid")
        }
        return uid
    }

    private static let selectApps = "SELECT identityKind, identityKey, appID, authorization, accuracy, updatedAt FROM apps"

    private static func app(_ row: Row) throws(StoreError) -> AppRecord {
        AppRecord(
            identity: try identity(row, 0), appID: try row.optionalString(2), authorization: try row.enumeration(3),
            accuracy: try row.enumeration(4), updatedAt: RealtimeInstant(nanosecondsSinceEpoch: try row.int64(5)))
    }

    private static func identity(_ row: Row, _ column: Int32) throws(StoreError) -> AppIdentity {
        AppIdentity(try row.enumeration(column), try row.string(column + 1))
    }

    private static func key(_ identity: AppIdentity) -> [SQLValue] {
        [.text(identity.kind.rawValue), .text(identity.key)]
    }

    private static func value(_ time: RealtimeInstant) -> SQLValue {
        .integer(time.nanosecondsSinceEpoch)
    }
}

import WaymarkAuthorization
import WaymarkSystem

extension Database {
    /// The row id of app `identity` in `apps`, inserting it as `notDetermined` when new: the
    /// key that authorization, monitors and queued events hang from. Inside a transaction.
    func appRowID(of identity: AppIdentity, at time: RealtimeInstant) throws(StoreError) -> Int64 {
        try run(
            "INSERT INTO apps (identityKind, identityKey, updatedAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [.text(identity.kind.rawValue), .text(identity.key), .integer(time.nanosecondsSinceEpoch)])
        guard let id = try existingAppRowID(of: identity) else {
            throw StoreError(.unexpectedValue, operation: "find app \(identity)", message: "inserted but not found")
        }
        return id
    }

    /// The row id of app `identity`, or nil when the store has never heard of it.
    func existingAppRowID(of identity: AppIdentity) throws(StoreError) -> Int64? {
        try rows("SELECT id FROM apps WHERE identityKind = ? AND identityKey = ?", [.text(identity.kind.rawValue), .text(identity.key)]) {
            row throws(StoreError) in try row.int64(0)
        }.first
    }
}

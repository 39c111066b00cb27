package import WaymarkAuthorization
package import WaymarkSystem

extension AuthorizationStore {
    /// Writes `change` in one transaction. The daemon calls this before it applies the change
    /// to its `AuthorizationBook` and acknowledges it, so an acknowledged change survives a
    /// crash; a refused one (`limitExceeded`) is neither applied nor acknowledged.
    package func apply(_ change: AuthorizationChange, at time: RealtimeInstant) throws(StoreError) {
        switch change {
        case .request(let app, let request):
            try recordPendingRequest(
                app, usageDescription: request.usageDescription, requested: request.requested, uid: request.uid, at: time)
        case .decide(let app, let state, let accuracy, _):
            try decide(app, state, accuracy: accuracy, at: time)
        case .reset(let app, _):
            try reset(app, at: time)
        case .setLocationServices(let enabled, _):
            try setLocationServicesEnabled(enabled)
        }
    }

    /// Everything stored, for the daemon's `AuthorizationBook` at start. A request stored
    /// before schema version 2 has no uid; it counts as root's.
    package func snapshot() throws(StoreError) -> AuthorizationSnapshot {
        var snapshot = AuthorizationSnapshot()
        snapshot.locationServicesEnabled = try locationServicesEnabled()
        for app in try apps() {
            let decided = DecidedAuthorization(app.authorization, accuracy: app.accuracy)
            if !decided.isUndecided { snapshot.decisions[app.identity] = decided }
        }
        for request in try pendingRequests() {
            snapshot.pending[request.identity] = PendingAuthorization(
                requested: request.requested, usageDescription: request.usageDescription, uid: request.uid ?? 0)
        }
        return snapshot
    }

    /// The device's secret for reduced accuracy (docs/authorization.md), or nil before one
    /// was kept.
    package func deviceSecret() throws(StoreError) -> [UInt8]? {
        let texts = try database.rows("SELECT value FROM settings WHERE key = ?", [.text(Self.deviceSecretKey)]) {
            row throws(StoreError) in try row.string(0)
        }
        guard let text = texts.first else { return nil }
        guard let bytes = Self.bytes(hex: text), bytes.count >= ReducedAccuracy.minimumSecretBytes else {
            throw StoreError(.unexpectedValue, operation: "read the device secret", message: "not \(ReducedAccuracy.minimumSecretBytes) or more bytes in hex")
        }
        return bytes
    }

    /// Keeps `secret` (fresh random bytes) as the device's secret unless one is kept already,
    /// and returns the kept one: generated once, it never changes (a new secret would let an
    /// app compare two grids).
    package func keepDeviceSecret(_ secret: [UInt8]) throws(StoreError) -> [UInt8] {
        let hex = secret.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        try database.transaction { () throws(StoreError) in
            try database.run(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", [.text(Self.deviceSecretKey), .text(hex)])
        }
        guard let kept = try deviceSecret() else {
            throw StoreError(.unexpectedValue, operation: "keep the device secret", message: "written but not found")
        }
        return kept
    }

    private static let deviceSecretKey = "reducedAccuracySecret"

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

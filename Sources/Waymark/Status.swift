import WaymarkProtocol

/// The Waymark daemon as a whole, seen from a client.
public enum WaymarkAgent {
    /// The daemon's status: its source, the receiver's power state and ledger, the last
    /// location, whether the device is stationary, clients and subscriptions.
    ///
    /// Asked after the daemon restarted, it reaches the new daemon (<doc:Adopting-Waymark>,
    /// "Diagnostics").
    ///
    /// - Throws: ``WaymarkError`` when the daemon is unreachable or refuses.
    public static func status() async throws -> StatusReport {
        try await DaemonClient.shared.status()
    }
}

extension DaemonClient {
    /// The daemon's status, asked for on this client's connection.
    func status() async throws -> StatusReport {
        guard case .status(let report) = try await call(.status) else { throw WaymarkError.unexpectedResult(.status) }
        return report
    }
}

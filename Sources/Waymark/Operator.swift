package import WaymarkProtocol

extension WaymarkAgent {
    /// Sends one of the operator's requests (`waymark auth`) and returns its result; the daemon
    /// checks the caller's credentials (root or `waymark-admin`).
    ///
    /// - Throws: ``WaymarkError`` when the daemon is unreachable or refuses.
    package static func perform(_ operation: Operation) async throws -> ReplyResult {
        try await DaemonClient.shared.call(operation)
    }
}

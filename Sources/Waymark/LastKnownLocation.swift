public import WaymarkLocation
import WaymarkProtocol

extension WaymarkAgent {
    /// The newest location the daemon has, however old, and its age, as Core Location's
    /// `CLLocationManager.location`: `nil` before the first fix. Asking never powers the
    /// receiver; an app with reduced accuracy gets the reduced location.
    ///
    /// ```swift
    /// if let last = try await WaymarkAgent.lastKnownLocation(), last.age < .seconds(60) {
    ///     show(last.location)
    /// }
    /// ```
    ///
    /// - Throws: ``LocationError/denied`` when the app is not authorized, ``WaymarkError``
    ///   when the daemon is unreachable or refuses.
    public static func lastKnownLocation() async throws -> LastKnownLocation? {
        try await DaemonClient.shared.lastKnownLocation()
    }
}

extension DaemonClient {
    /// The daemon's last known location, asked for on this client's connection.
    func lastKnownLocation() async throws -> LastKnownLocation? {
        let result: ReplyResult
        do {
            result = try await call(.lastKnownLocation)
        } catch WaymarkError.refused(code: ErrorCode.authorizationDenied.rawValue, _) {
            throw LocationError.denied
        }
        guard case .lastKnown(let last) = result else { throw WaymarkError.unexpectedResult(.lastKnownLocation) }
        return last
    }
}

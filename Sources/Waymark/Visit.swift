import WaymarkProtocol
public import WaymarkLocation

/// A stay at a place, as Core Location's `CLVisit`: the device was still there for 5 minutes
/// or more (docs/monitoring.md, "Visits").
public struct Visit: Hashable, Sendable {
    /// The place's centre's latitude, degrees.
    public let latitude: Double
    /// The place's centre's longitude, degrees.
    public let longitude: Double
    /// The radius, metres, within which the centre lies.
    public let horizontalAccuracy: Double
    /// When the device came to rest there.
    public let arrivalDate: Timestamp
    /// When it left; nil while it is there (Core Location's `distantFuture`).
    public let departureDate: Timestamp?
}

extension WaymarkAgent {
    /// The device's visit diary, oldest arrival first, as the app may see it (under reduced
    /// accuracy each centre is its cell's). Kept only by a daemon with a store.
    ///
    /// - Throws: ``WaymarkError`` when the daemon is unreachable or refuses (`authorizationDenied`).
    public static func visits() async throws -> [Visit] {
        guard case .visits(let visits) = try await DaemonClient.shared.call(.visits) else { throw WaymarkError.unexpectedResult(.visits) }
        return visits.map {
            Visit(
                latitude: $0.latitude, longitude: $0.longitude, horizontalAccuracy: $0.horizontalAccuracy, arrivalDate: $0.arrivalDate,
                departureDate: $0.departureDate)
        }
    }
}

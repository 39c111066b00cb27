import WaymarkLocation
import WaymarkServerTestSupport

/// A daemon on a fresh socket, removed at the end of `body`.
func withDaemon(_ body: (TestDaemon) async throws -> Void) async throws {
    let directory = try TemporarySocketDirectory()
    defer { directory.remove() }
    let daemon = try TestDaemon(path: directory.socket())
    do {
        try await body(daemon)
    } catch {
        await daemon.shutDown()
        throw error
    }
    await daemon.shutDown()
}

/// An update whose latitude tells which one it is.
func numbered(_ index: Int) -> LocationUpdate {
    LocationUpdate(location: Location(
        latitude: Double(index) / 1_000, longitude: 8.5, horizontalAccuracy: 5,
        timestamp: Timestamp(nanosecondsSinceEpoch: Int64(index) * 1_000_000_000)))
}

extension LocationUpdate {
    /// The number ``numbered(_:)`` gave the update.
    var number: Int? { location.map { Int(($0.latitude * 1_000).rounded()) } }
}

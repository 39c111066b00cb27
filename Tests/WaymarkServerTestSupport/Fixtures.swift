package import WaymarkDaemon
package import WaymarkLocation

/// A daemon listening at `path` (a fresh temporary directory's socket if `nil`), its
/// configuration changed by `configure`, shut down (and the directory removed) when `body` ends.
package func withDaemon(
    at path: String? = nil, authorizer: Authorizer = .unenforced(), monitors: MonitorCenter = .unkept(),
    configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (TestDaemon) async throws -> Void
) async throws {
    let directory = try TemporarySocketDirectory()
    defer { directory.remove() }
    let daemon = try TestDaemon(path: path ?? directory.socket(), authorizer: authorizer, monitors: monitors, configure: configure)
    do {
        try await body(daemon)
    } catch {
        await daemon.shutDown()
        throw error
    }
    await daemon.shutDown()
}

/// An update whose latitude tells which one it is.
package func numbered(_ index: Int) -> LocationUpdate {
    LocationUpdate(location: Location(
        latitude: Double(index) / 1_000, longitude: 8.5, horizontalAccuracy: 5,
        timestamp: Timestamp(nanosecondsSinceEpoch: Int64(index) * 1_000_000_000)))
}

extension LocationUpdate {
    /// The number ``numbered(_:)`` gave the update.
    package var number: Int? { location.map { Int(($0.latitude * 1_000).rounded()) } }
}

/// A condition that did not come true in time.
package struct TimedOut: Error {
    package init() {}
}

/// Waits (up to 5 s) until `condition` holds.
package func waitUntil(_ condition: @Sendable () async -> Bool) async throws {
    for _ in 0..<500 {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw TimedOut()
}

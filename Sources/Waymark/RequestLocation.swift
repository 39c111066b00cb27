public import WaymarkLocation
import WaymarkProtocol
import WaymarkClock

extension Location {
    /// One location from the Waymark daemon, as Core Location's `requestLocation()`: the
    /// first at least `desiredAccuracy` metres accurate, or the best once the accuracy stops
    /// improving (with 0, the usual answer: a few seconds after the first fix), or the best
    /// the daemon had when `timeout` ends. A fresh location answers at once. Cancelling the
    /// task withdraws the request, and the daemon releases the receiver at once.
    ///
    /// ```swift
    /// let here = try await Location.requestLocation(desiredAccuracy: 20, timeout: .seconds(60))
    /// ```
    ///
    /// - Throws: ``LocationError/locationUnknown`` when no location could be had in time,
    ///   ``LocationError/denied`` when the app is not authorized, ``WaymarkError`` when the
    ///   daemon is unreachable, does not answer within `timeout` and 2 s more, or refuses, or
    ///   at once, as the daemon would, for a `timeout` under 1 ms or over 600 seconds or a
    ///   `desiredAccuracy` below 0 or not finite; `CancellationError` when the task is cancelled.
    public static func requestLocation(desiredAccuracy: Double = 0, timeout: Duration = .seconds(30)) async throws -> Location {
        guard LocationRequest.isValidAccuracy(desiredAccuracy) else {
            throw WaymarkError.refused(
                code: ErrorCode.invalidMessage.rawValue, message: "desiredAccuracy: expected \(LocationRequest.validAccuracies), found \(desiredAccuracy)")
        }
        guard LocationRequest.isValidTimeout(timeout.seconds) else {
            throw WaymarkError.refused(
                code: ErrorCode.invalidMessage.rawValue, message: "timeout: expected \(LocationRequest.validTimeouts), found \(timeout)")
        }
        return try await DaemonClient.shared.requestLocation(LocationRequest(desiredAccuracy: desiredAccuracy, timeout: timeout))
    }
}

extension DaemonClient {
    /// One location, asked for on this client's connection; cancelling the task withdraws it.
    func requestLocation(_ request: LocationRequest) async throws -> Location {
        try await reply({ core, pending in core.requestLocation(request, pending) }, withdraw: { core, pending in core.cancelRequest(pending) })
    }
}

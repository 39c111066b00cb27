/// One element of a live-updates stream, as Core Location's `CLLocationUpdate`: an optional
/// location, whether the device is stationary, and the diagnostics that explain a missing or
/// limited location.
public struct LocationUpdate: Hashable, Sendable {
    /// The location, or `nil` when none is available (``Diagnostics/locationUnavailable``
    /// or an authorization diagnostic says why).
    public var location: Location?
    /// Whether the device is stationary. The update that pauses a stream carries a location
    /// and `true`; the stream then stays silent until the device moves.
    public var isStationary: Bool
    /// Why the update is missing something, or came at all.
    public var diagnostics: Diagnostics

    /// Creates an update.
    public init(location: Location?, isStationary: Bool = false, diagnostics: Diagnostics = Diagnostics()) {
        self.location = location
        self.isStationary = isStationary
        self.diagnostics = diagnostics
    }
}

/// Errors of one-shot location requests, as Core Location's `CLError`.
public enum LocationError: String, Error, Hashable, Sendable {
    /// No location could be had before the timeout (`kCLErrorLocationUnknown`).
    case locationUnknown
    /// The app is not authorized (`kCLErrorDenied`).
    case denied
}

/// The newest location the daemon has, however old, as Core Location's
/// `CLLocationManager.location`: it may be stale, and says how stale. Asking for it never
/// powers the receiver.
public struct LastKnownLocation: Hashable, Sendable {
    /// The location, with the receiver's `timestamp`.
    public var location: Location
    /// How long before the daemon's answer it got the location, on its monotonic clock (a
    /// simulated board's timeline, which `--speed` compresses as it does the timestamps).
    public var age: Duration

    /// Creates one; a negative age is zero.
    public init(location: Location, age: Duration) {
        self.location = location
        self.age = max(age, .zero)
    }
}

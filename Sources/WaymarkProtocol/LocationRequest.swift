import WaymarkClock
/// The parameters of `requestLocation`.
public struct LocationRequest: Hashable, Sendable {
    /// The horizontal accuracy wanted, in metres; 0 asks for the best the receiver can do.
    /// The daemon answers with the first location at least this accurate, or with the best it
    /// had when the timeout ends.
    public var desiredAccuracy: Double
    /// How long the daemon may try before answering `locationUnknown`.
    public var timeout: Duration

    /// The longest timeout a request may ask for.
    public static let maximumTimeout = Duration.seconds(600)

    /// Creates a request.
    public init(desiredAccuracy: Double = 0, timeout: Duration = .seconds(30)) {
        self.desiredAccuracy = desiredAccuracy
        self.timeout = timeout
    }
}

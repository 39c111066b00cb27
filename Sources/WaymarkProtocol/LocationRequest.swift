import WaymarkClock
/// The parameters of `requestLocation`.
public struct LocationRequest: Hashable, Sendable {
    /// The horizontal accuracy wanted, in metres; 0 asks for the best the receiver can do.
    /// The daemon answers with the first location at least this accurate, or once the
    /// accuracy stops improving, or with the best it had when the timeout ends.
    public var desiredAccuracy: Double
    /// How long the daemon may try before answering `locationUnknown`.
    public var timeout: Duration

    /// The longest timeout a request may ask for.
    public static let maximumTimeout = Duration.seconds(600)
    /// The timeouts a request may ask for, in words.
    public static let validTimeouts = "more than 0 and at most \(Int(maximumTimeout.seconds)) seconds"

    /// Whether a request may ask for a timeout of `seconds`: more than 0 and at most
    /// ``maximumTimeout``. The daemon and the command line check the same.
    public static func isValidTimeout(_ seconds: Double) -> Bool {
        seconds > 0 && seconds <= maximumTimeout.seconds
    }

    /// Creates a request.
    public init(desiredAccuracy: Double = 0, timeout: Duration = .seconds(30)) {
        self.desiredAccuracy = desiredAccuracy
        self.timeout = timeout
    }
}

import WaymarkClock
/// The parameters of `requestLocation`.
package struct LocationRequest: Hashable, Sendable {
    /// The horizontal accuracy wanted, in metres; 0 asks for the best the receiver can do.
    /// The daemon answers with the first location at least this accurate, or once the
    /// accuracy stops improving, or with the best it had when the timeout ends.
    package var desiredAccuracy: Double
    /// How long the daemon may try before answering `locationUnknown`.
    package var timeout: Duration

    /// The longest timeout a request may ask for.
    package static let maximumTimeout = Duration.seconds(600)
    /// The timeouts a request may ask for, in words.
    package static let validTimeouts = "more than 0 and at most \(Int(maximumTimeout.seconds)) seconds"

    /// Whether a request may ask for a timeout of `seconds`: more than 0 and at most
    /// ``maximumTimeout``. The daemon and the command line check the same.
    package static func isValidTimeout(_ seconds: Double) -> Bool {
        seconds > 0 && seconds <= maximumTimeout.seconds
    }

    /// Creates a request.
    package init(desiredAccuracy: Double = 0, timeout: Duration = .seconds(30)) {
        self.desiredAccuracy = desiredAccuracy
        self.timeout = timeout
    }
}

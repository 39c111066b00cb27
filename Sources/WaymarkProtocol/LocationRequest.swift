import WaymarkClock
/// The parameters of `requestLocation`.
package struct LocationRequest: Hashable, Sendable {
    /// The horizontal accuracy wanted, in metres; 0 asks for the best the receiver can do.
    /// The daemon answers with the first location at least this accurate, or once the
    /// accuracy stops improving, or with the best it had when the timeout ends.
    package var desiredAccuracy: Double
    /// How long the daemon may try before answering `locationUnknown`.
    package var timeout: Duration

    /// The shortest timeout a request may ask for: the protocol's resolution for it (a
    /// millisecond), so that no timeout the client accepts reaches the daemon as 0.
    package static let minimumTimeout = Duration.milliseconds(1)
    /// The longest timeout a request may ask for.
    package static let maximumTimeout = Duration.seconds(600)
    /// The timeouts a request may ask for, in words.
    package static let validTimeouts = "from 0.001 to \(Int(maximumTimeout.seconds)) seconds"
    /// The accuracies a request may ask for, in words.
    package static let validAccuracies = "a finite number of metres, at least 0"

    /// Whether a request may ask for a timeout of `seconds`: from ``minimumTimeout`` to
    /// ``maximumTimeout``. The daemon, the library and the command line check the same.
    package static func isValidTimeout(_ seconds: Double) -> Bool {
        seconds >= minimumTimeout.seconds && seconds <= maximumTimeout.seconds
    }

    /// Whether a request may ask for an accuracy of `metres`: finite (JSON has no infinity; it
    /// was sent as `null`, which the daemon reads as 0, the best) and at least 0.
    package static func isValidAccuracy(_ metres: Double) -> Bool {
        metres.isFinite && metres >= 0
    }

    /// Creates a request.
    package init(desiredAccuracy: Double = 0, timeout: Duration = .seconds(30)) {
        self.desiredAccuracy = desiredAccuracy
        self.timeout = timeout
    }
}

import Glibc

/// A POSIX signal number, with the ones the daemon handles named.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The signal number, such as `SIGTERM`.
    public let rawValue: Int32

    /// Wraps a signal number.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `SIGTERM`: the service manager asks for a clean shutdown.
    public static let terminate = Signal(rawValue: SIGTERM)
    /// `SIGINT`: Ctrl-C in a terminal.
    public static let interrupt = Signal(rawValue: SIGINT)
    /// `SIGHUP`: reload the configuration.
    public static let hangup = Signal(rawValue: SIGHUP)

    /// The signal's name, such as `SIGTERM`, or `signal 10` for an unnamed one.
    public var description: String {
        switch self {
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        case .hangup: "SIGHUP"
        default: "signal \(rawValue)"
        }
    }
}

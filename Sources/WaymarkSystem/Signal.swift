import Glibc

/// A POSIX signal number, with the ones the daemon handles named.
package struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The signal number, such as `SIGTERM`.
    package let rawValue: Int32

    /// Wraps a signal number.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `SIGTERM`: the service manager asks for a clean shutdown.
    package static let terminate = Signal(rawValue: SIGTERM)
    /// `SIGINT`: Ctrl-C in a terminal.
    package static let interrupt = Signal(rawValue: SIGINT)
    /// `SIGHUP`: a hang-up, or a request to reload (the daemon logs it and goes on).
    package static let hangup = Signal(rawValue: SIGHUP)
    /// `SIGUSR1`: user-defined.
    package static let user1 = Signal(rawValue: SIGUSR1)
    /// `SIGUSR2`: user-defined.
    package static let user2 = Signal(rawValue: SIGUSR2)
    /// Has the kernel discard this signal from now on (signal(2) with `SIG_IGN`), for a
    /// process that handles its cause where it happens, as a writer does EPIPE.
    package func ignore() {
        _ = Glibc.signal(rawValue, SIG_IGN)
    }

    /// `SIGPIPE`: a write to a pipe or socket nobody reads any more.
    package static let brokenPipe = Signal(rawValue: SIGPIPE)

    /// The signal's name, such as `SIGTERM`, or `signal 10` for an unnamed one.
    package var description: String {
        switch self {
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        case .hangup: "SIGHUP"
        case .user1: "SIGUSR1"
        case .user2: "SIGUSR2"
        case .brokenPipe: "SIGPIPE"
        default: "signal \(rawValue)"
        }
    }
}

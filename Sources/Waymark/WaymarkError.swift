import WaymarkProtocol

/// Why the client library could not do what was asked, beyond Core Location's own errors
/// (``LocationError``).
public enum WaymarkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The daemon cannot be reached (not running, restarting, or the socket is elsewhere:
    /// see `WAYMARK_SOCKET`).
    case daemonUnavailable(String)
    /// The daemon refused the request; `code` is the protocol's error code (`docs/protocol.md`).
    case refused(code: String, message: String)

    /// A reply to `operation` whose result is of another operation's kind.
    static func unexpectedResult(_ operation: OperationName) -> WaymarkError {
        .refused(code: "invalidMessage", message: "unexpected result to \(operation.rawValue)")
    }

    public var description: String {
        switch self {
        case .daemonUnavailable(let reason): "the Waymark daemon is unavailable: \(reason)"
        case .refused(let code, let message): "the Waymark daemon refused: \(code): \(message)"
        }
    }
}

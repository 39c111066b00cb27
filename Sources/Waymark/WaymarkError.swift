/// Why the client library could not do what was asked, beyond Core Location's own errors
/// (``LocationError``).
public enum WaymarkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The daemon cannot be reached (not running, restarting, or the socket is elsewhere:
    /// see `WAYMARK_SOCKET`).
    case daemonUnavailable(String)
    /// The daemon refused the request; `code` is the protocol's error code (`docs/protocol.md`).
    case refused(code: String, message: String)

    public var description: String {
        switch self {
        case .daemonUnavailable(let reason): "the Waymark daemon is unavailable: \(reason)"
        case .refused(let code, let message): "the Waymark daemon refused: \(code): \(message)"
        }
    }
}

import CWaymarkSystem

/// Readiness conditions in epoll's terms: what a registration waits for, and what a wait
/// reports. ``hangup`` and ``error`` are always reported, whether asked for or not.
package struct IOEvents: OptionSet, Hashable, Sendable {
    /// The epoll event bits.
    package let rawValue: UInt32

    /// Wraps epoll event bits.
    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Data can be read, or a connection accepted (`EPOLLIN`).
    package static let readable = IOEvents(rawValue: EPOLLIN.rawValue)
    /// Data can be written (`EPOLLOUT`).
    package static let writable = IOEvents(rawValue: EPOLLOUT.rawValue)
    /// The peer shut down its writing side (`EPOLLRDHUP`).
    package static let peerClosed = IOEvents(rawValue: EPOLLRDHUP.rawValue)
    /// Both directions are closed, or a terminal's other side went away (`EPOLLHUP`).
    package static let hangup = IOEvents(rawValue: EPOLLHUP.rawValue)
    /// An error is pending on the descriptor (`EPOLLERR`).
    package static let error = IOEvents(rawValue: EPOLLERR.rawValue)
}

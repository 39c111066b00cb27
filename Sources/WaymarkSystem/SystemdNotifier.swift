import Glibc

/// Sends service-manager notifications (the sd_notify(3) protocol): one datagram per message
/// to the AF_UNIX socket named by `NOTIFY_SOCKET`, abstract when the name starts with `@`.
package struct SystemdNotifier: Sendable {
    /// One notification: newline-separated `KEY=VALUE` assignments.
    package struct Message: RawRepresentable, Hashable, Sendable {
        /// The assignments as sent, such as `READY=1`.
        package let rawValue: String

        /// Wraps assignments to send as they are.
        package init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `READY=1`: start-up is complete.
        package static let ready = Message(rawValue: "READY=1")
        /// `WATCHDOG=1`: still alive; send every half ``SystemdNotifier/watchdogInterval()``.
        package static let watchdog = Message(rawValue: "WATCHDOG=1")
        /// `STOPPING=1`: shutdown has begun.
        package static let stopping = Message(rawValue: "STOPPING=1")

        /// `STATUS=…`: a one-line status for `systemctl status`.
        package static func status(_ text: String) -> Message {
            Message(rawValue: "STATUS=\(text)")
        }
    }

    /// The notification socket's path, or `@name` for the abstract namespace.
    package let socketPath: String

    /// A notifier that sends to `socketPath`.
    package init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// The notifier for `NOTIFY_SOCKET`, or `nil` when the service manager did not set it.
    package static func fromEnvironment() -> SystemdNotifier? {
        guard let path = Environment.value("NOTIFY_SOCKET"), !path.isEmpty else { return nil }
        return SystemdNotifier(socketPath: path)
    }

    /// The shortest interval ``pingInterval(watchdog:)`` gives: a watchdog shorter than twice
    /// this is no watchdog a daemon can keep, and pinging faster would only spin.
    package static let shortestPingInterval: Duration = .milliseconds(10)

    /// How often to send ``Message/watchdog`` for a `watchdog` timeout: at half of it, and
    /// not more often than ``shortestPingInterval``.
    package static func pingInterval(watchdog: Duration) -> Duration {
        max(watchdog / 2, shortestPingInterval)
    }

    /// The watchdog timeout from `WATCHDOG_USEC`, or `nil` when the watchdog is off or
    /// `WATCHDOG_PID` names another process. Ping at ``pingInterval(watchdog:)``.
    package static func watchdogInterval() -> Duration? {
        if let pid = Environment.value("WATCHDOG_PID"), pid_t(pid) != getpid() { return nil }
        guard let text = Environment.value("WATCHDOG_USEC"), let microseconds = Int64(text),
            microseconds > 0
        else { return nil }
        return .microseconds(microseconds)
    }

    /// Sends `message` as one datagram with sendto(2). It never blocks: a full queue at the
    /// service manager is an EAGAIN error.
    package func send(_ message: Message) throws(SystemError) {
        let address = try UnixSocketAddress(socketPath)
        let socket = try FileDescriptor.unixSocket(SOCK_DGRAM)
        defer { try? socket.close() }
        let bytes = Array(message.rawValue.utf8)
        _ = try address.withSocketAddress { pointer, length throws(SystemError) in
            try check("sendto", socketPath) {
                system_sendto(socket.rawValue, bytes, bytes.count, Int32(MSG_NOSIGNAL), pointer, length)
            }
        }
    }
}

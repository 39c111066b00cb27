import Glibc
import Testing
@testable import WaymarkSystem

/// These tests set the process environment, so they run one at a time.
@Suite(.serialized)
struct SystemdNotifierTests {
    /// A datagram socket standing in for systemd's notification socket.
    private struct Receiver {
        let socket: FileDescriptor

        init(path: String) throws {
            socket = try .unixSocket(SOCK_DGRAM)
            _ = try UnixSocketAddress(path).withSocketAddress { address, length throws(SystemError) in
                try check("bind", path) { system_bind(socket.rawValue, address, length) }
            }
        }

        func receive() throws -> String? {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = try buffer.withUnsafeMutableBytes { try socket.read(into: $0) }
            return count.map { String(decoding: buffer[..<$0], as: UTF8.self) }
        }
    }

    @Test(arguments: ["path", "@abstract"])
    func readyReachesTheSocketNamedByNotifySocket(kind: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = kind == "path" ? directory.appending("notify") : "@waymark-test-\(getpid())"
        let receiver = try Receiver(path: path)
        defer { try? receiver.socket.close() }

        setenv("NOTIFY_SOCKET", path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        let notifier = try #require(SystemdNotifier.fromEnvironment())
        try notifier.send(.ready)
        try notifier.send(.status("3 satellites"))

        #expect(try receiver.receive() == "READY=1")
        #expect(try receiver.receive() == "STATUS=3 satellites")
        #expect(try receiver.receive() == nil)
    }

    @Test func withoutNotifySocketThereIsNoNotifier() {
        unsetenv("NOTIFY_SOCKET")
        #expect(SystemdNotifier.fromEnvironment() == nil)
    }

    @Test func theWatchdogIntervalIsOursOnlyWhenThePidMatches() {
        defer {
            unsetenv("WATCHDOG_USEC")
            unsetenv("WATCHDOG_PID")
        }
        setenv("WATCHDOG_USEC", "2500000", 1)
        #expect(SystemdNotifier.watchdogInterval() == .milliseconds(2500))
        setenv("WATCHDOG_PID", "\(getpid())", 1)
        #expect(SystemdNotifier.watchdogInterval() == .milliseconds(2500))
        setenv("WATCHDOG_PID", "\(getpid() + 1)", 1)
        #expect(SystemdNotifier.watchdogInterval() == nil)
    }

    @Test func pingsComeAtHalfTheWatchdogButNeverFasterThanTenMilliseconds() {
        #expect(SystemdNotifier.pingInterval(watchdog: .seconds(30)) == .seconds(15))
        #expect(SystemdNotifier.pingInterval(watchdog: .microseconds(1)) == .milliseconds(10), "WATCHDOG_USEC=1 spun the loop")
        #expect(SystemdNotifier.pingInterval(watchdog: .microseconds(Int64.max)) == .microseconds(Int64.max) / 2)
    }
}

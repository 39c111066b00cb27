import Glibc
import Testing
import WaymarkSystem

/// Epoll, timerfd, eventfd and pty on their own, without the event loop.
struct KernelObjectTests {
    /// Waits up to a second for `fd` to become readable.
    private func waitUntilReadable(_ fd: FileDescriptor) throws -> Bool {
        let epoll = try Epoll()
        defer { try? epoll.descriptor.close() }
        try epoll.add(fd, for: .readable, data: 7)
        var events: [Epoll.Event] = []
        try epoll.wait(into: &events, timeoutMilliseconds: 1000)
        return events.contains { $0.data == 7 && $0.events.contains(.readable) }
    }

    @Test func thePseudoTerminalPassesBytesUnchangedInRawMode() throws {
        let pty = try PseudoTerminal()
        defer { try? pty.close() }
        #expect(pty.secondaryPath.hasPrefix("/dev/pts/"))
        // Raw mode: no CR-to-NL translation, no echo back to the primary.
        let message = Array("$GPGSV,3,1\r\n\u{3}".utf8)
        _ = try message.withUnsafeBytes { try pty.primary.write($0) }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while received.count < message.count, try waitUntilReadable(pty.secondary) {
            let count = try buffer.withUnsafeMutableBytes { try pty.secondary.read(into: $0) } ?? 0
            received += buffer[..<count]
        }
        #expect(received == message)
        #expect(try buffer.withUnsafeMutableBytes { try pty.primary.read(into: $0) } == nil)
    }

    @Test func aOneShotTimerExpiresOnceAndADisarmedOneNever() throws {
        let timer = try TimerFD()
        defer { try? timer.descriptor.close() }
        try timer.arm(at: .now + .milliseconds(5))
        #expect(try waitUntilReadable(timer.descriptor))
        #expect(try timer.readExpirations() == 1)

        try timer.arm(at: .now + .milliseconds(5))
        try timer.disarm()
        let epoll = try Epoll()
        defer { try? epoll.descriptor.close() }
        try epoll.add(timer.descriptor, for: .readable, data: 0)
        var events: [Epoll.Event] = []
        try epoll.wait(into: &events, timeoutMilliseconds: 30)
        #expect(events.isEmpty)
        #expect(try timer.readExpirations() == nil)
    }

    @Test func aPeriodicTimerKeepsExpiring() throws {
        let timer = try TimerFD()
        defer { try? timer.descriptor.close() }
        try timer.arm(at: .now + .milliseconds(1), repeating: .milliseconds(2))
        var expirations: UInt64 = 0
        while expirations < 3, try waitUntilReadable(timer.descriptor) {
            expirations += try timer.readExpirations() ?? 0
        }
        #expect(expirations >= 3)
    }

    @Test func anEventFDCountsSignalsUntilDrained() throws {
        let event = try EventFD()
        defer { try? event.descriptor.close() }
        #expect(try event.drain() == nil)
        try event.signal()
        try event.signal()
        #expect(try event.drain() == 2)
        #expect(try event.drain() == nil)
    }

    @Test func monotonicInstantsAdvanceAndDoArithmetic() {
        let start = MonotonicInstant.now
        #expect(MonotonicInstant.now >= start)
        let later = start + .milliseconds(1500)
        #expect(later - start == .milliseconds(1500))
        #expect(later - .milliseconds(1500) == start)
        #expect(MonotonicInstant(nanoseconds: 1_000_000_500).description == "1.000000500s")
        // 2020-01-01 as a lower bound for a plausibly set realtime clock.
        #expect(RealtimeInstant.now.nanosecondsSinceEpoch > 1_577_836_800 * 1_000_000_000)
    }
}

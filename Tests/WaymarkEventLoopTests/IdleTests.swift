import Glibc
import Testing
import WaymarkEventLoop
import WaymarkSystem

@Suite(.timeLimit(.minutes(1)))
struct IdleTests {
    /// With a GPS source and a client connected but silent, and no timer pending, the loop
    /// sleeps: over 200 ms its wakeup count does not change. A count, not a timing.
    @Test func aLoopWithSilentDescriptorsAndNoTimersDoesNotWakeUp() async throws {
        var template = Array("/tmp/waymark-idle-XXXXXX".utf8CString)
        let directory = try template.withUnsafeMutableBufferPointer { buffer in
            String(cString: try #require(mkdtemp(buffer.baseAddress!)))
        }
        defer { rmdir(directory) }
        let listener = try UnixListener(path: directory + "/waymark.sock")
        defer { try? listener.close() }
        let client = try FileDescriptor.connectUnixStream(to: listener.path)
        defer { try? client.close() }
        let connection = try #require(try listener.accept())
        defer { try? connection.close() }
        let pty = try PseudoTerminal()
        defer { try? pty.close() }

        let unexpected = Locked(0)
        let loop = try EventLoop()
        for fd in [pty.secondary, listener.descriptor, connection] {
            try loop.register(fd, for: .readable) { _, _ in unexpected.mutate { $0 += 1 } }
        }
        // A timer that has fired and one that was cancelled must leave the timerfd disarmed.
        loop.schedule(after: .milliseconds(1)) { _ in }
        let remote = loop.remote
        async let finished: Void = runOnOwnThread(loop)
        try await Task.sleep(for: .milliseconds(20))
        await remote.onLoop { loop in
            let timer = loop.schedule(after: .milliseconds(150)) { _ in unexpected.mutate { $0 += 1 } }
            loop.remote.execute { loop in loop.cancel(timer) }
        }
        await remote.onLoop { _ in }

        let before = remote.wakeups
        try await Task.sleep(for: .milliseconds(200))
        let after = remote.wakeups

        remote.stop()
        try await finished
        #expect(after - before == 0)
        #expect(unexpected.value == 0)
    }
}

import Foundation
import Testing
import WaymarkSystem
import WaymarkTestFixtures

/// Bursts of clients, stale and foreign socket files, and sockets systemd passes.
@Suite(.ownThread) struct ListenQueueTests {
    @Test func aBurstOfClientsFitsTheListenQueue() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = try UnixListener(path: directory.appending("waymark.sock"))
        defer { try? listener.close() }
        // 200 clients connect before the daemon accepts any (it is busy, or just idle).
        var clients: [FileDescriptor] = []
        defer { clients.forEach { try? $0.close() } }
        for _ in 0..<200 { clients.append(try FileDescriptor.connectUnixStream(to: listener.path)) }
        #expect(clients.count == 200)
    }

    @Test func aConnectWaitsForRoomInAFullQueue() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = try UnixListener(path: directory.appending("waymark.sock"), backlog: 0)
        defer { try? listener.close() }
        let first = try FileDescriptor.connectUnixStream(to: listener.path)
        defer { try? first.close() }
        let full = #expect(throws: SystemError.self) { try FileDescriptor.connectUnixStream(to: listener.path) }
        #expect(full?.errno == EAGAIN)

        // The daemon accepts a moment later: the waiting connect gets in then.
        // (On a thread of its own: the connect below blocks this one.)
        let accepted = DispatchSemaphore(value: 0)
        Thread {
            usleep(200_000)
            while true {
                if let connection = try? listener.accept() {
                    try? connection.close()
                    break
                }
                usleep(10_000)
            }
            accepted.signal()
        }.start()
        let second = try FileDescriptor.connectUnixStream(to: listener.path, patience: .seconds(10))
        defer { try? second.close() }
        accepted.wait()
        // Nonblocking as every descriptor here: a read with nothing to read returns nil.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        defer { buffer.deallocate() }
        #expect(try second.read(into: buffer) == nil)

        let stillFull = #expect(throws: SystemError.self) {
            try FileDescriptor.connectUnixStream(to: listener.path, patience: .milliseconds(100))
        }
        #expect(stillFull?.description.hasSuffix("the listener's queue of new connections stayed full for 0.1 seconds") == true)
    }

    @Test(.enabled(if: geteuid() == 0, "chown(2) needs root"))
    func anotherUsersSocketFileIsLeftInPlace() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("waymark.sock")
        let crashed = try UnixListener(path: path)
        try crashed.descriptor.close()
        #expect(lchown(path, 4242, 4242) == 0)

        let error = #expect(throws: SystemError.self) { try UnixListener(path: path) }
        #expect(error?.errno == EPERM)
        #expect(error?.note == "the socket there belongs to uid 4242, so it was left in place")
        #expect(try #require(fileMode(path)) & S_IFMT == S_IFSOCK)
    }

    @Test func aPassedSocketIsUsedAndItsFileLeftAtClose() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // What systemd does for waymarkd.socket: bind, listen, and pass the descriptor.
        let made = try UnixListener(path: directory.appending("waymark.sock"))
        let passed = try UnixListener(activated: made.descriptor)
        #expect(passed.path == made.path)
        let client = try FileDescriptor.connectUnixStream(to: passed.path)
        defer { try? client.close() }
        #expect(try passed.accept() != nil)
        try passed.close()
        #expect(fileMode(made.path) != nil)
    }

    @Test func aPassedDescriptorThatIsNoListeningUnixSocketIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = try UnixListener(path: directory.appending("waymark.sock"))
        defer { try? listener.close() }
        let connected = try FileDescriptor.connectUnixStream(to: listener.path)
        defer { try? connected.close() }
        let error = #expect(throws: SystemError.self) { try UnixListener(activated: connected) }
        #expect(error?.errno == ENOTSOCK)
    }

    @Test func passedDescriptorsFollowListenPIDAndListenFDs() {
        let pid: pid_t = 1234
        #expect(SocketActivation.descriptors(listenPID: "1234", listenFDs: "1", pid: pid).map(\.rawValue) == [3])
        #expect(SocketActivation.descriptors(listenPID: "1234", listenFDs: "2", pid: pid).map(\.rawValue) == [3, 4])
        // Meant for another process (inherited), missing, or malformed: none.
        #expect(SocketActivation.descriptors(listenPID: "999", listenFDs: "1", pid: pid).isEmpty)
        #expect(SocketActivation.descriptors(listenPID: nil, listenFDs: "1", pid: pid).isEmpty)
        #expect(SocketActivation.descriptors(listenPID: "1234", listenFDs: "x", pid: pid).isEmpty)
        #expect(SocketActivation.descriptors(listenPID: "1234", listenFDs: "-1", pid: pid).isEmpty)
        #expect(SocketActivation.descriptors(listenPID: "1234", listenFDs: "2147483647", pid: pid).isEmpty)
    }
}

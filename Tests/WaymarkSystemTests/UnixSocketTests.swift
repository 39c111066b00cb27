import Glibc
import Testing
import WaymarkSystem

struct UnixSocketTests {
    @Test func theListenerHasMode0660AndReportsItsPeersCredentials() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = try UnixListener(path: directory.appending("waymark.sock"))
        defer { try? listener.close() }

        let mode = try #require(fileMode(listener.path))
        #expect(mode & S_IFMT == S_IFSOCK)
        #expect(mode & 0o7777 == 0o660)

        let client = try FileDescriptor.connectUnixStream(to: listener.path)
        defer { try? client.close() }
        let connection = try #require(try listener.accept())
        defer { try? connection.close() }
        #expect(try listener.accept() == nil)

        let ourselves = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
        #expect(try connection.peerCredentials() == ourselves)
        #expect(try client.peerCredentials() == ourselves)
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("waymark.sock")
        // A crashed daemon leaves its socket file behind: closed, but not removed.
        let crashed = try UnixListener(path: path)
        try crashed.descriptor.close()

        let listener = try UnixListener(path: path)
        defer { try? listener.close() }
        let client = try FileDescriptor.connectUnixStream(to: path)
        try client.close()
    }

    @Test func aRegularFileAtThePathIsRefusedAndLeftUntouched() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("waymark.sock")
        let contents = Array("not a socket\n".utf8)
        let file = try #require(fopen(path, "w"))
        fwrite(contents, 1, contents.count, file)
        fclose(file)

        let error = #expect(throws: SystemError.self) { try UnixListener(path: path) }
        #expect(error?.errno == EEXIST)
        #expect(error?.description == #"bind("\#(path)"): File exists (errno 17); it is not a socket, so it was left in place"#)
        #expect(try #require(fileMode(path)) & S_IFMT == S_IFREG)
        let reader = try #require(fopen(path, "r"))
        defer { fclose(reader) }
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(Array(buffer[..<fread(&buffer, 1, buffer.count, reader)]) == contents)
    }

    @Test func aSocketSomeoneListensOnIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = try UnixListener(path: directory.appending("waymark.sock"))
        defer { try? listener.close() }

        let error = #expect(throws: SystemError.self) { try UnixListener(path: listener.path) }
        #expect(error?.errno == EADDRINUSE)
        let client = try FileDescriptor.connectUnixStream(to: listener.path)
        try client.close()
    }

    @Test func sendingToAVanishedPeerIsAnErrorNotSIGPIPE() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = try UnixListener(path: directory.appending("waymark.sock"))
        defer { try? listener.close() }
        let client = try FileDescriptor.connectUnixStream(to: listener.path)
        let connection = try #require(try listener.accept())
        defer { try? connection.close() }
        try client.close()

        let bytes = Array("$GPRMC\r\n".utf8)
        let error = #expect(throws: SystemError.self) {
            _ = try bytes.withUnsafeBytes { try connection.send($0) }
        }
        #expect(error?.errno == EPIPE)
    }

    @Test func readinessWithoutWaitingTellsDataFromAPeerThatHungUp() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = try UnixListener(path: directory.appending("waymark.sock"))
        defer { try? listener.close() }
        let client = try FileDescriptor.connectUnixStream(to: listener.path)
        defer { try? client.close() }
        let connection = try #require(try listener.accept())
        let asked: IOEvents = [.readable, .peerClosed]

        #expect(try client.readiness(for: asked, timeout: .zero) == [])
        try Array("{}\n".utf8).withUnsafeBytes { _ = try connection.send($0) }
        #expect(try client.readiness(for: asked, timeout: .zero) == .readable)
        try connection.close()
        // The line sent before is still there to read, and the peer is gone.
        #expect(try client.readiness(for: asked, timeout: .zero) == [.readable, .peerClosed, .hangup])
        #expect(try client.wait(for: .readable, timeout: .zero))
    }
}

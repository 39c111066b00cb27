import Glibc
import Testing
import WaymarkServerTestSupport
import WaymarkSystem

/// The daemon listens only in a directory no other user can write to. Another user's files are
/// made with chown(2), so the suite runs as root (as CI does).
@Suite(.enabled(if: geteuid() == 0, "chown(2) needs root"))
struct SocketDirectoryTests {
    @Test func aDirectoryAnotherUserPreparedIsRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        // Another user made /tmp/waymark-<uid> first, open to all, to swap the socket later.
        #expect(chown(directory.path, 4242, 4242) == 0)
        #expect(chmod(directory.path, 0o777) == 0)
        let error = #expect(throws: SystemError.self) { try TestDaemon(path: directory.socket()) }
        #expect(error?.errno == EPERM)
        #expect(error?.argument == directory.path)
        var status = stat()
        #expect(lstat(directory.socket(), &status) == -1)
    }

    @Test func aSocketFileAnotherUserLeftIsNotRemoved() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let path = directory.socket()
        let other = try UnixListener(path: path)
        try other.descriptor.close()
        #expect(lchown(path, 4242, 4242) == 0)
        let error = #expect(throws: SystemError.self) { try TestDaemon(path: path) }
        #expect(error?.errno == EPERM)
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_uid == 4242)
    }
}

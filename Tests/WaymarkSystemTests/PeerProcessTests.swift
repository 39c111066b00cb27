import Glibc
import Testing
import WaymarkSystem

@Suite("what /proc says about a peer")
struct PeerProcessTests {
    @Test("a connected peer (this process) comes with its cgroup text and its executable")
    func ownProcess() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let peer = try FileDescriptor(rawValue: pair[0]).peerProcess()
        #expect(peer.credentials.pid == getpid() && peer.credentials.uid == geteuid())
        let cgroup = try FileDescriptor.readFile("/proc/self/cgroup")
        #expect(peer.cgroup == cgroup)
        let executable = try #require(peer.executableLink)
        #expect(String(decoding: executable, as: UTF8.self) == ShippedFile.executablePath())
        let stat = String(decoding: try #require(peer.stat), as: UTF8.self)
        #expect(stat.hasPrefix("\(getpid()) ("))
    }

    @Test("a /proc without the peer's pid gives no facts")
    func missingProc() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let peer = try FileDescriptor(rawValue: pair[0]).peerProcess(procDirectory: "/nonexistent")
        #expect(peer.cgroup == nil && peer.executableLink == nil && peer.stat == nil)
    }

    @Test("a file longer than the bound is refused, not read")
    func boundedRead() throws {
        let path = "/tmp/waymark-bounded-\(getpid())"
        let text = Array(repeating: UInt8(ascii: "x"), count: 5_000)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(write(fd, text, text.count) == text.count)
        close(fd)
        defer { unlink(path) }
        #expect(try FileDescriptor.readFile(path, maximumBytes: 5_000) == text)
        let error = #expect(throws: SystemError.self) { try FileDescriptor.readFile(path, maximumBytes: 4_999) }
        #expect(error?.errno == EFBIG)
    }

    @Test("a FIFO is read from its writer, however late the writer opens it (it read as empty)")
    func lateWriterOfAFIFO() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("fifo")
        #expect(mkfifo(path, 0o600) == 0)
        let writer = Task.detached {
            usleep(200_000)
            // Nonblocking, for at most 5 s, so that a reader that gave up fails the test
            // rather than hanging it: open(2) refuses (ENXIO) while no reader has the FIFO.
            for _ in 0..<500 {
                let fd = open(path, O_WRONLY | O_NONBLOCK)
                guard fd < 0 else {
                    _ = write(fd, "$GPGGA", 6)
                    close(fd)
                    return
                }
                usleep(10_000)
            }
        }
        #expect(try FileDescriptor.readFile(path) == Array("$GPGGA".utf8))
        await writer.value
    }

    @Test("root is in its own group; waymark-admin's gid is looked up by name")
    func groups() {
        #expect(UserGroups.groups(ofUser: 0).contains(0))
        #expect(UserGroups.groupID(named: "root") == 0)
        #expect(UserGroups.groupID(named: "no-such-group-waymark") == nil)
        #expect(UserGroups.groups(ofUser: 4_000_000_000).isEmpty)
    }

    @Test("random bytes differ from call to call")
    func random() throws {
        let first = try RandomBytes.generate(count: 32)
        let second = try RandomBytes.generate(count: 32)
        #expect(first.count == 32 && first != second)
    }
}

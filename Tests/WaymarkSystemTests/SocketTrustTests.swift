import Glibc
import Testing
import WaymarkSystem

/// The directory and listener checks that keep another user from standing in for the daemon.
/// Files are given to another user with chown(2), so the suite runs as root (as CI does).
@Suite(.enabled(if: geteuid() == 0, "chown(2) needs root"))
struct SocketTrustTests {
    /// Trust for root (the tests' user), with a `waymark` user 998; uid 4242 is a stranger.
    let trust = SocketTrust(user: 0, serviceUser: 998)
    let stranger: uid_t = 4242

    @Test func aPrivateDirectoryOfTheUserIsTrusted() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try trust.checkDirectories(of: directory.appending("waymark.sock"))
        // /tmp itself is world-writable but sticky: nobody can replace another user's entries.
        #expect(try #require(fileMode("/tmp")) & S_ISVTX != 0)
    }

    @Test func aDirectoryAnotherUserOwnsIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // The hijack: another user pre-creates the directory, open to everyone.
        #expect(chown(directory.path, stranger, stranger) == 0)
        #expect(chmod(directory.path, 0o777) == 0)
        let error = #expect(throws: SystemError.self) { try trust.checkDirectories(of: directory.appending("waymark.sock")) }
        #expect(error?.errno == EPERM)
        #expect(error?.description.contains("\(directory.path)\"") == true)
        #expect(error?.description.contains("owned by uid 4242, and only root or waymark (uid 998) may own") == true)
    }

    @Test func aDirectoryOthersCanWriteIsRefusedUnlessSticky() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        #expect(chmod(directory.path, 0o770) == 0)
        let error = #expect(throws: SystemError.self) { try trust.checkDirectories(of: directory.appending("waymark.sock")) }
        #expect(error?.description.contains("its mode 770 lets group or others replace the socket") == true)
        #expect(chmod(directory.path, 0o1777) == 0)
        try trust.checkDirectories(of: directory.appending("waymark.sock"))
    }

    @Test func anUntrustedAncestorIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let inner = directory.appending("inner")
        #expect(mkdir(inner, 0o700) == 0)
        defer { rmdir(inner) }
        #expect(chown(directory.path, stranger, stranger) == 0)
        // The stranger could rename `inner` away and put a directory of theirs in its place.
        let error = #expect(throws: SystemError.self) { try trust.checkDirectories(of: inner + "/waymark.sock") }
        #expect(error?.argument == directory.path)
    }

    @Test func aLinkAnotherUserOwnsIsRefusedAndALinkedTargetIsChecked() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.appending("target")
        let link = directory.appending("link")
        #expect(mkdir(target, 0o700) == 0)
        defer { rmdir(target) }
        #expect(symlink(target, link) == 0)
        try trust.checkDirectories(of: link + "/waymark.sock")

        #expect(lchown(link, stranger, stranger) == 0)
        let linkError = #expect(throws: SystemError.self) { try trust.checkDirectories(of: link + "/waymark.sock") }
        #expect(linkError?.argument == link)

        #expect(lchown(link, 0, 0) == 0)
        #expect(chown(target, stranger, stranger) == 0)
        let targetError = #expect(throws: SystemError.self) { try trust.checkDirectories(of: link + "/waymark.sock") }
        #expect(targetError?.argument == target)
    }

    @Test func theServiceUserIsFoundInPasswd() {
        let passwd = Array("root:x:0:0:root:/root:/bin/bash\nwaymarkish:x:5:5::/:/bin/false\nwaymark:x:998:998::/nonexistent:/usr/sbin/nologin\n".utf8)
        #expect(SocketTrust.userID(named: "waymark", inPasswd: passwd) == 998)
        #expect(SocketTrust.userID(named: "gpsd", inPasswd: passwd) == nil)
        #expect(SocketTrust.userID(named: "waymark", inPasswd: Array("waymark:x:-1:".utf8)) == nil)
        #expect(SocketTrust(user: 1000, serviceUser: 998).trusts(998))
        #expect(!SocketTrust(user: 1000, serviceUser: nil).trusts(998))
    }
}

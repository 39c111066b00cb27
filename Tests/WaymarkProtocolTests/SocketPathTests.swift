import Testing
import WaymarkProtocol

struct SocketPathTests {
    private func environment(_ values: [String: String]) -> (String) -> String? {
        { values[$0] }
    }

    @Test func aDaemonSystemdStartsListensInItsRuntimeDirectory() {
        // RuntimeDirectory=waymark with User=waymark: not root, yet the system socket's place.
        let systemd = environment(["RUNTIME_DIRECTORY": "/run/waymark", "XDG_RUNTIME_DIR": "/run/user/998"])
        #expect(SocketPath.daemon(environment: systemd, uid: 998) == SocketPath.system)
        #expect(SocketPath.daemon(environment: environment(["RUNTIME_DIRECTORY": "/run/a:/run/b"]), uid: 998) == "/run/a/waymark.sock")
        #expect(SocketPath.daemon(environment: environment(["RUNTIME_DIRECTORY": "relative"]), uid: 0) == SocketPath.system)
        #expect(SocketPath.daemon(environment: environment(["WAYMARK_SOCKET": "/tmp/x.sock", "RUNTIME_DIRECTORY": "/run/waymark"]), uid: 0) == "/tmp/x.sock")
    }

    @Test func aDevelopmentDaemonAndItsClientsMeetAtTheSamePlace() {
        let user = environment(["XDG_RUNTIME_DIR": "/run/user/1000"])
        #expect(SocketPath.daemon(environment: user, uid: 1000) == "/run/user/1000/waymark/waymark.sock")
        #expect(SocketPath.clientCandidates(environment: user, uid: 1000) == [SocketPath.system, "/run/user/1000/waymark/waymark.sock"])
        #expect(SocketPath.daemon(environment: environment([:]), uid: 1000) == "/tmp/waymark-1000/waymark.sock")
    }
}

import Glibc
import Testing
import WaymarkSystem
import WaymarkTestFixtures

@Suite("the owner of a loopback TCP peer, from /proc/self/net/tcp", .ownThread)
struct LoopbackSocketOwnerTests {
    private let loopback: UInt32 = 0x7F00_0001

    @Test("finds the established socket whose ends are the peer's, and only that one")
    func parse() {
        let table = Array("""
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:0B83 00000000:0000 0A 00000000:00000000 00:00000000 00000000   112        0 1 1 0 100 0 0 10 0
               1: 0100007F:0B83 0100007F:D431 01 00000000:00000000 00:00000000 00000000   112        0 2 1 0 20 4 30 10 -1
               2: 0100007F:D431 0100007F:0B83 01 00000000:00000000 00:00000000 00000000  1000        0 3 1 0 20 4 30 10 -1
               3: 0100007F:D432 0100007F:0B83 06 00000000:00000000 03:00000000 00000000     0        0 0 3 0
            """.utf8)
        let server = LoopbackSocketOwner.Endpoint(address: loopback, port: 2947)
        let peer = LoopbackSocketOwner.Endpoint(address: loopback, port: 0xD431)
        #expect(LoopbackSocketOwner.Table(text: table, connectedTo: server).owner(peer: peer) == 1000)
        let waiting = LoopbackSocketOwner.Endpoint(address: loopback, port: 0xD432)
        #expect(LoopbackSocketOwner.Table(text: table, connectedTo: server).owner(peer: waiting) == nil)
        // A socket of the same port connected elsewhere is not the peer.
        #expect(LoopbackSocketOwner.Table(text: table, connectedTo: LoopbackSocketOwner.Endpoint(address: loopback, port: 2948)).owner(peer: peer) == nil)
        #expect(LoopbackSocketOwner.Table(text: Array("x\n 2: 0100007F:D431 0100007F:0B83 01 a b c 99999999999\n".utf8), connectedTo: server).owner(peer: peer) == nil)
    }

    @Test("a client accepted on the loopback listener is owned by this process's user")
    func realConnection() throws {
        let listener = try LoopbackTCPListener(port: 0)
        defer { try? listener.close() }
        #expect(listener.port != 0)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = listener.port.bigEndian
        address.sin_addr.s_addr = loopback.bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        try #require(connected)
        var accepted: FileDescriptor?
        for _ in 0..<100 where accepted == nil {
            accepted = try listener.accept()
            if accepted == nil { usleep(10_000) }
        }
        let peer = try #require(accepted)
        defer { try? peer.close() }
        #expect(try peer.loopbackPeerOwner(in: .read(connectedTo: listener.endpoint)) == getuid())
        #expect(try listener.accept() == nil)
    }
}

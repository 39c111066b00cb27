import Glibc
import Testing
import WaymarkSystem

@Suite("the owner of a loopback TCP peer, from /proc/net/tcp")
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
        #expect(LoopbackSocketOwner.owner(peer: peer, local: server, in: table) == 1000)
        let waiting = LoopbackSocketOwner.Endpoint(address: loopback, port: 0xD432)
        #expect(LoopbackSocketOwner.owner(peer: waiting, local: server, in: table) == nil)
        #expect(LoopbackSocketOwner.owner(peer: peer, local: server, in: Array("x\n 2: 0100007F:D431 0100007F:0B83 01 a b c 99999999999\n".utf8)) == nil)
    }

    @Test("a real loopback connection is owned by this process's user")
    func realConnection() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener); close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = loopback.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let serverAddress = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listener, raw, length) == 0 && getsockname(listener, raw, &length) == 0 && listen(listener, 1) == 0
                    && connect(client, raw, length) == 0
            }
        }
        try #require(serverAddress)
        var clientAddress = sockaddr_in()
        try #require(withUnsafeMutablePointer(to: &clientAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &length) == 0 }
        })
        let server = LoopbackSocketOwner.Endpoint(address: loopback, port: UInt16(bigEndian: address.sin_port))
        let peer = LoopbackSocketOwner.Endpoint(address: loopback, port: UInt16(bigEndian: clientAddress.sin_port))
        #expect(try LoopbackSocketOwner.owner(peer: peer, local: server) == getuid())
    }
}

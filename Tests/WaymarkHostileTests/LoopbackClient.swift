import Glibc
import WaymarkSystem

/// A client of the daemon's TCP port on 127.0.0.1 (the gpsd endpoint), as thin as a flood needs.
enum LoopbackClient {
    /// A TCP port free now on 127.0.0.1 (bound and released; the daemon binds it next).
    static func freePort() throws -> UInt16 {
        let listener = try LoopbackTCPListener(port: 0)
        defer { try? listener.close() }
        return listener.port
    }

    /// Connects to 127.0.0.1:`port` and closes at once, reading and writing nothing.
    static func connectAndClose(port: UInt16) {
        let client = connect(port: port)
        if client >= 0 { close(client) }
    }

    /// A socket connected to 127.0.0.1:`port` (-1 if the connection failed); the caller closes it.
    static func connect(port: UInt16) -> Int32 {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard client >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(client)
            return -1
        }
        return client
    }

    /// Whether `client` has bytes to read (or its peer closed) now.
    static func hasInput(_ client: Int32) -> Bool {
        var ready = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) == 1
    }
}

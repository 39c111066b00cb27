package import WaymarkGpsd

/// Where the server also speaks gpsd's protocol (`waymarkd --gpsd`, docs/ecosystem.md): a TCP
/// port on 127.0.0.1 and a Unix socket, each accepting gpsd's clients as consumers like any
/// other (``Server``).
package struct GpsdEndpoint: Sendable {
    /// gpsd's port, where its clients connect by default.
    package static let defaultPort: UInt16 = 2947

    /// The TCP port on 127.0.0.1 (0: any free port, for tests).
    package var port: UInt16
    /// The Unix socket's path (beside the daemon's socket: ``socketPath(besideDaemonSocket:)``).
    package var socketPath: String
    /// The receiver, as DEVICE and DEVICES reports describe it.
    package var device: GpsdDevice

    package init(port: UInt16 = GpsdEndpoint.defaultPort, socketPath: String, device: GpsdDevice) {
        self.port = port
        self.socketPath = socketPath
        self.device = device
    }

    /// The Unix socket's path beside the daemon's socket at `daemonSocket`, named after it:
    /// `/run/waymark/waymark.sock` has `/run/waymark/waymark-gpsd.sock`, so two daemons in one
    /// directory do not meet.
    package static func socketPath(besideDaemonSocket daemonSocket: String) -> String {
        (daemonSocket.hasSuffix(".sock") ? String(daemonSocket.dropLast(5)) : daemonSocket) + "-gpsd.sock"
    }
}

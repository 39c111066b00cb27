import Foundation
import Glibc

/// A real mosquitto broker on free ports of 127.0.0.1, in a directory of its own: a plain
/// listener for anonymous clients and, with ``Certificates``, a TLS listener that wants a
/// client certificate and a user name and password. Messages persist across ``restart()``.
final class Broker {
    let port: Int
    let tlsPort: Int
    let directory: String
    private var process: ChildProcess?

    /// The broker's user for the TLS listener.
    static let user = "bridge"
    static let password = "s3cret with spaces"

    init(directory: String, certificates: Certificates? = nil) throws {
        self.directory = directory
        port = try freePort()
        tlsPort = try freePort()
        var configuration = """
            per_listener_settings true
            persistence true
            persistence_location \(directory)/
            user root
            log_dest stderr
            listener \(port) 127.0.0.1
            allow_anonymous true

            """
        if let certificates {
            try run("mosquitto_passwd", ["-b", "-c", directory + "/passwords", Self.user, Self.password])
            configuration += """
                listener \(tlsPort) 127.0.0.1
                cafile \(certificates.ca)
                certfile \(certificates.server)
                keyfile \(certificates.serverKey)
                require_certificate true
                allow_anonymous false
                password_file \(directory)/passwords

                """
        }
        try configuration.write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
    }

    /// Starts the broker and waits until it accepts connections.
    func start() throws {
        let process = try ChildProcess("mosquitto", ["-c", directory + "/mosquitto.conf"], log: directory + "/mosquitto.log")
        self.process = process
        try waitUntil("mosquitto to listen on \(port)", seconds: 10) { accepts(port: port) }
    }

    /// Stops the broker (SIGTERM: it saves its persistent state) and starts it again after `pause` seconds.
    func restart(after pause: Double) throws {
        process?.stop()
        usleep(UInt32(pause * 1_000_000))
        try start()
    }

    /// Stops the broker, removes its persistent state (as a broker without persistence
    /// forgets all at a restart), and starts it again after `pause` seconds.
    func restartForgetting(after pause: Double) throws {
        process?.stop()
        try? FileManager.default.removeItem(atPath: directory + "/mosquitto.db")
        usleep(UInt32(pause * 1_000_000))
        try start()
    }

    /// Freezes the broker (SIGSTOP): its sockets stay open but nothing answers, as when the
    /// network drops packets; ``resume()`` lets it go on.
    func freeze() { process?.send(SIGSTOP) }
    func resume() { process?.send(SIGCONT) }

    func stop() { process?.stop() }

    deinit { stop() }
}

/// A CA, the broker's certificate (for localhost and 127.0.0.1) and a client certificate,
/// made by `openssl` for one test.
struct Certificates {
    let ca: String
    let server: String
    let serverKey: String
    let client: String
    let clientKey: String

    init(directory: String) throws {
        func path(_ name: String) -> String { directory + "/" + name }
        (ca, server, serverKey, client, clientKey) = (path("ca.pem"), path("server.pem"), path("server.key"), path("client.pem"), path("client.key"))
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run("openssl", ["req", "-x509"] + curve + ["-keyout", path("ca.key"), "-out", ca, "-days", "2", "-subj", "/CN=Waymark test CA"])
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        for (name, certificate, key, extensions) in [
            ("localhost", server, serverKey, ["-extfile", path("server.ext")]), ("waymark-bridge", client, clientKey, []),
        ] {
            try run("openssl", ["req"] + curve + ["-keyout", key, "-out", path(name + ".csr"), "-subj", "/CN=\(name)"])
            try run(
                "openssl",
                ["x509", "-req", "-in", path(name + ".csr"), "-CA", ca, "-CAkey", path("ca.key"), "-CAcreateserial", "-out", certificate, "-days", "2"]
                    + extensions)
        }
    }
}

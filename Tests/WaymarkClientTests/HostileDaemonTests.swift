import Foundation
import Testing
import WaymarkProtocol
import WaymarkServerTestSupport
import WaymarkSystem
import WaymarkTestFixtures

@testable import Waymark

/// Something on the socket that answers, but not as a Waymark daemon does (another program,
/// a broken or hostile one): a call fails at once with what is wrong, instead of waiting out
/// its patience (30 s: `waymark status` sat that long on a line of random bytes).
@Suite(.serialized, .ownThread, .timeLimit(.minutes(1)))
struct HostileDaemonTests {
    @Test("a line that is not JSON, or one longer than the protocol allows, ends the connection: the call fails with it")
    func notTheProtocol() async throws {
        let cases = [
            ("\u{1}\u{2}random bytes\u{FF}\n", "the daemon sent a line that is not a JSON message"),
            (String(repeating: "[", count: 100) + "\n", "the daemon sent a line that is not a JSON message"),
            (String(repeating: "A", count: ProtocolLimits.maximumLineLength + 10) + "\n", "the daemon sent a line longer than 65536 bytes"),
        ]
        for (sent, expected) in cases {
            try await withDaemon(sending: sent) { client in
                let error = await #expect(throws: WaymarkError.self) { try await client.status() }
                guard case .daemonUnavailable(let reason)? = error else {
                    Issue.record("\(String(describing: error))")
                    return
                }
                #expect(reason.contains(expected), "\(reason)")
            }
        }
    }

    @Test("a reply to the call that does not decode answers it with what is wrong")
    func anUndecodableReply() async throws {
        try await withDaemon(sending: #"{"id":1,"result":{}}"# + "\n" + #"{"id":2,"result":{"daemonVersion":5}}"# + "\n") { client in
            let error = await #expect(throws: WaymarkError.self) { try await client.status() }
            guard case .refused(let code, let message)? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect(code == "invalidMessage" && message.contains("op"), "\(message)")
        }
    }

    /// Runs `body` with a client of a socket whose listener accepts the connection, sends
    /// `sent` and reads nothing.
    private func withDaemon(sending sent: String, _ body: (DrivenClient) async throws -> Void) async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let listener = try UnixListener(path: directory.socket())
        defer { try? listener.close() }
        let accepted = Accepted()
        Thread {
            for _ in 0..<500 {
                if let connection = try? listener.accept() {
                    try? connection.writeAll(Array(sent.utf8), patience: .seconds(5))
                    accepted.keep(connection)
                    return
                }
                usleep(10_000)
            }
        }.start()
        defer { accepted.close() }
        try await body(try DrivenClient(path: directory.socket()))
    }
}

/// The connection the listener's thread accepted, held open until the test ends.
private final class Accepted: @unchecked Sendable {
    private let lock = NSLock()
    private var connection: FileDescriptor?
    func keep(_ connection: FileDescriptor) { lock.withLock { self.connection = connection } }
    func close() { lock.withLock { try? connection?.close() } }
}

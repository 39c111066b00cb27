import Glibc
import Synchronization
import WaymarkEventLoop
import WaymarkProtocol
import WaymarkSystem

/// The one connection per process to the daemon: a ``ClientCore`` on an event loop that runs
/// on its own thread, so no cooperative thread ever blocks on the socket.
///
/// The socket is `WAYMARK_SOCKET` if set, else the system socket, else the development
/// socket (see `SocketPath`), believed only if ``SocketTrust`` trusts it; the app's identity is `WAYMARK_APP_ID` if set. Both are read at
/// every connection attempt.
final class DaemonClient: Sendable {
    /// The process's client, started on first use.
    static let shared = DaemonClient()

    private let remote: EventLoop.Remote
    private let core: LoopBound<ClientCore>
    private let lastToken = Atomic<UInt64>(0)

    private init() {
        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            fatalError("Waymark could not create its I/O event loop: \(error)")
        }
        remote = loop.remote
        let client = ClientCore(
            loop: loop, paths: Self.socketPaths, trust: SocketTrust.current(), appID: environment("WAYMARK_APP_ID"))
        core = LoopBound(value: client)
        let running = LoopBound(value: loop)
        startIOThread {
            do {
                try running.value.run()
            } catch {
                fatalError("Waymark's I/O event loop failed: \(error)")
            }
        }
    }

    /// Runs `body` with the core on the I/O thread.
    func execute(_ body: @escaping @Sendable (ClientCore) -> Void) {
        let core = core
        remote.execute { _ in body(core.value) }
    }

    /// A new identifier for a sequence's subscription.
    func makeToken() -> UInt64 {
        lastToken.add(1, ordering: .relaxed).newValue
    }

    private static func socketPaths() -> [String] {
        SocketPath.clientCandidates(environment: environment, uid: getuid())
    }
}

/// The value of an environment variable.
private func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// Starts a detached thread for the client's I/O loop, which runs for the life of the process.
private func startIOThread(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(IOThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { box in
        let body = Unmanaged<IOThreadBody>.fromOpaque(box!).takeRetainedValue()
        body.run()
        return nil
    }, box)
    guard status == 0 else { fatalError("Waymark could not start its I/O thread: error \(status)") }
    pthread_detach(thread)
}

/// What the I/O thread runs, carried through pthread_create's context pointer.
private final class IOThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

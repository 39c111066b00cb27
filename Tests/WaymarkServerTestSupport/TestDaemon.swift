import Synchronization
package import WaymarkDaemon
package import WaymarkEventLoop
import WaymarkSystem

/// A ``Server`` with a ``ScriptedAgent`` on a real event loop running on a thread of its own,
/// listening on a real socket.
package final class TestDaemon: Sendable {
    /// The socket's path.
    package let path: String
    /// The agent.
    package let agent: ScriptedAgent
    /// The loop's thread-safe side.
    package let remote: EventLoop.Remote
    /// Touched only on the loop's thread (through ``onLoop(_:)``) once the loop runs.
    nonisolated(unsafe) private let server: Server
    private let finished = Completion()
    private let logged = LogLines()

    /// Lines the server logged.
    package var log: [String] { logged.lines.withLock { $0 } }

    /// Starts a daemon listening at `path`, its configuration changed by `configure`, deciding
    /// with `authorizer` over `monitors`.
    package init(
        path: String, agent: ScriptedAgent = ScriptedAgent(), authorizer: Authorizer = .unenforced(), monitors: MonitorCenter = .unkept(),
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        self.path = path
        self.agent = agent
        let loop = try EventLoop()
        remote = loop.remote
        let logged = self.logged
        var configuration = ServerConfiguration(path: path, daemonVersion: "0.1.0-test")
        configure(&configuration)
        server = Server(configuration: configuration, agent: agent, authorizer: authorizer, monitors: monitors) { line in
            logged.lines.withLock { $0.append(line) }
        }
        agent.attach(server)
        try server.start(on: loop)
        let finished = self.finished
        try loop.runOnOwnThread { result in
            if case .failure(let error) = result { preconditionFailure("the loop failed: \(error)") }
            finished.finish()
        }
    }

    /// Runs `body` with the server on the loop's thread and returns its result.
    package func onLoop<Result: Sendable>(_ body: @escaping @Sendable (Server) -> Result) async -> Result {
        nonisolated(unsafe) let server = server
        return await withCheckedContinuation { continuation in
            remote.execute { _ in continuation.resume(returning: body(server)) }
        }
    }

    /// Stops the server (closing every client and removing the socket) and the loop, and
    /// waits for the loop's thread to finish.
    package func shutDown() async {
        await onLoop { $0.stop() }
        remote.stop()
        await finished.wait()
    }
}

/// Lines a server logged.
private final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
}

/// Something that happens once, which a task can wait for.
private final class Completion: Sendable {
    private let state = Mutex<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func finish() {
        let waiter = state.withLock { state in
            state.done = true
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let alreadyDone = state.withLock { state in
                if !state.done { state.waiter = continuation }
                return state.done
            }
            if alreadyDone { continuation.resume() }
        }
    }
}

import Synchronization
import WaymarkEventLoop
import WaymarkLocation
import WaymarkProtocol
import WaymarkSystem

/// The one connection per process to the daemon: a ``ClientCore`` on an event loop that runs
/// on its own thread, so no cooperative thread ever blocks on the socket.
///
/// The socket is `WAYMARK_SOCKET` if set, else the system socket, else the development
/// socket (see `SocketPath`), believed only if ``SocketTrust`` trusts it; the app's identity
/// is `WAYMARK_APP_ID` if set. Both are read at every connection attempt.
///
/// When the loop cannot be created or its thread started (or the loop fails later), every
/// caller gets ``WaymarkError/daemonUnavailable(_:)`` saying why; the process goes on.
final class DaemonClient: Sendable {
    /// The process's client, started on first use.
    static let shared = DaemonClient { () throws(SystemError) in try EventLoop() }

    private enum State {
        case running(EventLoop.Remote, LoopBound<ClientCore>)
        case unavailable(String)
    }

    private let state: Mutex<State>
    private let lastToken = Atomic<UInt64>(0)

    /// Starts a client on the loop `makeLoop` creates, run on a thread of its own.
    init(makeLoop: () throws(SystemError) -> EventLoop) {
        let loop: EventLoop
        do throws(SystemError) {
            loop = try makeLoop()
        } catch {
            state = Mutex(.unavailable("Waymark could not create its I/O event loop: \(error)"))
            return
        }
        let core = LoopBound(
            value: ClientCore(
                loop: loop, paths: Self.socketPaths, trust: SocketTrust.current(), appID: Environment.value("WAYMARK_APP_ID"),
                usageDescription: Environment.value("WAYMARK_USAGE_DESCRIPTION")))
        state = Mutex(.running(loop.remote, core))
        do throws(SystemError) {
            try loop.runOnOwnThread { [self] result in
                guard case .failure(let error) = result else { return }
                let reason = "Waymark's I/O event loop failed: \(error)"
                state.withLock { $0 = .unavailable(reason) }
                core.value.abandon(reason)
            }
        } catch {
            state.withLock { $0 = .unavailable("Waymark could not start its I/O thread: \(error)") }
        }
    }

    /// Runs `body` with the core on the I/O thread, or `unavailable` with the reason at once
    /// when there is no I/O thread.
    func execute(
        _ body: @escaping @Sendable (ClientCore) -> Void, unavailable: (WaymarkError) -> Void
    ) {
        let reason: String? = state.withLock { state in
            switch state {
            case .running(let remote, let core):
                remote.execute { _ in body(core.value) }
                return nil
            case .unavailable(let reason):
                return reason
            }
        }
        if let reason { unavailable(.daemonUnavailable(reason)) }
    }

    /// Sends `operation` and returns its result; cancelling the task stops the wait with
    /// `CancellationError` (a daemon that stopped answering holds no caller), and the reply, if
    /// it comes, is dropped.
    func call(_ operation: Operation) async throws -> ReplyResult {
        try await reply { core, pending in core.call(operation, pending) }
    }

    /// Has `send` hand a new pending reply to the core on the I/O thread and waits for it;
    /// cancelling the task resumes the wait with `CancellationError` and then runs `withdraw`
    /// on the core with the same pending reply.
    func reply<Value: Sendable>(
        _ send: @escaping @Sendable (ClientCore, PendingReply<Value>) -> Void,
        withdraw: (@Sendable (ClientCore, PendingReply<Value>) -> Void)? = nil
    ) async throws -> Value {
        let pending = PendingReply<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.wait(with: continuation)
                execute({ send($0, pending) }, unavailable: { pending.resume(with: .failure($0)) })
            }
        } onCancel: {
            pending.resume(with: .failure(CancellationError()))
            if let withdraw { execute({ withdraw($0, pending) }, unavailable: { _ in }) }
        }
    }

    /// A new identifier for a sequence's subscription.
    func makeToken() -> UInt64 {
        lastToken.add(1, ordering: .relaxed).newValue
    }

    private static func socketPaths() -> [String] {
        SocketPath.clientCandidates(environment: Environment.value, uid: CurrentProcess.userID)
    }
}

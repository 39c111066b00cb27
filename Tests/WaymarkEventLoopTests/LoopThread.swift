import Glibc
import Synchronization
import WaymarkEventLoop
import WaymarkSystem

/// Runs `loop` on a thread of its own, as the daemon runs it on its main thread, so that no
/// cooperative thread blocks in epoll_wait. Returns when `run()` does.
func runOnOwnThread(_ loop: sending EventLoop) async throws {
    nonisolated(unsafe) let loop = loop
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        startThread {
            continuation.resume(with: Result { () throws(SystemError) in try loop.run() })
        }
    }
}

/// Starts a detached POSIX thread running `body`.
func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let result = pthread_create(&thread, nil, { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, context)
    precondition(result == 0, "pthread_create failed with \(result)")
    pthread_detach(thread)
}

extension EventLoop.Remote {
    /// Runs `body` on the loop's thread and returns its result.
    func onLoop<Result: Sendable>(_ body: @escaping @Sendable (EventLoop) -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            execute { loop in continuation.resume(returning: body(loop)) }
        }
    }
}

/// A value shared between the loop's thread and the test.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    var value: Value {
        mutex.withLock { $0 }
    }

    func mutate(_ body: (inout Value) -> Void) {
        mutex.withLock { body(&$0) }
    }
}

import Glibc
import Synchronization
import WaymarkEventLoop
import WaymarkSystem

/// Runs `loop` on a thread of its own (``EventLoop/runOnOwnThread(finished:)``), as the
/// daemon runs it on its main thread, so that no cooperative thread blocks in epoll_wait.
/// Returns when `run()` does.
func runOnOwnThread(_ loop: sending EventLoop) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        do throws(SystemError) {
            try loop.runOnOwnThread { continuation.resume(with: $0.mapError { $0 }) }
        } catch {
            continuation.resume(throwing: error)
        }
    }
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

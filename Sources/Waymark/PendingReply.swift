import Synchronization
import WaymarkLocation

/// A request's continuation, resumed exactly once: by the daemon's answer, the deadline,
/// or the caller's cancellation, whichever comes first.
final class PendingReply<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var result: Result<Value, any Error>?
    }

    private let state = Mutex(State())

    /// Hands over the continuation; resumes it at once if the result is already known.
    func wait(with continuation: CheckedContinuation<Value, any Error>) {
        let known: Result<Value, any Error>? = state.withLock { state in
            if state.result == nil { state.continuation = continuation }
            return state.result
        }
        if let known { continuation.resume(with: known) }
    }

    /// Whether the caller has its result (the answer, the deadline or its cancellation).
    var isResumed: Bool {
        state.withLock { $0.result != nil }
    }

    /// Resumes the caller with `result`, unless it was resumed already.
    func resume(with result: Result<Value, any Error>) {
        let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}

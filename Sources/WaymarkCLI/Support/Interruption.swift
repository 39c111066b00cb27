import Synchronization
import Waymark
import WaymarkSystem

/// Ctrl-C (SIGINT) turned into a call that stops a command cleanly, where its default action
/// ends the process wherever it stands. SIGTERM keeps its default action: a service manager's
/// stop ends the process as any consumer's, and the daemon keeps what it held for a rejoin or a
/// relaunch (README, "Relaunching a consumer").
enum Interruption {
    /// Runs `body` as a task that SIGINT cancels; returns its value, or `nil` when
    /// the cancellation ended it.
    ///
    /// Cancelled, or ended by an error (a closed pipe, say), the client library tells the
    /// daemon (the stop of a subscription, the withdrawal of a request). A reply asked for after
    /// the task ended, on the same connection, says the daemon has read that, so this waits for
    /// one before it returns (unless the daemon was found unavailable): the process then ends
    /// without `bye`, and what the daemon had not heard of would be kept for the app's rejoin,
    /// with the receiver it holds.
    static func cancellable<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) async throws -> Value? {
        // The handlers are in place before the task can send anything, so a signal that comes
        // once the daemon has heard of the task finds a task to cancel.
        let interrupted = Mutex((signalled: false, task: Task<Value, any Error>?.none))
        onInterrupt {
            interrupted.withLock { $0.signalled = true; $0.task?.cancel() }
        }
        let task = Task { try await body() }
        interrupted.withLock { $0.task = task; if $0.signalled { task.cancel() } }
        let result = await task.result
        // A daemon that did not answer (stopped, stalled) would not answer this either: the
        // command would wait the library's 30 s more for nothing.
        if case .failure(WaymarkError.daemonUnavailable) = result {} else { _ = try? await WaymarkAgent.status() }
        do {
            return try result.get()
        } catch is CancellationError where task.isCancelled {
            return nil
        }
    }

    /// Runs `body` once, on a thread of its own, when SIGINT first arrives. The signal then gets
    /// its default action back, so a second Ctrl-C ends the process at once. Without an eventfd
    /// or a thread to give, the signal keeps its default action.
    static func onInterrupt(_ body: @escaping @Sendable () -> Void) {
        guard let notice = try? EventFD() else { return }
        do throws(SystemError) {
            try DetachedThread.start {
                while (try? notice.drain()) == nil {
                    _ = try? notice.descriptor.wait(for: .readable, timeout: nil)
                }
                Signal.interrupt.restoreDefault()
                body()
            }
        } catch {
            try? notice.descriptor.close()
            return
        }
        Signal.interrupt.notify(notice)
    }
}

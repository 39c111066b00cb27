import Synchronization

/// Core Location's `CLBackgroundActivitySession` for a process on a board: while the process
/// holds one, its app stays "in use" and keeps receiving, and what it holds in the daemon
/// survives the process's exit or death until it comes back (docs/semantics.md, "Consumers
/// that come and go").
///
/// ```swift
/// let session = BackgroundActivitySession()   // while the app is in use
/// for try await update in LocationUpdate.liveUpdates(.fitness) { … }
/// session.invalidate()
/// ```
///
/// It can only be started while the app is in use (a policy marks it `interactive`, it holds
/// another session, or an app in use delegated to it); otherwise the daemon refuses it with
/// `insufficientlyInUse`, which the `refused` handler hears. A process that starts again
/// creates its session again at once, and gets back the one the daemon kept for its app.
/// Dropping the last reference invalidates it, as ``invalidate()`` does.
public final class BackgroundActivitySession: Sendable {
    private let token: UInt64
    private let client: DaemonClient
    private let isValid = Atomic(true)

    /// Starts a session; `refused` hears why if the daemon refuses it (the app not in use).
    public init(refused: @escaping @Sendable (WaymarkError) -> Void = { _ in }) {
        client = .shared
        token = client.makeToken()
        client.execute({ [token] in $0.startActivity(token, refused: refused) }, unavailable: refused)
    }

    /// Ends the session: the app is no longer kept in use by it.
    public func invalidate() {
        guard isValid.exchange(false, ordering: .relaxed) else { return }
        client.execute({ [token] in $0.invalidateActivity(token) }, unavailable: { _ in })
    }

    deinit {
        invalidate()
    }
}

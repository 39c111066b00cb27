import Synchronization
import WaymarkProtocol

/// "In use" handed from one app to another for a piece of work: the seed's Apple Watch app
/// whose in-use status carries over to its iPhone app (WWDC15 714), for processes on a board
/// (docs/semantics.md, "In-use delegation").
///
/// An app in use by itself (interactive by policy, or holding a ``BackgroundActivitySession``)
/// starts one and hands its ``token`` to the other app by its own means; the other app
/// accepts it and counts as in use while it holds it. The giver ending it, or no longer being
/// in use (its connection ended, its background activity session invalidated), revokes it.
///
/// ```swift
/// // The giver:
/// let delegation = try await InUseDelegation.start()
/// send(delegation.token, to: worker)
/// // The worker:
/// let accepted = try await InUseDelegation.accept(token: token)
/// let session = BackgroundActivitySession()
/// ```
public final class InUseDelegation: Sendable {
    /// The daemon's answer: the delegation's id, and the token of a delegation given.
    struct Grant: Sendable {
        let id: UInt64
        let token: String
    }

    /// The token to hand the other app (empty for a delegation accepted).
    public let token: String
    private let id: UInt64
    private let client: DaemonClient
    private let isValid = Atomic(true)

    private init(_ grant: Grant, client: DaemonClient) {
        id = grant.id
        token = grant.token
        self.client = client
    }

    /// Delegates this app's "in use"; the result's ``token`` is for the other app.
    ///
    /// - Throws: ``WaymarkError`` `insufficientlyInUse` when this app is not in use by itself.
    public static func start() async throws -> InUseDelegation {
        try await request(.startInUseDelegation)
    }

    /// Accepts the delegation `token` names (once): this app is in use while it holds it.
    ///
    /// - Throws: ``WaymarkError`` `unknownSubscription` for a token no other app's delegation
    ///   waits for.
    public static func accept(token: String) async throws -> InUseDelegation {
        try await request(.acceptInUseDelegation(token: token))
    }

    /// Ends it: the giver revokes it, the app that accepted it gives it back.
    public func invalidate() {
        guard isValid.exchange(false, ordering: .relaxed) else { return }
        client.execute({ [id] in $0.endDelegation(id) }, unavailable: { _ in })
    }

    deinit {
        invalidate()
    }

    private static func request(_ operation: Operation) async throws -> InUseDelegation {
        let client = DaemonClient.shared
        let pending = PendingReply<Grant>()
        let grant = try await withCheckedThrowingContinuation { continuation in
            pending.wait(with: continuation)
            client.execute({ $0.delegation(operation, pending) }, unavailable: { pending.resume(with: .failure($0)) })
        }
        return InUseDelegation(grant, client: client)
    }
}

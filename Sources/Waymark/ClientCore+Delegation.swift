import WaymarkProtocol

/// In-use delegations on the I/O thread (`InUseDelegation`).
extension ClientCore {
    /// Sends `operation` (a delegation's start or acceptance); `pending` gets the delegation's
    /// id and token (the token is empty for an acceptance).
    func delegation(_ operation: Operation, _ pending: PendingReply<InUseDelegation.Grant>) {
        let id = sendNew(operation) { result in
            switch result {
            case .success(.delegation(let session, let token)): pending.resume(with: .success(.init(id: session, token: token)))
            case .success(.session(let session)): pending.resume(with: .success(.init(id: session, token: "")))
            case .success(let other): pending.resume(with: .failure(WaymarkError.refused(code: "invalidMessage", message: "unexpected result \(other)")))
            case .failure(let error): pending.resume(with: .failure(error))
            }
        }
        limitWait(for: id, operation.name)
    }

    /// Ends the delegation `id` on the daemon (it ended there already if the connection did).
    func endDelegation(_ id: UInt64) {
        send(.stopInUseDelegation(session: id)) { _ in }
    }
}

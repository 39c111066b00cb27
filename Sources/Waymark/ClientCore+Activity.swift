import WaymarkProtocol

/// Background activity sessions on the I/O thread: started on the daemon, started again (the
/// daemon hands back the one it kept) after a reconnect, invalidated on the daemon.
extension ClientCore {
    /// A background activity session the process holds.
    struct Activity {
        /// The daemon's id once it started (or handed back) the session on this connection.
        var daemonID: UInt64?
        /// Hears why, if the daemon refuses the session.
        let refused: @Sendable (WaymarkError) -> Void
    }

    /// Holds the session `local`; `refused` hears why if the daemon refuses it.
    func startActivity(_ local: UInt64, refused: @escaping @Sendable (WaymarkError) -> Void) {
        let linked = hasLiveLink()
        activities[local] = Activity(refused: refused)
        if linked {
            startActivity(local)
        } else if !connect() {
            scheduleReconnect()
        }
    }

    /// Asks the daemon for the session `local` on the current connection.
    func startActivity(_ local: UInt64) {
        send(.startBackgroundActivitySession) { [unowned self] result in
            switch result {
            case .success(.session(let daemonID)):
                guard activities[local] != nil else {
                    // Invalidated while the daemon was starting it.
                    send(.stopBackgroundActivitySession(session: daemonID)) { _ in }
                    return
                }
                activities[local]?.daemonID = daemonID
            case .success, .failure(.daemonUnavailable):
                break
            case .failure(let error):
                activities.removeValue(forKey: local)?.refused(error)
            }
        }
    }

    /// Invalidates the session `local`, telling the daemon if it holds it.
    func invalidateActivity(_ local: UInt64) {
        guard let activity = activities.removeValue(forKey: local) else { return }
        if let daemonID = activity.daemonID { send(.stopBackgroundActivitySession(session: daemonID)) { _ in } }
    }
}

import WaymarkProtocol

/// Monitors on the I/O thread: opened on the daemon (again after a reconnect, when the daemon
/// sends the events the app has not acknowledged), their events routed to each monitor's
/// sequence once (an event sent again before its acknowledgement reached the daemon is
/// skipped), and acknowledged as the app takes them.
extension ClientCore {
    typealias MonitorContinuation = AsyncThrowingStream<MonitorDelivery, any Error>.Continuation

    /// An event and the sequence to acknowledge once the app has taken it.
    struct MonitorDelivery: Sendable {
        let event: WaymarkProtocol.MonitorEvent
        let sequence: UInt64?
    }

    /// A monitor the process holds.
    struct OpenMonitor {
        let name: String
        let continuation: MonitorContinuation
        /// The daemon's number for it on the current connection.
        var daemonID: UInt64?
        /// The newest sequence passed on: older ones are repeats.
        var newestSequence: UInt64 = 0
    }

    /// Opens the monitor `name` as `local`; `opened` hears whether the daemon opened it.
    func openMonitor(
        _ local: UInt64, name: String, _ continuation: MonitorContinuation, opened: @escaping (Result<Void, WaymarkError>) -> Void
    ) {
        let linked = hasLiveLink()
        monitors[local] = OpenMonitor(name: name, continuation: continuation)
        monitorOpened[local] = [opened]
        if linked {
            reopenMonitor(local)
        } else if !connect() {
            // connect() asks for every monitor when it connects.
            monitors[local] = nil
            monitorOpened[local] = nil
            opened(.failure(.daemonUnavailable(lastFailure)))
        }
    }

    /// Asks the daemon for the monitor `local` on the current connection (at every connect);
    /// what waits for it hears the outcome.
    func reopenMonitor(_ local: UInt64) {
        guard let name = monitors[local]?.name else { return }
        send(.openMonitor(name: name)) { [unowned self] result in
            let waiting = monitorOpened.removeValue(forKey: local) ?? []
            switch result {
            case .success(.monitor(let daemonID)):
                monitors[local]?.daemonID = daemonID
                monitorIDs[daemonID] = local
                for handler in waiting { handler(.success(())) }
            case .success(let other):
                for handler in waiting { handler(.failure(.refused(code: "invalidMessage", message: "unexpected result \(other)"))) }
            case .failure(.daemonUnavailable(let reason)):
                for handler in waiting { handler(.failure(.daemonUnavailable(reason))) }
            case .failure(let error):
                monitors.removeValue(forKey: local)?.continuation.finish(throwing: error)
                for handler in waiting { handler(.failure(error)) }
            }
        }
    }

    /// Sends a monitor's request (add, remove, record, identifiers) once it is open on the
    /// current connection.
    func monitorCall(_ local: UInt64, _ operation: @escaping (UInt64) -> Operation, _ pending: PendingReply<ReplyResult>) {
        let call: (Result<Void, WaymarkError>) -> Void = { [unowned self] opened in
            guard case .success = opened, let daemonID = monitors[local]?.daemonID else {
                pending.resume(with: .failure(WaymarkError.daemonUnavailable(lastFailure)))
                return
            }
            let request = operation(daemonID)
            limitWait(for: send(request) { result in pending.resume(with: result.mapError { $0 }) }, request.name)
        }
        // A connection the daemon hung up on ends first: its number for the monitor is void.
        let linked = hasLiveLink()
        if monitors[local]?.daemonID != nil { return call(.success(())) }
        guard monitors[local] != nil else { return call(.failure(.daemonUnavailable("the monitor is closed"))) }
        // Its opening is under way on this connection, or starts with the next one.
        monitorOpened[local, default: []].append(call)
        if !linked, !connect() {
            monitorOpened[local] = nil
            call(.failure(.daemonUnavailable(lastFailure)))
        }
    }

    /// Routes a `monitorEvent` to its monitor's sequence, skipping repeats.
    func receiveMonitorEvent(_ daemonID: UInt64, sequence: UInt64?, _ event: WaymarkProtocol.MonitorEvent) {
        guard let local = monitorIDs[daemonID], let monitor = monitors[local] else { return }
        if let sequence {
            guard sequence > monitor.newestSequence else { return }
            monitors[local]?.newestSequence = sequence
        }
        monitor.continuation.yield(MonitorDelivery(event: event, sequence: sequence))
    }

    /// The app has taken the events of `local` through `sequence`.
    func acknowledgeMonitorEvents(_ local: UInt64, through sequence: UInt64) {
        guard let daemonID = monitors[local]?.daemonID else { return }
        send(.acknowledgeMonitorEvents(monitor: daemonID, through: sequence)) { _ in }
    }

    /// Closes the monitor `local` (its conditions stay in the daemon).
    func closeMonitor(_ local: UInt64) {
        guard let monitor = monitors.removeValue(forKey: local) else { return }
        monitor.continuation.finish()
        if let daemonID = monitor.daemonID {
            monitorIDs[daemonID] = nil
            send(.closeMonitor(monitor: daemonID)) { _ in }
        }
    }
}

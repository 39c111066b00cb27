import WaymarkLocation
import WaymarkProtocol

/// Visit monitors on the I/O thread: while the process holds one, the daemon is asked to
/// monitor the app's visits (again at every connect: the daemon keeps the service for the app
/// until it stops it), and each `visit` event goes to every one. A visit the daemon kept while
/// the app was away comes with a sequence: it is passed on once (a repeat sent before the
/// acknowledgement reached the daemon is skipped) and acknowledged when a loop takes it
/// (``VisitMonitor/Visits``), as a monitor's events are.
extension ClientCore {
    /// A visit and the sequence that acknowledges it (`nil` for one the daemon did not keep).
    struct VisitDelivery: Sendable {
        let visit: Visit
        let sequence: UInt64?
    }

    typealias VisitContinuation = AsyncStream<VisitDelivery>.Continuation

    /// Holds the visit monitor `local`; `started` hears whether the daemon took the request.
    func startVisitMonitor(_ local: UInt64, _ continuation: VisitContinuation, started: @escaping (Result<Void, WaymarkError>) -> Void) {
        visitMonitors[local] = continuation
        // connect() asks for the visits of every monitor held; asking again changes nothing.
        guard connected() else {
            visitMonitors[local] = nil
            return started(.failure(.daemonUnavailable(lastFailure)))
        }
        send(.startVisitMonitoring) { result in started(result.map { _ in () }) }
    }

    /// At every connect: asks for the app's visits again while a visit monitor is held.
    func restartVisitMonitoring() {
        guard !visitMonitors.isEmpty else { return }
        send(.startVisitMonitoring) { _ in }
    }

    /// Ends the sequence of the visit monitor `local`; the daemon's service goes on.
    func dropVisitMonitor(_ local: UInt64) {
        visitMonitors.removeValue(forKey: local)?.finish()
        // The repeats to skip are those of the monitors held, as a `Monitor`'s are its own.
        if visitMonitors.isEmpty { newestVisitSequence = 0 }
    }

    /// Stops the app's visit monitoring on the daemon (`stopMonitoringVisits`) and ends the
    /// sequence of `local`.
    func stopVisitMonitoring(_ local: UInt64, _ pending: PendingReply<ReplyResult>) {
        dropVisitMonitor(local)
        call(.stopVisitMonitoring, pending)
    }

    /// Hands a `visit` event to every visit monitor held.
    func receiveVisit(_ visit: WaymarkLocation.Visit, sequence: UInt64?) {
        if let sequence {
            guard sequence > newestVisitSequence, !visitMonitors.isEmpty else { return }
            newestVisitSequence = sequence
        }
        for continuation in visitMonitors.values { continuation.yield(VisitDelivery(visit: Visit(visit), sequence: sequence)) }
    }

    /// Tells the daemon that the kept visits up to `sequence` reached the app.
    func acknowledgeVisits(through sequence: UInt64) {
        send(.acknowledgeVisits(through: sequence)) { _ in }
    }
}

import Synchronization
package import WaymarkDaemon
package import WaymarkEngine
package import WaymarkFix
package import WaymarkLocation
import WaymarkProtocol
package import WaymarkSystem

/// An ``AgentService`` for tests: records every call and answers location requests as told.
/// Called on the loop's thread; tests read it from theirs.
package final class ScriptedAgent: AgentService, Sendable {
    /// A call the server made.
    package enum Call: Hashable, Sendable {
        case connected(ClientID, PeerCredentials)
        case identified(ClientID, String?)
        case disconnected(ClientID, subscriptions: Set<SubscriptionID>, requests: Set<RequestID>)
        case start(SubscriptionID, LiveConfiguration)
        case stop(SubscriptionID)
        case request(RequestID, desiredAccuracy: Double, timeout: Duration)
        case cancel(RequestID)
        case monitorsChanged
    }

    private struct State {
        var calls: [Call] = []
        var answer: Result<Location, LocationError>?
        var liveSubscriptions: Set<SubscriptionID> = []
        var pendingRequests: Set<RequestID> = []
    }

    private let state = Mutex(State())
    /// Set before the loop runs, then used only on the loop's thread.
    nonisolated(unsafe) private weak var sink: (any UpdateSink)?
    /// What `status()` reports (the server fills in its counts).
    package let report: StatusReport
    /// No satellites: the scripted updates come from no receiver.
    package let sky = SkyView()

    /// An agent whose status is `report`.
    package init(report: StatusReport = ScriptedAgent.defaultReport) {
        self.report = report
    }

    /// A status report for tests.
    package static let defaultReport = StatusReport(
        daemonVersion: "test", uptime: 1.5, source: .init(kind: "simulated", description: "scripted agent", isSimulated: true),
        receiverPowerState: "tracking", receiverPowerSince: 0.5)

    /// The calls so far.
    package var calls: [Call] { state.withLock { $0.calls } }

    /// The subscriptions started and not stopped.
    package var liveSubscriptions: Set<SubscriptionID> { state.withLock { $0.liveSubscriptions } }

    /// The requests asked and neither answered, cancelled nor released.
    package var pendingRequests: Set<RequestID> { state.withLock { $0.pendingRequests } }

    /// Answers the pending `request` with `result` (on the loop's thread).
    package func answer(_ request: RequestID, with result: Result<Location, LocationError>) {
        guard state.withLock({ $0.pendingRequests.remove(request) }) != nil else { return }
        sink?.send(result, request: request)
    }

    /// Whether `client`'s disconnect was reported.
    package func hasDisconnected(_ client: ClientID) -> Bool {
        calls.contains { call in
            if case .disconnected(client, _, _) = call { return true }
            return false
        }
    }

    /// Where results go; set before the server starts.
    package func attach(_ sink: any UpdateSink) {
        self.sink = sink
    }

    /// Answer location requests at once with `answer`, or leave them pending (`nil`).
    package func answerRequests(with answer: Result<Location, LocationError>?) {
        state.withLock { $0.answer = answer }
    }

    /// Sends `update` to every live subscription (on the loop's thread).
    package func broadcast(_ update: LocationUpdate) {
        let subscriptions = liveSubscriptions
        for subscription in subscriptions.sorted() {
            sink?.send(update, subscription: subscription)
        }
    }

    /// Sends `updates` as one batch to every live subscription (on the loop's thread).
    package func broadcast(batch updates: [LocationUpdate]) {
        for subscription in liveSubscriptions.sorted() {
            sink?.send(batch: updates, overflow: 0, subscription: subscription)
        }
    }

    package func clientConnected(_ client: ClientID, credentials: PeerCredentials) {
        record(.connected(client, credentials))
    }

    package func clientIdentified(_ client: ClientID, appID: String?) {
        record(.identified(client, appID))
    }

    package func clientDisconnected(_ client: ClientID, releasing subscriptions: Set<SubscriptionID>, _ requests: Set<RequestID>) {
        record(.disconnected(client, subscriptions: subscriptions, requests: requests))
        state.withLock {
            $0.liveSubscriptions.subtract(subscriptions)
            $0.pendingRequests.subtract(requests)
        }
    }

    package func startLiveUpdates(_ subscription: SubscriptionID, configuration: LiveConfiguration, options: DeliveryOptions) {
        record(.start(subscription, configuration))
        state.withLock { _ = $0.liveSubscriptions.insert(subscription) }
    }

    package func stopLiveUpdates(_ subscription: SubscriptionID) {
        record(.stop(subscription))
        state.withLock { _ = $0.liveSubscriptions.remove(subscription) }
    }

    package func requestLocation(_ request: RequestID, desiredAccuracy: Double, timeout: Duration) {
        record(.request(request, desiredAccuracy: desiredAccuracy, timeout: timeout))
        let answer = state.withLock { state in
            if state.answer == nil { state.pendingRequests.insert(request) }
            return state.answer
        }
        if let answer { sink?.send(answer, request: request) }
    }

    package func cancelRequest(_ request: RequestID) {
        record(.cancel(request))
        state.withLock { _ = $0.pendingRequests.remove(request) }
    }

    package func monitorsChanged() {
        record(.monitorsChanged)
    }

    package func status() -> StatusReport { report }

    package func lastKnownLocation() -> LastKnownLocation? {
        report.lastLocation.map { LastKnownLocation(location: $0, age: .zero) }
    }

    private func record(_ call: Call) {
        state.withLock { $0.calls.append(call) }
    }
}

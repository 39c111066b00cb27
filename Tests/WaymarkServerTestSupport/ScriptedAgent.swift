import Synchronization
package import WaymarkDaemon
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
        case disconnected(ClientID)
        case start(SubscriptionID, ClientID, LiveConfiguration)
        case stop(SubscriptionID, ClientID)
        case request(RequestID, ClientID, desiredAccuracy: Double, timeout: Duration)
        case cancel(RequestID, ClientID)
    }

    private struct State {
        var calls: [Call] = []
        var answer: Result<Location, LocationError>?
        var liveSubscriptions: [SubscriptionID: ClientID] = [:]
    }

    private let state = Mutex(State())
    /// Set before the loop runs, then used only on the loop's thread.
    nonisolated(unsafe) private weak var sink: (any UpdateSink)?
    /// What `status()` reports (the server fills in its counts).
    package let report: StatusReport

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

    /// The subscriptions started and not stopped, with their clients.
    package var liveSubscriptions: [SubscriptionID: ClientID] { state.withLock { $0.liveSubscriptions } }

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
        for (subscription, client) in subscriptions.sorted(by: { $0.key < $1.key }) {
            sink?.send(update, subscription: subscription, to: client)
        }
    }

    package func clientConnected(_ client: ClientID, credentials: PeerCredentials) {
        record(.connected(client, credentials))
    }

    package func clientIdentified(_ client: ClientID, appID: String?) {
        record(.identified(client, appID))
    }

    package func clientDisconnected(_ client: ClientID) {
        record(.disconnected(client))
        state.withLock { state in state.liveSubscriptions = state.liveSubscriptions.filter { $0.value != client } }
    }

    package func startLiveUpdates(_ subscription: SubscriptionID, for client: ClientID, configuration: LiveConfiguration) {
        record(.start(subscription, client, configuration))
        state.withLock { $0.liveSubscriptions[subscription] = client }
    }

    package func stopLiveUpdates(_ subscription: SubscriptionID, for client: ClientID) {
        record(.stop(subscription, client))
        state.withLock { $0.liveSubscriptions[subscription] = nil }
    }

    package func requestLocation(_ request: RequestID, for client: ClientID, desiredAccuracy: Double, timeout: Duration) {
        record(.request(request, client, desiredAccuracy: desiredAccuracy, timeout: timeout))
        let answer = state.withLock { $0.answer }
        if let answer { sink?.send(answer, request: request, to: client) }
    }

    package func cancelRequest(_ request: RequestID, for client: ClientID) {
        record(.cancel(request, client))
    }

    package func status() -> StatusReport { report }

    private func record(_ call: Call) {
        state.withLock { $0.calls.append(call) }
    }
}

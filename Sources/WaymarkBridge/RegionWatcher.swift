package import WaymarkBridgeCore
import WaymarkLocation
import Waymark

/// Watches the bridge's regions with a monitor of its own on the daemon (`Monitor`, protocol
/// version 3): one circular condition per region, named by it; conditions of regions no
/// longer configured are removed, those whose centre or radius changed are added again. Each
/// event goes to the inbox with the fix that decided it, and is acknowledged only once the
/// outbox has committed it, so that neither a crash nor a lost link loses an event or
/// publishes one twice.
package enum RegionWatcher {
    /// The monitor's name.
    package static let monitorName = "owntracks"
    /// The longest wait for the fix that decided an event, should the event come first.
    static let fixPatience = Duration.seconds(1)

    /// Runs until the monitor ends (the daemon went away or refused it), which throws.
    package static func watch(_ regions: [OwnTracksRegion], inbox: BridgeInbox) async throws {
        let monitor = try await Monitor(named: monitorName)
        let names = Set(regions.map(\.name))
        for identifier in try await monitor.identifiers where !names.contains(identifier) {
            try await monitor.remove(identifier)
        }
        for region in regions {
            let condition = Monitor.CircularGeographicCondition(latitude: region.latitude, longitude: region.longitude, radius: region.radius)
            if try await monitor.record(for: region.name)?.condition != .circularGeographic(condition) {
                try await monitor.add(condition, identifier: region.name)
            }
        }
        for try await pending in monitor.unacknowledgedEvents {
            let event = pending.event
            let state: RegionEvent.State =
                switch event.state {
                case .satisfied: .inside
                case .unsatisfied: .outside
                case .unknown, .unmonitored: .undecided
                }
            let fix = state == .undecided ? nil : await decidingFix(at: event.date, inbox: inbox)
            let regionEvent = RegionEvent(region: event.identifier, state: state, date: event.date, fix: fix, sequence: pending.sequence)
            // The loop is behind (its disk stalls): wait rather than drop the event.
            while !inbox.submit(regionEvent, acknowledge: { monitor.acknowledge(through: $0) }) {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        throw WaymarkError.daemonUnavailable("the monitor \(monitorName) was closed")
    }

    /// The fix of time `date` from the live updates, waiting a little should it come after the
    /// event; `nil` for an event decided while the bridge was not running.
    private static func decidingFix(at date: Timestamp, inbox: BridgeInbox) async -> Location? {
        let clock = ContinuousClock()
        let deadline = clock.now + fixPatience
        while clock.now < deadline {
            if let found = inbox.fix(at: date) { return found }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}

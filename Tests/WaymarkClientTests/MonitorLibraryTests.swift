import Foundation
import Testing
import Waymark

extension ClientLibraryTests {
/// The Swift `Monitor` against the real daemon (without a store: every event says
/// `persistenceUnavailable`; the store's delivery rules are `MonitorEndToEndTests`').
@Suite("Monitor with the real waymarkd", .serialized, .timeLimit(.minutes(2)))
struct MonitorLibraryTests {
    @Test("add, identifiers, record, the events of leaving the circle in order, remove")
    func leavingTheDesk() async throws {
        // 3 min at the desk (9 s at 20×), then east at 1.4 m/s: out of 100 m within 2 min.
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("desk 3m\nwalk 5m heading=90\n"), "--speed", "20"])
        defer { daemon.stop() }
        // A fix first: the scenario's morning is days before the system clock, and a condition
        // is dated on the fixes' clock once there is one.
        _ = try await within(30) { try await Location.requestLocation(desiredAccuracy: 50, timeout: .seconds(20)) }
        let monitor = try await Monitor(named: "places")
        try await monitor.add(Monitor.CircularGeographicCondition(latitude: 47.3769, longitude: 8.5417, radius: 100), identifier: "desk")
        #expect(try await monitor.identifiers == ["desk"])
        let events = try await within(60) { () -> [Monitor.Event] in
            var seen: [Monitor.Event] = []
            for try await event in monitor.events {
                seen.append(event)
                if event.state == .unsatisfied { break }
            }
            return seen
        }
        #expect(events.map(\.state) == [.satisfied, .unsatisfied])
        #expect(events.allSatisfy { $0.identifier == "desk" && $0.persistenceUnavailable && !$0.accuracyLimited })
        #expect(try await monitor.record(for: "desk")?.lastEvent.state == .unsatisfied)
        #expect(try await monitor.record(for: "elsewhere") == nil)
        try await monitor.remove("desk")
        #expect(try await monitor.identifiers.isEmpty)
    }

    @Test("a condition added before the first fix, on a scenario dated days before the system clock, is decided by the fixes that follow")
    func addedBeforeTheFirstFix() async throws {
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("desk 10m\n"), "--speed", "20"])
        defer { daemon.stop() }
        // Dated on the scenario's clock, not the system's: a condition dated after every fix
        // the scenario will ever give would never be decided.
        let monitor = try await Monitor(named: "places")
        try await monitor.add(Monitor.CircularGeographicCondition(latitude: 47.3769, longitude: 8.5417, radius: 100), identifier: "desk")
        let decided = try await within(60) { () -> Monitor.Event? in
            for try await event in monitor.events where event.state != .unknown { return event }
            return nil
        }
        #expect(decided?.state == .satisfied)
    }

    /// Before, the sequence did not hold its monitor: a loop over the events of a monitor held
    /// nowhere else (`for try await event in try await Monitor(named:).events`, as
    /// `waymark monitor watch` does) ended when the monitor was freed, at once or after the
    /// first events; the relaunched geofencer of the VM check lost its event that way.
    @Test("the events' sequence holds its monitor open: a loop over a monitor held nowhere else gets its events")
    func theEventsHoldTheMonitor() async throws {
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("desk 10m\n"), "--speed", "20"])
        defer { daemon.stop() }
        let held = WeakMonitor()
        let events = try await Self.events(ofAMonitorHeldBy: held)
        let monitor = try #require(held.monitor, "the monitor was freed with its events still in use")
        let beacon = try #require(Monitor.BeaconIdentityCondition(uuid: "e2c56db5-dffb-48d2-b060-d0f5a71096e0"))
        try await monitor.add(beacon, identifier: "entrance")
        let event = try await within(10) { () -> Monitor.Event? in
            for try await event in events { return event }
            return nil
        }
        #expect(event?.identifier == "entrance")
    }

    /// The events of a monitor that only `held` names (weakly).
    private static func events(ofAMonitorHeldBy held: WeakMonitor) async throws -> Monitor.Events {
        let monitor = try await Monitor(named: "shops")
        held.monitor = monitor
        return monitor.events
    }

    private final class WeakMonitor: @unchecked Sendable {
        weak var monitor: Monitor?
    }

    @Test("a beacon condition is added and reported unsupported (no Bluetooth ranging here), as Core Location reports one it cannot watch")
    func aBeaconIsUnsupported() async throws {
        let daemon = try DaemonProcess(["--scenario", try DaemonProcess.scenario("desk 10m\n"), "--speed", "20"])
        defer { daemon.stop() }
        #expect(Monitor.BeaconIdentityCondition(uuid: "not a uuid") == nil)
        let beacon = try #require(Monitor.BeaconIdentityCondition(uuid: "e2c56db5-dffb-48d2-b060-d0f5a71096e0", major: 1, minor: 2))
        #expect(beacon.uuid == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        let monitor = try await Monitor(named: "shops")
        try await monitor.add(beacon, identifier: "entrance")
        let event = try await within(10) { () -> Monitor.Event? in
            for try await event in monitor.events { return event }
            return nil
        }
        #expect(event?.identifier == "entrance" && event?.state == .unmonitored && event?.conditionUnsupported == true)
        let record = try #require(try await monitor.record(for: "entrance"))
        #expect(record.condition == .beaconIdentity && record.lastEvent.state == .unmonitored)
        #expect(try await monitor.identifiers == ["entrance"])
    }
}
}

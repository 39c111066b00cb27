import Testing
import Foundation
import WaymarkClock
import WaymarkMonitoring
import WaymarkPowerProfile
import WaymarkReceiver
import WaymarkSimulation

@Suite("Power-profile runs with a geofence-only consumer")
struct GeofenceRunTests {
    @Test("commute: each place's circle is entered and left in turn, with the receiver off most of the time")
    func commute() throws {
        var setup = PowerRunSetup(scenario: try Scenarios.load("commute"), profile: .ubloxM8)
        setup.consumer = .geofences(radius: 100, travel: .driving)
        let report = PowerRun.run(setup)
        let events = report.log.map(\.event).filter { $0.hasPrefix("geofence ") }
        #expect(!events.isEmpty)
        var states: [String: [String]] = [:]
        for event in events {
            let parts = event.dropFirst("geofence ".count).split(separator: ":")
            states[String(parts[0]), default: []].append(parts[1].trimmingCharacters(in: .whitespaces))
        }
        for (place, sequence) in states {
            #expect(zip(sequence, sequence.dropFirst()).allSatisfy { $0 != $1 }, "\(place) flaps: \(sequence)")
        }
        #expect(report.energy < report.alwaysOnEnergy / 2)
        #expect(report.log.contains { $0.event == "receiver on (geofence evaluation)" })
        #expect(!report.log.contains { $0.event.hasPrefix("update:") }, "no subscription, no updates")
    }
}

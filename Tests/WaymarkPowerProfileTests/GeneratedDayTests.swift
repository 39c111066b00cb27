import Testing
import WaymarkClock
import WaymarkPowerProfile
import WaymarkReceiver
import WaymarkSimulation
import WaymarkTestFixtures

/// The targets on days nobody tuned the power policy on (`ScenarioGenerator`, docs/power.md,
/// "Generated days"): a few short ones here, the sweep of `Scripts/power-sweep` in release.
@Suite("Generated days", .ownThread)
struct GeneratedDayTests {
    /// Short generated days (the same episodes as the sweep's, until 30 minutes are filled),
    /// each on a receiver in turn: about a second each in a debug build.
    static let days: [(seed: UInt64, profile: ReceiverProfile)] = [
        (1, .ubloxM8), (2, .mediatekMT3339), (3, .quectelL76), (4, .ubloxM8),
    ]

    @Test("short generated days meet the targets", arguments: days)
    func targets(seed: UInt64, profile: ReceiverProfile) throws {
        let text = ScenarioGenerator.text(seed: seed, length: .seconds(30 * 60))
        let report = PowerRun.run(PowerRunSetup(scenario: try ScenarioParser.parse(text, file: "generated:\(seed)"), profile: profile))
        #expect(report.energy <= 1.15 * report.oracleEnergy, "\(text)")
        if let p95 = report.resumeLatency(quantile: 0.95) { #expect(p95 <= .seconds(2), "\(text)") }
        #expect(report.metresWithoutFixes <= 10, "\(text)")
    }

    @Test("a device at rest from the start: the oracle pays the subscription's first location, as every policy must")
    func firstLocationAtRest() throws {
        let text = "start 2026-11-23T08:00:00Z 47 8 400\ndesk 1h typing"
        let profile = ReceiverProfile.mediatekMT3339
        let report = PowerRun.run(PowerRunSetup(scenario: try ScenarioParser.parse(text, file: "rest"), profile: profile))
        // Core Location's pause update carries a location (WWDC23 10180): the subscription gets one.
        #expect(report.log.contains { $0.event.hasPrefix("update: isStationary true") })
        let coldStart = profile.coldStart.seconds * (profile.acquisitionCurrent - profile.backupCurrent) / 3_600 * profile.supplyVoltage
        let backup = 3_600 * profile.backupCurrent / 3_600 * profile.supplyVoltage
        #expect(abs(report.oracleEnergy - (backup + coldStart)) < 1e-9)
    }
}

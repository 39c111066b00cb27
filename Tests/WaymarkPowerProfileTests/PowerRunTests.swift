import Testing
import WaymarkClock
import WaymarkLocation
import WaymarkPowerProfile
import WaymarkReceiver
import WaymarkSimulation
import WaymarkTestFixtures

@Suite("Power-profile runs on the shipped scenarios", .ownThread)
struct PowerRunTests {
    @Test("desk-day: the stationary update, receiver off, motion, receiver on, the first update with isStationary false")
    func deskDaySequence() throws {
        let report = PowerRun.run(PowerRunSetup(scenario: try Scenarios.load("desk-day"), profile: .ubloxM8))
        let events = report.log.map(\.event)
        // The first walk: the receiver was down on the desk, the interrupt wakes it.
        guard let pause = events.firstIndex(of: "update: isStationary true"),
            let off = events[pause...].firstIndex(of: "receiver off (stationary)"),
            let motion = events[off...].firstIndex(of: "motion interrupt"),
            let on = events[motion...].firstIndex(of: "receiver on (motion interrupt)"),
            let resumed = events[on...].firstIndex(of: "update: isStationary false (resumed)")
        else {
            Issue.record("sequence not found in \(events.prefix(20))")
            return
        }
        #expect(pause < off && off < motion && motion < on && on < resumed)
        // Every pause is followed by silence until a resume: no update between them.
        var paused = false
        for event in events where event.hasPrefix("update:") {
            if paused { #expect(event == "update: isStationary false (resumed)") }
            paused = event.hasPrefix("update: isStationary true")
        }
        #expect(report.motionStarts == 13)
        #expect(report.resumeLatencies.count == 13)
    }

    @Test("desk-day with the u-blox M8 figures: energy near the oracle, few false wakes, resume within hot start + 0.2 s", arguments: [LiveConfigurationName.default, .fitness])
    func deskDayEnergy(configuration: LiveConfigurationName) throws {
        let setup = PowerRunSetup(scenario: try Scenarios.load("desk-day"), profile: .ubloxM8, configuration: configuration.value)
        let report = PowerRun.run(setup)
        #expect(abs(report.alwaysOnEnergy - 696) < 5)
        #expect(abs(report.oracleEnergy - 73) < 2)
        #expect(report.energy <= 1.15 * report.oracleEnergy)
        #expect(report.falseWakesPerDeskHour <= 1)
        // Simulated time, not wall-clock: the targets of docs/power.md hold exactly.
        #expect(try #require(report.resumeLatency(quantile: 0.95)) <= setup.profile.hotStart + .milliseconds(200))
        #expect(report.metresWithoutFixes <= 10)
        print("desk-day \(configuration): \(report.energy) mWh, oracle \(report.oracleEnergy), p95 resume \(report.resumeLatency(quantile: 0.95) ?? .zero), \(report.metresWithoutFixes) m without fixes")
    }

    @Test("the accelerometer's own cost is reported: on a shelf it measures only for its glances, 0.5 s in every 2.5 s, read once each")
    func accelerometerCost() throws {
        let scenario = try ScenarioParser.parse("start 2026-11-23T08:00:00Z 47 8 400\nstill 6h", file: "own")
        let report = PowerRun.run(PowerRunSetup(scenario: scenario, profile: .ubloxM8))
        // A glance is one span (0.5 s), handed over at once; one every 2 s after the last. The
        // first minute (the cold start, the dwell and the watch) adds a little.
        let share = 0.5 / 2.5
        #expect(report.accelerometerSampledFraction > share && report.accelerometerSampledFraction < share + 0.01)
        #expect(abs(report.accelerometerReadsPerHour - 3_600 / 2.5) < 0.05 * 3_600 / 2.5)
        let none = PowerRun.run(PowerRunSetup(scenario: scenario, profile: .ubloxM8, accelerometer: nil))
        #expect(none.accelerometerSampledFraction == 0 && none.accelerometerReadsPerHour == 0)
    }

    @Test("a run that starts by moving reports its cold first start apart from the resumes")
    func firstStartApart() throws {
        let report = PowerRun.run(PowerRunSetup(scenario: try Scenarios.load("hike"), profile: .ubloxM8))
        let first = try #require(report.firstStart)
        // No ephemeris at the start: a cold start, at least the receiver's warm start long.
        #expect(first.latency >= ReceiverProfile.ubloxM8.warmStart)
        #expect(first.metres > 0)
        #expect(report.resumeLatencies.count == report.motionStarts - 1)
        let deskDay = PowerRun.run(PowerRunSetup(scenario: try Scenarios.load("desk-day"), profile: .ubloxM8))
        #expect(deskDay.firstStart == nil)  // it starts on the desk: every motion start is a resume
    }

    @Test(
        "days of stillness (holiday): every resume is hot on every receiver, and backup keeps energy near the oracle",
        arguments: ReceiverProfile.all)
    func longStillness(profile: ReceiverProfile) throws {
        let setup = PowerRunSetup(scenario: try Scenarios.load("holiday"), profile: profile)
        let report = PowerRun.run(setup)
        #expect(try #require(report.resumeLatency(quantile: 0.95)) <= .seconds(2))
        #expect(report.metresWithoutFixes <= 10)
        #expect(report.energy <= 1.15 * report.oracleEnergy)
    }

    @Test("without an accelerometer the GPS alone still saves most of the energy, and says so by its wakes")
    func gpsOnly() throws {
        let setup = PowerRunSetup(scenario: try Scenarios.load("desk-day"), profile: .ubloxM8, accelerometer: nil)
        let report = PowerRun.run(setup)
        #expect(report.energy < report.alwaysOnEnergy / 2)
        #expect(report.energy > report.oracleEnergy)
    }

    @Test("every shipped scenario runs to its end with consistent accounting", arguments: ["commute", "hike", "flight", "demo"])
    func scenarios(name: String) throws {
        let report = PowerRun.run(PowerRunSetup(scenario: try Scenarios.load(name), profile: .mediatekMT3339))
        let seconds = report.energyByState.reduce(0) { $0 + $1.seconds }
        #expect(abs(seconds - report.duration.seconds) < 0.01)
        #expect(report.timeline.count == Int(report.duration.seconds) + 1)
        #expect(report.energy <= report.alwaysOnEnergy * 1.01)
        #expect(!report.svg.isEmpty)
        #expect(String(decoding: report.csv.prefix(40), as: UTF8.self).hasPrefix("second,state,current_mA"))
    }
}

/// Configuration names as test arguments.
enum LiveConfigurationName: String, CaseIterable, Sendable, CustomStringConvertible {
    case `default`, fitness

    var value: LiveConfiguration { LiveConfiguration(rawValue: rawValue)! }
    var description: String { rawValue }
}

import Testing
import WaymarkReceiver

@testable import WaymarkPowerProfile

/// The power run's picture: time ticks that fit the run, states named, marks that add up to
/// the headline.
@Suite struct TimelinePlotTests {
    @Test("time ticks fit the run's length: at most 12, at a round spacing", arguments: [600, 5_400, 14_700, 28_800, 86_400, 864_000])
    func tickSpacing(seconds: Int) {
        let step = TimelinePlot.tickStep(for: seconds)
        #expect(seconds / step <= 12)
        #expect(seconds / step >= 3 || step == 60)
    }

    @Test("the picture names the receiver's states, uses clock times and says what the red marks add up to")
    func labels() throws {
        let report = PowerRun.run(PowerRunSetup(scenario: try Scenarios.load("commute"), profile: .ubloxM8))
        let svg = String(decoding: report.svg, as: UTF8.self)
        #expect(svg.contains(">tracking 29.00<") && svg.contains(">backup "))
        #expect(svg.contains(">07:15<") && svg.contains(">08:45<"))
        #expect(svg.contains("(the \(PowerRunReport.twoDecimals(report.metresWithoutFixes)) m above)"))
        #expect(svg.contains("zoom on the busiest stretch"))
    }

    @Test("the lift's ride is moving without signal: no red mark there, as the headline counts nothing there")
    func liftIsNotMissed() throws {
        let report = PowerRun.run(PowerRunSetup(scenario: try Scenarios.load("commute"), profile: .ubloxM8))
        let inLift = report.timeline.filter { !$0.hasSignal }
        #expect(inLift.count == 40)  // the 40 s lift segment, waits included
        #expect(inLift.contains { $0.isMoving && !$0.hasFix })
        // The red marks count only seconds with a signal (the first second of each resume, here).
        let missed = report.timeline.filter(\.isMissed).count
        #expect(String(decoding: report.svg, as: UTF8.self).contains("location where a fix was possible, \(missed) s in"))
        let csv = String(decoding: report.csv, as: UTF8.self).split(separator: "\n")
        #expect(csv.first == "second,state,current_mA,speed_mps,moving,fix,signal")
        #expect(csv.filter { $0.hasSuffix(",0") }.count == 40)
    }
}

import WaymarkClock
import WaymarkPowerProfile
import WaymarkReceiver
import WaymarkSimulation
import WaymarkLocation

/// The human-readable summary of a power run.
struct PowerRunSummary {
    let text: String

    init(report: PowerRunReport, elapsed: Duration, output: String) {
        func milliwattHours(_ value: Double) -> String { PowerRunReport.twoDecimals(value) + " mWh" }
        func seconds(_ value: Duration?) -> String { value.map { PowerRunReport.twoDecimals($0.seconds) + " s" } ?? "–" }
        var lines = [
            "scenario \(report.setup.scenario.name), \(PowerRunReport.twoDecimals(report.duration.seconds / 3_600)) h, receiver \(report.setup.profile.name), configuration \(report.setup.configuration.rawValue)\(report.setup.hasAccelerometer ? "" : ", no accelerometer")",
            "GPS energy      \(milliwattHours(report.energy))  (\(PowerRunReport.twoDecimals(report.energy / report.oracleEnergy))× oracle, \(PowerRunReport.twoDecimals(report.energy / report.alwaysOnEnergy))× always-on)",
            "oracle          \(milliwattHours(report.oracleEnergy))",
            "always on       \(milliwattHours(report.alwaysOnEnergy))",
        ]
        for entry in report.energyByState where entry.seconds > 0 {
            lines.append("  \(entry.state.padding(12)) \(PowerRunReport.twoDecimals(entry.seconds / 60)) min  \(milliwattHours(entry.milliwattHours))")
        }
        if let first = report.firstStart {
            lines.append(
                "first start     \(seconds(first.latency)), \(PowerRunReport.twoDecimals(first.metres)) m moved (before the run's first location: a cold start)")
        }
        lines += [
            "resume latency  p50 \(seconds(report.resumeLatency(quantile: 0.5))), p95 \(seconds(report.resumeLatency(quantile: 0.95))), max \(seconds(report.resumeLatency(quantile: 1))) over \(report.resumeLatencies.count) resumes",
            "moved without fixes  \(PowerRunReport.twoDecimals(report.metresWithoutFixes)) m after the first location",
            "false wakes     \(report.falseWakes) (\(PowerRunReport.twoDecimals(report.falseWakesPerDeskHour)) per desk hour)",
            "power cycles    \(report.powerCycles)",
            "accelerometer   measuring \(PowerRunReport.twoDecimals(report.accelerometerSampledFraction * 100)) % of the time, \(Int(report.accelerometerReadsPerHour.rounded())) reads an hour",
            "computed in     \(PowerRunReport.twoDecimals(elapsed.seconds)) s; wrote \(output)/report.json, timeline.csv, timeline.svg",
            "",
        ]
        text = lines.joined(separator: "\n")
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

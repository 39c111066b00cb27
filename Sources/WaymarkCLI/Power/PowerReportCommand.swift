import ArgumentParser
import WaymarkPowerProfile
import WaymarkSystem

/// `waymark power-report`: merges an external power meter's trace with a power log.
struct PowerReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power-report",
        abstract: "Merge a power meter's CSV with a power log, aligned on the marker edges.",
        discussion: """
            The meter's CSV has time (seconds, its own clock), current in mA and, if it \
            recorded the board's marker GPIO, the marker level (0/1). The marker toggles at every \
            receiver power transition, so the two clocks are aligned on those edges (on the \
            current's steps when there is no marker column); then the meter's current is \
            integrated over each receiver state of the log.
            """
    )

    @Option(name: .long, help: "The log written by `waymark power-log`.")
    var log: String

    @Option(name: .long, help: "The meter's CSV: time,current_mA[,marker].")
    var meter: String

    @Option(name: .long, parsing: .unconditional, help: "The receiver's supply voltage, volts (above 0, at most 60).")
    var volts = 3.3

    func validate() throws {
        guard volts > 0, volts <= 60 else { throw ValidationError("--volts must be above 0 and at most 60") }
    }

    func run() throws {
        let logText = String(decoding: try read(log), as: UTF8.self)
        let meterText = String(decoding: try read(meter), as: UTF8.self)
        let report: MeterReport
        do {
            // Each file's mistakes are told with its name.
            let powerLog = try Self.reading(log) { () throws(PowerLogError) in try PowerLog(csv: logText) }
            let trace = try Self.reading(meter) { () throws(PowerLogError) in try MeterTrace(csv: meterText) }
            report = try MeterReport(log: powerLog, trace: trace, volts: volts)
        } catch {
            throw CommandFailure("\(error)")
        }
        var lines = [
            "aligned on \(report.alignedOn) edges: \(report.matchedEdges) matched, meter clock = log clock \(report.offset >= 0 ? "+" : "")\(PowerRunReport.twoDecimals(report.offset)) s, largest deviation \(PowerRunReport.twoDecimals(report.residual * 1_000)) ms"
        ]
        if report.edgeCounts.log != report.edgeCounts.trace {
            let (first, last) = (report.firstMatched, report.matchedEdges - 1)
            lines.append(
                "the log has \(report.edgeCounts.log) power changes and the trace \(report.edgeCounts.trace) edges: "
                    + "the log's \(first.log + 1) to \(first.log + last + 1) matched the trace's \(first.trace + 1) to \(first.trace + last + 1); "
                    + "only the time the trace covers is measured")
        }
        lines.append("state        time        measured")
        for entry in report.energyByState {
            lines.append("\(entry.state.padding(12)) \(PowerRunReport.twoDecimals(entry.seconds)) s   \(PowerRunReport.twoDecimals(entry.milliwattHours)) mWh")
        }
        lines.append("total                    \(PowerRunReport.twoDecimals(report.energy)) mWh at \(volts) V")
        try StandardOutput().write(Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// `body`'s result, its error told as `path`'s.
    private static func reading<Value>(_ path: String, _ body: () throws(PowerLogError) -> Value) throws -> Value {
        do throws(PowerLogError) {
            return try body()
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }

    private func read(_ path: String) throws -> [UInt8] {
        do {
            return try FileDescriptor.readFile(path)
        } catch {
            throw CommandFailure("cannot read '\(path)': \(error)")
        }
    }
}

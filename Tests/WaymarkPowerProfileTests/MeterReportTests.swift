import Testing
import WaymarkPowerProfile

@Suite("Power logs and meter traces")
struct MeterReportTests {
    /// A log of a receiver that is on from 100 s to 160 s and from 300 s to 330 s (wall clock
    /// 1,700,000,000 + t), and a meter trace of the same run on a clock 12.345 s ahead, with
    /// the marker toggling at every power change (and at each of `glitches`, seconds); the
    /// meter records from `meterFrom` s.
    func run(withMarker: Bool, meterFrom: Double = 0, glitches: [Double] = []) -> (PowerLog, MeterTrace) {
        let base = 1_700_000_000.0
        var log = PowerLog()
        log.transitions = [
            .init(time: base + 100, from: "backup", state: "acquiring", reason: "live updates"),
            .init(time: base + 101, from: "acquiring", state: "tracking", reason: "first fix"),
            .init(time: base + 160, from: "tracking", state: "backup", reason: "stationary"),
            .init(time: base + 300, from: "backup", state: "acquiring", reason: "motion interrupt"),
            .init(time: base + 301, from: "acquiring", state: "tracking", reason: "first fix"),
            .init(time: base + 330, from: "tracking", state: "backup", reason: "stationary"),
        ]
        let offset = 12.345
        var readings: [MeterTrace.Reading] = []
        var marker = 0
        for tenth in stride(from: 0, through: 4_000, by: 1) {
            let t = Double(tenth) / 10
            let on = (100..<160).contains(t) || (300..<330).contains(t)
            if ([100.0, 160, 300, 330] + glitches).contains(t) { marker ^= 1 }
            guard t >= meterFrom else { continue }
            let current = on ? ((100..<101).contains(t) || (300..<301).contains(t) ? 32 : 29) : 0.0175
            readings.append(.init(time: base + t + offset, current: current, marker: withMarker ? marker : nil))
        }
        return (log, MeterTrace(readings: readings))
    }

    @Test("the meter is aligned on the marker edges and integrated per receiver state", arguments: [true, false])
    func alignment(withMarker: Bool) throws {
        let (log, trace) = run(withMarker: withMarker)
        let report = try MeterReport(log: log, trace: trace, volts: 3.0)
        #expect(report.alignedOn == (withMarker ? "marker" : "current"))
        #expect(report.matchedEdges == 4)
        #expect(abs(report.offset - 12.345) < 0.11)
        let tracking = try #require(report.energyByState.first { $0.state == "tracking" })
        #expect(abs(tracking.seconds - 88) < 1e-6)
        #expect(abs(tracking.milliwattHours - 88 * 29 / 3_600 * 3) < 0.05)
    }

    @Test("a meter started late is aligned on the edges it has, wherever they sit in the log (they were paired from the log's first), and only the time it covers is measured", arguments: [true, false])
    func aMeterStartedLate(withMarker: Bool) throws {
        let (log, trace) = run(withMarker: withMarker, meterFrom: 200)
        let report = try MeterReport(log: log, trace: trace, volts: 3.0)
        #expect(report.edgeCounts == (log: 4, trace: 2) && report.matchedEdges == 2)
        #expect(report.firstMatched == (log: 2, trace: 0))
        #expect(abs(report.offset - 12.345) < 0.11 && report.residual < 0.11)
        let tracking = try #require(report.energyByState.first { $0.state == "tracking" })
        #expect(abs(tracking.seconds - 29) < 1e-6)
        #expect(abs(tracking.milliwattHours - 29 * 29 / 3_600 * 3) < 0.05)
        let backup = try #require(report.energyByState.first { $0.state == "backup" })
        #expect(abs(backup.seconds - 170) < 0.11)  // 200 to 300 s and 330 to 400 s
        // Which of the log's edges are the trace's is told by their spacing: the same run with
        // the log's first period moved still finds the second.
        var moved = log
        moved.transitions[0].time -= 37
        moved.transitions[1].time -= 37
        #expect(try MeterReport(log: moved, trace: trace, volts: 3.0).firstMatched == (log: 2, trace: 0))
    }

    @Test("edges that cannot all line up (glitches on the marker line) are refused, not measured against the wrong states with exit 0")
    func glitchesAreRefused() throws {
        let (log, trace) = run(withMarker: true, glitches: [50, 120, 200, 350])
        #expect {
            try MeterReport(log: log, trace: trace, volts: 3.0)
        } throws: { error in
            "\(error)".contains("the edges do not line up: at the best alignment one is ") && "\(error)".contains("s off, where the meter's sampling and clock drift allow 1.00 s")
        }
    }

    @Test("edges by the million are refused instead of compared for minutes")
    func tooManyEdges() throws {
        var log = PowerLog()
        log.transitions = (0..<6_000).map { PowerLog.Transition(time: Double($0), from: $0 % 2 == 0 ? "backup" : "tracking", state: $0 % 2 == 0 ? "tracking" : "backup", reason: "") }
        let trace = MeterTrace(readings: (0..<12_002).map { MeterTrace.Reading(time: Double($0) / 2, current: 1, marker: $0 % 2) })
        #expect(throws: PowerLogError.self) { try MeterReport(log: log, trace: trace, volts: 3.3) }
    }

    @Test("a log survives writing and reading; broken lines are named")
    func roundTrip() throws {
        let (log, _) = run(withMarker: true)
        var text = PowerLog.header + "\n"
        for transition in log.transitions { text += PowerLog.row(transition) + "\n" }
        text += PowerLog.row(PowerLog.Sample(time: 1_700_000_000.5, current: 29.125)) + "\n"
        let read = try PowerLog(csv: text)
        #expect(read.transitions == log.transitions)
        #expect(read.samples == [PowerLog.Sample(time: 1_700_000_000.5, current: 29.125)])
        #expect(throws: PowerLogError.self) { try PowerLog(csv: PowerLog.header + "\nsoon,transition,,on,,\n") }
    }

    @Test("a log or trace that makes no sense is refused with its line (it was measured into nonsense)", arguments: [
        ("log", "time,kind,from,state,current_mA,reason\n200.0,transition,off,acquiring,,a\n100.0,transition,acquiring,tracking,,b\n", "line 3: a transition at 100.0 s comes after one at 200.000 s"),
        ("log", "nan,transition,off,acquiring,,a\n", "line 1: expected time,kind,from,state,current_mA,reason"),
        ("log", "1.0,sample,,,inf,\n", "line 1: a sample needs a current in mA, -10.0 to 100000.0"),
        ("log", "1.0,sample,,,1e308,\n", "line 1: a sample needs a current in mA, -10.0 to 100000.0"),
        ("meter", "1.0,1e308\n", "line 1: 1e308 mA is not a current a meter on a board reads (-10.0 to 100000.0 mA)"),
        ("meter", "1.0,-50\n", "line 1: -50 mA is not a current a meter on a board reads (-10.0 to 100000.0 mA)"),
        ("meter", "1.0,5.0\n2.0,5.0\n1.5,5.0\n", "line 3: the time goes back from 2.0 s to 1.5 s: one trace, in time order"),
        ("meter", "1.0,5.0,0\n2.0,5.0\n", "line 2: a marker on some lines only: every line has one, or none does"),
        ("meter", "1.0,5.0,2\n", "line 1: a marker is 0 or 1, not '2'"),
        ("meter", "time,current_mA\ninf,5.0\n", "line 2: expected time,current_mA[,marker]"),
        ("meter", "1.0,nan\n", "line 1: expected a current in mA after the time"),
    ])
    func nonsenseIsRefused(kind: String, text: String, message: String) {
        do {
            if kind == "log" { _ = try PowerLog(csv: text) } else { _ = try MeterTrace(csv: text) }
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("nothing to align on is said without a line number (it said \"line 0\")")
    func nothingToAlignOn() {
        do {
            _ = try MeterReport(log: PowerLog(), trace: MeterTrace(readings: []), volts: 3.3)
            Issue.record("aligned on nothing")
        } catch {
            #expect(error.description == "no power transitions to align on (the log has 0, the trace 0)")
        }
    }
}

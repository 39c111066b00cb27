/// An external power meter's trace: time (seconds, on the meter's own clock), current (mA)
/// and, when the meter records it, the level of the board's marker GPIO (0 or 1).
package struct MeterTrace: Hashable, Sendable {
    /// One reading.
    package struct Reading: Hashable, Sendable {
        /// Seconds on the meter's clock.
        package var time: Double
        /// Current, mA.
        package var current: Double
        /// The marker line's level, if recorded.
        package var marker: Int?

        /// Creates a reading.
        package init(time: Double, current: Double, marker: Int? = nil) {
            self.time = time
            self.current = current
            self.marker = marker
        }
    }

    /// The readings, in time order.
    package private(set) var readings: [Reading]

    /// The currents a meter on a board's supply can read, mA: a few mA below zero is a
    /// meter's offset at no load; 100 A is beyond any board's supply.
    package static let plausibleCurrents = -10.0...100_000

    /// Reads `time,current_mA[,marker]` lines (a header line is skipped), in time order: a
    /// time that goes back (a meter restarted, two traces joined) is an error, as is a
    /// current no meter on a board reads.
    package init(csv text: String) throws(PowerLogError) {
        readings = []
        for (index, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let cells = line.split(separator: ",").map { String($0).trimmingCharacters(in: " \t") }
            guard let first = cells.first, let time = Double(first), time.isFinite else {
                if index == 0 { continue }
                throw PowerLogError(line: index + 1, message: "expected time,current_mA[,marker]")
            }
            guard cells.count >= 2, let current = Double(cells[1]), current.isFinite else {
                throw PowerLogError(line: index + 1, message: "expected a current in mA after the time")
            }
            guard Self.plausibleCurrents.contains(current) else {
                throw PowerLogError(
                    line: index + 1,
                    message: "\(cells[1]) mA is not a current a meter on a board reads (\(Self.plausibleCurrents.lowerBound) to \(Self.plausibleCurrents.upperBound) mA)")
            }
            if let previous = readings.last, time < previous.time {
                throw PowerLogError(line: index + 1, message: "the time goes back from \(previous.time) s to \(time) s: one trace, in time order")
            }
            let marker = cells.count >= 3 ? Int(cells[2]) : nil
            if cells.count >= 3, marker != 0, marker != 1 {
                throw PowerLogError(line: index + 1, message: "a marker is 0 or 1, not '\(cells[2])'")
            }
            // Edges are found between readings that both have a marker: a column on some lines only is a broken trace.
            if let previous = readings.last, (previous.marker == nil) != (marker == nil) {
                throw PowerLogError(line: index + 1, message: "a marker on some lines only: every line has one, or none does")
            }
            readings.append(Reading(time: time, current: current, marker: marker))
        }
    }

    /// Creates a trace from readings.
    package init(readings: [Reading]) {
        self.readings = readings.sorted { $0.time < $1.time }
    }

    /// Instants where the marker changes level; `nil` when the trace has no marker column.
    var markerEdges: [Double]? {
        guard readings.contains(where: { $0.marker != nil }) else { return nil }
        var edges: [Double] = []
        var level = readings.first?.marker
        for reading in readings.dropFirst() where reading.marker != nil && reading.marker != level {
            edges.append(reading.time)
            level = reading.marker
        }
        return edges
    }

    /// Instants where the current crosses halfway between its low and high levels: the
    /// receiver powering up or down, for a trace recorded without the marker.
    var currentSteps: [Double] {
        let currents = readings.map(\.current).sorted()
        guard let low = currents.first, let high = currents.last, high > low else { return [] }
        let middle = (currents[currents.count / 10] + currents[currents.count * 9 / 10]) / 2
        var steps: [Double] = []
        var above = (readings.first?.current ?? 0) > middle
        for reading in readings.dropFirst() where (reading.current > middle) != above {
            steps.append(reading.time)
            above.toggle()
        }
        return steps
    }

    /// Charge between two instants (meter clock), mA·s, by the trapezoid rule.
    func charge(from start: Double, to end: Double) -> Double {
        guard end > start else { return 0 }
        var total = 0.0
        var previous: Reading?
        for reading in readings {
            defer { previous = reading }
            guard let before = previous else { continue }
            let left = max(before.time, start)
            let right = min(reading.time, end)
            guard right > left else { continue }
            let slope = (reading.current - before.current) / (reading.time - before.time)
            let currentAt = { (time: Double) in before.current + slope * (time - before.time) }
            total += (currentAt(left) + currentAt(right)) / 2 * (right - left)
        }
        return total
    }
}

/// A measurement run's energy per receiver state from an external meter, aligned with the
/// daemon's power log on the marker's edges.
package struct MeterReport: Sendable {
    /// Time and measured energy in one state.
    package struct StateEnergy: Hashable, Sendable {
        /// The state.
        package var state: String
        /// Time spent in it, seconds.
        package var seconds: Double
        /// Energy measured in it, mWh.
        package var milliwattHours: Double
    }

    /// Meter clock minus wall clock: add to a log time to find it in the trace.
    package let offset: Double
    /// How the trace was aligned: `marker` edges or `current` steps.
    package let alignedOn: String
    /// How many edges were matched.
    package let matchedEdges: Int
    /// How many power changes the log has, and how many edges the trace.
    package let edgeCounts: (log: Int, trace: Int)
    /// The first of the log's and of the trace's edges that were matched (0-based): not both
    /// 0 when the meter started after the log, or the log after the meter.
    package let firstMatched: (log: Int, trace: Int)
    /// The spread of the matched edges after alignment (largest deviation), seconds.
    package let residual: Double
    /// Measured energy per state, over the part of the log the trace covers.
    package let energyByState: [StateEnergy]

    /// The most edge comparisons an alignment makes (placements × edges): a trace or log of
    /// millions of edges is refused rather than compared for minutes.
    package static let largestAlignment = 20_000_000

    /// Aligns `trace` with `log` and measures each state's energy at `volts`.
    package init(log: PowerLog, trace: MeterTrace, volts: Double) throws(PowerLogError) {
        let logEdges = log.powerChanges
        let meterEdges: [Double]
        if let markers = trace.markerEdges {
            meterEdges = markers
            alignedOn = "marker"
        } else {
            meterEdges = trace.currentSteps
            alignedOn = "current"
        }
        edgeCounts = (logEdges.count, meterEdges.count)
        let alignment = try Self.align(log: logEdges, meter: meterEdges)
        let tolerance = Self.tolerance(trace: trace, span: (logEdges.last ?? 0) - (logEdges.first ?? 0))
        guard alignment.residual <= tolerance else {
            throw PowerLogError(
                line: nil,
                message: "the edges do not line up: at the best alignment one is \(PowerRunReport.twoDecimals(alignment.residual)) s off, "
                    + "where the meter's sampling and clock drift allow \(PowerRunReport.twoDecimals(tolerance)) s; the trace has edges the log does not, "
                    + "or misses some (a glitch on the marker line, a receiver cycled by hand?)")
        }
        (offset, residual, matchedEdges, firstMatched) = (alignment.offset, alignment.residual, alignment.pairs, alignment.first)
        var totals: [String: (seconds: Double, charge: Double)] = [:]
        // Only what the trace covers is measured: a state before the meter started or after
        // it stopped has no energy to tell.
        let covered = ((trace.readings.first?.time ?? 0) - offset)...((trace.readings.last?.time ?? 0) - offset)
        for (index, transition) in log.transitions.enumerated() {
            let next = index + 1 < log.transitions.count ? log.transitions[index + 1].time : covered.upperBound
            let start = max(transition.time, covered.lowerBound)
            let stop = min(next, covered.upperBound)
            guard stop > start else { continue }
            let charge = trace.charge(from: start + offset, to: stop + offset)
            totals[transition.state, default: (0, 0)].seconds += stop - start
            totals[transition.state, default: (0, 0)].charge += charge
        }
        energyByState = totals.keys.sorted().map { state in
            let total = totals[state]!
            return StateEnergy(state: state, seconds: total.seconds, milliwattHours: total.charge / 3_600 * volts)
        }
    }

    /// How far a matched edge may be from where the offset puts it: a second (the log's and
    /// the marker's timing), two of the meter's sampling intervals (its median), or a clock
    /// drift of 200 ppm over the edges' span (a cheap meter's crystal), whichever is largest.
    static func tolerance(trace: MeterTrace, span: Double) -> Double {
        let intervals = zip(trace.readings.dropFirst(), trace.readings).map { $0.time - $1.time }.sorted()
        let sampling = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        return max(1, 2 * sampling, 2e-4 * span)
    }

    /// The pairing of the log's edges with the meter's that agrees best. The shorter list is
    /// taken for a run of the longer one (a meter started after the log or stopped before
    /// it, or the other way round), and each place it could sit is tried: the offset is the
    /// median difference of the pairs, and the place whose pairs deviate least from it wins
    /// (the first, on a tie). Equal counts pair edge for edge.
    static func align(log: [Double], meter: [Double]) throws(PowerLogError) -> (offset: Double, residual: Double, pairs: Int, first: (log: Int, trace: Int)) {
        let pairs = min(log.count, meter.count)
        guard pairs > 0 else {
            throw PowerLogError(line: nil, message: "no power transitions to align on (the log has \(log.count), the trace \(meter.count))")
        }
        let placements = max(log.count, meter.count) - pairs + 1
        guard placements <= largestAlignment / pairs else {
            throw PowerLogError(
                line: nil,
                message: "the log has \(log.count) power transitions and the trace \(meter.count) edges: too many to try every alignment (at most \(largestAlignment) comparisons)")
        }
        var best = (offset: 0.0, residual: Double.infinity, pairs: pairs, first: (log: 0, trace: 0))
        for shift in 0..<placements {
            let first = log.count >= meter.count ? (log: shift, trace: 0) : (log: 0, trace: shift)
            let differences = (0..<pairs).map { meter[first.trace + $0] - log[first.log + $0] }.sorted()
            let median = differences[pairs / 2]
            let residual = differences.map { abs($0 - median) }.max() ?? 0
            if residual < best.residual { best = (median, residual, pairs, first) }
        }
        guard best.residual.isFinite else {
            throw PowerLogError(line: nil, message: "the log's and the trace's times are too far apart to align (seconds since 1970 on both clocks?)")
        }
        return best
    }

    /// Total measured energy, mWh.
    package var energy: Double { energyByState.reduce(0) { $0 + $1.milliwattHours } }
}

extension PowerLog {
    /// The states in which the receiver is powered down.
    static let downStates: Set<String> = ["off", "backup", "standby"]

    /// Instants where the receiver was powered up or down (the marker toggles on exactly
    /// these; acquiring ↔ tracking is not one).
    var powerChanges: [Double] {
        transitions.filter { Self.downStates.contains($0.from) != Self.downStates.contains($0.state) }.map(\.time)
    }
}

extension String {
    /// The string without leading and trailing characters from `characters`.
    func trimmingCharacters(in characters: String) -> String {
        var text = Substring(self)
        while let first = text.first, characters.contains(first) { text = text.dropFirst() }
        while let last = text.last, characters.contains(last) { text = text.dropLast() }
        return String(text)
    }
}

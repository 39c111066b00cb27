/// A recorded measurement run on a real board: the daemon's receiver power transitions and,
/// when the board has a current sensor (INA219/INA226), its samples — all on the wall clock.
///
/// As CSV (what `waymark power-log` writes and `waymark power-report` reads), one row per
/// event: `time,kind,from,state,current_mA,reason` where `time` is seconds since the Unix
/// epoch, `kind` is `transition` (with the states left and entered and the reason) or
/// `sample` (with the sensor's current).
package struct PowerLog: Hashable, Sendable {
    /// One receiver power transition.
    package struct Transition: Hashable, Sendable {
        /// When, seconds since the Unix epoch.
        package var time: Double
        /// The state left.
        package var from: String
        /// The state entered.
        package var state: String
        /// Why.
        package var reason: String

        /// Creates a transition.
        package init(time: Double, from: String, state: String, reason: String) {
            self.time = time
            self.from = from
            self.state = state
            self.reason = reason
        }
    }

    /// One current sample.
    package struct Sample: Hashable, Sendable {
        /// When, seconds since the Unix epoch.
        package var time: Double
        /// The current, milliamperes.
        package var current: Double

        /// Creates a sample.
        package init(time: Double, current: Double) {
            self.time = time
            self.current = current
        }
    }

    /// The transitions, in time order.
    package var transitions: [Transition] = []
    /// The samples, in time order.
    package var samples: [Sample] = []

    /// An empty log.
    package init() {}

    /// The CSV header.
    package static let header = "time,kind,from,state,current_mA,reason"

    /// A transition as a CSV row.
    package static func row(_ transition: Transition) -> String {
        "\(Self.seconds(transition.time)),transition,\(transition.from),\(transition.state),,\(transition.reason.replacing(",", with: ";"))"
    }

    /// A sample as a CSV row.
    package static func row(_ sample: Sample) -> String {
        "\(Self.seconds(sample.time)),sample,,,\(Self.milliamperes(sample.current)),"
    }

    /// Reads a log written by ``row(_:)``; the error names the line that cannot be read.
    package init(csv text: String) throws(PowerLogError) {
        for (index, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if index == 0 && cells.first == "time" { continue }
            guard cells.count >= 6, let time = Double(cells[0]), time.isFinite else {
                throw PowerLogError(line: index + 1, message: "expected \(Self.header)")
            }
            switch cells[1] {
            case "transition":
                // Each transition ends the state the one before began: out of order, the states' times are nonsense.
                if let last = transitions.last, time < last.time {
                    throw PowerLogError(line: index + 1, message: "a transition at \(cells[0]) s comes after one at \(Self.seconds(last.time)) s")
                }
                transitions.append(Transition(time: time, from: cells[2], state: cells[3], reason: cells[5]))
            case "sample":
                guard let current = Double(cells[4]), MeterTrace.plausibleCurrents.contains(current) else {
                    throw PowerLogError(
                        line: index + 1,
                        message: "a sample needs a current in mA, \(MeterTrace.plausibleCurrents.lowerBound) to \(MeterTrace.plausibleCurrents.upperBound)")
                }
                samples.append(Sample(time: time, current: current))
            default: throw PowerLogError(line: index + 1, message: "kind must be transition or sample, not '\(cells[1])'")
            }
        }
    }

    static func seconds(_ value: Double) -> String {
        let millis = Int64((value * 1_000).rounded())
        let fraction = millis % 1_000
        return "\(millis / 1_000)." + String(repeating: "0", count: 3 - String(fraction).count) + String(fraction)
    }

    static func milliamperes(_ value: Double) -> String {
        let thousandths = Int64((value * 1_000).rounded())
        let fraction = abs(thousandths % 1_000)
        let sign = thousandths < 0 ? "-" : ""
        return sign + "\(abs(thousandths) / 1_000)." + String(repeating: "0", count: 3 - String(fraction).count) + String(fraction)
    }
}

/// A line of a power log or meter trace that cannot be read.
package struct PowerLogError: Error, CustomStringConvertible {
    /// The line, from 1, or `nil` for what is wrong with the whole.
    package let line: Int?
    /// What is wrong.
    package let message: String

    package var description: String { line.map { "line \($0): \(message)" } ?? message }
}

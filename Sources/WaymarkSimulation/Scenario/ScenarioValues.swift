import WaymarkClock
import WaymarkLocation

/// The value syntaxes of a scenario file: durations (`1h30m`, `90s`, `1.5h`, `500ms`),
/// duration ranges (`30..90s`), rates (`2/h`), quantities with an optional unit (`12m`),
/// and UTC times (`2026-11-23T08:00:00Z`).
enum ScenarioValues {
    /// The longest duration, of a segment and of a whole scenario: 10^7 s (about 115 days).
    static let longestDuration = Duration.seconds(10_000_000)
    /// The shortest duration: 1 ms, the finest unit.
    static let shortestDuration = Duration.milliseconds(1)

    /// A duration written as number–unit pairs (`h`, `m`, `s`, `ms`), each unit once and
    /// larger units first (`1h30m`, not `30m1h` or `1h1h`), from ``shortestDuration`` to
    /// ``longestDuration``.
    static func duration(_ text: Substring) -> Duration? {
        guard let seconds = seconds(text), seconds >= shortestDuration.seconds, seconds <= longestDuration.seconds else { return nil }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// The seconds `text` writes as a duration, whatever its length; nil when it is not one.
    static func seconds(_ text: Substring) -> Double? {
        var rest = text
        var total = 0.0
        var smallerThan = Double.infinity
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let value = Double(number), let scale = secondsPerUnit(unit), scale < smallerThan else { return nil }
            smallerThan = scale
            total += value * scale
        }
        return text.isEmpty || !total.isFinite ? nil : total
    }

    /// A range of durations `low..high` with a unit on at least the upper end (`30..90s`).
    static func durationRange(_ text: Substring) -> ClosedRange<Duration>? {
        let parts = text.split(separator: "..", omittingEmptySubsequences: false)
        guard parts.count == 2, let high = duration(parts[1]) else { return nil }
        let upperUnit = parts[1].drop { $0.isNumber || $0 == "." }
        let lowText = parts[0].last?.isLetter == true ? parts[0] : parts[0] + upperUnit
        guard let low = duration(lowText), low <= high else { return nil }
        return low...high
    }

    /// A non-negative rate per hour, `N/h`.
    static func ratePerHour(_ text: Substring) -> Double? {
        guard text.hasSuffix("/h"), let value = Double(text.dropLast(2)), value >= 0, value.isFinite else {
            return nil
        }
        return value
    }

    /// A finite number, optionally followed by `unit` (`12m` or `12` for metres).
    static func quantity(_ text: Substring, unit: String) -> Double? {
        let digits = text.hasSuffix(unit) ? text.dropLast(unit.count) : text
        guard let value = Double(digits), value.isFinite else { return nil }
        return value
    }

    /// A UTC time written `YYYY-MM-DDTHH:MM:SSZ` (whole seconds).
    static func timestamp(_ text: Substring) -> Timestamp? {
        let parts = text.split(separator: "T")
        guard parts.count == 2, parts[1].hasSuffix("Z"), let date = CivilDate(parsing: parts[0]) else { return nil }
        let clock = parts[1].dropLast().split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        return Timestamp(date: date, hour: hour, minute: minute, second: second, nanoseconds: 0)
    }

    private static func secondsPerUnit(_ unit: Substring) -> Double? {
        switch unit {
        case "h": 3_600
        case "m": 60
        case "s": 1
        case "ms": 0.001
        default: nil
        }
    }
}

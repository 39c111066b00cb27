import WaymarkClock
import WaymarkLocation
import WaymarkReceiver
import WaymarkSimulation

extension PowerRunReport {
    /// An SVG picture of the run: the receiver's current as a step line with its states named
    /// on the axis, the device's true speed, bands where it truly moves, marks where it moved
    /// without a location, clock-time ticks that fit the run's length, and a zoom on its
    /// busiest stretch.
    package var svg: [UInt8] {
        TimelinePlot(report: self).render()
    }
}

/// Draws a power run's timeline as SVG.
struct TimelinePlot {
    let report: PowerRunReport
    let width = 1200.0
    let left = 150.0
    let right = 40.0
    let panelHeight = 130.0

    private var plotWidth: Double { width - left - right }

    func render() -> [UInt8] {
        let points = report.timeline
        guard let last = points.last, last.second > 0 else { return [] }
        let whole = 0...last.second
        let zoom = busiestStretch(points, length: max(600, last.second / 8))
        let (missingSeconds, missingStretches) = movingWithoutFixes(points)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(tops.height))" \
            font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="24" font-size="16">\(escape(report.setup.scenario.name)): \
            \(escape(report.setup.profile.name)), \(report.setup.configuration.rawValue)</text>
            <text x="\(left)" y="44">GPS energy \(format(report.energy)) mWh · oracle \(format(report.oracleEnergy)) mWh \
            · always on \(format(report.alwaysOnEnergy)) mWh · \(report.powerCycles) power cycles · \
            \(report.falseWakes) false wakes · \(format(report.metresWithoutFixes)) m without fixes</text>
            <text x="\(left)" y="62" fill="#555">blue bands: truly moving · red marks: moving without a \
            location where a fix was possible, \(missingSeconds) s in \(missingStretches) stretches (the \(format(report.metresWithoutFixes)) m above) \
            · times UTC</text>

            """
        svg += currentPanel(points, range: whole, top: tops.current, title: "receiver current (mA) and state, whole run")
        svg += speedPanel(points, range: whole, top: tops.speed, title: "true speed (m/s), whole run")
        svg += currentPanel(
            points, range: zoom, top: tops.zoom,
            title: "zoom on the busiest stretch, \(clock(zoom.lowerBound))–\(clock(zoom.upperBound)): receiver current (mA) and state")
        svg += "</svg>\n"
        return Array(svg.utf8)
    }

    /// Where each panel starts, and the picture's height.
    private var tops: (current: Double, speed: Double, zoom: Double, height: Double) {
        let current = 100.0
        let speed = current + panelHeight + 60
        let zoom = speed + panelHeight + 70
        return (current, speed, zoom, zoom + panelHeight + 50)
    }

    // MARK: Panels

    private func currentPanel(
        _ points: [PowerRunReport.TimelinePoint], range: ClosedRange<Int>, top: Double, title: String
    ) -> String {
        let maximum = max(1, points.map(\.current).max() ?? 1)
        var svg = background(points, range: range, top: top)
        // One tick per receiver state, named, at its current.
        var states: [(name: String, current: Double)] = []
        for point in points where !states.contains(where: { $0.name == point.state.rawValue }) {
            states.append((point.state.rawValue, point.current))
        }
        var labelled: [Double] = []
        for state in states.sorted(by: { $0.current < $1.current }) {
            let y = top + panelHeight - state.current / maximum * panelHeight
            let labelY = min(y, (labelled.last ?? .infinity) - 12)  // upwards, clear of the one below
            labelled.append(labelY)
            svg += tick(y: y, label: "\(state.name) \(format(state.current))", labelY: labelY)
        }
        svg += polyline(points, range: range, top: top, maximum: maximum, value: \.current, color: "#c0392b", step: true)
        return svg + frame(range: range, top: top, title: title)
    }

    private func speedPanel(
        _ points: [PowerRunReport.TimelinePoint], range: ClosedRange<Int>, top: Double, title: String
    ) -> String {
        let maximum = max(1, (points.map(\.speed).max() ?? 1).rounded(.up))
        var svg = background(points, range: range, top: top)
        for fraction in [0.0, 0.5, 1.0] {
            let y = top + panelHeight - fraction * panelHeight
            svg += tick(y: y, label: "\(format(fraction * maximum)) m/s", labelY: y)
        }
        svg += polyline(points, range: range, top: top, maximum: maximum, value: \.speed, color: "#2c7be5", step: false)
        return svg + frame(range: range, top: top, title: title)
    }

    /// The moving bands and the marks of moving without a location, behind a panel.
    private func background(_ points: [PowerRunReport.TimelinePoint], range: ClosedRange<Int>, top: Double) -> String {
        var svg = ""
        for band in bands(points, range: range, where: \.isMoving) {
            svg += rectangle(x: x(band.lowerBound, range), width: x(band.upperBound, range) - x(band.lowerBound, range),
                             top: top, height: panelHeight, fill: "#e8f1fb")
        }
        for band in bands(points, range: range, where: \.isMissed) {
            svg += rectangle(x: x(band.lowerBound, range), width: max(1, x(band.upperBound, range) - x(band.lowerBound, range)),
                             top: top + panelHeight + 2, height: 6, fill: "#d9534f")
        }
        return svg
    }

    /// The axes, the time ticks and the title of a panel.
    private func frame(range: ClosedRange<Int>, top: Double, title: String) -> String {
        let bottom = top + panelHeight
        var svg = """
            <line x1="\(left)" y1="\(format(bottom))" x2="\(format(width - right))" y2="\(format(bottom))" stroke="#444"/>
            <line x1="\(left)" y1="\(format(top))" x2="\(left)" y2="\(format(bottom))" stroke="#444"/>
            <text x="\(left)" y="\(format(top - 8))">\(escape(title))</text>

            """
        let step = Self.tickStep(for: range.upperBound - range.lowerBound)
        var second = (range.lowerBound + step - 1) / step * step
        while second <= range.upperBound {
            let position = format(x(second, range))
            svg += "<line x1=\"\(position)\" y1=\"\(format(bottom))\" x2=\"\(position)\" y2=\"\(format(bottom + 5))\" stroke=\"#444\"/>\n"
            svg += "<text x=\"\(position)\" y=\"\(format(bottom + 22))\" text-anchor=\"middle\">\(clock(second))</text>\n"
            second += step
        }
        return svg
    }

    private func tick(y: Double, label: String, labelY: Double) -> String {
        """
        <line x1="\(format(left - 5))" y1="\(format(y))" x2="\(left)" y2="\(format(y))" stroke="#444"/>
        <text x="\(format(left - 8))" y="\(format(labelY + 4))" text-anchor="end">\(escape(label))</text>

        """
    }

    // MARK: Time

    /// The spacing of time ticks for a span: the first of 1, 2, 5, 10, 15, 30 minutes, 1, 2,
    /// 3, 6, 12 hours that gives at most 12 ticks.
    static func tickStep(for seconds: Int) -> Int {
        let steps = [60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200]
        return steps.first { seconds / $0 <= 12 } ?? 86_400 * max(1, seconds / 86_400 / 12 + 1)
    }

    /// The wall-clock time (UTC) `second` seconds into the scenario, as `HH:MM`.
    private func clock(_ second: Int) -> String {
        let time = report.setup.scenario.startTime.adding(nanoseconds: Int64(second) * 1_000_000_000)
        let minutes = Int(time.nanosecondsOfDay / 60_000_000_000)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(minutes / 60)):\(two(minutes % 60))"
    }

    private func x(_ second: Int, _ range: ClosedRange<Int>) -> Double {
        left + Double(second - range.lowerBound) / Double(max(1, range.upperBound - range.lowerBound)) * plotWidth
    }

    // MARK: Data

    /// The stretch of `length` seconds with the most receiver state changes and moving
    /// seconds: where the policy works hardest.
    private func busiestStretch(_ points: [PowerRunReport.TimelinePoint], length: Int) -> ClosedRange<Int> {
        guard points.count > length else { return 0...(points.last?.second ?? 0) }
        func weight(_ index: Int) -> Int {
            (points[index].isMoving ? 1 : 0) + (index > 0 && points[index].state != points[index - 1].state ? 120 : 0)
        }
        var total = (0..<length).reduce(0) { $0 + weight($1) }
        var best = (total, 0)
        for start in 1...(points.count - length) {
            total += weight(start + length - 1) - weight(start - 1)
            if total > best.0 { best = (total, start) }
        }
        return points[best.1].second...points[best.1 + length - 1].second
    }

    /// Seconds spent moving without a location, and in how many stretches.
    private func movingWithoutFixes(_ points: [PowerRunReport.TimelinePoint]) -> (seconds: Int, stretches: Int) {
        let stretches = bands(points, range: 0...(points.last?.second ?? 0), where: \.isMissed)
        return (stretches.reduce(0) { $0 + $1.count }, stretches.count)
    }

    /// Runs of consecutive seconds in `range` where `predicate` holds.
    private func bands(
        _ points: [PowerRunReport.TimelinePoint], range: ClosedRange<Int>,
        where predicate: (PowerRunReport.TimelinePoint) -> Bool
    ) -> [Range<Int>] {
        var bands: [Range<Int>] = []
        var start: Int?
        for point in points where range.contains(point.second) {
            if predicate(point) {
                if start == nil { start = point.second }
            } else if let begun = start {
                bands.append(begun..<point.second)
                start = nil
            }
        }
        if let start { bands.append(start..<range.upperBound) }
        return bands
    }

    /// A line through the points in `range`, thinned to at most one point per pixel column
    /// (keeping the column's largest value so that short bursts stay visible).
    private func polyline(
        _ points: [PowerRunReport.TimelinePoint], range: ClosedRange<Int>, top: Double, maximum: Double,
        value: (PowerRunReport.TimelinePoint) -> Double, color: String, step: Bool
    ) -> String {
        var coordinates: [String] = []
        var column = -1.0
        var columnValue = 0.0
        var previousY: Double?
        func y(_ value: Double) -> Double { top + panelHeight - value / maximum * panelHeight }
        for point in points where range.contains(point.second) {
            let pixel = x(point.second, range).rounded(.down)
            if pixel != column {
                if column >= 0 {
                    let yValue = y(columnValue)
                    if step, let previousY { coordinates.append("\(format(column)),\(format(previousY))") }
                    coordinates.append("\(format(column)),\(format(yValue))")
                    previousY = yValue
                }
                column = pixel
                columnValue = value(point)
            } else {
                columnValue = max(columnValue, value(point))
            }
        }
        coordinates.append("\(format(column)),\(format(y(columnValue)))")
        return "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" points=\"\(coordinates.joined(separator: " "))\"/>\n"
    }

    // MARK: SVG

    private func rectangle(x: Double, width: Double, top: Double, height: Double, fill: String) -> String {
        "<rect x=\"\(format(x))\" y=\"\(format(top))\" width=\"\(format(width))\" height=\"\(format(height))\" fill=\"\(fill)\"/>\n"
    }

    private func format(_ value: Double) -> String {
        PowerRunReport.twoDecimals(value)
    }

    private func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

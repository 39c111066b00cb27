import WaymarkClock
import WaymarkReceiver

extension PowerRunReport {
    /// An SVG picture of the run: the receiver's current (and so its state) as a filled
    /// step line, the device's true speed, bands where it truly moves, and the instants
    /// where no location was delivered while it moved.
    public var svg: [UInt8] {
        TimelinePlot(report: self).render()
    }
}

/// Draws a power run's timeline as SVG.
struct TimelinePlot {
    let report: PowerRunReport
    let width = 1200.0
    let plotHeight = 160.0
    let margin = 60.0

    func render() -> [UInt8] {
        let points = report.timeline
        guard let last = points.last else { return [] }
        let seconds = Double(max(1, last.second))
        let maximumCurrent = max(1, points.map(\.current).max() ?? 1)
        let maximumSpeed = max(1, points.map(\.speed).max() ?? 1)
        let plotWidth = width - 2 * margin
        let currentTop = 70.0
        let speedTop = currentTop + plotHeight + 50
        let height = speedTop + plotHeight + 60
        func x(_ second: Int) -> Double { margin + Double(second) / seconds * plotWidth }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(margin)" y="24" font-size="16">\(escape(report.setup.scenario.name)): \
            \(escape(report.setup.profile.name)), \(report.setup.configuration.rawValue)</text>
            <text x="\(margin)" y="44">GPS energy \(format(report.energy)) mWh · oracle \(format(report.oracleEnergy)) mWh \
            · always on \(format(report.alwaysOnEnergy)) mWh · \(report.powerCycles) power cycles · \
            \(report.falseWakes) false wakes · \(format(report.metresWithoutFixes)) m without fixes</text>

            """
        // Bands where the device truly moves.
        for band in bands(points, where: \.isMoving) {
            svg += rectangle(x: x(band.lowerBound), width: x(band.upperBound) - x(band.lowerBound),
                             top: currentTop, height: speedTop + plotHeight - currentTop, fill: "#e8f1fb")
        }
        // Moving without a delivered location.
        for band in bands(points, where: { $0.isMoving && !$0.hasFix }) {
            svg += rectangle(x: x(band.lowerBound), width: max(1, x(band.upperBound) - x(band.lowerBound)),
                             top: speedTop + plotHeight + 4, height: 8, fill: "#d9534f")
        }
        svg += axes(top: currentTop, label: "receiver current (mA), max \(format(maximumCurrent))")
        svg += axes(top: speedTop, label: "true speed (m/s), max \(format(maximumSpeed)); red: moving without fixes")
        svg += polyline(points, top: currentTop, maximum: maximumCurrent, x: x, value: \.current, color: "#c0392b", step: true)
        svg += polyline(points, top: speedTop, maximum: maximumSpeed, x: x, value: \.speed, color: "#2c7be5", step: false)
        for hour in stride(from: 0, through: Int(seconds), by: max(3_600, Int(seconds) / 8 / 3_600 * 3_600)) {
            svg += "<text x=\"\(format(x(hour)))\" y=\"\(format(height - 20))\" text-anchor=\"middle\">\(hour / 3_600) h</text>\n"
        }
        svg += "</svg>\n"
        return Array(svg.utf8)
    }

    /// Runs of consecutive seconds where `predicate` holds.
    private func bands(_ points: [PowerRunReport.TimelinePoint], where predicate: (PowerRunReport.TimelinePoint) -> Bool) -> [Range<Int>] {
        var bands: [Range<Int>] = []
        var start: Int?
        for point in points {
            if predicate(point) {
                if start == nil { start = point.second }
            } else if let begun = start {
                bands.append(begun..<point.second)
                start = nil
            }
        }
        if let start, let last = points.last { bands.append(start..<last.second) }
        return bands
    }

    /// A line through the points, thinned to at most one point per pixel column (keeping the
    /// column's largest value so that short bursts stay visible).
    private func polyline(
        _ points: [PowerRunReport.TimelinePoint], top: Double, maximum: Double, x: (Int) -> Double,
        value: (PowerRunReport.TimelinePoint) -> Double, color: String, step: Bool
    ) -> String {
        var coordinates: [String] = []
        var column = -1.0
        var columnValue = 0.0
        var previousY: Double?
        func y(_ value: Double) -> Double { top + plotHeight - value / maximum * plotHeight }
        for point in points {
            let pixel = x(point.second).rounded(.down)
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

    private func axes(top: Double, label: String) -> String {
        """
        <line x1="\(margin)" y1="\(format(top + plotHeight))" x2="\(format(width - margin))" y2="\(format(top + plotHeight))" stroke="#444"/>
        <line x1="\(margin)" y1="\(format(top))" x2="\(margin)" y2="\(format(top + plotHeight))" stroke="#444"/>
        <text x="\(margin)" y="\(format(top - 6))">\(escape(label))</text>

        """
    }

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

import WaymarkLocation

/// Reads a `.scenario` file (the format is in `docs/simulation.md`):
///
/// ```
/// # comment
/// start 2026-11-23T08:00:00Z 47.3769 8.5417 408
/// desk 2h typing door-slams=1/h
/// walk 10m heading=40 speed=1.4
/// drive 40m stops=10 stop=30..90s speed=14
/// ```
///
/// Every mistake is reported with the file name, the line and what to write instead.
package enum ScenarioParser {
    /// An example start line, quoted in messages.
    static let startExample = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408"

    /// The most segments a scenario holds: a generated day has about a hundred; the bound
    /// keeps a file of a million `still 1s` lines from filling memory.
    package static let maximumSegments = 10_000
    /// The longest scenario, as the longest segment (``ScenarioValues/longestDuration``):
    /// about 115 days, so that a power run of it ends.
    package static let longestScenario = ScenarioValues.longestDuration
    /// The largest scenario file read: 10,000 segments with their comments fit in far less.
    package static let largestFile = 4 << 20

    /// Parses a scenario from its text; `file` names it in errors. Memory follows the
    /// segments kept, not the lines read: blank and comment lines cost nothing.
    package static func parse(_ text: String, file: String) throws(ScenarioError) -> Scenario {
        var start: (time: Timestamp, origin: GeoPoint, line: Int)?
        var segments: [Segment] = []
        var duration = Duration.zero
        var lineNumber = 0
        var lineStart = text.startIndex
        while lineStart < text.endIndex || lineNumber == 0 {
            lineNumber += 1
            let lineEnd = text.utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
            let rawLine = text[lineStart..<lineEnd]
            lineStart = lineEnd == text.endIndex ? lineEnd : text.utf8.index(after: lineEnd)
            let content = rawLine.prefix { $0 != "#" }
            let tokens = content.split { $0 == " " || $0 == "\t" || $0 == "\r" }
            guard let keyword = tokens.first else { continue }
            var line = ScenarioLine(file: file, number: lineNumber, tokens: tokens)
            if keyword == "start" {
                guard start == nil else {
                    throw line.error("a second start line", "keep one start line, at the top of the file")
                }
                let (time, origin) = try line.start()
                start = (time, origin, lineNumber)
            } else {
                guard start != nil else {
                    throw line.error("'\(keyword)' before the start line", "begin the file with `\(startExample)`")
                }
                guard segments.count < maximumSegments else {
                    throw line.error("more than \(maximumSegments) segments", "split the scenario into several runs")
                }
                let segment = try line.segment()
                duration += segment.duration
                guard duration <= longestScenario else {
                    throw line.error(
                        "the scenario would last more than \(longestScenario) (about 115 days)", "split it into several runs")
                }
                segments.append(segment)
            }
        }
        guard let start else {
            throw ScenarioError(
                file: file, line: max(lineNumber, 1), message: "no start line",
                suggestion: "begin the file with `\(startExample)`")
        }
        guard !segments.isEmpty else {
            throw ScenarioError(
                file: file, line: start.line, message: "no segments",
                suggestion: "add at least one line such as `desk 1h`")
        }
        return Scenario(name: file, startTime: start.time, origin: start.origin, segments: segments)
    }
}

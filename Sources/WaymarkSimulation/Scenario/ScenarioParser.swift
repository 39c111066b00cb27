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

    /// Parses a scenario from its text; `file` names it in errors.
    package static func parse(_ text: String, file: String) throws(ScenarioError) -> Scenario {
        var start: (time: Timestamp, origin: GeoPoint, line: Int)?
        var segments: [Segment] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
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
                segments.append(try line.segment())
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

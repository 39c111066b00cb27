import ArgumentParser
import WaymarkFix
import WaymarkJSON
import WaymarkLocation
import WaymarkNMEA

/// `waymark nmea decode`: prints one gpsd-style TPV JSON object per epoch of a capture or a
/// stream, each as soon as its epoch is complete.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an NMEA capture into one JSON object per epoch (gpsd TPV members).",
        discussion: """
            Lines starting with '#' are comments; a '# Date: YYYY-MM-DD' comment seeds the date \
            for receivers that send none (gpsd's capture convention). Sentences with a bad or \
            missing checksum are rejected and counted (see --statistics); an input without \
            one valid sentence exits with status 1.
            """
    )

    @Option(name: .long, help: ArgumentHelp("Date for receivers that send none; also the reference for GPS week-rollover correction.", valueName: "YYYY-MM-DD"))
    var date: String?

    @Flag(name: .long, help: "Print counts of sentences accepted and rejected to standard error.")
    var statistics = false

    @Argument(help: ArgumentHelp("The capture to decode, or '-' for standard input.", valueName: "FILE|-"))
    var input: String

    func validate() throws {
        if let date, CivilDate(parsing: date) == nil {
            let range = Timestamp.representableDates
            throw ValidationError(
                "--date must be a calendar date written YYYY-MM-DD from \(range.lowerBound) to \(range.upperBound), not '\(date)'.")
        }
    }

    func run() throws {
        let source = try ByteSource(path: input)
        defer { source.close() }
        let output = StandardOutput()
        var decoder = NMEADecoder()
        if let seed = date.flatMap(CivilDate.init(parsing:)) { decoder.seedDate(seed) }
        var comments = CaptureCommentFilter()
        let encoder = TPVEncoder()
        var json = JSONBuffer(capacity: 1 << 16)
        let emit: (Fix) -> Void = { fix in
            guard fix.timeOfDay != nil else { return }
            encoder.encode(fix, into: &json)
        }
        try source.forEachChunk { chunk in
            comments.filter(chunk, data: { decoder.decode($0, emit: emit) }, date: { decoder.seedDate($0) })
            // Whatever the chunk completed goes out at once: after `gpspipe -r` or on a live
            // port a read returns each line as it arrives, and the next may be a second away.
            if !json.bytes.isEmpty {
                try output.write(json.bytes)
                json.removeAll()
            }
        }
        decoder.finish(emit: emit)
        try output.write(json.bytes)
        if statistics {
            StandardError.write(DecodeStatistics(decoder).report)
        }
        // Garbage, a binary protocol or the wrong file: said, not an empty success.
        if decoder.framer.statistics.sentences == 0 {
            throw CommandFailure("no NMEA sentence with a valid checksum in the input\(statistics ? "" : " (--statistics says what was rejected)")")
        }
    }
}

import WaymarkFix
import WaymarkLocation
import WaymarkNMEA

/// A human-readable summary of what a decode accepted and rejected.
struct DecodeStatistics {
    let report: String

    init(_ decoder: NMEADecoder) {
        let framer = decoder.framer.statistics
        let parser = decoder.parser
        let epochs = decoder.assembler.statistics
        report = """
            sentences: \(framer.sentences) verified, \(parser.parsed) parsed, \(parser.unsupported) unsupported, \
            \(parser.malformed) malformed
            rejected: \(framer.badChecksums) bad checksum, \(framer.missingChecksums) missing checksum, \
            \(framer.truncated) truncated, \(framer.oversize) oversize, \(framer.invalidBytes) with invalid bytes; \
            \(framer.noiseBytes) noise bytes
            epochs: \(epochs.epochs), \(epochs.emittedOnCycleEnd) on the learned end of cycle, \
            \(epochs.lateSentences) late sentences; \(decoder.assembler.dates.rolloverCorrections) week-rollover corrections, \
            \(decoder.assembler.dates.rejectedDates) dates out of range

            """
    }
}

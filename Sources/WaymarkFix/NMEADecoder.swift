package import WaymarkNMEA
package import WaymarkLocation

/// The whole path from NMEA bytes to fixes: framing, checksum, typed parsing, epoch
/// assembly and a speed and course derived from positions for epochs that carry none, with
/// counts of everything rejected on the way.
package struct NMEADecoder: Sendable {
    /// Counts of what the parser made of verified sentences.
    package struct ParserStatistics: Hashable, Sendable {
        /// Sentences parsed into values.
        package var parsed = 0
        /// Sentences skipped as unsupported (proprietary, other instruments).
        package var unsupported = 0
        /// Sentences rejected because a field broke the grammar.
        package var malformed = 0
    }

    /// The byte framer.
    package private(set) var framer = NMEAFramer()
    /// The epoch assembler.
    package private(set) var assembler: EpochAssembler
    /// What the parser made of verified sentences.
    package private(set) var parser = ParserStatistics()
    /// Speed and course for epochs without them.
    package private(set) var velocity = VelocityDeriver()

    /// Creates a decoder; see ``EpochAssembler/init(referenceDate:)``.
    package init(referenceDate: CivilDate? = nil) {
        assembler = EpochAssembler(referenceDate: referenceDate)
    }

    /// Seeds the date for receivers that send none.
    package mutating func seedDate(_ date: CivilDate) {
        assembler.seedDate(date)
    }

    /// Decodes a chunk of bytes, calling `emit` for each completed epoch.
    package mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, emit: (Fix) -> Void) {
        var assembler = self.assembler
        var parser = self.parser
        var velocity = self.velocity
        var parsed = ParsedSentence()
        framer.consume(bytes) { sentence in
            switch NMEAParser.parse(sentence, into: &parsed) {
            case .parsed:
                parser.parsed += 1
                assembler.add(parsed) { fix in
                    var fix = fix
                    velocity.complete(&fix)
                    emit(fix)
                }
            case .unsupported: parser.unsupported += 1
            case .malformed: parser.malformed += 1
            }
        }
        self.assembler = assembler
        self.parser = parser
        self.velocity = velocity
    }

    /// Emits the epoch still in progress at the end of the stream.
    package mutating func finish(emit: (Fix) -> Void) {
        var velocity = self.velocity
        assembler.finish { fix in
            var fix = fix
            velocity.complete(&fix)
            emit(fix)
        }
        self.velocity = velocity
    }
}

/// A typed NMEA 0183 sentence.
public enum NMEAMessage: Hashable, Sendable {
    /// Recommended minimum data.
    case rmc(RMC)
    /// Fix data.
    case gga(GGA)
    /// Satellites used and dilutions of precision.
    case gsa(GSA)
    /// Satellites in view.
    case gsv(GSV)
    /// Course and speed over ground.
    case vtg(VTG)
    /// Geographic position.
    case gll(GLL)
    /// Multi-constellation fix data.
    case gns(GNS)
    /// Pseudorange error statistics.
    case gst(GST)
    /// Time and date.
    case zda(ZDA)
    /// Text message.
    case txt(TXT)
}

/// A sentence turned into values: who sent it and what it says.
public struct ParsedSentence: Hashable, Sendable {
    /// The talker that sent it.
    public var talker: Talker
    /// The typed content.
    public var message: NMEAMessage

    /// Creates a parsed sentence.
    public init(talker: Talker, message: NMEAMessage) {
        self.talker = talker
        self.message = message
    }

    /// An empty sentence (a ZDA with no fields), as storage for ``NMEAParser/parse(_:into:)``.
    public init() {
        self.init(talker: .combined, message: .zda(ZDA()))
    }
}

/// What ``NMEAParser/parse(_:into:)`` found.
public enum ParseOutcome: Hashable, Sendable {
    /// A supported sentence, now in the caller's storage.
    case parsed
    /// A sentence this parser does not interpret (see ``ParseResult/unsupported``).
    case unsupported
    /// A supported sentence whose fields break its grammar (see ``ParseResult/malformed``).
    case malformed
}

/// What parsing one sentence produced.
public enum ParseResult: Hashable, Sendable {
    /// A supported sentence, typed.
    case parsed(ParsedSentence)
    /// A sentence this parser does not interpret (proprietary, marine instruments, AIS…):
    /// skipped, not an error.
    case unsupported
    /// A supported sentence whose fields break its grammar (letters in a number, minutes
    /// past 59, a 13th month): rejected so no half-read value is used.
    case malformed

    /// The parsed sentence, if any.
    public var sentence: ParsedSentence? {
        if case .parsed(let sentence) = self { sentence } else { nil }
    }
}

/// Turns checksum-verified sentences into typed values without allocating.
///
/// Talkers GP, GL, GA, GB, BD, GQ, QZ, GI, IN and GN are understood, with the field variants
/// of NMEA 2.x to 4.11 (mode indicator, navigation status, system id, signal id); sentences
/// RMC, GGA, GSA, GSV, VTG, GLL, GNS, GST, ZDA and TXT. Any other talker's copy of these
/// sentences is parsed too (its talker is reported as ``Talker/other(_:_:)``).
public enum NMEAParser {
    /// Parses one sentence.
    public static func parse(_ sentence: NMEASentence) -> ParseResult {
        var parsed = ParsedSentence()
        switch parse(sentence, into: &parsed) {
        case .parsed: return .parsed(parsed)
        case .unsupported: return .unsupported
        case .malformed: return .malformed
        }
    }

    /// Parses one sentence into `parsed`, the caller's storage, and says what it found; the
    /// storage holds the sentence only when the outcome is ``ParseOutcome/parsed``. For hot
    /// loops: the parsed sentence (up to 160 bytes) is written once, never copied out.
    public static func parse(_ sentence: NMEASentence, into parsed: inout ParsedSentence) -> ParseOutcome {
        sentence.body.withUnsafeBufferPointer { parse(body: $0, into: &parsed) }
    }

    /// Parses a sentence body, which stays valid for the call: the field readers walk it by
    /// pointer, and none of them outlives the call.
    private static func parse(body: UnsafeBufferPointer<UInt8>, into parsed: inout ParsedSentence) -> ParseOutcome {
        guard body.count >= 5, let base = body.baseAddress,
            body.count == 5 || base[5] == UInt8(ascii: ","), base[0] != UInt8(ascii: "P")
        else { return .unsupported }
        let type = UInt32(base[2]) << 16 | UInt32(base[3]) << 8 | UInt32(base[4])
        // The address field is the five bytes before base[5], unless a comma among them
        // ends it early (the reader then finds where). Bytes 1–4 are tested at once: a
        // zero byte of `letters` sets its top bit in `(letters - 1) & ~letters`.
        let letters = UnsafeRawPointer(base + 1).loadUnaligned(as: UInt32.self) ^ 0x2C2C_2C2C
        let plainAddress = base[0] != UInt8(ascii: ",") && (letters &- 0x0101_0101) & ~letters & 0x8080_8080 == 0
        var fields = plainAddress ? FieldReader(body: body, skipping: 6) : FieldReader(body: body)
        switch type {
        case code("RMC"): parsed.message = .rmc(RMC(&fields))
        case code("GGA"): parsed.message = .gga(GGA(&fields))
        case code("GSA"): parsed.message = .gsa(GSA(&fields))
        case code("GSV"): parsed.message = .gsv(GSV(&fields))
        case code("VTG"): parsed.message = .vtg(VTG(&fields))
        case code("GLL"): parsed.message = .gll(GLL(&fields))
        case code("GNS"): parsed.message = .gns(GNS(&fields))
        case code("GST"): parsed.message = .gst(GST(&fields))
        case code("ZDA"): parsed.message = .zda(ZDA(&fields))
        case code("TXT"): parsed.message = .txt(TXT(&fields))
        default: return .unsupported
        }
        parsed.talker = Talker(base[0], base[1])
        return fields.isMalformed ? .malformed : .parsed
    }

    /// Packs a three-letter sentence type for a fast `switch`.
    @inline(__always)
    private static func code(_ type: StaticString) -> UInt32 {
        let bytes = type.utf8Start
        return UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
    }
}

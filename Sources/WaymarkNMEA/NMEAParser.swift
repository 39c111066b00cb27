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
    // The message first: the parser then builds it where the result lies, without a copy.
    /// The typed content.
    public var message: NMEAMessage
    /// The talker that sent it.
    public var talker: Talker

    /// Creates a parsed sentence.
    public init(talker: Talker, message: NMEAMessage) {
        self.talker = talker
        self.message = message
    }
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
        var result = ParseResult.unsupported
        parse(sentence, into: &result)
        return result
    }

    /// Parses one sentence into `result`, the caller's storage: the same result as
    /// ``parse(_:)`` without copying the parsed sentence on its way out, for hot loops.
    public static func parse(_ sentence: NMEASentence, into result: inout ParseResult) {
        let body = sentence.body
        guard body.count >= 5, let base = body.baseAddress,
            body.count == 5 || base[5] == UInt8(ascii: ","), base[0] != UInt8(ascii: "P")
        else {
            result = .unsupported
            return
        }
        let talker = Talker(base[0], base[1])
        let type = UInt32(base[2]) << 16 | UInt32(base[3]) << 8 | UInt32(base[4])
        var fields = FieldReader(body: body)
        switch type {
        case code("RMC"): result = .parsed(ParsedSentence(talker: talker, message: .rmc(RMC(&fields))))
        case code("GGA"): result = .parsed(ParsedSentence(talker: talker, message: .gga(GGA(&fields))))
        case code("GSA"): result = .parsed(ParsedSentence(talker: talker, message: .gsa(GSA(&fields))))
        case code("GSV"): result = .parsed(ParsedSentence(talker: talker, message: .gsv(GSV(&fields))))
        case code("VTG"): result = .parsed(ParsedSentence(talker: talker, message: .vtg(VTG(&fields))))
        case code("GLL"): result = .parsed(ParsedSentence(talker: talker, message: .gll(GLL(&fields))))
        case code("GNS"): result = .parsed(ParsedSentence(talker: talker, message: .gns(GNS(&fields))))
        case code("GST"): result = .parsed(ParsedSentence(talker: talker, message: .gst(GST(&fields))))
        case code("ZDA"): result = .parsed(ParsedSentence(talker: talker, message: .zda(ZDA(&fields))))
        case code("TXT"): result = .parsed(ParsedSentence(talker: talker, message: .txt(TXT(&fields))))
        default: result = .unsupported
        }
        if fields.isMalformed { result = .malformed }
    }

    /// Packs a three-letter sentence type for a fast `switch`.
    @inline(__always)
    private static func code(_ type: StaticString) -> UInt32 {
        let bytes = type.utf8Start
        return UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
    }
}

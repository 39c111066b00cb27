/// Writes typed sentences as NMEA 0183 text with checksum and CR/LF: what a receiver sends.
///
/// Used by the simulated receiver and by tests (a sentence written and parsed back is the
/// same value). Numbers are written exactly as their ``NMEADecimal`` digits.
public enum NMEAWriter {
    /// The sentence as bytes, `$` to CR/LF.
    public static func bytes(_ sentence: ParsedSentence) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(96)
        append(sentence, to: &output)
        return output
    }

    /// Appends the sentence, `$` to CR/LF, to `output`.
    public static func append(_ sentence: ParsedSentence, to output: inout [UInt8]) {
        var fields = FieldWriter()
        fields.address(talker: sentence.talker, type: typeLetters(sentence.message))
        switch sentence.message {
        case .rmc(let rmc): fields.write(rmc)
        case .gga(let gga): fields.write(gga)
        case .gsa(let gsa): fields.write(gsa)
        case .gsv(let gsv): fields.write(gsv)
        case .vtg(let vtg): fields.write(vtg)
        case .gll(let gll): fields.write(gll)
        case .gns(let gns): fields.write(gns)
        case .gst(let gst): fields.write(gst)
        case .zda(let zda): fields.write(zda)
        case .txt(let txt): fields.write(txt)
        }
        fields.finish(into: &output)
    }

    static func typeLetters(_ message: NMEAMessage) -> StaticString {
        switch message {
        case .rmc: "RMC"
        case .gga: "GGA"
        case .gsa: "GSA"
        case .gsv: "GSV"
        case .vtg: "VTG"
        case .gll: "GLL"
        case .gns: "GNS"
        case .gst: "GST"
        case .zda: "ZDA"
        case .txt: "TXT"
        }
    }
}

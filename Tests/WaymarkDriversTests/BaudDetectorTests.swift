import Testing
import WaymarkDrivers

/// Baud detection decided from recorded bytes.
@Suite struct BaudDetectorTests {
    static let sentences = Array(
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"
            + "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n").utf8)
    /// What NMEA at 9600 baud looks like to a port at 115200: framing errors, mostly 0x00,
    /// 0x80 and 0xF8-ish bytes, never a checksummed sentence.
    static let garbage: [UInt8] = (0..<700).map { [0x00, 0x80, 0xF8, 0xE0, 0x78, 0x1E][$0 % 6] }

    @Test func acceptsTheFirstRateThatDeliversSentences() {
        var detector = BaudDetector(candidates: [9600, 115200])
        #expect(detector.consume(Self.sentences) == .detected(9600))
    }

    @Test func garbageMovesToTheNextRate() {
        var detector = BaudDetector(candidates: [115200, 9600])
        #expect(detector.consume(Self.garbage) == .tryRate(9600))
        #expect(detector.currentRate == 9600)
        #expect(detector.consume(Self.sentences) == .detected(9600))
    }

    @Test func oneSentenceIsNotEnough() {
        var detector = BaudDetector(candidates: [9600])
        #expect(detector.consume(Self.sentences.prefix(72)) == .listening)
        #expect(detector.consume(Self.sentences.dropFirst(72)) == .detected(9600))
    }

    @Test func sentencesSplitAcrossChunksCount() {
        var detector = BaudDetector(candidates: [9600])
        var decisions: [BaudDetector.Decision] = []
        for byte in Self.sentences { decisions.append(detector.consume([byte])) }
        // Decided at the GGA's second checksum digit, before its CR LF.
        #expect(decisions.firstIndex(of: .detected(9600)) == Self.sentences.count - 3)
        #expect(decisions.last == .detected(9600))
    }

    @Test func silenceAndExhaustionThenRestart() {
        var detector = BaudDetector(candidates: [9600, 38400])
        #expect(detector.silence() == .tryRate(38400))
        #expect(detector.consume(Self.garbage) == .exhausted)
        #expect(detector.silence() == .exhausted)
        detector.restart()
        #expect(detector.currentRate == 9600)
        #expect(detector.consume(Self.sentences) == .detected(9600))
    }

    @Test func corruptChecksumsDoNotCount() {
        var detector = BaudDetector(candidates: [9600], garbageBudget: 10_000)
        var corrupt = Self.sentences
        corrupt[70] = UInt8(ascii: "0")  // the RMC checksum digit
        corrupt[corrupt.count - 3] = UInt8(ascii: "0")  // the GGA one
        #expect(detector.consume(corrupt) == .listening)
    }
}

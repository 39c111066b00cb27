import WaymarkTestFixtures
import Testing
import WaymarkNMEA

/// Runs `input` through a framer in chunks of the given sizes (cycled) and returns the
/// sentence bodies it produced, with the framer's statistics.
func frame(_ input: [UInt8], chunkSizes: [Int] = [Int.max]) -> (sentences: [String], statistics: FramerStatistics) {
    var framer = NMEAFramer()
    var sentences: [String] = []
    var offset = 0
    var sizeIndex = 0
    while offset < input.count {
        let size = min(chunkSizes[sizeIndex % chunkSizes.count], input.count - offset)
        sizeIndex += 1
        input[offset..<offset + size].withUnsafeBufferPointer { chunk in
            framer.consume(chunk) { sentences.append($0.text) }
        }
        offset += size
    }
    return (sentences, framer.statistics)
}

func frame(_ text: String) -> (sentences: [String], statistics: FramerStatistics) {
    frame(Array(text.utf8))
}

@Suite("NMEA framer", .ownThread)
struct FramerTests {
    @Test("accepts CR/LF and bare LF line endings and verifies checksums")
    func lineEndings() {
        let result = frame("$GPGSA,A,1,,,,,,,,,,,,,,,*1E\r\n$GPGSA,A,1,,,,,,,,,,,,,,,*1E\n$GPGSA,A,1,,,,,,,,,,,,,,,*1E")
        #expect(result.sentences == Array(repeating: "GPGSA,A,1,,,,,,,,,,,,,,,", count: 3))
        #expect(result.statistics.sentences == 3)
        #expect(result.statistics.rejected == 0)
    }

    @Test("passes over every mix of CR and LF after a checksum, however the input is chunked", arguments: [1, 2, 3, 64])
    func lineEndingMixes(chunk: Int) {
        let sentence = "$GPGSA,A,1,,,,,,,,,,,,,,,*1E"
        let endings = ["\r\n", "\n", "\r", "\r\r\n", "\n\r", "\n\n", ""]
        let result = frame(Array((endings.map { sentence + $0 }.joined() + "x\r\n").utf8), chunkSizes: [chunk])
        #expect(result.sentences.count == endings.count)
        #expect(result.statistics.noiseBytes == 1)
        #expect(result.statistics.rejected == 0)
    }

    @Test("rejects a bad checksum and counts it")
    func badChecksum() {
        let result = frame("$GPGSA,A,1,,,,,,,,,,,,,,,*1F\r\n")
        #expect(result.sentences.isEmpty)
        #expect(result.statistics.badChecksums == 1)
    }

    @Test("rejects a missing checksum and counts it")
    func missingChecksum() {
        let result = frame("$GPGSA,A,1,,,,,,,,,,,,,,,\r\n$GPGSA,A,1,,,,,,,,,,,,,,,*\r\n$GPGSA,A,1,*1\r\n")
        #expect(result.sentences.isEmpty)
        #expect(result.statistics.missingChecksums == 3)
    }

    @Test("accepts lowercase checksum digits")
    func lowercaseChecksum() {
        #expect(frame("$GPTXT,01,01,02,ANTSTATUS=OK*3b\r\n").sentences == ["GPTXT,01,01,02,ANTSTATUS=OK"])
    }

    @Test("resynchronises on a doubled $$ start")
    func doubledStart() {
        let result = frame("$$GPGSA,A,1,,,,,,,,,,,,,,,*1E\r\n")
        #expect(result.sentences == ["GPGSA,A,1,,,,,,,,,,,,,,,"])
        #expect(result.statistics.truncated == 0)
    }

    @Test("splits sentences merged by a lost line ending")
    func mergedSentences() {
        let result = frame("$GPGSA,A,1,,,,,,,,,,,,,,,*1E$GPGSA,A,1,,,,,,,,,,,,,,,*1E\r\n")
        #expect(result.sentences.count == 2)
        let cut = frame("$GPGGA,123519,4807.0$GPGSA,A,1,,,,,,,,,,,,,,,*1E\r\n")
        #expect(cut.sentences == ["GPGSA,A,1,,,,,,,,,,,,,,,"])
        #expect(cut.statistics.truncated == 1)
    }

    @Test("drops sentences containing NUL or binary bytes, and skips noise between sentences")
    func binaryNoise() {
        var input: [UInt8] = [0x00, 0xFF, 0xB5, 0x62, 0x01] + Array("SkyTraq Venus banner\r\n".utf8)
        input += Array("$GPGSA,A,1,".utf8) + [0x00] + Array(",,,,,,,,,,,,,,*1E\r\n".utf8)
        input += Array("$GPGSA,A,1,,,,,,,,,,,,,,,*1E\r\n".utf8)
        let result = frame(input)
        #expect(result.sentences == ["GPGSA,A,1,,,,,,,,,,,,,,,"])
        #expect(result.statistics.invalidBytes == 1)
        #expect(result.statistics.noiseBytes > 20)
    }

    @Test("bounds sentence length")
    func oversize() {
        var framer = NMEAFramer(maximumBodyLength: 20)
        var count = 0
        Array("$GPGSA,A,1,,,,,,,,,,,,,,,*1E\r\n$GPTXT,1*52\r\n".utf8).withUnsafeBufferPointer {
            framer.consume($0) { _ in count += 1 }
        }
        #expect(count == 1)
        #expect(framer.statistics.oversize == 1)
    }

    @Test("gives the same sentences whatever the chunking, over every real capture", arguments: [[1], [2, 3, 5, 7], [64], [4096], [65536]])
    func chunkingInvariance(chunkSizes: [Int]) throws {
        let all = try Fixtures.allCaptures()
        let whole = frame(all)
        let chunked = frame(all, chunkSizes: chunkSizes)
        #expect(whole.sentences.count > 20_000)
        #expect(chunked.sentences == whole.sentences)
        #expect(chunked.statistics == whole.statistics)
    }

    @Test("gives the same sentences for random chunkings of random noise and sentences")
    func randomChunking() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<50 {
            var input: [UInt8] = []
            for _ in 0..<40 {
                switch generator.next() % 4 {
                case 0: input += (0..<(generator.next() % 30)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                case 1: input += Array("$GPGSA,A,1,,,,,,,,,,,,,,,*1E\r\n".utf8)
                case 2: input += Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n".utf8)
                default: input += Array("$$GPTXT,01,01,02,u-blox ag*".utf8)
                }
            }
            let sizes = (0..<8).map { _ in Int(generator.next() % 97) + 1 }
            #expect(frame(input, chunkSizes: sizes).sentences == frame(input).sentences)
        }
    }
}

/// A small, fast, seedable pseudo-random generator for reproducible property tests.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

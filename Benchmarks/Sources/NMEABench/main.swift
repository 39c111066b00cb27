#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WaymarkNMEA

// Times Waymark's framer, checksum check and typed parse over a corpus held in memory.
// Prints key=value lines, as the anchors' drivers do: what the framer and parser made of the
// corpus, and nanoseconds per sentence, best and median over the timed runs after a warm-up.

let usage = "usage: NMEABench [--runs N] CORPUS\n"

func fail(_ message: String) -> Never {
    var line = "NMEABench: \(message)\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}

/// What one pass over the corpus found.
struct Counts: Equatable {
    /// Sentences the framer handed on, checksum verified.
    var framed = 0
    /// Sentences the framer dropped (bad checksum, noise).
    var rejected = 0
    /// Sentences parsed to a typed value.
    var parsed = 0
    var unsupported = 0
    var malformed = 0
}

/// One pass over the corpus: frame, verify checksums and parse every sentence.
func run(_ corpus: [UInt8]) -> Counts {
    var framer = NMEAFramer()
    var counts = Counts()
    var parsed = ParsedSentence()
    corpus.withUnsafeBytes { buffer in
        framer.consume(buffer) { sentence in
            counts.framed += 1
            switch NMEAParser.parse(sentence, into: &parsed) {
            case .parsed:
                counts.parsed += 1
                blackHole(&parsed)
            case .unsupported:
                counts.unsupported += 1
            case .malformed:
                counts.malformed += 1
            }
        }
    }
    counts.rejected = framer.statistics.rejected
    return counts
}

var runs = 5
var path: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--runs":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else { fail(usage) }
        runs = value
    case "-h", "--help":
        print(usage, terminator: "")
        exit(0)
    default:
        guard path == nil else { fail(usage) }
        path = argument
    }
}
guard let path else { fail(usage) }
guard let corpus = readCorpus(path: path) else { fail("cannot read \(path)") }

let clock = ContinuousClock()
let counts = run(corpus)
var perSentence: [Double] = []
for _ in 0..<runs {
    var repeated = counts
    let elapsed = clock.measure { repeated = run(corpus) }
    guard repeated == counts else { fail("runs disagree") }
    let (seconds, attoseconds) = elapsed.components
    let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    perSentence.append(nanoseconds / Double(max(1, counts.framed)))
}
perSentence.sort()

print("sentences=\(counts.framed)")
print("parsed=\(counts.parsed)")
print("unsupported=\(counts.unsupported)")
print("malformed=\(counts.malformed)")
print("rejected=\(counts.rejected)")
print("ns_per_sentence_best=\(formatted(perSentence[0]))")
print("ns_per_sentence_median=\(formatted(perSentence[perSentence.count / 2]))")

/// One decimal, without Foundation's formatting.
func formatted(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Writes a corpus of NMEA sentences from a simulated u-blox receiver session at 1 Hz.
// The same count and seed always give the same bytes.

let usage = "usage: NMEACorpusGenerator [--count N] [--seed S] [--output PATH|-]\n"

func fail(_ message: String) -> Never {
    var line = "NMEACorpusGenerator: \(message)\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}

var count = 1_000_000
var seed: UInt64 = 1
var path = "-"
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    if option == "-h" || option == "--help" {
        print(usage, terminator: "")
        exit(0)
    }
    guard let value = arguments.popFirst() else { fail("missing value for \(option)\n\(usage)") }
    switch option {
    case "--count":
        guard let number = Int(value), number > 0 else { fail("bad count \(value)") }
        count = number
    case "--seed":
        guard let number = UInt64(value) else { fail("bad seed \(value)") }
        seed = number
    case "--output":
        path = value
    default:
        fail("unknown option \(option)\n\(usage)")
    }
}

guard let file = OutputFile(path: path) else { fail("cannot open \(path)") }
var writer = SentenceWriter(limit: count)
var receiver = Receiver(seed: seed)
for text in Receiver.banner {
    writer.writeText(text)
}
while writer.endOfLimit == nil {
    if receiver.reportsAntennaStatus() {
        writer.writeText("ANTSTATUS=OK")
    }
    writer.write(receiver.epoch())
    receiver.advance()
    let done = writer.endOfLimit ?? (writer.bytes.count >= 1 << 16 ? writer.bytes.count : nil)
    if let end = done {
        guard file.write(writer.bytes[..<end]) else { fail("cannot write \(path)") }
        writer.removeAll()
    }
}
guard file.close() else { fail("cannot write \(path)") }

import CLibFuzzer
import Glibc
import WaymarkFix
import WaymarkJSON
import WaymarkLocation
import WaymarkNMEA

exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv))

/// Tests one input: the `waymark nmea decode` path (capture comments with `# Date:`, framer,
/// parser, epoch assembler with its sky view, TPV encoder) over the bytes, once whole and once
/// in small chunks; both must give the same output, as the framer and the comment filter do
/// not care about chunking.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzNMEA(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let whole = decode(bytes, chunkLengths: [max(bytes.count, 1)])
    let chunked = decode(bytes, chunkLengths: [1, 13, 64, 200])
    guard whole == chunked else {
        fatalError("chunking changed the output:\n\(String(decoding: whole, as: UTF8.self))\n--\n\(String(decoding: chunked, as: UTF8.self))")
    }
    return 0
}

/// The TPV JSON, each fix's sky view (its satellites and used flags, as one number) and the
/// counts `waymark nmea decode --statistics` would print, feeding `bytes` in chunks of the
/// given lengths in turn.
private func decode(_ bytes: UnsafeBufferPointer<UInt8>, chunkLengths: [Int]) -> [UInt8] {
    var decoder = NMEADecoder()
    var comments = CaptureCommentFilter()
    let encoder = TPVEncoder()
    var json = JSONBuffer(capacity: 1024)
    let emit: (Fix) -> Void = { fix in
        guard fix.timeOfDay != nil else { return }
        encoder.encode(fix, into: &json)
        json.integer(fix.sky.hashValue)
    }
    var start = 0
    var turn = 0
    while start < bytes.count {
        let end = min(start + chunkLengths[turn % chunkLengths.count], bytes.count)
        let chunk = UnsafeBufferPointer(rebasing: bytes[start..<end])
        comments.filter(chunk, data: { decoder.decode($0, emit: emit) }, date: { decoder.seedDate($0) })
        start = end
        turn += 1
    }
    decoder.finish(emit: emit)
    let counts = "\(decoder.framer.statistics) \(decoder.parser)"
    return json.bytes + Array(counts.utf8)
}

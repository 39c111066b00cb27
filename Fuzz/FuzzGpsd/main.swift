import CLibFuzzer
import Glibc
import WaymarkGpsd
import WaymarkJSON
import WaymarkLocation

exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv))

/// Tests one input: a gpsd client's bytes read by the endpoint whole and again in two
/// parts. Both must give the same replies; no command may be held beyond the limit; every
/// reply must be CRLF-terminated JSON objects the project's reader accepts.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzGpsd(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let middle = bytes.count / 2
    let whole = replies(to: [bytes])
    let split = replies(to: [
        UnsafeRawBufferPointer(rebasing: bytes[..<middle]), UnsafeRawBufferPointer(rebasing: bytes[middle...]),
    ])
    guard whole == split else { fatalError("splitting the bytes changed the replies") }
    var start = 0
    while start < whole.count {
        guard let end = whole[start...].firstIndex(of: 0x0A), end > start, whole[end - 1] == 0x0D else {
            fatalError("a reply does not end in CRLF")
        }
        guard (try? JSONParser().parse(whole[start..<(end - 1)]))?.objectValue != nil else {
            fatalError("a reply is not a JSON object")
        }
        start = end + 1
    }
    return 0
}

/// The replies of a session fed `parts` in turn.
private func replies(to parts: [UnsafeRawBufferPointer]) -> [UInt8] {
    var session = GpsdSession(device: GpsdDevice(path: "/dev/fuzz", activated: nil, bitsPerSecond: nil, cycle: 1), release: "fuzz")
    var buffer = JSONBuffer()
    for part in parts {
        session.receive(part)
        while session.answerNextCommand(latest: nil, now: .init(nanosecondsSinceEpoch: 0), into: &buffer) {}
        guard session.heldBytes <= GpsdCommand.maximumLength else { fatalError("a command held beyond the limit") }
    }
    return buffer.bytes
}

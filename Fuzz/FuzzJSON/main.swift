import CLibFuzzer
import Glibc
import WaymarkJSON

exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv))

/// Tests one input: parses the bytes as JSON (the reader behind every protocol line) and,
/// when they are a value, checks that what `JSONBuffer` writes of it reads back as the same.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let parser = JSONParser()
    guard let value = try? parser.parse(bytes) else { return 0 }
    let written = value.jsonText
    guard let reread = try? parser.parse(written), reread == value else {
        fatalError("JSONBuffer wrote \(written), which does not read back as the value parsed")
    }
    return 0
}

import CLibFuzzer
import Glibc
import WaymarkBoard

exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv))

/// Tests one input: the bytes as a board file (TOML syntax, then the board's keys and their
/// checks), and the receiver figures the daemon derives from a board that parses.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzBoard(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    guard let board = try? BoardDefinition.parse(text, file: "fuzz.toml") else { return 0 }
    _ = board.receiverProfile
    _ = board.poweredDownState
    return 0
}

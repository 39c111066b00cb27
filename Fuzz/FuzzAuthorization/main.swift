import CLibFuzzer
import Glibc
import WaymarkAuthorization

exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv))

/// Tests one input: the bytes as a process's `/proc/PID/cgroup` text, its `/proc/PID/exe`
/// link and a policy file (`/etc/waymark/apps.d/*.toml`), and the identity the facts give.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzAuthorization(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let facts = ProcessFacts(uid: 1000, cgroupText: bytes, executableLink: bytes, statText: bytes)
    let policies = (try? PolicySet(files: [(path: "fuzz.toml", bytes: bytes)])) ?? PolicySet()
    _ = policies.identity(of: facts, declaredAppID: String(decoding: bytes.prefix(64), as: UTF8.self)).description
    _ = policies.policy(for: facts)
    return 0
}

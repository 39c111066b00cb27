import CLibFuzzer
import Glibc
import WaymarkClock
import WaymarkSimulation

exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv))

/// Tests one input: the bytes as a `.scenario` file and, when it parses, the trajectory the
/// simulated board builds from it, read at its start, middle and end.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzScenario(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let scenario = try? ScenarioParser.parse(text, file: "fuzz.scenario") else { return 0 }
    let trajectory = Trajectory(scenario: scenario, seed: 1)
    for instant in [Instant.zero, Instant(nanoseconds: trajectory.end.nanoseconds / 2), trajectory.end] {
        _ = trajectory.truth(at: instant)
        _ = trajectory.utc(at: instant)
    }
    return 0
}

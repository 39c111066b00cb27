// Runs libFuzzer from a Swift harness's own main. SwiftPM renames an executable's main (to
// <module>_main, so that tests can link it), which stands in for libFuzzer's; the harness's
// main calls this instead.
#include <stdint.h>
#include <stddef.h>

/// The harness's test of one input (`@_cdecl("LLVMFuzzerTestOneInput")`); returns 0.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/// Runs libFuzzer on `LLVMFuzzerTestOneInput` with the program's arguments (-runs=N,
/// -max_total_time=S, corpus directories, ...) and returns its exit status.
int waymark_fuzz_main(int argc, char **argv);

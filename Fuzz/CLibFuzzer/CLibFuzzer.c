#include "CLibFuzzer.h"

// In libclang_rt.fuzzer, which swiftc -sanitize=fuzzer links.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

int waymark_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}

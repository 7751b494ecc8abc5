// libFuzzer's driver, for executables whose `main` SwiftPM names itself: each fuzz
// target's `<Target>_main` hands its arguments and its per-input callback to it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

// Declarations only (see include/CLibFuzzer.h): libFuzzer itself comes with -sanitize=fuzzer.
#include "CLibFuzzer.h"

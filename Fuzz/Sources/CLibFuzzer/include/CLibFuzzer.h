// libFuzzer's driver, called from each fuzz executable's entry point (see Package.swift).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#ifndef SPAWN_PROCESS_H
#define SPAWN_PROCESS_H

#include <sys/types.h>

/// Starts `file` with `argv` and `envp` (`posix_spawnp`, which looks `file` up on PATH,
/// when `search_path` is non-zero; `posix_spawn` else) and writes its process ID into
/// `pid`; returns 0 or an `errno` value. `input`, `output` and `errors`, where not -1,
/// become the child's standard input, output and error; every other descriptor of this
/// process is closed in the child, also those not marked close-on-exec (Foundation's
/// `Pipe` is not). So a child we start never holds the end of a pipe that some other
/// reader in the program waits on: that reader would not see the end of its input until
/// our child exits.
int spawn_process(pid_t *pid, const char *file, char *const argv[], char *const envp[], int input, int output,
                  int errors, int search_path);

#endif

#ifndef SPAWN_PROCESS_H
#define SPAWN_PROCESS_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (`posix_spawn`, no search of PATH) and writes its
/// process ID into `pid`; returns 0 or an `errno` value. `input`, `output` and `errors`,
/// where not -1, become the child's standard input, output and error; every other
/// descriptor of this process is closed in the child, also those not marked close-on-exec
/// (Foundation's `Pipe` is not). A child the tests start therefore never holds the end of
/// a pipe that another child's reader is waiting on: a server started by one test would
/// otherwise keep another test's app from ever seeing the end of its input.
int spawn_process(pid_t *pid, const char *path, char *const argv[], char *const envp[], int input, int output,
                  int errors);

#endif

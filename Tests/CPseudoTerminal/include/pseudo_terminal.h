#ifndef PSEUDO_TERMINAL_H
#define PSEUDO_TERMINAL_H

#include <stddef.h>

/// Opens a pseudo-terminal: returns the master's file descriptor and writes the slave's
/// path into `slave_path`, or returns -1. For end-to-end tests of the terminal apps.
int pseudo_terminal_open(char *slave_path, size_t length);

#endif

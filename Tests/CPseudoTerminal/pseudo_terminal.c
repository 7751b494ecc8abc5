#define _XOPEN_SOURCE 700
#include "pseudo_terminal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pseudo_terminal_open(char *slave_path, size_t length) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0) {
        close(master);
        return -1;
    }
    const char *name = ptsname(master);
    if (name == NULL || strlen(name) + 1 > length) {
        close(master);
        return -1;
    }
    strcpy(slave_path, name);
    return master;
}

#define _GNU_SOURCE
#include "spawn_process.h"

#include <spawn.h>

int spawn_process(pid_t *pid, const char *file, char *const argv[], char *const envp[], int input, int output,
                  int errors, int search_path) {
    posix_spawn_file_actions_t actions;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    const int sources[3] = {input, output, errors};
    for (int target = 0; target < 3 && status == 0; target++) {
        if (sources[target] >= 0) status = posix_spawn_file_actions_adddup2(&actions, sources[target], target);
    }
    // After the dup2s: the descriptors they copied from are closed with all the others.
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (status == 0) {
        status = search_path ? posix_spawnp(pid, file, &actions, NULL, argv, envp)
                             : posix_spawn(pid, file, &actions, NULL, argv, envp);
    }
    posix_spawn_file_actions_destroy(&actions);
    return status;
}

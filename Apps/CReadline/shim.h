// GNU readline, for the terminal apps (provider: apt libreadline-dev; pkg-config: readline).
#include <stdio.h>
#include <stdlib.h>
#include <readline/readline.h>
#include <readline/history.h>

// Readline's state is C globals, which Swift's strict concurrency checking cannot see are
// only touched on the console thread; these accessors are how the Swift side reaches them.
static inline void cr_set_attempted_completion_function(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}
static inline void cr_set_attempted_completion_over(int value) { rl_attempted_completion_over = value; }
static inline char *cr_line_buffer(void) { return rl_line_buffer; }
static inline int cr_point(void) { return rl_point; }
static inline void cr_set_point(int point) { rl_point = point; }
static inline void cr_set_catch_sigwinch(int value) { rl_catch_sigwinch = value; }

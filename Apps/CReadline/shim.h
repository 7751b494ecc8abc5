// GNU readline, for the terminal apps (provider: apt libreadline-dev; pkg-config: readline).
#include <stdio.h>
#include <stdlib.h>
#include <readline/readline.h>
#include <readline/history.h>

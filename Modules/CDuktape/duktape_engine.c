/*
 * The duktape engine, compiled into this target from Debian's amalgamated source
 * (duktape-dev's /usr/share/duktape/duktape.c), with the configuration of
 * duktape_config.h. Nothing of duktape is copied into the repository.
 *
 * DUK_COMPILING_DUKTAPE must be defined before duk_config.h is first included: it selects
 * the platform section (feature macros, system headers, the date functions) that the
 * engine needs. DUK_SINGLE_FILE makes duktape's internal functions static.
 */
#define DUK_COMPILING_DUKTAPE
#define DUK_SINGLE_FILE
#include "duktape_config.h"

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Weverything"
#endif
#include "/usr/share/duktape/duktape.c"
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

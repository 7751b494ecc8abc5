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

/* The references the engine counts to the object at `index` (the value stack's included):
   code of this target may look inside the engine it compiles. Duktape counts references
   (DUK_USE_REFERENCE_COUNTING), so an object only one holder refers to is known to be
   unshared; garbage in a cycle only counts more, never fewer. */
__attribute__((visibility("hidden"))) size_t scxml_js_references(duk_context *ctx, duk_idx_t index) {
    duk_hobject *object = duk_get_hobject((duk_hthread *)ctx, index);
    return object == NULL ? 0 : (size_t)DUK_HEAPHDR_GET_REFCOUNT((duk_heaphdr *)object);
}

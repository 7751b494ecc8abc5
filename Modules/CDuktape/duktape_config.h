/*
 * Duktape's configuration for the ECMAScript data model: Debian's own duk_config.h
 * (/usr/share/duktape/duk_config.h, the one its libduktape.so was built with), then the
 * few options we change. Every C file of this target includes this header first, so the
 * engine (duktape_engine.c) and the code calling it agree; duk_config.h's include guard
 * keeps our definitions when duktape.h includes it again.
 *
 * What we change, and why (the article "Bounds and sandbox" of StateMachineECMAScript's
 * catalog gives the measured figures):
 * - DUK_USE_INTERRUPT_COUNTER and DUK_USE_EXEC_TIMEOUT_CHECK: Debian builds without them,
 *   so nothing could stop `while (true) {}`. With them, every 256K bytecode instructions
 *   the executor asks scxml_js_exec_timeout_check whether the call has run past its
 *   deadline, and throws a RangeError ("execution timeout") until the call has unwound.
 * - DUK_USE_NATIVE_STACK_CHECK: duktape's recursion limits count levels, not bytes, and at
 *   -O0 a level of native recursion (a callback called by Array.prototype.map, a toString
 *   called by String()) takes about 7.5 KB of C stack, so its default 1000 levels overflow
 *   an 8 MB thread before the limit is reached. The check, which duktape makes on every
 *   native call, every level of regular expression backtracking, of JSON and CBOR
 *   recursion and of number conversion, fails (RangeError "C stack depth limit") when
 *   less than 128 KB of the thread's stack is left; and every 64 checks it also looks at
 *   the call's deadline, which bounds the regular expression executor (it runs no bytecode,
 *   so the interrupt never sees it).
 * - DUK_EXTERNAL: duktape's API functions are hidden (not exported from the program), so
 *   that a program that also loads Debian's libduktape.so keeps the two apart.
 */
#ifndef C_DUKTAPE_CONFIG_H
#define C_DUKTAPE_CONFIG_H

#include "/usr/share/duktape/duk_config.h"

/* Whether the current call of the heap whose udata is `udata` has run past its deadline;
   whether the running call is short of C stack (or past its deadline). Both in budget.c. */
__attribute__((visibility("hidden"))) int scxml_js_exec_timeout_check(void *udata);
__attribute__((visibility("hidden"))) int scxml_js_native_stack_check(void);

#define DUK_USE_INTERRUPT_COUNTER
#undef DUK_USE_EXEC_TIMEOUT_CHECK
#define DUK_USE_EXEC_TIMEOUT_CHECK(udata) scxml_js_exec_timeout_check(udata)
#undef DUK_USE_NATIVE_STACK_CHECK
#define DUK_USE_NATIVE_STACK_CHECK() scxml_js_native_stack_check()

#undef DUK_EXTERNAL_DECL
#undef DUK_EXTERNAL
#define DUK_EXTERNAL_DECL __attribute__((visibility("hidden"))) extern
#define DUK_EXTERNAL __attribute__((visibility("hidden")))

#endif

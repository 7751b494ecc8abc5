/*
 * What the C files of the ECMAScript data model share: the budget every heap allocates
 * from, the program and session structures, and the helpers of text and values.
 */
#ifndef C_DUKTAPE_INTERNAL_H
#define C_DUKTAPE_INTERNAL_H

#include "duktape_config.h"
#include <duktape.h>

#include "include/CDuktape.h"

#include <stdint.h>

#define SCXML_JS_HIDDEN __attribute__((visibility("hidden")))

/* How deep a value may nest when it crosses (both ways). */
#define SCXML_JS_MAX_DEPTH 1000
/* The fields of _event (SCXML 1.0, section 5.10.1). */
#define SCXML_JS_EVENT_FIELDS 7
/* How deep calls may nest through the host's callbacks. */
#define SCXML_JS_MAX_NESTING 16

/* MARK: Budget (budget.c) */

/* What a heap may use: its allocator's count of bytes against the limit, and the deadline
   of the running call. The heap's udata points here. */
typedef struct {
    size_t used;
    size_t limit;
    /* CLOCK_MONOTONIC_COARSE nanoseconds; 0 when no call runs. */
    uint64_t deadline;
    /* Set once the running call has passed its deadline; from then on the executor keeps
       throwing, and allocations of 64 KB or more fail, until the call has unwound. */
    int timed_out;
} scxml_js_budget;

/* A call into a heap, from the thread that makes it: what the native stack check reads
   (through a thread-local pointer, since duktape passes it nothing). Calls nest. */
typedef struct scxml_js_call {
    scxml_js_budget *budget;
    /* The lowest stack address the call may reach: the thread's stack's end plus 128 KB. */
    uintptr_t stack_limit;
    unsigned checks;
    struct scxml_js_call *outer;
} scxml_js_call;

/* Makes `call` the running call of this thread, bounded by `budget` (NULL: no deadline). */
SCXML_JS_HIDDEN void scxml_js_enter(scxml_js_call *call, scxml_js_budget *budget);
/* Ends `call`, making the one it nested in the running one again. */
SCXML_JS_HIDDEN void scxml_js_leave(scxml_js_call *call);
SCXML_JS_HIDDEN uint64_t scxml_js_now(void);
/* The deadline of a call that may run for `duration` nanoseconds from now. */
SCXML_JS_HIDDEN uint64_t scxml_js_deadline_after(uint64_t duration);
/* The references to the object at `index`, the value stack's included (duktape_engine.c). */
SCXML_JS_HIDDEN size_t scxml_js_references(duk_context *ctx, duk_idx_t index);
/* A heap that allocates from `budget`; NULL when its built-ins alone exceed the budget's
   limit (or memory is out). */
SCXML_JS_HIDDEN duk_context *scxml_js_create_heap(scxml_js_budget *budget);

/* MARK: Program (compile.c) */

enum {
    /* An empty condition: true, like uSCXML's transitions without a condition. */
    SCXML_JS_ALWAYS_TRUE = 1 << 0,
    /* A location that is a bare identifier (declared by <foreach> when missing). */
    SCXML_JS_IDENTIFIER = 1 << 1,
};

typedef struct {
    int kind;
    int flags;
    /* Bytecode of the function that returns the source's value (value, condition,
       location) or runs it (script). NULL when `error` says why. */
    uint8_t *getter;
    size_t getter_length;
    /* Bytecode of `function (v) { "use strict"; (location) = v; }` (locations; the
       parameter's name occurs nowhere in the location). NULL when `setter_error` says why. */
    uint8_t *setter;
    size_t setter_length;
    char *error;
    char *setter_error;
    /* The identifier of an SCXML_JS_IDENTIFIER location. */
    char *identifier;
} scxml_js_entry;

struct scxml_js_program {
    size_t count;
    scxml_js_entry *entries;
    scxml_js_limits limits;
};

/* MARK: Session (session.c, operations.c) */

/* A growable byte buffer outside the heap. */
typedef struct {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
} scxml_js_buffer;

struct scxml_js_session {
    /* First: the heap's udata. */
    scxml_js_budget budget;
    uint64_t time_limit;
    duk_context *ctx;
    const scxml_js_program *program;
    scxml_js_host host;
    /* The loaded functions' heap pointers, two per source (getter, setter); the stash's
       "functions" array keeps them alive. */
    void **functions;
    /* The stash's bare object whose keys are the globals the session started with. */
    void *baseline;
    /* _event: the host's event changes `generation`; `event_object` (kept alive by the
       stash's "event") was made for `event_generation`. */
    uint64_t generation;
    uint64_t event_generation;
    void *event_object;
    scxml_js_buffer event_bytes;
    /* The keys of _event's fields, interned ("name", "type", ... "data"). */
    void *event_keys[SCXML_JS_EVENT_FIELDS];
    /* The copies of the running <foreach> elements, innermost last; the stash's "foreach"
       array keeps them alive. */
    void **copies;
    size_t copies_count;
    size_t copies_capacity;
    /* Set when the last <foreach> call was a begin that failed, which pushed no copy: an end
       that follows it at once ends nothing (whether or not the host calls one then). */
    int begin_failed;
    /* The globals <data>, restore and <foreach> declared (a bare object in the stash):
       variables() keeps them even when the session started with one of their names. */
    void *declared;
    /* Protected calls nest (a host callback may call again); each level has its own
       output and error, and `last` is the level of the call that returned last. */
    int depth;
    int last;
    int custom_failure;
    scxml_js_buffer outputs[SCXML_JS_MAX_NESTING + 2];
    scxml_js_buffer errors[SCXML_JS_MAX_NESTING + 2];
    /* Per level, the objects a value being written out is inside of (SCXML_JS_MAX_DEPTH
       entries, allocated when a level first writes an object). */
    void **ancestors[SCXML_JS_MAX_NESTING + 2];
};

/* The session whose heap `ctx` is. */
SCXML_JS_HIDDEN scxml_js_session *scxml_js_session_of(duk_context *ctx);
/* Runs `operation` in a protected call bounded by the session's time limit (nested calls
   keep the outer call's deadline for when they return). Returns 0, or 1 with the error's
   message in the session's error buffer. */
SCXML_JS_HIDDEN int scxml_js_protected(scxml_js_session *session, duk_safe_call_function operation, void *arguments);
/* Ends the running protected call's operation as a failure with `message` (UTF-8) once it
   returns (for failures that are not the engine's errors, such as a value that cannot
   cross). */
SCXML_JS_HIDDEN void scxml_js_fail(scxml_js_session *session, const char *message);
/* The output buffer of the running protected call. */
SCXML_JS_HIDDEN scxml_js_buffer *scxml_js_output(scxml_js_session *session);
/* Pushes the getter (setter 0) or the setter (setter 1) of source `index`, loading its
   bytecode on first use; throws the source's deferred error when it has none. */
SCXML_JS_HIDDEN void scxml_js_push_function(scxml_js_session *session, size_t index, int setter);

/* MARK: Buffers and text (text.c) */

/* Appends bytes; 0 when the buffer cannot grow (beyond `limit` or out of memory). */
SCXML_JS_HIDDEN int scxml_js_buffer_append(scxml_js_buffer *buffer, const void *bytes, size_t length, size_t limit);
SCXML_JS_HIDDEN void scxml_js_buffer_free(scxml_js_buffer *buffer);
/* Pushes a string from UTF-8, as the engine keeps it (a character beyond U+FFFF becomes
   its surrogate pair, CESU-8, so that ECMAScript sees two code units as it should). */
SCXML_JS_HIDDEN void scxml_js_push_utf8(duk_context *ctx, const char *text, size_t length);
/* Appends the engine's string bytes to `buffer` as UTF-8 (surrogate pairs joined, lone
   surrogates replaced by U+FFFD). */
SCXML_JS_HIDDEN int scxml_js_append_utf8(scxml_js_buffer *buffer, const char *text, size_t length, size_t limit);
/* A malloc'd, NUL-terminated UTF-8 copy of the engine's string at `index`. */
SCXML_JS_HIDDEN char *scxml_js_copy_utf8(duk_context *ctx, duk_idx_t index);
/* A malloc'd, NUL-terminated copy of a C string. */
SCXML_JS_HIDDEN char *scxml_js_strdup(const char *text);

/* MARK: Values (wire.c) */

/* Why a value cannot cross out of the engine. */
typedef enum {
    SCXML_JS_CROSSED = 0,
    SCXML_JS_FUNCTION,
    SCXML_JS_CYCLE,
    SCXML_JS_NON_FINITE,
    SCXML_JS_SYMBOL,
    SCXML_JS_TOO_DEEP,
    SCXML_JS_TOO_LARGE,
} scxml_js_crossing;

typedef struct {
    scxml_js_crossing reason;
    /* The non-finite number, for SCXML_JS_NON_FINITE. */
    double number;
} scxml_js_crossing_failure;

/* Appends the value at `index` to `buffer` in the wire format; on a value that cannot cross,
   returns its reason (what was appended is then meaningless). The engine may throw (a
   getter's error, the time limit). */
SCXML_JS_HIDDEN scxml_js_crossing scxml_js_write_value(
    scxml_js_session *session, scxml_js_buffer *buffer, duk_idx_t index, scxml_js_crossing_failure *failure);
/* The failure's message: "<subject> holds a function, which <keeper> cannot keep". */
SCXML_JS_HIDDEN void scxml_js_crossing_message(
    const scxml_js_crossing_failure *failure, const char *subject, const char *keeper, char *message, size_t size);
/* Appends the engine's string at `index` as u32 length + UTF-8; 0 beyond `limit`. */
SCXML_JS_HIDDEN int scxml_js_write_string(duk_context *ctx, scxml_js_buffer *buffer, duk_idx_t index, size_t limit);
/* Pushes the value encoded at `*bytes` (advancing it); throws a TypeError on malformed or
   too deep bytes. */
SCXML_JS_HIDDEN void scxml_js_push_value(duk_context *ctx, const uint8_t **bytes, const uint8_t *end);
/* Reads a u32 of the wire format; throws on bytes that end too soon. */
SCXML_JS_HIDDEN uint32_t scxml_js_read_u32(duk_context *ctx, const uint8_t **bytes, const uint8_t *end);

#endif

/*
 * The C half of the SCXML ECMAScript data model (StateMachineECMAScript): duktape heaps,
 * one per session, and every call into them. All of duktape's API is called from C, inside
 * duktape's protected calls: duktape reports errors with longjmp, which must never cross a
 * Swift frame. Swift only passes indices, bytes and strings in, and reads bytes out.
 *
 * Values cross as bytes (the wire format, written and read by ECMAScriptWire.swift):
 *   'n' null        'u' undefined (into the engine only)     't' true   'f' false
 *   'd' + 8 bytes (a double, little-endian)
 *   's' + u32 length + UTF-8 bytes
 *   'a' + u32 count + count values
 *   'o' + u32 count + count times (u32 length + UTF-8 key, value)
 * Lengths and counts are u32 little-endian.
 *
 * Every function that runs a script returns 0 on success and 1 on failure; the failure's
 * message (UTF-8) is then scxml_js_session_error's. A session is used by one thread at a
 * time; calls may nest (In() and _event call back into Swift, which may call again).
 */
#ifndef C_DUKTAPE_H
#define C_DUKTAPE_H

#include <stddef.h>
#include <stdint.h>

/// What a source is (the order of SCXMLScriptSource.Kind).
typedef enum {
    SCXML_JS_VALUE = 0,
    SCXML_JS_CONDITION = 1,
    SCXML_JS_LOCATION = 2,
    SCXML_JS_SCRIPT = 3,
} scxml_js_kind;

/// One source to compile: its kind and its UTF-8 text.
typedef struct {
    int kind;
    const char *text;
    size_t length;
} scxml_js_source;

/// The bounds of every heap made from a program.
typedef struct {
    /// The bytes a heap may hold at once (its allocator fails beyond them).
    size_t memory_limit;
    /// The wall-clock time one call may run, in milliseconds.
    uint32_t time_limit_ms;
} scxml_js_limits;

/// A document's compiled sources (bytecode), shared read-only by its sessions.
typedef struct scxml_js_program scxml_js_program;
/// One session: a duktape heap with the document's globals.
typedef struct scxml_js_session scxml_js_session;

/// What a session asks its host (the Swift session).
typedef struct {
    /// Passed back to the callbacks.
    void *context;
    /// In(id): 1 when the state `id` (UTF-8) is active.
    int (*is_active)(void *context, const char *id, size_t length);
    /// The first read of _event after scxml_js_set_event: the host hands the event's
    /// bytes to scxml_js_provide_event (none: _event is undefined).
    void (*provide_event)(void *context, scxml_js_session *session);
} scxml_js_host;

/// Compiles `count` sources in a scratch heap. Returns the program, or NULL with the
/// position of the source that does not compile in `failed_index` and the engine's
/// message in `message` (free it with scxml_js_free). Syntax errors of values and
/// conditions do not fail: the program keeps them, and evaluating such a source fails
/// with them.
scxml_js_program *scxml_js_compile(
    const scxml_js_source *sources, size_t count, scxml_js_limits limits, size_t *failed_index, char **message);
/// Frees a program (after its last session).
void scxml_js_program_free(scxml_js_program *program);
/// Frees a message.
void scxml_js_free(void *pointer);

/// A new session of `program`, whose read-only system variables are the members of the
/// object `system` (wire bytes). NULL when it cannot be made, with a message.
scxml_js_session *scxml_js_session_create(
    const scxml_js_program *program, scxml_js_host host, const uint8_t *system, size_t system_length,
    char **message);
/// Destroys the session's heap.
void scxml_js_session_destroy(scxml_js_session *session);

/// The message of the last failure (UTF-8, not terminated).
const char *scxml_js_session_error(const scxml_js_session *session, size_t *length);
/// The bytes the last call produced (scxml_js_evaluate, scxml_js_variables).
const uint8_t *scxml_js_session_output(const scxml_js_session *session, size_t *length);
/// The bytes the session's heap holds now.
size_t scxml_js_session_memory(const scxml_js_session *session);
/// The number of values on the session's value stack between calls (0 unless a call leaks).
int scxml_js_session_stack_depth(const scxml_js_session *session);

/// Evaluates the source `index`; its value is the output.
int scxml_js_evaluate(scxml_js_session *session, size_t index);
/// Evaluates the condition `index` into `result` (0 or 1).
int scxml_js_is_true(scxml_js_session *session, size_t index, int *result);
/// Assigns the value of the source `expression` to the location `location`.
int scxml_js_assign(scxml_js_session *session, size_t location, size_t expression);
/// Assigns a value (wire bytes) to the location `location`.
int scxml_js_assign_value(scxml_js_session *session, size_t location, const uint8_t *value, size_t length);
/// Runs the script `index` at global scope.
int scxml_js_run(scxml_js_session *session, size_t index);
/// Declares the global variable `id` with the value of the source `expression`, or
/// undefined when `expression` is negative. The variable exists (undefined) even when
/// the expression fails.
int scxml_js_declare(scxml_js_session *session, const char *id, size_t id_length, long expression);
/// Declares the global variable `id` with a value (wire bytes).
int scxml_js_declare_value(
    scxml_js_session *session, const char *id, size_t id_length, const uint8_t *value, size_t length);
/// Starts a <foreach>: evaluates the array `array`, keeps a shallow copy of it (innermost
/// of the running iterations) and sets `count`. Fails when the value is not an array.
int scxml_js_foreach_begin(scxml_js_session *session, size_t array, size_t *count);
/// Assigns element `position` of the innermost copy to `item`, and `position` to `index`
/// (negative: none). Both must be assignable; a bare identifier that is not yet a global is
/// declared first.
int scxml_js_foreach_step(scxml_js_session *session, size_t item, long index, size_t position);
/// Ends the innermost <foreach>, dropping its copy. Right after a begin that failed (which
/// kept no copy) it ends nothing, so that a host may call it after every begin or only after
/// those that succeeded.
void scxml_js_foreach_end(scxml_js_session *session);
/// Marks _event as changed: its next read asks the host.
void scxml_js_set_event(scxml_js_session *session);
/// The current event's bytes (an object value), during provide_event.
void scxml_js_provide_event(scxml_js_session *session, const uint8_t *event, size_t length);
/// Every global variable the session did not start with, as an object value (the output).
int scxml_js_variables(scxml_js_session *session);
/// Marks every global function (not declared by a <data>) as the document's code, which
/// scxml_js_variables leaves out. 0 on success.
int scxml_js_mark_code(scxml_js_session *session);
/// Sets the global variables of an object value (wire bytes).
int scxml_js_restore(scxml_js_session *session, const uint8_t *variables, size_t length);

#endif

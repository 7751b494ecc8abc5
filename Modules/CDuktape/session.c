/*
 * A session: a heap of its own, its sandbox and system variables, the protected calls
 * every operation runs in, and the functions the engine calls back (In and _event).
 *
 * The sandbox: duktape has no file, network or process API; the session deletes the
 * `Duktape` object (Duktape.fin would let a script run a finalizer when the heap is
 * destroyed, outside any bound; Duktape.act, errCreate and errThrow reach the engine's
 * internals) and `print`, `alert` and `require` should a build have them. What is left is
 * ECMAScript's standard library (ES5.1 and the parts of ES2015+ duktape has: Proxy, Reflect,
 * typed arrays, TextEncoder/TextDecoder, performance.now) and CBOR.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

scxml_js_session *scxml_js_session_of(duk_context *ctx) {
    duk_memory_functions functions;
    duk_get_memory_functions(ctx, &functions);
    /* The budget is the session's first member. */
    return (scxml_js_session *)functions.udata;
}

scxml_js_buffer *scxml_js_output(scxml_js_session *session) { return &session->outputs[session->depth]; }

void scxml_js_fail(scxml_js_session *session, const char *message) {
    scxml_js_buffer *error = &session->errors[session->depth];
    error->length = 0;
    scxml_js_buffer_append(error, message, strlen(message), SIZE_MAX / 2);
    session->custom_failure = 1;
}

int scxml_js_protected(scxml_js_session *session, duk_safe_call_function operation, void *arguments) {
    if (session->depth >= SCXML_JS_MAX_NESTING) {
        static const char message[] = "calls into the data model nest too deeply";
        session->last = SCXML_JS_MAX_NESTING + 1;
        scxml_js_buffer *error = &session->errors[session->last];
        error->length = 0;
        scxml_js_buffer_append(error, message, sizeof(message) - 1, SIZE_MAX / 2);
        return 1;
    }
    scxml_js_budget *budget = &session->budget;
    uint64_t outer_deadline = budget->deadline;
    int outer_timed_out = budget->timed_out;
    int outer_custom_failure = session->custom_failure;
    int level = ++session->depth;
    session->outputs[level].length = 0;
    session->custom_failure = 0;
    budget->deadline = scxml_js_deadline_after(session->time_limit);
    budget->timed_out = 0;

    duk_context *ctx = session->ctx;
    scxml_js_call call;
    scxml_js_enter(&call, budget);
    int failed = duk_safe_call(ctx, operation, arguments, 0, 1) != DUK_EXEC_SUCCESS;
    if (failed) {
        int timed_out = budget->timed_out;
        /* The error's toString may be a script's: it gets a time limit of its own. */
        budget->deadline = scxml_js_deadline_after(session->time_limit);
        budget->timed_out = 0;
        scxml_js_buffer *error = &session->errors[level];
        error->length = 0;
        if (timed_out) {
            static const char message[] = "RangeError: execution timeout";
            scxml_js_buffer_append(error, message, sizeof(message) - 1, SIZE_MAX / 2);
        } else {
            duk_size_t length = 0;
            const char *text = duk_safe_to_lstring(ctx, -1, &length);
            scxml_js_append_utf8(error, text, length, session->budget.limit);
        }
    } else if (session->custom_failure) {
        failed = 1;
    }
    duk_pop(ctx);
    scxml_js_leave(&call);
    session->depth--;
    session->last = level;
    session->custom_failure = outer_custom_failure;
    budget->deadline = outer_deadline;
    budget->timed_out = outer_timed_out;
    return failed;
}

/* Throws `message` (UTF-8) as it is: a string, whose text is the failure's message. */
static void throw_message(duk_context *ctx, const char *message) {
    scxml_js_push_utf8(ctx, message, strlen(message));
    (void)duk_throw(ctx);
}

void scxml_js_push_function(scxml_js_session *session, size_t index, int setter) {
    duk_context *ctx = session->ctx;
    const scxml_js_program *program = session->program;
    if (index >= program->count) {
        (void)duk_error(ctx, DUK_ERR_RANGE_ERROR, "no script %lu", (unsigned long)index);
    }
    void **slot = &session->functions[index * 2 + (setter ? 1 : 0)];
    if (*slot != NULL) {
        duk_push_heapptr(ctx, *slot);
        return;
    }
    const scxml_js_entry *entry = &program->entries[index];
    const uint8_t *bytecode = setter ? entry->setter : entry->getter;
    size_t length = setter ? entry->setter_length : entry->getter_length;
    if (bytecode == NULL) {
        if (setter) throw_message(ctx, entry->setter_error != NULL ? entry->setter_error : "not a location");
        throw_message(ctx, entry->error != NULL ? entry->error : "not an expression");
    }
    void *buffer = duk_push_fixed_buffer(ctx, length);
    memcpy(buffer, bytecode, length);
    duk_load_function(ctx);
    /* The stash keeps the function alive; the slot keeps where it is. */
    duk_push_heap_stash(ctx);
    duk_get_prop_string(ctx, -1, "functions");
    duk_dup(ctx, -3);
    duk_put_prop_index(ctx, -2, (duk_uarridx_t)(index * 2 + (setter ? 1 : 0)));
    duk_pop_2(ctx);
    *slot = duk_get_heapptr(ctx, -1);
}

/* In(id): asks the host. */
static duk_ret_t in_state(duk_context *ctx) {
    scxml_js_session *session = scxml_js_session_of(ctx);
    duk_size_t length = 0;
    const char *id = duk_to_lstring(ctx, 0, &length);
    int active;
    if (memchr(id, 0xED, length) == NULL) {
        active = session->host.is_active(session->host.context, id, length);
    } else {
        scxml_js_buffer text = {0};
        if (!scxml_js_append_utf8(&text, id, length, session->budget.limit)) {
            scxml_js_buffer_free(&text);
            return duk_error(ctx, DUK_ERR_RANGE_ERROR, "alloc failed");
        }
        active = session->host.is_active(session->host.context, (const char *)text.bytes, text.length);
        scxml_js_buffer_free(&text);
    }
    duk_push_boolean(ctx, active != 0);
    return 1;
}

/* The fields of _event, in the order of the event bytes (ECMAScriptWire.encode(_:into:)):
   six strings, each a u32 length and UTF-8 (0xFFFFFFFF: undefined), then `data`, a value. */
static const char *const event_keys[SCXML_JS_EVENT_FIELDS] = {
    "name", "type", "sendid", "origin", "origintype", "invokeid", "data",
};

/* Whether the property at the top (popped) already is the field: both undefined, or the
   same bytes. */
static int pop_same_field(duk_context *ctx, const uint8_t *text, uint32_t length) {
    int same = 0;
    if (length == UINT32_MAX) {
        same = duk_is_undefined(ctx, -1);
    } else if (duk_is_string(ctx, -1) && !duk_is_symbol(ctx, -1)) {
        duk_size_t old_length = 0;
        const char *old_text = duk_get_lstring(ctx, -1, &old_length);
        same = old_length == length && memcmp(old_text, text, length) == 0;
    }
    duk_pop(ctx);
    return same;
}

/* Sets the fields of the _event object at the top from the event bytes. Each is a
   read-only property, defined rather than put (a setter a script put on Object.prototype
   stays out); a fresh object is frozen once they are set. A reused object (frozen) has its
   properties forced, and only those whose value changed: the keys are interned once per
   session (session->event_keys), so that an unchanged field costs a lookup and a memcmp. */
static void set_event_fields(scxml_js_session *session, const uint8_t *bytes, const uint8_t *end, int reused) {
    duk_context *ctx = session->ctx;
    duk_uint_t flags =
        DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_HAVE_WEC | DUK_DEFPROP_ENUMERABLE | (reused ? DUK_DEFPROP_FORCE : 0);
    for (int i = 0; i < SCXML_JS_EVENT_FIELDS - 1; i++) {
        uint32_t length = scxml_js_read_u32(ctx, &bytes, end);
        const uint8_t *text = bytes;
        if (length != UINT32_MAX) {
            if ((size_t)(end - bytes) < length) (void)duk_error(ctx, DUK_ERR_TYPE_ERROR, "malformed event bytes");
            bytes += length;
        }
        if (reused) {
            duk_push_heapptr(ctx, session->event_keys[i]);
            duk_get_prop(ctx, -2);
            if (pop_same_field(ctx, text, length)) continue;
        }
        duk_push_heapptr(ctx, session->event_keys[i]);
        if (length == UINT32_MAX) {
            duk_push_undefined(ctx);
        } else {
            scxml_js_push_utf8(ctx, (const char *)text, length);
        }
        duk_def_prop(ctx, -3, flags);
    }
    /* data: unchanged only when it was and stays undefined. */
    void *data_key = session->event_keys[SCXML_JS_EVENT_FIELDS - 1];
    int unchanged = 0;
    if (reused && bytes < end && *bytes == 'u') {
        duk_push_heapptr(ctx, data_key);
        duk_get_prop(ctx, -2);
        unchanged = duk_is_undefined(ctx, -1);
        duk_pop(ctx);
    }
    if (!unchanged) {
        duk_push_heapptr(ctx, data_key);
        scxml_js_push_value(ctx, &bytes, end);
        duk_def_prop(ctx, -3, flags);
    }
    if (!reused) duk_freeze(ctx, -1);
}

/* _event: the object of the current event, made on its first read (frozen, so that the
   same event reads the same object), or undefined before the first event.
   The previous event's object is reused when nothing but the stash refers to it any more
   (no script kept it): no script can then tell, and a new event costs the fields that
   changed instead of a new object (the article "Bounds and sandbox" has the figures). */
static duk_ret_t event_getter(duk_context *ctx) {
    scxml_js_session *session = scxml_js_session_of(ctx);
    if (session->event_generation != session->generation) {
        session->event_bytes.length = 0;
        session->host.provide_event(session->host.context, session);
        const uint8_t *bytes = session->event_bytes.bytes, *end = bytes + session->event_bytes.length;
        int reused = 0;
        if (bytes != end && session->event_object != NULL) {
            duk_push_heapptr(ctx, session->event_object);
            /* The stash's reference and the value stack's. */
            reused = scxml_js_references(ctx, -1) <= 2;
            if (reused) {
                set_event_fields(session, bytes, end, 1);
            }
            duk_pop(ctx);
        }
        if (!reused) {
            duk_push_heap_stash(ctx);
            if (bytes == end) {
                duk_push_undefined(ctx);
                session->event_object = NULL;
            } else {
                duk_push_object(ctx);
                set_event_fields(session, bytes, end, 0);
                session->event_object = duk_get_heapptr(ctx, -1);
            }
            duk_put_prop_string(ctx, -2, "event");
            duk_pop(ctx);
        }
        session->event_generation = session->generation;
    }
    if (session->event_object == NULL) return 0;
    duk_push_heapptr(ctx, session->event_object);
    return 1;
}

void scxml_js_set_event(scxml_js_session *session) { session->generation++; }

void scxml_js_provide_event(scxml_js_session *session, const uint8_t *event, size_t length) {
    session->event_bytes.length = 0;
    scxml_js_buffer_append(&session->event_bytes, event, length, session->budget.limit);
}

typedef struct {
    const uint8_t *system;
    size_t length;
} setup_arguments;

enum { GLOBAL = 0, STASH = 1 };

static duk_ret_t setup(duk_context *ctx, void *udata) {
    setup_arguments *arguments = udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    duk_push_global_object(ctx);
    static const char *const removed[] = {"Duktape", "print", "alert", "require"};
    for (size_t i = 0; i < sizeof(removed) / sizeof(removed[0]); i++) duk_del_prop_string(ctx, GLOBAL, removed[i]);

    duk_push_heap_stash(ctx);
    duk_push_array(ctx);
    duk_put_prop_string(ctx, STASH, "functions");
    duk_push_array(ctx);
    duk_put_prop_string(ctx, STASH, "foreach");

    /* The system variables: read-only (not writable, not configurable). */
    const uint8_t *bytes = arguments->system, *end = bytes + arguments->length;
    if (bytes == end || *bytes != 'o') return duk_error(ctx, DUK_ERR_TYPE_ERROR, "malformed system variables");
    bytes++;
    uint32_t count = scxml_js_read_u32(ctx, &bytes, end);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t length = scxml_js_read_u32(ctx, &bytes, end);
        if ((size_t)(end - bytes) < length) return duk_error(ctx, DUK_ERR_TYPE_ERROR, "malformed system variables");
        scxml_js_push_utf8(ctx, (const char *)bytes, length);
        bytes += length;
        scxml_js_push_value(ctx, &bytes, end);
        duk_def_prop(ctx, GLOBAL, DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_HAVE_WEC);
    }
    duk_push_string(ctx, "_event");
    duk_push_c_function(ctx, event_getter, 0);
    duk_def_prop(ctx, GLOBAL, DUK_DEFPROP_HAVE_GETTER | DUK_DEFPROP_HAVE_ENUMERABLE | DUK_DEFPROP_HAVE_CONFIGURABLE);
    duk_push_string(ctx, "In");
    duk_push_c_function(ctx, in_state, 1);
    duk_def_prop(ctx, GLOBAL, DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_HAVE_WEC);

    /* The keys of _event, interned once (the stash's "keys" keeps them alive). */
    duk_push_array(ctx);
    for (int i = 0; i < SCXML_JS_EVENT_FIELDS; i++) {
        duk_push_string(ctx, event_keys[i]);
        session->event_keys[i] = duk_get_heapptr(ctx, -1);
        duk_put_prop_index(ctx, -2, (duk_uarridx_t)i);
    }
    duk_put_prop_string(ctx, STASH, "keys");

    /* The names the session starts with, which variables() leaves out. */
    duk_push_bare_object(ctx);
    duk_enum(ctx, GLOBAL, DUK_ENUM_OWN_PROPERTIES_ONLY | DUK_ENUM_INCLUDE_NONENUMERABLE);
    while (duk_next(ctx, -1, 0)) {
        duk_push_true(ctx);
        duk_put_prop(ctx, -4);
    }
    duk_pop(ctx);
    session->baseline = duk_get_heapptr(ctx, -1);
    duk_put_prop_string(ctx, STASH, "baseline");
    duk_push_bare_object(ctx);
    session->declared = duk_get_heapptr(ctx, -1);
    duk_put_prop_string(ctx, STASH, "declared");
    return 0;
}

static char *copy_error(const scxml_js_session *session) {
    const scxml_js_buffer *error = &session->errors[session->last];
    char *message = malloc(error->length + 1);
    if (message == NULL) return NULL;
    if (error->length > 0) memcpy(message, error->bytes, error->length);
    message[error->length] = 0;
    return message;
}

scxml_js_session *scxml_js_session_create(
    const scxml_js_program *program, scxml_js_host host, const uint8_t *system, size_t system_length,
    char **message) {
    *message = NULL;
    scxml_js_session *session = calloc(1, sizeof(scxml_js_session));
    if (session == NULL) {
        *message = scxml_js_strdup("out of memory");
        return NULL;
    }
    session->budget.limit = program->limits.memory_limit;
    session->time_limit = (uint64_t)program->limits.time_limit_ms * 1000000u;
    session->program = program;
    session->host = host;
    session->event_generation = UINT64_MAX;
    session->functions = calloc(program->count * 2 + 1, sizeof(void *));
    session->ctx = session->functions != NULL ? scxml_js_create_heap(&session->budget) : NULL;
    if (session->ctx == NULL) {
        char text[160];
        snprintf(
            text, sizeof(text), "out of memory: a session's heap does not fit in its %lu bytes",
            (unsigned long)session->budget.limit);
        *message = scxml_js_strdup(text);
        scxml_js_session_destroy(session);
        return NULL;
    }
    setup_arguments arguments = {.system = system, .length = system_length};
    if (scxml_js_protected(session, setup, &arguments)) {
        *message = copy_error(session);
        scxml_js_session_destroy(session);
        return NULL;
    }
    return session;
}

void scxml_js_session_destroy(scxml_js_session *session) {
    if (session == NULL) return;
    if (session->ctx != NULL) {
        session->budget.deadline = 0;
        duk_destroy_heap(session->ctx);
    }
    free(session->functions);
    free(session->copies);
    scxml_js_buffer_free(&session->event_bytes);
    for (int i = 0; i < SCXML_JS_MAX_NESTING + 2; i++) {
        scxml_js_buffer_free(&session->outputs[i]);
        scxml_js_buffer_free(&session->errors[i]);
        free(session->ancestors[i]);
    }
    free(session);
}

const char *scxml_js_session_error(const scxml_js_session *session, size_t *length) {
    const scxml_js_buffer *error = &session->errors[session->last];
    *length = error->length;
    return error->length > 0 ? (const char *)error->bytes : "";
}

const uint8_t *scxml_js_session_output(const scxml_js_session *session, size_t *length) {
    const scxml_js_buffer *output = &session->outputs[session->last];
    *length = output->length;
    return output->bytes;
}

size_t scxml_js_session_memory(const scxml_js_session *session) { return session->budget.used; }

int scxml_js_session_stack_depth(const scxml_js_session *session) { return (int)duk_get_top(session->ctx); }

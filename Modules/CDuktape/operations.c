/*
 * The data model's operations, each one protected call (scxml_js_protected): evaluating,
 * assigning, running, declaring, <foreach>, and the variables of a snapshot. Each leaves
 * the value stack as it found it (the protected call discards what an error leaves).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Elements copied between two checks of the deadline. */
#define CHECK_EVERY 4096

static const scxml_js_entry *entry_of(duk_context *ctx, const scxml_js_session *session, size_t index) {
    if (index >= session->program->count) {
        (void)duk_error(ctx, DUK_ERR_RANGE_ERROR, "no script %lu", (unsigned long)index);
    }
    return &session->program->entries[index];
}

/* Pushes the value of the expression `index`. */
static void push_evaluated(duk_context *ctx, scxml_js_session *session, size_t index) {
    if (entry_of(ctx, session, index)->flags & SCXML_JS_ALWAYS_TRUE) {
        duk_push_true(ctx);
        return;
    }
    scxml_js_push_function(session, index, 0);
    duk_call(ctx, 0);
}

/* Calls the setter of the location `location` with the value at the top, which it pops. */
static void assign_top(duk_context *ctx, scxml_js_session *session, size_t location) {
    scxml_js_push_function(session, location, 1);
    duk_swap_top(ctx, -2);
    duk_call(ctx, 1);
    duk_pop(ctx);
}

static void push_wire(duk_context *ctx, const uint8_t *bytes, size_t length) {
    scxml_js_push_value(ctx, &bytes, bytes + length);
}

/* MARK: Evaluating */

typedef struct {
    size_t index;
    int result;
} evaluate_arguments;

static duk_ret_t evaluate_operation(duk_context *ctx, void *udata) {
    evaluate_arguments *arguments = udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    push_evaluated(ctx, session, arguments->index);
    scxml_js_crossing_failure failure;
    if (scxml_js_write_value(session, scxml_js_output(session), -1, &failure) != SCXML_JS_CROSSED) {
        char message[200];
        scxml_js_crossing_message(&failure, "the value", "an SCXML value", message, sizeof(message));
        scxml_js_fail(session, message);
    }
    return 0;
}

int scxml_js_evaluate(scxml_js_session *session, size_t index) {
    evaluate_arguments arguments = {.index = index};
    return scxml_js_protected(session, evaluate_operation, &arguments);
}

static duk_ret_t truth_operation(duk_context *ctx, void *udata) {
    evaluate_arguments *arguments = udata;
    push_evaluated(ctx, scxml_js_session_of(ctx), arguments->index);
    arguments->result = duk_to_boolean(ctx, -1);
    return 0;
}

int scxml_js_is_true(scxml_js_session *session, size_t index, int *result) {
    if (index < session->program->count && (session->program->entries[index].flags & SCXML_JS_ALWAYS_TRUE)) {
        *result = 1;
        return 0;
    }
    evaluate_arguments arguments = {.index = index, .result = 0};
    int failed = scxml_js_protected(session, truth_operation, &arguments);
    *result = arguments.result;
    return failed;
}

/* MARK: Assigning and running */

typedef struct {
    size_t location;
    size_t expression;
    const uint8_t *value;
    size_t length;
} assign_arguments;

static duk_ret_t assign_operation(duk_context *ctx, void *udata) {
    assign_arguments *arguments = udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    /* The location first: an illegal one fails before the expression runs. */
    scxml_js_push_function(session, arguments->location, 1);
    duk_pop(ctx);
    if (arguments->value != NULL) {
        push_wire(ctx, arguments->value, arguments->length);
    } else {
        push_evaluated(ctx, session, arguments->expression);
    }
    assign_top(ctx, session, arguments->location);
    return 0;
}

int scxml_js_assign(scxml_js_session *session, size_t location, size_t expression) {
    assign_arguments arguments = {.location = location, .expression = expression};
    return scxml_js_protected(session, assign_operation, &arguments);
}

int scxml_js_assign_value(scxml_js_session *session, size_t location, const uint8_t *value, size_t length) {
    static const uint8_t null_value[1] = {'n'};
    assign_arguments arguments = {
        .location = location, .value = value != NULL ? value : null_value, .length = value != NULL ? length : 1};
    return scxml_js_protected(session, assign_operation, &arguments);
}

static duk_ret_t run_operation(duk_context *ctx, void *udata) {
    evaluate_arguments *arguments = udata;
    scxml_js_push_function(scxml_js_session_of(ctx), arguments->index, 0);
    duk_call(ctx, 0);
    duk_pop(ctx);
    return 0;
}

int scxml_js_run(scxml_js_session *session, size_t index) {
    evaluate_arguments arguments = {.index = index};
    return scxml_js_protected(session, run_operation, &arguments);
}

/* MARK: Declaring */

/* Defines the global whose name is at the top (popped) with the value below it (popped):
   writable and enumerable like a `var`, and remembered as declared. */
static void define_global(duk_context *ctx, scxml_js_session *session) {
    duk_push_heapptr(ctx, session->declared);
    duk_dup(ctx, -2);
    duk_push_true(ctx);
    duk_put_prop(ctx, -3);
    duk_pop(ctx);
    duk_push_global_object(ctx);
    duk_insert(ctx, -3);
    duk_swap_top(ctx, -2);
    duk_def_prop(ctx, -3, DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_SET_WRITABLE | DUK_DEFPROP_SET_ENUMERABLE);
    duk_pop(ctx);
}

typedef struct {
    const char *id;
    size_t id_length;
    long expression;
    const uint8_t *value;
    size_t length;
} declare_arguments;

static duk_ret_t declare_operation(duk_context *ctx, void *udata) {
    declare_arguments *arguments = udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    /* Declared undefined first: a failing expression leaves the variable there, unbound
       (W3C test 277). */
    duk_push_undefined(ctx);
    scxml_js_push_utf8(ctx, arguments->id, arguments->id_length);
    define_global(ctx, session);
    if (arguments->value != NULL) {
        push_wire(ctx, arguments->value, arguments->length);
    } else if (arguments->expression >= 0) {
        push_evaluated(ctx, session, (size_t)arguments->expression);
    } else {
        return 0;
    }
    scxml_js_push_utf8(ctx, arguments->id, arguments->id_length);
    define_global(ctx, session);
    return 0;
}

int scxml_js_declare(scxml_js_session *session, const char *id, size_t id_length, long expression) {
    declare_arguments arguments = {.id = id, .id_length = id_length, .expression = expression};
    return scxml_js_protected(session, declare_operation, &arguments);
}

int scxml_js_declare_value(
    scxml_js_session *session, const char *id, size_t id_length, const uint8_t *value, size_t length) {
    static const uint8_t null_value[1] = {'n'};
    declare_arguments arguments = {
        .id = id, .id_length = id_length, .expression = -1, .value = value != NULL ? value : null_value,
        .length = value != NULL ? length : 1};
    return scxml_js_protected(session, declare_operation, &arguments);
}

/* MARK: <foreach> */

typedef struct {
    size_t array;
    size_t item;
    long index;
    size_t position;
    size_t count;
} foreach_arguments;

/* Declares the location `location` when it is an identifier that is not yet a global. */
static void declare_if_missing(duk_context *ctx, scxml_js_session *session, size_t location) {
    const scxml_js_entry *entry = entry_of(ctx, session, location);
    if (!(entry->flags & SCXML_JS_IDENTIFIER)) return;
    duk_push_global_object(ctx);
    int exists = duk_has_prop_string(ctx, -1, entry->identifier);
    duk_pop(ctx);
    if (exists) return;
    duk_push_undefined(ctx);
    duk_push_string(ctx, entry->identifier);
    define_global(ctx, session);
}

static duk_ret_t foreach_begin_operation(duk_context *ctx, void *udata) {
    foreach_arguments *arguments = udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    push_evaluated(ctx, session, arguments->array);
    if (!duk_is_array(ctx, -1)) {
        return duk_error(ctx, DUK_ERR_TYPE_ERROR, "<foreach> array is not an array: %s", duk_safe_to_string(ctx, -1));
    }
    /* A shallow copy: the body may change the array without changing the iteration. */
    duk_size_t count = duk_get_length(ctx, -1);
    duk_push_array(ctx);
    for (duk_size_t i = 0; i < count; i++) {
        if (i % CHECK_EVERY == CHECK_EVERY - 1 && scxml_js_exec_timeout_check(&session->budget)) {
            return duk_error(ctx, DUK_ERR_RANGE_ERROR, "execution timeout");
        }
        duk_get_prop_index(ctx, -2, (duk_uarridx_t)i);
        duk_put_prop_index(ctx, -2, (duk_uarridx_t)i);
    }
    if (session->copies_count == session->copies_capacity) {
        size_t capacity = session->copies_capacity == 0 ? 4 : session->copies_capacity * 2;
        void **grown = realloc(session->copies, capacity * sizeof(void *));
        if (grown == NULL) return duk_error(ctx, DUK_ERR_RANGE_ERROR, "alloc failed");
        session->copies = grown;
        session->copies_capacity = capacity;
    }
    duk_push_heap_stash(ctx);
    duk_get_prop_string(ctx, -1, "foreach");
    duk_dup(ctx, -3);
    duk_put_prop_index(ctx, -2, (duk_uarridx_t)session->copies_count);
    duk_pop_2(ctx);
    session->copies[session->copies_count++] = duk_get_heapptr(ctx, -1);
    arguments->count = count;
    return 0;
}

int scxml_js_foreach_begin(scxml_js_session *session, size_t array, size_t *count) {
    foreach_arguments arguments = {.array = array};
    int failed = scxml_js_protected(session, foreach_begin_operation, &arguments);
    *count = failed ? 0 : arguments.count;
    session->begin_failed = failed;
    return failed;
}

static duk_ret_t foreach_step_operation(duk_context *ctx, void *udata) {
    foreach_arguments *arguments = udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    if (session->copies_count == 0) return duk_error(ctx, DUK_ERR_ERROR, "no <foreach> runs");
    /* Item and index must be assignable (W3C test 152: `'continue'` is not); a bare
       identifier that is not yet a global is declared (W3C tests 150 and 151). */
    scxml_js_push_function(session, arguments->item, 1);
    duk_pop(ctx);
    if (arguments->index >= 0) {
        scxml_js_push_function(session, (size_t)arguments->index, 1);
        duk_pop(ctx);
    }
    declare_if_missing(ctx, session, arguments->item);
    if (arguments->index >= 0) declare_if_missing(ctx, session, (size_t)arguments->index);
    duk_push_heapptr(ctx, session->copies[session->copies_count - 1]);
    duk_get_prop_index(ctx, -1, (duk_uarridx_t)arguments->position);
    assign_top(ctx, session, arguments->item);
    if (arguments->index >= 0) {
        duk_push_number(ctx, (double)arguments->position);
        assign_top(ctx, session, (size_t)arguments->index);
    }
    duk_pop(ctx);
    return 0;
}

int scxml_js_foreach_step(scxml_js_session *session, size_t item, long index, size_t position) {
    foreach_arguments arguments = {.item = item, .index = index, .position = position};
    session->begin_failed = 0;
    return scxml_js_protected(session, foreach_step_operation, &arguments);
}

static duk_ret_t foreach_end_operation(duk_context *ctx, void *udata) {
    (void)udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    if (session->copies_count == 0) return 0;
    session->copies_count--;
    duk_push_heap_stash(ctx);
    duk_get_prop_string(ctx, -1, "foreach");
    duk_set_length(ctx, -1, session->copies_count);
    duk_pop_2(ctx);
    return 0;
}

void scxml_js_foreach_end(scxml_js_session *session) {
    if (session->begin_failed) {
        session->begin_failed = 0;
        return;
    }
    scxml_js_protected(session, foreach_end_operation, NULL);
}

/* MARK: Snapshots */

enum { GLOBAL = 0, BASELINE = 1, DECLARED = 2 };

static duk_ret_t variables_operation(duk_context *ctx, void *udata) {
    (void)udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    scxml_js_buffer *output = scxml_js_output(session);
    size_t limit = session->budget.limit;
    duk_push_global_object(ctx);
    duk_push_heapptr(ctx, session->baseline);
    duk_push_heapptr(ctx, session->declared);
    uint32_t count = 0;
    if (!scxml_js_buffer_append(output, "o", 1, limit) || !scxml_js_buffer_append(output, &count, 4, limit)) {
        return duk_error(ctx, DUK_ERR_RANGE_ERROR, "alloc failed");
    }
    duk_enum(ctx, GLOBAL, DUK_ENUM_OWN_PROPERTIES_ONLY | DUK_ENUM_INCLUDE_NONENUMERABLE);
    while (duk_next(ctx, -1, 1)) {
        duk_dup(ctx, -2);
        int started = duk_has_prop(ctx, BASELINE);
        duk_dup(ctx, -2);
        int declared = duk_has_prop(ctx, DECLARED);
        if (!started || declared) {
            scxml_js_crossing_failure failure;
            if (!scxml_js_write_string(ctx, output, -2, limit)) failure.reason = SCXML_JS_TOO_LARGE;
            else scxml_js_write_value(session, output, -1, &failure);
            if (failure.reason != SCXML_JS_CROSSED) {
                char subject[120], message[300];
                snprintf(subject, sizeof(subject), "variable '%.80s'", duk_safe_to_string(ctx, -2));
                scxml_js_crossing_message(&failure, subject, "a snapshot", message, sizeof(message));
                scxml_js_fail(session, message);
                return 0;
            }
            count++;
        }
        duk_pop_2(ctx);
    }
    memcpy(output->bytes + 1, &count, 4);
    return 0;
}

int scxml_js_variables(scxml_js_session *session) { return scxml_js_protected(session, variables_operation, NULL); }

/* Every global that holds a function now (and was not declared by a <data>) joins the
   baseline: the document's top-level scripts made it, it is code, and variables() leaves it
   out (a restore runs those scripts again). */
static duk_ret_t mark_code_operation(duk_context *ctx, void *udata) {
    (void)udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    duk_push_global_object(ctx);
    duk_push_heapptr(ctx, session->baseline);
    duk_push_heapptr(ctx, session->declared);
    duk_enum(ctx, GLOBAL, DUK_ENUM_OWN_PROPERTIES_ONLY | DUK_ENUM_INCLUDE_NONENUMERABLE);
    while (duk_next(ctx, -1, 1)) {
        duk_dup(ctx, -2);
        int declared = duk_has_prop(ctx, DECLARED);
        if (!declared && duk_is_function(ctx, -1)) {
            duk_dup(ctx, -2);
            duk_push_true(ctx);
            duk_put_prop(ctx, BASELINE);
        }
        duk_pop_2(ctx);
    }
    return 0;
}

int scxml_js_mark_code(scxml_js_session *session) { return scxml_js_protected(session, mark_code_operation, NULL); }

typedef struct {
    const uint8_t *bytes;
    size_t length;
} restore_arguments;

static duk_ret_t restore_operation(duk_context *ctx, void *udata) {
    restore_arguments *arguments = udata;
    scxml_js_session *session = scxml_js_session_of(ctx);
    const uint8_t *bytes = arguments->bytes, *end = bytes + arguments->length;
    if (bytes == end || *bytes != 'o') return duk_error(ctx, DUK_ERR_TYPE_ERROR, "malformed variables");
    bytes++;
    uint32_t count = scxml_js_read_u32(ctx, &bytes, end);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t length = scxml_js_read_u32(ctx, &bytes, end);
        if ((size_t)(end - bytes) < length) return duk_error(ctx, DUK_ERR_TYPE_ERROR, "malformed variables");
        const char *name = (const char *)bytes;
        bytes += length;
        scxml_js_push_value(ctx, &bytes, end);
        scxml_js_push_utf8(ctx, name, length);
        define_global(ctx, session);
    }
    return 0;
}

int scxml_js_restore(scxml_js_session *session, const uint8_t *variables, size_t length) {
    restore_arguments arguments = {.bytes = variables, .length = length};
    return scxml_js_protected(session, restore_operation, &arguments);
}

/*
 * Values between the engine and the wire format of CDuktape.h: what crosses is what JSON
 * can hold. Out of the engine, undefined becomes null, an array's holes become null, an
 * object keeps its own enumerable string-keyed properties (getters run), and a function,
 * a symbol, a cycle, a non-finite number or a value nested too deep does not cross.
 */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the wire format is little-endian, as the host is expected to be"
#endif

/* Elements between two checks of the deadline while walking an array. */
#define CHECK_EVERY 4096

typedef struct {
    scxml_js_session *session;
    scxml_js_buffer *buffer;
    size_t limit;
    size_t depth;
    /* The objects being written, outermost first: meeting one again is a cycle. The
       session's array for the running call's level (a getter may make a nested call, which
       writes values of its own). */
    void **ancestors;
    scxml_js_crossing_failure *failure;
} writer;

static int put(writer *w, const void *bytes, size_t length) {
    return scxml_js_buffer_append(w->buffer, bytes, length, w->limit);
}

static int put_tag(writer *w, char tag) { return put(w, &tag, 1); }

static int put_u32(writer *w, uint32_t value) { return put(w, &value, 4); }

/* A string as u32 length + UTF-8, the length patched once the text is converted. */
int scxml_js_write_string(duk_context *ctx, scxml_js_buffer *buffer, duk_idx_t index, size_t limit) {
    duk_size_t length = 0;
    const char *text = duk_get_lstring(ctx, index, &length);
    size_t start = buffer->length;
    uint32_t count = 0;
    if (!scxml_js_buffer_append(buffer, &count, 4, limit) || !scxml_js_append_utf8(buffer, text, length, limit)) return 0;
    size_t written = buffer->length - start - 4;
    if (written > UINT32_MAX) return 0;
    count = (uint32_t)written;
    memcpy(buffer->bytes + start, &count, 4);
    return 1;
}

static int put_string(writer *w, duk_idx_t index) {
    return scxml_js_write_string(w->session->ctx, w->buffer, index, w->limit);
}

static void check_deadline(writer *w) {
    if (scxml_js_exec_timeout_check(&w->session->budget)) {
        (void)duk_error(w->session->ctx, DUK_ERR_RANGE_ERROR, "execution timeout");
    }
}

static scxml_js_crossing fail(writer *w, scxml_js_crossing reason) {
    w->failure->reason = reason;
    return reason;
}

static scxml_js_crossing write_at(writer *w, duk_idx_t index);

static scxml_js_crossing write_array(writer *w, duk_idx_t index) {
    duk_context *ctx = w->session->ctx;
    duk_size_t length = duk_get_length(ctx, index);
    if (length > UINT32_MAX || !put_tag(w, 'a') || !put_u32(w, (uint32_t)length)) return fail(w, SCXML_JS_TOO_LARGE);
    for (duk_size_t i = 0; i < length; i++) {
        if (i % CHECK_EVERY == CHECK_EVERY - 1) check_deadline(w);
        duk_get_prop_index(ctx, index, (duk_uarridx_t)i);
        scxml_js_crossing result = write_at(w, -1);
        duk_pop(ctx);
        if (result != SCXML_JS_CROSSED) return result;
    }
    return SCXML_JS_CROSSED;
}

static scxml_js_crossing write_object(writer *w, duk_idx_t index) {
    duk_context *ctx = w->session->ctx;
    if (!put_tag(w, 'o')) return fail(w, SCXML_JS_TOO_LARGE);
    size_t count_at = w->buffer->length;
    if (!put_u32(w, 0)) return fail(w, SCXML_JS_TOO_LARGE);
    uint32_t count = 0;
    duk_enum(ctx, index, DUK_ENUM_OWN_PROPERTIES_ONLY);
    while (duk_next(ctx, -1, 1)) {
        if (count % CHECK_EVERY == CHECK_EVERY - 1) check_deadline(w);
        if (!put_string(w, -2)) return fail(w, SCXML_JS_TOO_LARGE);
        scxml_js_crossing result = write_at(w, -1);
        if (result != SCXML_JS_CROSSED) return result;
        duk_pop_2(ctx);
        count++;
    }
    duk_pop(ctx);
    memcpy(w->buffer->bytes + count_at, &count, 4);
    return SCXML_JS_CROSSED;
}

static scxml_js_crossing write_at(writer *w, duk_idx_t index) {
    duk_context *ctx = w->session->ctx;
    index = duk_normalize_index(ctx, index);
    switch (duk_get_type(ctx, index)) {
    case DUK_TYPE_BOOLEAN:
        return put_tag(w, duk_get_boolean(ctx, index) ? 't' : 'f') ? SCXML_JS_CROSSED : fail(w, SCXML_JS_TOO_LARGE);
    case DUK_TYPE_NUMBER: {
        double number = duk_get_number(ctx, index);
        if (!isfinite(number)) {
            w->failure->number = number;
            return fail(w, SCXML_JS_NON_FINITE);
        }
        return put_tag(w, 'd') && put(w, &number, 8) ? SCXML_JS_CROSSED : fail(w, SCXML_JS_TOO_LARGE);
    }
    case DUK_TYPE_STRING:
        if (duk_is_symbol(ctx, index)) return fail(w, SCXML_JS_SYMBOL);
        return put_tag(w, 's') && put_string(w, index) ? SCXML_JS_CROSSED : fail(w, SCXML_JS_TOO_LARGE);
    case DUK_TYPE_LIGHTFUNC:
        return fail(w, SCXML_JS_FUNCTION);
    case DUK_TYPE_OBJECT:
    case DUK_TYPE_BUFFER: {
        if (duk_is_callable(ctx, index)) return fail(w, SCXML_JS_FUNCTION);
        void *object = duk_get_heapptr(ctx, index);
        for (size_t i = 0; i < w->depth; i++) {
            if (w->ancestors[i] == object) return fail(w, SCXML_JS_CYCLE);
        }
        if (w->depth >= SCXML_JS_MAX_DEPTH) return fail(w, SCXML_JS_TOO_DEEP);
        duk_require_stack(ctx, 4);
        if (w->ancestors == NULL) {
            void ***slot = &w->session->ancestors[w->session->depth];
            if (*slot == NULL) *slot = malloc(SCXML_JS_MAX_DEPTH * sizeof(void *));
            if (*slot == NULL) (void)duk_error(ctx, DUK_ERR_RANGE_ERROR, "alloc failed");
            w->ancestors = *slot;
        }
        w->ancestors[w->depth++] = object;
        scxml_js_crossing result = duk_is_array(ctx, index) ? write_array(w, index) : write_object(w, index);
        w->depth--;
        return result;
    }
    default:
        /* undefined, null, and the pointers only C code makes. */
        return put_tag(w, 'n') ? SCXML_JS_CROSSED : fail(w, SCXML_JS_TOO_LARGE);
    }
}

scxml_js_crossing scxml_js_write_value(
    scxml_js_session *session, scxml_js_buffer *buffer, duk_idx_t index, scxml_js_crossing_failure *failure) {
    duk_context *ctx = session->ctx;
    index = duk_normalize_index(ctx, index);
    duk_idx_t top = duk_get_top(ctx);
    writer w = {
        .session = session, .buffer = buffer, .limit = session->budget.limit, .depth = 0, .ancestors = NULL,
        .failure = failure};
    failure->reason = SCXML_JS_CROSSED;
    scxml_js_crossing result = write_at(&w, index);
    /* A value that does not cross leaves the walk's values behind. */
    duk_set_top(ctx, top);
    return result;
}

void scxml_js_crossing_message(
    const scxml_js_crossing_failure *failure, const char *subject, const char *keeper, char *message, size_t size) {
    switch (failure->reason) {
    case SCXML_JS_FUNCTION:
        snprintf(message, size, "%s holds a function, which %s cannot keep", subject, keeper);
        break;
    case SCXML_JS_CYCLE:
        snprintf(message, size, "%s holds a cyclic structure, which %s cannot keep", subject, keeper);
        break;
    case SCXML_JS_NON_FINITE:
        snprintf(
            message, size, "%s holds a non-finite number (%s), which %s cannot keep", subject,
            isnan(failure->number) ? "NaN" : failure->number > 0 ? "Infinity" : "-Infinity", keeper);
        break;
    case SCXML_JS_SYMBOL:
        snprintf(message, size, "%s holds a symbol, which %s cannot keep", subject, keeper);
        break;
    case SCXML_JS_TOO_DEEP:
        snprintf(
            message, size, "%s nests more than %d levels deep, which %s cannot keep", subject, SCXML_JS_MAX_DEPTH,
            keeper);
        break;
    case SCXML_JS_TOO_LARGE:
        snprintf(message, size, "%s is larger than the session's memory limit, which %s cannot keep", subject, keeper);
        break;
    case SCXML_JS_CROSSED:
        snprintf(message, size, "%s crossed", subject);
        break;
    }
}

static void malformed(duk_context *ctx) {
    (void)duk_error(ctx, DUK_ERR_TYPE_ERROR, "malformed value bytes");
}

uint32_t scxml_js_read_u32(duk_context *ctx, const uint8_t **bytes, const uint8_t *end) {
    if (end - *bytes < 4) malformed(ctx);
    uint32_t value;
    memcpy(&value, *bytes, 4);
    *bytes += 4;
    return value;
}

static void push_at(duk_context *ctx, const uint8_t **bytes, const uint8_t *end, int depth) {
    if (depth > SCXML_JS_MAX_DEPTH) {
        (void)duk_error(
            ctx, DUK_ERR_RANGE_ERROR, "a value nested more than %d levels deep does not cross", SCXML_JS_MAX_DEPTH);
    }
    duk_require_stack(ctx, 3);
    if (*bytes >= end) malformed(ctx);
    char tag = (char)*(*bytes)++;
    switch (tag) {
    case 'n':
        duk_push_null(ctx);
        break;
    case 'u':
        duk_push_undefined(ctx);
        break;
    case 't':
    case 'f':
        duk_push_boolean(ctx, tag == 't');
        break;
    case 'd': {
        if (end - *bytes < 8) malformed(ctx);
        double number;
        memcpy(&number, *bytes, 8);
        *bytes += 8;
        duk_push_number(ctx, number);
        break;
    }
    case 's': {
        uint32_t length = scxml_js_read_u32(ctx, bytes, end);
        if ((size_t)(end - *bytes) < length) malformed(ctx);
        scxml_js_push_utf8(ctx, (const char *)*bytes, length);
        *bytes += length;
        break;
    }
    case 'a': {
        uint32_t count = scxml_js_read_u32(ctx, bytes, end);
        duk_push_array(ctx);
        for (uint32_t i = 0; i < count; i++) {
            push_at(ctx, bytes, end, depth + 1);
            duk_put_prop_index(ctx, -2, i);
        }
        break;
    }
    case 'o': {
        uint32_t count = scxml_js_read_u32(ctx, bytes, end);
        duk_push_object(ctx);
        for (uint32_t i = 0; i < count; i++) {
            uint32_t length = scxml_js_read_u32(ctx, bytes, end);
            if ((size_t)(end - *bytes) < length) malformed(ctx);
            scxml_js_push_utf8(ctx, (const char *)*bytes, length);
            *bytes += length;
            push_at(ctx, bytes, end, depth + 1);
            /* Defined, not put: a key "__proto__" is a property like any other. */
            duk_def_prop(ctx, -3, DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_SET_WEC);
        }
        break;
    }
    default:
        malformed(ctx);
    }
}

void scxml_js_push_value(duk_context *ctx, const uint8_t **bytes, const uint8_t *end) {
    push_at(ctx, bytes, end, 0);
}

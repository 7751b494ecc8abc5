/*
 * Compiling a document's sources once, at load, in a scratch heap: each becomes bytecode
 * (duk_dump_function) that sessions load on first use (duk_load_function), so no source is
 * parsed again, and none per event.
 *
 * - A value, condition or location `T` becomes `function () { return (T); }`. To be sure
 *   that `T` is one expression (and not `1); while (true); (1`, which closes the wrapper's
 *   parenthesis and opens another), it must also compile as `[T]`: no text closes both a
 *   parenthesis and a bracket it did not open. (A `T` with `//` in it is followed by a line
 *   break, which ends a trailing comment.)
 * - A location also becomes the setter `function (v) { "use strict"; (T) = v; }`: strict, so
 *   that assigning to a read-only variable (_sessionid, _event) or an undeclared one fails
 *   instead of doing nothing. The parameter is named `v`, or `v1`, `v2`... whichever does
 *   not occur in `T`, so that it never hides the document's variable of that name.
 * - A script is compiled as global code: its top-level `var` and `function` declarations
 *   become globals.
 *
 * Which syntax errors reject the document: a script's and a location's. A value's or a
 * condition's is kept, and evaluating it fails with it, because SCXML requires the error to
 * be error.execution at run time (W3C tests 277, 309, 312, 487 and 488 write `return` as an
 * expression and expect exactly that). A location that parses but cannot be assigned (`1`,
 * `'continue'`) fails when assigned to (W3C test 152).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const scxml_js_source *source;
    scxml_js_entry *entry;
    /* Set when the source rejects the document. */
    char *rejection;
} compile_arguments;

/* Whether the text has `//`, which may start a comment that runs to the end of its line. */
static int has_line_comment(const scxml_js_source *source) {
    for (size_t i = 0; i + 1 < source->length; i++) {
        if (source->text[i] == '/' && source->text[i + 1] == '/') return 1;
    }
    return 0;
}

/* Compiles prefix + source + suffix (a function expression, or global code); leaves the
   function or the error on the stack and returns 0 on success. A source that may end in a
   line comment is followed by a line break, so that the comment ends before the suffix;
   other sources are not, so that the engine's messages name line 1 for a one-line
   expression. */
static duk_int_t compile_wrapped(
    duk_context *ctx, const char *prefix, const scxml_js_source *source, const char *suffix, int global_code) {
    duk_push_string(ctx, prefix);
    scxml_js_push_utf8(ctx, source->text, source->length);
    duk_push_string(ctx, has_line_comment(source) ? "\n" : "");
    duk_push_string(ctx, suffix);
    duk_concat(ctx, 4);
    duk_push_string(ctx, "scxml");
    return duk_pcompile(ctx, global_code ? 0 : DUK_COMPILE_FUNCTION);
}

/* Whether `name` occurs anywhere in the source's text. */
static int mentions(const scxml_js_source *source, const char *name) {
    size_t length = strlen(name);
    for (size_t i = 0; i + length <= source->length; i++) {
        if (memcmp(source->text + i, name, length) == 0) return 1;
    }
    return 0;
}

/* Compiles a location's setter. Its parameter's name occurs nowhere in the location's text,
   so the location cannot mean it. (Not `arguments[0]`: a function that mentions `arguments`
   makes duktape build an arguments object on every call, which tripled an assignment's
   cost.) */
static duk_int_t compile_setter(duk_context *ctx, const scxml_js_source *source) {
    char name[32];
    for (unsigned n = 0;; n++) {
        snprintf(name, sizeof(name), n == 0 ? "v" : "v%u", n);
        if (!mentions(source, name)) break;
    }
    char prefix[80], suffix[80];
    snprintf(prefix, sizeof(prefix), "function (%s) { \"use strict\"; (", name);
    snprintf(suffix, sizeof(suffix), ") = %s; }", name);
    return compile_wrapped(ctx, prefix, source, suffix, 0);
}

/* The error at the top of the stack as a malloc'd message; pops it. */
static char *pop_message(duk_context *ctx) {
    duk_safe_to_string(ctx, -1);
    char *message = scxml_js_copy_utf8(ctx, -1);
    duk_pop(ctx);
    return message;
}

/* Replaces the function at the top of the stack by a malloc'd copy of its bytecode. */
static void pop_bytecode(duk_context *ctx, uint8_t **bytecode, size_t *length) {
    duk_dump_function(ctx);
    duk_size_t size = 0;
    const void *bytes = duk_get_buffer(ctx, -1, &size);
    *bytecode = malloc(size == 0 ? 1 : size);
    if (*bytecode == NULL) (void)duk_error(ctx, DUK_ERR_RANGE_ERROR, "alloc failed");
    memcpy(*bytecode, bytes, size);
    *length = size;
    duk_pop(ctx);
}

static int is_blank(const scxml_js_source *source) {
    for (size_t i = 0; i < source->length; i++) {
        char c = source->text[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return 0;
    }
    return 1;
}

/* The identifier a location is, trimmed, or NULL. */
static char *identifier_of(const scxml_js_source *source) {
    size_t start = 0, end = source->length;
    while (start < end && strchr(" \t\r\n", source->text[start]) != NULL) start++;
    while (end > start && strchr(" \t\r\n", source->text[end - 1]) != NULL) end--;
    if (start == end) return NULL;
    for (size_t i = start; i < end; i++) {
        char c = source->text[i];
        int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
        if (!letter && !(i > start && c >= '0' && c <= '9')) return NULL;
    }
    char *identifier = malloc(end - start + 1);
    if (identifier == NULL) return NULL;
    memcpy(identifier, source->text + start, end - start);
    identifier[end - start] = 0;
    return identifier;
}

/* Compiles an expression's getter; NULL, or why it is not one expression. */
static char *compile_expression(duk_context *ctx, const scxml_js_source *source, scxml_js_entry *entry) {
    if (compile_wrapped(ctx, "function () { return (", source, "); }", 0) != 0) return pop_message(ctx);
    pop_bytecode(ctx, &entry->getter, &entry->getter_length);
    if (compile_wrapped(ctx, "function () { return [", source, "]; }", 0) != 0) {
        free(entry->getter);
        entry->getter = NULL;
        entry->getter_length = 0;
        return pop_message(ctx);
    }
    duk_pop(ctx);
    return NULL;
}

static duk_ret_t compile_entry(duk_context *ctx, void *udata) {
    compile_arguments *arguments = udata;
    const scxml_js_source *source = arguments->source;
    scxml_js_entry *entry = arguments->entry;
    entry->kind = source->kind;
    switch (source->kind) {
    case SCXML_JS_SCRIPT:
        if (compile_wrapped(ctx, "", source, "", 1) != 0) {
            arguments->rejection = pop_message(ctx);
        } else {
            pop_bytecode(ctx, &entry->getter, &entry->getter_length);
        }
        break;
    case SCXML_JS_LOCATION:
        arguments->rejection = compile_expression(ctx, source, entry);
        if (arguments->rejection != NULL) break;
        if (compile_setter(ctx, source) != 0) {
            entry->setter_error = pop_message(ctx);
        } else {
            pop_bytecode(ctx, &entry->setter, &entry->setter_length);
        }
        entry->identifier = identifier_of(source);
        if (entry->identifier != NULL) entry->flags |= SCXML_JS_IDENTIFIER;
        break;
    case SCXML_JS_CONDITION:
        if (is_blank(source)) {
            entry->flags |= SCXML_JS_ALWAYS_TRUE;
            break;
        }
        entry->error = compile_expression(ctx, source, entry);
        break;
    default:
        entry->error = compile_expression(ctx, source, entry);
        break;
    }
    return 0;
}

void scxml_js_free(void *pointer) { free(pointer); }

void scxml_js_program_free(scxml_js_program *program) {
    if (program == NULL) return;
    for (size_t i = 0; i < program->count; i++) {
        scxml_js_entry *entry = &program->entries[i];
        free(entry->getter);
        free(entry->setter);
        free(entry->error);
        free(entry->setter_error);
        free(entry->identifier);
    }
    free(program->entries);
    free(program);
}

scxml_js_program *scxml_js_compile(
    const scxml_js_source *sources, size_t count, scxml_js_limits limits, size_t *failed_index, char **message) {
    *failed_index = SIZE_MAX;
    *message = NULL;
    scxml_js_program *program = calloc(1, sizeof(scxml_js_program));
    scxml_js_entry *entries = calloc(count == 0 ? 1 : count, sizeof(scxml_js_entry));
    scxml_js_budget budget = {.used = 0, .limit = limits.memory_limit, .deadline = 0, .timed_out = 0};
    duk_context *ctx = program != NULL && entries != NULL ? scxml_js_create_heap(&budget) : NULL;
    if (ctx == NULL) {
        free(program);
        free(entries);
        *message = scxml_js_strdup("out of memory");
        return NULL;
    }
    program->entries = entries;
    program->count = count;
    program->limits = limits;
    /* No deadline (compiling runs no script, and its time grows with the text only), but the
       native stack check: the compiler recurses on nested expressions. */
    scxml_js_call call;
    scxml_js_enter(&call, NULL);
    for (size_t i = 0; i < count; i++) {
        compile_arguments arguments = {.source = &sources[i], .entry = &entries[i], .rejection = NULL};
        if (duk_safe_call(ctx, compile_entry, &arguments, 0, 1) != DUK_EXEC_SUCCESS) {
            arguments.rejection = pop_message(ctx);
        } else {
            duk_pop(ctx);
        }
        if (arguments.rejection != NULL) {
            *failed_index = i;
            *message = arguments.rejection;
            scxml_js_leave(&call);
            duk_destroy_heap(ctx);
            scxml_js_program_free(program);
            return NULL;
        }
    }
    scxml_js_leave(&call);
    duk_destroy_heap(ctx);
    return program;
}

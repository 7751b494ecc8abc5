/*
 * Byte buffers, and text between Swift's UTF-8 and the engine's strings. Duktape keeps an
 * ECMAScript string's UTF-16 code units as CESU-8: a character beyond U+FFFF is two
 * surrogates of three bytes each, where UTF-8 has one sequence of four.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int scxml_js_buffer_append(scxml_js_buffer *buffer, const void *bytes, size_t length, size_t limit) {
    if (length > limit || buffer->length > limit - length) return 0;
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity < 64 ? 64 : buffer->capacity;
        while (capacity < buffer->length + length) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) return 0;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    if (length > 0) memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    return 1;
}

void scxml_js_buffer_free(scxml_js_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->length = 0;
    buffer->capacity = 0;
}

char *scxml_js_strdup(const char *text) {
    size_t length = strlen(text);
    char *copy = malloc(length + 1);
    if (copy != NULL) memcpy(copy, text, length + 1);
    return copy;
}

void scxml_js_push_utf8(duk_context *ctx, const char *text, size_t length) {
    const uint8_t *bytes = (const uint8_t *)text;
    size_t extra = 0;
    for (size_t i = 0; i < length; i++) {
        if (bytes[i] >= 0xF0) extra += 2;
    }
    if (extra == 0) {
        duk_push_lstring(ctx, text, length);
        return;
    }
    /* Each four-byte sequence becomes two three-byte surrogates. The scratch buffer belongs
       to the heap, so an error while pushing leaks nothing. */
    uint8_t *out = duk_push_fixed_buffer(ctx, length + extra);
    size_t o = 0;
    for (size_t i = 0; i < length;) {
        if (bytes[i] >= 0xF0 && i + 4 <= length) {
            uint32_t c = ((uint32_t)(bytes[i] & 0x07) << 18) | ((uint32_t)(bytes[i + 1] & 0x3F) << 12)
                         | ((uint32_t)(bytes[i + 2] & 0x3F) << 6) | (uint32_t)(bytes[i + 3] & 0x3F);
            c -= 0x10000;
            uint32_t high = 0xD800 + (c >> 10), low = 0xDC00 + (c & 0x3FF);
            out[o++] = (uint8_t)(0xE0 | (high >> 12));
            out[o++] = (uint8_t)(0x80 | ((high >> 6) & 0x3F));
            out[o++] = (uint8_t)(0x80 | (high & 0x3F));
            out[o++] = (uint8_t)(0xE0 | (low >> 12));
            out[o++] = (uint8_t)(0x80 | ((low >> 6) & 0x3F));
            out[o++] = (uint8_t)(0x80 | (low & 0x3F));
            i += 4;
        } else {
            out[o++] = bytes[i++];
        }
    }
    duk_push_lstring(ctx, (const char *)out, o);
    duk_remove(ctx, -2);
}

/* The surrogate (0xD800...0xDFFF) encoded as three bytes at `bytes`, or 0. */
static uint32_t surrogate_at(const uint8_t *bytes, size_t available) {
    if (available < 3 || bytes[0] != 0xED || bytes[1] < 0xA0 || bytes[1] > 0xBF) return 0;
    return 0xD000 | ((uint32_t)(bytes[1] & 0x3F) << 6) | (uint32_t)(bytes[2] & 0x3F);
}

int scxml_js_append_utf8(scxml_js_buffer *buffer, const char *text, size_t length, size_t limit) {
    const uint8_t *bytes = (const uint8_t *)text;
    if (memchr(bytes, 0xED, length) == NULL) return scxml_js_buffer_append(buffer, bytes, length, limit);
    size_t start = 0;
    for (size_t i = 0; i < length;) {
        uint32_t high = surrogate_at(bytes + i, length - i);
        if (high == 0) {
            i++;
            continue;
        }
        if (!scxml_js_buffer_append(buffer, bytes + start, i - start, limit)) return 0;
        uint32_t low = high <= 0xDBFF ? surrogate_at(bytes + i + 3, length - i - 3) : 0;
        if (low >= 0xDC00) {
            uint32_t c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            uint8_t joined[4] = {
                (uint8_t)(0xF0 | (c >> 18)), (uint8_t)(0x80 | ((c >> 12) & 0x3F)), (uint8_t)(0x80 | ((c >> 6) & 0x3F)),
                (uint8_t)(0x80 | (c & 0x3F)),
            };
            if (!scxml_js_buffer_append(buffer, joined, 4, limit)) return 0;
            i += 6;
        } else {
            static const uint8_t replacement[3] = {0xEF, 0xBF, 0xBD};
            if (!scxml_js_buffer_append(buffer, replacement, 3, limit)) return 0;
            i += 3;
        }
        start = i;
    }
    return scxml_js_buffer_append(buffer, bytes + start, length - start, limit);
}

char *scxml_js_copy_utf8(duk_context *ctx, duk_idx_t index) {
    duk_size_t length = 0;
    const char *text = duk_get_lstring(ctx, index, &length);
    scxml_js_buffer buffer = {0};
    if (text == NULL || !scxml_js_append_utf8(&buffer, text, length, SIZE_MAX / 2)
        || !scxml_js_buffer_append(&buffer, "", 1, SIZE_MAX / 2)) {
        scxml_js_buffer_free(&buffer);
        return scxml_js_strdup(text == NULL ? "" : "(out of memory)");
    }
    return (char *)buffer.bytes;
}

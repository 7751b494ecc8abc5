/*
 * The bounds of a heap: an allocator that counts the bytes it hands out against the
 * heap's limit, and the deadline of the running call, which the executor checks through
 * DUK_USE_EXEC_TIMEOUT_CHECK and the allocator checks too (a native built-in such as
 * Array.prototype.join runs no bytecode, but it allocates), and the native stack check
 * (duktape_config.h) checks too, for the regular expression executor.
 */
/* pthread_getattr_np is a GNU extension. */
#define _GNU_SOURCE
#include "internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_once_t resolution_once = PTHREAD_ONCE_INIT;
static uint64_t resolution;

static void read_resolution(void) {
    struct timespec tick;
    resolution = clock_getres(CLOCK_MONOTONIC_COARSE, &tick) == 0
                     ? (uint64_t)tick.tv_sec * 1000000000u + (uint64_t)tick.tv_nsec
                     : 4000000u;
}

uint64_t scxml_js_deadline_after(uint64_t duration) {
    /* The coarse clock lags real time by up to one tick: a tick more, and a call never ends
       before its limit. */
    pthread_once(&resolution_once, read_resolution);
    return scxml_js_now() + duration + resolution;
}

uint64_t scxml_js_now(void) {
    /* The coarse clock costs a few nanoseconds (no system call, no rdtsc), which every
       call pays once; its resolution (the kernel tick, 4 ms at most) is plenty for a
       limit of 100 ms. */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* Whether the running call is past its deadline; once it is, it stays so until the call
   has unwound (duktape requires the check to keep answering yes). */
static int past_deadline(scxml_js_budget *budget) {
    if (budget->deadline == 0) return 0;
    if (budget->timed_out) return 1;
    if (scxml_js_now() >= budget->deadline) {
        budget->timed_out = 1;
        return 1;
    }
    return 0;
}

int scxml_js_exec_timeout_check(void *udata) {
    return udata != NULL && past_deadline((scxml_js_budget *)udata);
}

/* The C stack a call leaves free for duktape's error handling and for what the thread does
   after the call fails. */
#define STACK_HEADROOM (128u * 1024u)

static _Thread_local scxml_js_call *running_call;
/* The lowest address of this thread's stack; 1 once it is known to be unknown. */
static _Thread_local uintptr_t stack_end;

void scxml_js_enter(scxml_js_call *call, scxml_js_budget *budget) {
    if (stack_end == 0) {
        /* Once per thread; for the main thread glibc reads /proc/self/maps. */
        pthread_attr_t attributes;
        void *address = NULL;
        size_t size = 0;
        stack_end = 1;
        if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
            if (pthread_attr_getstack(&attributes, &address, &size) == 0 && address != NULL) {
                stack_end = (uintptr_t)address;
            }
            pthread_attr_destroy(&attributes);
        }
    }
    call->budget = budget;
    call->stack_limit = stack_end == 1 ? 0 : stack_end + STACK_HEADROOM;
    call->checks = 0;
    call->outer = running_call;
    running_call = call;
}

void scxml_js_leave(scxml_js_call *call) { running_call = call->outer; }

int scxml_js_native_stack_check(void) {
    scxml_js_call *call = running_call;
    if (call == NULL) return 0;
    char here;
    if ((uintptr_t)&here < call->stack_limit) return 1;
    return ++call->checks % 64 == 0 && call->budget != NULL && past_deadline(call->budget);
}

/* Each block carries its size in front, 16 bytes to keep malloc's alignment. */
typedef struct {
    size_t size;
    size_t padding;
} block_header;

/* Past the deadline, allocations of this size or more fail: that stops a native built-in
   that grows one buffer (Array.prototype.join builds its result by concatenation), without
   failing the small allocations of the error's own unwinding, each failure of which costs
   duktape up to ten garbage collections (ruinous in a heap of deeply nested objects, whose
   collection rescans the heap every 256 levels). */
#define DEADLINE_FAILS_FROM (64u * 1024u)

static void *budget_alloc(void *udata, duk_size_t size) {
    scxml_js_budget *budget = udata;
    if (size > budget->limit - budget->used || (size >= DEADLINE_FAILS_FROM && past_deadline(budget))) return NULL;
    block_header *block = malloc(sizeof(block_header) + size);
    if (block == NULL) return NULL;
    block->size = size;
    budget->used += size;
    return block + 1;
}

static void budget_free(void *udata, void *pointer) {
    if (pointer == NULL) return;
    scxml_js_budget *budget = udata;
    block_header *block = (block_header *)pointer - 1;
    budget->used -= block->size;
    free(block);
}

static void *budget_realloc(void *udata, void *pointer, duk_size_t size) {
    if (pointer == NULL) return budget_alloc(udata, size);
    if (size == 0) {
        budget_free(udata, pointer);
        return NULL;
    }
    scxml_js_budget *budget = udata;
    block_header *block = (block_header *)pointer - 1;
    size_t old = block->size;
    if (size > old
        && (size - old > budget->limit - budget->used || (size >= DEADLINE_FAILS_FROM && past_deadline(budget)))) {
        return NULL;
    }
    block_header *moved = realloc(block, sizeof(block_header) + size);
    if (moved == NULL) return NULL;
    moved->size = size;
    budget->used = budget->used - old + size;
    return moved + 1;
}

/* Only reached when an error escapes every protected call, which the code of this target
   never lets happen: a bug, not a script's doing. */
static void fatal(void *udata, const char *message) {
    (void)udata;
    fprintf(stderr, "StateMachineECMAScript: duktape fatal error: %s\n", message ? message : "(no message)");
    fflush(stderr);
    abort();
}

duk_context *scxml_js_create_heap(scxml_js_budget *budget) {
    /* Duktape cannot report a failed allocation while it makes its built-ins: it calls the
       fatal handler. So the heap is made without the limit, which is checked after. */
    size_t limit = budget->limit;
    budget->limit = SIZE_MAX;
    duk_context *ctx = duk_create_heap(budget_alloc, budget_realloc, budget_free, budget, fatal);
    budget->limit = limit;
    if (ctx != NULL && budget->used > limit) {
        duk_destroy_heap(ctx);
        return NULL;
    }
    return ctx;
}

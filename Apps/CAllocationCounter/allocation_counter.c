// Counts heap allocations for the Benchmarks executable by defining the allocation
// functions in the executable itself: the dynamic linker resolves every library's calls
// to them here first (ELF symbol interposition), and each one forwards to glibc's own
// implementation (`__libc_malloc` and friends), so the allocator and its accounting are
// glibc's, untouched. Under a sanitizer, whose runtime replaces the allocator, nothing is
// defined and counting reports itself unavailable.
#include "CAllocationCounter.h"

#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define ALLOCATION_COUNTER_DISABLED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
#define ALLOCATION_COUNTER_DISABLED 1
#endif

#ifndef ALLOCATION_COUNTER_DISABLED

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic unsigned long long counted;

static inline void count_one(void) { atomic_fetch_add_explicit(&counted, 1, memory_order_relaxed); }

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // POSIX: the alignment must be a power of two multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

int allocation_counting_available(void) { return 1; }

unsigned long long allocation_count(void) { return atomic_load_explicit(&counted, memory_order_relaxed); }

#else

int allocation_counting_available(void) { return 0; }

unsigned long long allocation_count(void) { return 0; }

#endif

// glibc's mallinfo2 walks every arena (the main one and each thread's), not the main arena
// only: its fields are sums over the arena list, the same totals malloc_info(3) prints.
size_t heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

size_t heap_bytes_held(void) {
    struct mallinfo2 info = mallinfo2();
    return info.arena + info.hblkhd;
}

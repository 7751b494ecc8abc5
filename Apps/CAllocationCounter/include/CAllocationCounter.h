#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H

#include <stddef.h>

/// Whether this process counts its heap allocations: glibc without a sanitizer, whose
/// runtime replaces the allocator itself.
int allocation_counting_available(void);

/// The number of `malloc`, `calloc`, `realloc`, `posix_memalign`, `aligned_alloc` and
/// `memalign` calls made so far by any thread of the process (0 when not available).
unsigned long long allocation_count(void);

/// The bytes the allocator has handed out and not yet had back (glibc's `mallinfo2`:
/// in-use bytes summed over every arena, plus memory-mapped blocks).
size_t heap_bytes_in_use(void);

/// The bytes the allocator holds from the system: every arena's size, free chunks and
/// fragments included, plus memory-mapped blocks (`mallinfo2`'s `arena + hblkhd`, equal to
/// `malloc_info`'s `<system type="current">` total plus its `mmap` total).
size_t heap_bytes_held(void);

#endif

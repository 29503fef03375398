// sinew — see include/sinew.h for version and licence
// The wasm build's heap (web/wasm_libc.c): a bump arena over __heap_base.
#ifndef SINEW_WEB_WASM_LIBC_H
#define SINEW_WEB_WASM_LIBC_H

#include <stddef.h>

// `size` bytes aligned to `align` (>= 16), growing linear memory if needed; NULL when it cannot.
void *sinewi_web_heap_alloc(size_t size, size_t align);
// The first free byte (a rollback point for sinewi_web_heap_rewind).
void *sinewi_web_heap_mark(void);
// Gives back everything allocated after `mark` (from sinewi_web_heap_mark); memory does not shrink.
void sinewi_web_heap_rewind(void *mark);
// Bytes taken from the arena so far.
size_t sinewi_web_heap_used(void);

#endif

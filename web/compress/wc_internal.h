// sinew — see include/sinew.h for version and licence
// Internals shared by the wasm compressor's libc files (web/compress/).
#ifndef SINEW_WC_INTERNAL_H
#define SINEW_WC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

// heap.c
void sinew_wc_free_chunk(uintptr_t chunk);
size_t sinew_wc_heap_used(void);

// vfs.c: the in-memory file table
typedef struct sinew_wc_entry {
	char *name;
	unsigned char *data;
	size_t size, capacity;
} sinew_wc_entry;
sinew_wc_entry *sinew_wc_find(const char *name);
// Adds or replaces `name`, taking ownership of `data` (malloc'd); NULL when out of memory.
sinew_wc_entry *sinew_wc_put(const char *name, unsigned char *data, size_t size);
int sinew_wc_delete(const char *name);
size_t sinew_wc_entry_count(void);
sinew_wc_entry *sinew_wc_entry_at(size_t i);
// The console streams (1 stdout, 2 stderr): bytes written so far.
const char *sinew_wc_console(int which, size_t *size);
void sinew_wc_console_reset(void);

// format.c: printf's engine over a sink
typedef struct sinew_wc_sink {
	void (*write)(struct sinew_wc_sink *sink, const char *text, size_t n);
	size_t count; // characters produced
} sinew_wc_sink;
#include <stdarg.h>
int sinew_wc_format(sinew_wc_sink *sink, const char *fmt, va_list args);

#endif

// sinew — see include/sinew.h for version and licence
// Default allocator and the arena used by clip sets and importers.
#include "base.h"

#include <stdlib.h>
#include <string.h>

// malloc gives 16-byte alignment on the platforms we target; larger alignments go through
// aligned_alloc so a caller asking for 64 (cache line) gets it.
static void *default_alloc(void *user, size_t size, size_t align) {
	(void)user;
	if (align <= 16) return malloc(size ? size : 1);
	size_t rounded = (size + align - 1) & ~(align - 1);
	return aligned_alloc(align, rounded ? rounded : align);
}

static void default_free(void *user, void *ptr, size_t size) {
	(void)user;
	(void)size;
	free(ptr);
}

sinewi_alloc sinewi_alloc_from(const sinew_allocator *allocator) {
	sinewi_alloc al;
	if (allocator && allocator->alloc && allocator->free) {
		al.a = *allocator;
	} else {
		al.a.alloc = default_alloc;
		al.a.free = default_free;
		al.a.user = NULL;
	}
	return al;
}

void *sinewi_malloc(const sinewi_alloc *al, size_t size) {
	return al->a.alloc(al->a.user, size, 16);
}

void *sinewi_calloc(const sinewi_alloc *al, size_t count, size_t size) {
	size_t total;
	if (!sinewi_mul_size(count, size, &total)) return NULL;
	void *p = al->a.alloc(al->a.user, total, 16);
	if (p) memset(p, 0, total);
	return p;
}

void sinewi_free(const sinewi_alloc *al, void *ptr, size_t size) {
	if (ptr) al->a.free(al->a.user, ptr, size);
}

struct sinewi_arena_block {
	sinewi_arena_block *next;
	size_t size; // bytes of the whole block including this header
	_Alignas(16) unsigned char data[];
};

void sinewi_arena_init(sinewi_arena *arena, const sinew_allocator *allocator) {
	arena->alloc = sinewi_alloc_from(allocator);
	arena->head = NULL;
	arena->used = 0;
	arena->capacity = 0;
	arena->spare = NULL;
}

static void *arena_take(sinewi_arena *arena, size_t size);

void *sinewi_arena_alloc(sinewi_arena *arena, size_t size) {
	void *p = arena_take(arena, size);
	if (p) memset(p, 0, size);
	return p;
}

void *sinewi_arena_array_uninit(sinewi_arena *arena, size_t count, size_t size) {
	size_t total;
	if (!sinewi_mul_size(count, size, &total)) return NULL;
	return arena_take(arena, total);
}

static void *arena_take(sinewi_arena *arena, size_t size) {
	size_t aligned;
	if (!sinewi_add_size(size, 15, &aligned)) return NULL;
	aligned &= ~(size_t)15;
	if (aligned == 0) aligned = 16;
	if (!arena->head || arena->capacity - arena->used < aligned) {
		// blocks grow from 8 KB to 60 KB: a small clip's arenas stay small (the pages a call touches, and
		// the heap the C library keeps or hands back between calls, follow the sizes asked)
		size_t grow = arena->head ? 2 * arena->capacity : 8192;
		if (grow > 60000) grow = 60000;
		size_t capacity = aligned > grow ? aligned : grow;
		size_t total;
		if (!sinewi_add_size(capacity, sizeof(sinewi_arena_block), &total)) return NULL;
		sinewi_arena_block *block = NULL;
		for (sinewi_arena_block **at = &arena->spare; *at; at = &(*at)->next) // a kept block that holds it
			if ((*at)->size - sizeof(sinewi_arena_block) >= aligned) {
				block = *at;
				*at = block->next;
				total = block->size;
				capacity = total - sizeof(sinewi_arena_block);
				break;
			}
		if (!block) block = (sinewi_arena_block *)sinewi_malloc(&arena->alloc, total);
		if (!block) return NULL;
		block->size = total;
		block->next = arena->head;
		arena->head = block;
		arena->used = 0;
		arena->capacity = capacity;
	}
	void *p = arena->head->data + arena->used;
	arena->used += aligned;
	return p;
}

void *sinewi_arena_array(sinewi_arena *arena, size_t count, size_t size) {
	size_t total;
	if (!sinewi_mul_size(count, size, &total)) return NULL;
	return sinewi_arena_alloc(arena, total);
}

char *sinewi_arena_strndup(sinewi_arena *arena, const char *text, size_t length) {
	if (!text) return NULL;
	size_t total;
	if (!sinewi_add_size(length, 1, &total)) return NULL;
	char *copy = (char *)sinewi_arena_alloc(arena, total);
	if (copy) {
		memcpy(copy, text, length);
		copy[length] = '\0';
	}
	return copy;
}

char *sinewi_arena_strdup(sinewi_arena *arena, const char *text) {
	return text ? sinewi_arena_strndup(arena, text, strlen(text)) : NULL;
}

void sinewi_arena_free(sinewi_arena *arena) {
	sinewi_arena_rewind(arena);
	sinewi_arena_block *block = arena->spare;
	while (block) {
		sinewi_arena_block *next = block->next;
		sinewi_free(&arena->alloc, block, block->size);
		block = next;
	}
	arena->head = arena->spare = NULL;
	arena->used = arena->capacity = 0;
}

void sinewi_arena_rewind(sinewi_arena *arena) {
	sinewi_arena_block *block = arena->head;
	while (block) {
		sinewi_arena_block *next = block->next;
		block->next = arena->spare;
		arena->spare = block;
		block = next;
	}
	arena->head = NULL;
	arena->used = arena->capacity = 0;
}

// sinew — see include/sinew.h for version and licence
// The wasm compressor's allocator: boundary-tagged chunks over [__heap_base, top), free chunks in
// size-class bins (exact classes below 4 KB, four per power of two above), coalesced with their neighbours
// when freed; linear memory grows on demand (memory.grow) and a failed grow is a NULL return, which the
// library reports as OUT_OF_MEMORY. Chunk: a 16-byte header (u32 size | IN_USE, u32 size of the previous
// chunk, 0 for the first), then the payload, 16-byte aligned. A free chunk's payload holds its bin links.
// SINEW_WC_NATIVE_TEST builds it over a static array for the native tests (web/compress/test_libc.c).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <stdlib.h>

#include "wc_internal.h"

#define HDR 16u
#define MIN_CHUNK 32u
#define IN_USE 1u
#define EXACT_LIMIT 4096u
#define EXACT_BINS (EXACT_LIMIT / 16u)
#define NBINS (EXACT_BINS + 4u * 20u)
#define MAX_REQUEST 0x7FF00000u

#ifdef SINEW_WC_NATIVE_TEST
static unsigned char host_memory[64u << 20] __attribute__((aligned(16)));
static size_t host_size = 1u << 16;
#define HEAP_BASE ((uintptr_t)host_memory)
static size_t memory_bytes(void) { return host_size; }
static int memory_grow(size_t pages) {
	if (host_size + pages * 65536u > sizeof host_memory) return -1;
	host_size += pages * 65536u;
	return 0;
}
#else
extern unsigned char __heap_base;
#define HEAP_BASE ((uintptr_t)&__heap_base)
static size_t memory_bytes(void) { return (size_t)__builtin_wasm_memory_size(0) * 65536u; }
static int memory_grow(size_t pages) { return __builtin_wasm_memory_grow(0, pages) == (size_t)-1 ? -1 : 0; }
#endif

static uintptr_t base, top;  // chunks tile [base, top); the chunk before top is in use
static uint32_t last_size;   // size of the chunk that ends at top (0 when the heap is empty)
static uintptr_t bins[NBINS]; // first free chunk of each class
static uint32_t nonempty[(NBINS + 31) / 32];

static inline uint32_t *word(uintptr_t c, unsigned i) { return (uint32_t *)(void *)(c + 4u * i); }
static inline uint32_t size_of(uintptr_t c) { return *word(c, 0) & ~15u; }
static inline int in_use(uintptr_t c) { return (int)(*word(c, 0) & IN_USE); }
static inline uint32_t prev_size(uintptr_t c) { return *word(c, 1); }
static inline uintptr_t *link_next(uintptr_t c) { return (uintptr_t *)(void *)(c + HDR); }
static inline uintptr_t *link_prev(uintptr_t c) { return (uintptr_t *)(void *)(c + HDR + sizeof(uintptr_t)); }

static unsigned bin_of(uint32_t size) {
	if (size < EXACT_LIMIT) return size / 16u;
	unsigned k = 31u - (unsigned)__builtin_clz(size); // 12..31
	return EXACT_BINS + (k - 12u) * 4u + ((size >> (k - 2u)) & 3u);
}

static void bin_insert(uintptr_t c) {
	unsigned b = bin_of(size_of(c));
	*link_prev(c) = 0;
	*link_next(c) = bins[b];
	if (bins[b]) *link_prev(bins[b]) = c;
	bins[b] = c;
	nonempty[b / 32u] |= 1u << (b % 32u);
}

static void bin_remove(uintptr_t c) {
	unsigned b = bin_of(size_of(c));
	uintptr_t next = *link_next(c), prev = *link_prev(c);
	if (prev) *link_next(prev) = next;
	else bins[b] = next;
	if (next) *link_prev(next) = prev;
	if (!bins[b]) nonempty[b / 32u] &= ~(1u << (b % 32u));
}

static void set_chunk(uintptr_t c, uint32_t size, uint32_t used) {
	*word(c, 0) = size | used;
	uintptr_t next = c + size;
	if (next < top) *word(next, 1) = size;
	else last_size = size;
}

static void init(void) {
	if (base) return;
	base = top = (HEAP_BASE + 15u) & ~(uintptr_t)15u;
	last_size = 0;
}

// The first free chunk of at least `size` bytes, removed from its bin, or 0.
static uintptr_t take_free(uint32_t size) {
	unsigned b = bin_of(size);
	if (b >= EXACT_BINS) // a range class: first fit in its own list
		for (uintptr_t c = bins[b]; c; c = *link_next(c))
			if (size_of(c) >= size) return bin_remove(c), c;
	unsigned from = b >= EXACT_BINS ? b + 1u : b;
	for (unsigned w = from / 32u; w < (NBINS + 31) / 32; ++w) {
		uint32_t bits = nonempty[w];
		if (w == from / 32u) bits &= ~0u << (from % 32u);
		if (!bits) continue;
		uintptr_t c = bins[w * 32u + (unsigned)__builtin_ctz(bits)];
		bin_remove(c);
		return c;
	}
	return 0;
}

// Gives the tail of in-use chunk `c` beyond `size` back when it is a chunk's worth.
static void trim(uintptr_t c, uint32_t size) {
	uint32_t have = size_of(c);
	if (have - size < MIN_CHUNK) return;
	set_chunk(c, size, IN_USE);
	uintptr_t rest = c + size;
	*word(rest, 1) = size;
	set_chunk(rest, have - size, IN_USE);
	sinew_wc_free_chunk(rest);
}

static uintptr_t extend(uint32_t size) {
	uintptr_t c = top;
	if ((uint64_t)top + size > UINTPTR_MAX) return 0;
	uintptr_t end = top + size;
	size_t have = memory_bytes();
#ifdef SINEW_WC_NATIVE_TEST
	have += (size_t)HEAP_BASE;
#endif
	if (end > have && memory_grow((end - have + 65535u) / 65536u) != 0) return 0;
	*word(c, 1) = last_size;
	top = end;
	set_chunk(c, size, IN_USE);
	return c;
}

static uint32_t chunk_size_for(size_t n) {
	if (n > MAX_REQUEST) return 0;
	uint32_t s = ((uint32_t)n + HDR + 15u) & ~15u;
	return s < MIN_CHUNK ? MIN_CHUNK : s;
}

void *malloc(size_t n) {
	init();
	uint32_t size = chunk_size_for(n ? n : 1);
	if (!size) return NULL;
	uintptr_t c = take_free(size);
	if (c) {
		set_chunk(c, size_of(c), IN_USE);
		trim(c, size);
	} else if (!(c = extend(size))) {
		return NULL;
	}
	return (void *)(c + HDR);
}

void sinew_wc_free_chunk(uintptr_t c) {
	uint32_t size = size_of(c);
	uintptr_t next = c + size;
	if (next < top && !in_use(next)) bin_remove(next), size += size_of(next);
	if (prev_size(c)) {
		uintptr_t prev = c - prev_size(c);
		if (!in_use(prev)) bin_remove(prev), size += size_of(prev), c = prev;
	}
	if (c + size == top) { // the end of the heap moves back
		top = c;
		last_size = prev_size(c);
		return;
	}
	set_chunk(c, size, 0);
	bin_insert(c);
}

void free(void *p) {
	if (!p) return;
	sinew_wc_free_chunk((uintptr_t)p - HDR);
}

void *calloc(size_t count, size_t size) {
	if (size && count > MAX_REQUEST / size) return NULL;
	void *p = malloc(count * size);
	if (p) memset(p, 0, count * size);
	return p;
}

void *realloc(void *p, size_t n) {
	if (!p) return malloc(n);
	if (!n) return free(p), NULL;
	uint32_t size = chunk_size_for(n);
	if (!size) return NULL;
	uintptr_t c = (uintptr_t)p - HDR;
	uint32_t have = size_of(c);
	if (size <= have) return trim(c, size), p;
	uintptr_t next = c + have;
	if (next == top) { // grow in place at the end of the heap
		if (!extend(size - have)) return NULL;
		top = c + size; // extend() made a chunk at the old top: fold it into c
		set_chunk(c, size, IN_USE);
		return p;
	}
	if (!in_use(next) && have + size_of(next) >= size) {
		bin_remove(next);
		set_chunk(c, have + size_of(next), IN_USE);
		trim(c, size);
		return p;
	}
	void *q = malloc(n);
	if (!q) return NULL;
	memcpy(q, p, have - HDR);
	free(p);
	return q;
}

void *aligned_alloc(size_t align, size_t n) {
	if (align <= 16) return malloc(n);
	if (align & (align - 1) || align > (1u << 20) || n > MAX_REQUEST - align - 2 * MIN_CHUNK) return NULL;
	unsigned char *p = (unsigned char *)malloc(n + align + MIN_CHUNK);
	if (!p) return NULL;
	uintptr_t at = (uintptr_t)p, want = (at + align - 1) & ~(uintptr_t)(align - 1);
	if (want != at && want - at < MIN_CHUNK) want += align;
	if (want == at) return p;
	uintptr_t c = at - HDR, nc = want - HDR;
	uint32_t total = size_of(c), front = (uint32_t)(want - at);
	set_chunk(c, front, IN_USE);
	*word(nc, 1) = front;
	set_chunk(nc, total - front, IN_USE);
	sinew_wc_free_chunk(c);
	uint32_t size = chunk_size_for(n);
	trim(nc, size);
	return (void *)want;
}

int posix_memalign(void **out, size_t align, size_t size) {
	void *p = aligned_alloc(align, size);
	if (!p) return 12; // ENOMEM
	*out = p;
	return 0;
}

size_t sinew_wc_heap_used(void) {
	init();
	return top - base;
}

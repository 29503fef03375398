// sinew — see include/sinew.h for version and licence
// The little libc the decoder needs in the freestanding wasm build (no imports): byte copies,
// string compares, buffer formatting for error messages, and malloc/free over a bump arena
// that starts at the linker's __heap_base and grows linear memory when it must. Memory is
// only taken while a blob is loaded; sampling never allocates.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#define SINEW_WEB_LIBC_IMPL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wasm_libc.h"

extern unsigned char __heap_base;

static uintptr_t heap_top;  // first free byte
static uintptr_t last_ptr;  // most recent allocation, which free() can give back
static uintptr_t last_prev; // heap_top before it

__attribute__((noinline)) void *sinewi_web_heap_alloc(size_t size, size_t align) { // (one copy: bytes)
	if (align < 16) align = 16;
	if (heap_top == 0) heap_top = (uintptr_t)&__heap_base;
	uintptr_t p = (heap_top + (align - 1)) & ~(uintptr_t)(align - 1);
	if (p < heap_top || size > UINTPTR_MAX - p) return NULL;
	uintptr_t end = p + (size ? size : 1);
	uintptr_t have = (uintptr_t)__builtin_wasm_memory_size(0) * 65536u;
	if (end > have) {
		uintptr_t pages = (end - have + 65535u) / 65536u;
		if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return NULL;
	}
	last_prev = heap_top;
	last_ptr = p;
	heap_top = end;
	return (void *)p;
}

void *sinewi_web_heap_mark(void) {
	if (heap_top == 0) heap_top = (uintptr_t)&__heap_base;
	return (void *)heap_top;
}

void sinewi_web_heap_rewind(void *mark) {
	if ((uintptr_t)mark >= (uintptr_t)&__heap_base && (uintptr_t)mark <= heap_top) heap_top = (uintptr_t)mark;
	last_ptr = 0;
}

size_t sinewi_web_heap_used(void) {
	return heap_top ? heap_top - (uintptr_t)&__heap_base : 0;
}

void *malloc(size_t size) {
	return sinewi_web_heap_alloc(size, 16);
}

void *aligned_alloc(size_t align, size_t size) {
	return sinewi_web_heap_alloc(size, align);
}

// Only the latest allocation is given back (the validator's temporary table); the rest lives as
// long as the instance, which holds one loaded animation.
void free(void *ptr) {
	if (ptr && (uintptr_t)ptr == last_ptr) {
		heap_top = last_prev;
		last_ptr = 0;
	}
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
#if defined(SINEW_WASM_WIDE_MEMOPS)
	// the world modules: a player playing one clip alone gets its rest pose copied (40 bytes a joint) every frame
	typedef uint32_t u32x4 __attribute__((vector_size(16), aligned(4)));
	if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) // (16 bytes a step, the tail a byte at a time)
		for (; n >= 16; n -= 16, d += 16, s += 16) *(u32x4 *)(void *)d = *(const u32x4 *)(const void *)s;
#else
	for (; n >= 4 && (((uintptr_t)d | (uintptr_t)s) & 3) == 0; n -= 4, d += 4, s += 4)
		*(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
#endif
	while (n--) *d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
	if (d == s || n == 0) return dst;
	if (d < s || d >= s + n) {
		while (n--) *d++ = *s++;
	} else {
		while (n--) d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n) {
	unsigned char *d = (unsigned char *)dst;
#ifdef SINEW_WASM_WIDE_MEMOPS
	// the world modules (build_wasm.sh): their frame call clears its blend accumulators for every player
	// (52 bytes a joint), which byte by byte was a third of the call; the decoder modules keep the bytes.
	// 16 bytes a step (one v128 store in the SIMD build), then words
	const uint32_t v = (unsigned char)c * 0x01010101u;
	if (((uintptr_t)d & 3) == 0) {
#ifdef __wasm_simd128__
		typedef uint32_t u32x4 __attribute__((vector_size(16), aligned(4)));
		const u32x4 v4 = {v, v, v, v};
		for (; n >= 16; n -= 16, d += 16) *(u32x4 *)(void *)d = v4;
#else
		for (; n >= 16; n -= 16, d += 16) {
			uint32_t *w = (uint32_t *)(void *)d;
			w[0] = v, w[1] = v, w[2] = v, w[3] = v;
		}
#endif
		for (; n >= 4; n -= 4, d += 4) *(uint32_t *)(void *)d = v;
	}
#endif
	while (n--) *d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	for (size_t i = 0; i < n; ++i)
		if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
	return 0;
}

void *memchr(const void *s, int c, size_t n) {
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n; ++i)
		if (p[i] == (unsigned char)c) return (void *)(uintptr_t)(p + i);
	return NULL;
}

size_t strlen(const char *s) {
	size_t n = 0;
	while (s[n]) ++n;
	return n;
}

int strcmp(const char *a, const char *b) {
	while (*a && *a == *b) ++a, ++b;
	return (unsigned char)*a - (unsigned char)*b;
}

// Output cursor that counts every character and stores those that fit (snprintf semantics).
typedef struct out_buf {
	char *p;
	size_t size, n;
} out_buf;

static void put(out_buf *o, char c) {
	if (o->n + 1 < o->size) o->p[o->n] = c;
	o->n++;
}

static void put_padded(out_buf *o, const char *text, size_t len, unsigned width, char pad, int left) {
	size_t fill = width > len ? width - len : 0;
	if (!left)
		for (size_t i = 0; i < fill; ++i) put(o, pad);
	for (size_t i = 0; i < len; ++i) put(o, text[i]);
	if (left)
		for (size_t i = 0; i < fill; ++i) put(o, ' ');
}

int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list args) {
	out_buf o = {buf, size, 0};
	for (const char *f = fmt; *f; ++f) {
		if (*f != '%') {
			put(&o, *f);
			continue;
		}
		++f;
		int left = 0;
		char pad = ' ';
		for (;; ++f) {
			if (*f == '-') left = 1;
			else if (*f == '0') pad = '0';
			else break;
		}
		unsigned width = 0;
		while (*f >= '0' && *f <= '9') width = width * 10u + (unsigned)(*f++ - '0');
		int longs = 0, size_mod = 0;
		while (*f == 'l') ++longs, ++f;
		if (*f == 'z') size_mod = 1, ++f;
		char digits[24];
		size_t len = 0;
		switch (*f) {
		case 'd': case 'i': {
			long long v = longs >= 2 ? va_arg(args, long long) : longs == 1 ? va_arg(args, long) : va_arg(args, int);
			unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
			do digits[sizeof digits - 1 - len++] = (char)('0' + m % 10u); while ((m /= 10u) != 0);
			if (v < 0) digits[sizeof digits - 1 - len++] = '-';
			put_padded(&o, digits + sizeof digits - len, len, width, left ? ' ' : pad, left);
			break;
		}
		case 'u': case 'x': case 'X': {
			unsigned long long m = size_mod ? va_arg(args, size_t)
			                       : longs >= 2 ? va_arg(args, unsigned long long)
			                       : longs == 1 ? va_arg(args, unsigned long) : va_arg(args, unsigned);
			unsigned base = *f == 'u' ? 10u : 16u;
			const char *hex = *f == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
			do digits[sizeof digits - 1 - len++] = hex[m % base]; while ((m /= base) != 0);
			put_padded(&o, digits + sizeof digits - len, len, width, left ? ' ' : pad, left);
			break;
		}
		case 's': {
			const char *s = va_arg(args, const char *);
			if (!s) s = "(null)";
			size_t n = 0;
			while (s[n]) ++n;
			put_padded(&o, s, n, width, ' ', left);
			break;
		}
		case 'c': digits[0] = (char)va_arg(args, int); put_padded(&o, digits, 1, width, ' ', left); break;
		case '%': put(&o, '%'); break;
		case '\0': --f; break;
		default: put(&o, '%'); put(&o, *f); break; // not supported: shown as written
		}
	}
	if (size) buf[o.n < size ? o.n : size - 1] = '\0';
	return (int)o.n;
}

int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...) {
	va_list args;
	va_start(args, fmt);
	int n = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

// sinew — see include/sinew.h for version and licence
// Internal base: types, checks, error reporting, arena allocation. Every stage includes this.
#ifndef SINEW_CORE_BASE_H
#define SINEW_CORE_BASE_H

#include "sinew.h"

#include <float.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// The same bytes on every platform (docs/format.md, Appendix B): float and double operations evaluated
// in their own precision (not x87's 80 bits), and no fast-math (no reassociation, no reciprocals, no FMA).
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "sinew needs FLT_EVAL_METHOD 0 (on 32-bit x86: -msse2 -mfpmath=sse)"
#endif
#if defined(__FAST_MATH__)
#error "sinew must not be built with -ffast-math: its bytes would depend on the compiler"
#endif

#if defined(__GNUC__)
#define SINEWI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define SINEWI_LIKELY(x) __builtin_expect(!!(x), 1)
#define SINEWI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SINEWI_NOINLINE __attribute__((noinline))
#define SINEWI_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SINEWI_PRINTF(f, a)
#define SINEWI_LIKELY(x) (x)
#define SINEWI_UNLIKELY(x) (x)
#define SINEWI_NOINLINE
#define SINEWI_ALWAYS_INLINE inline
#endif

// The wasm decoder counts bytes (32 KB): its slow paths (single tracks, raw knots, single joints)
// are compiled for size there.
#if defined(__wasm__) && defined(__clang__)
#define SINEWI_WASM_SMALL __attribute__((minsize, noinline))
#else
#define SINEWI_WASM_SMALL
#endif

// Fills `error` (may be NULL) and returns `code`, so callers can `return sinewi_fail(...)`.
#ifndef SINEW_TERSE_ERRORS
sinew_result sinewi_fail(sinew_error *error, sinew_result code, const char *fmt, ...) SINEWI_PRINTF(3, 4);
#else
// The wasm decoders count bytes (32 KB): their messages name the source line that refused the input
// ("format_read.c:412"; `sinew validate` gives the full text), without the format strings and a printf.
sinew_result sinewi_fail_at(sinew_error *error, sinew_result code, const char *file, unsigned line);
#define sinewi_fail(error, code, ...) sinewi_fail_at((error), (code), __FILE__, __LINE__)
#endif

// Returns from the current function with `code` and a formatted message when `cond` is false.
#define SINEWI_CHECK(cond, error, code, ...)                                                       \
	do {                                                                                           \
		if (SINEWI_UNLIKELY(!(cond))) return sinewi_fail((error), (code), __VA_ARGS__);            \
	} while (0)

// Propagates a non-OK result.
#define SINEWI_TRY(expr)                                                                           \
	do {                                                                                           \
		sinew_result sinewi_r_ = (expr);                                                           \
		if (sinewi_r_ != SINEW_RESULT_OK) return sinewi_r_;                                        \
	} while (0)

// Allocator with defaults applied (malloc/free when the caller gave none).
typedef struct sinewi_alloc {
	sinew_allocator a;
} sinewi_alloc;

sinewi_alloc sinewi_alloc_from(const sinew_allocator *allocator);
void *sinewi_malloc(const sinewi_alloc *al, size_t size);             // 16-byte aligned, NULL on failure
void *sinewi_calloc(const sinewi_alloc *al, size_t count, size_t size); // overflow-checked, zeroed
void sinewi_free(const sinewi_alloc *al, void *ptr, size_t size);

// Arena: many allocations freed at once (clip sets, importer temporaries).
typedef struct sinewi_arena_block sinewi_arena_block;
typedef struct sinewi_arena {
	sinewi_alloc alloc;
	sinewi_arena_block *head;
	size_t used, capacity;
	sinewi_arena_block *spare; // blocks kept by sinewi_arena_rewind, taken again before new ones
} sinewi_arena;

void sinewi_arena_init(sinewi_arena *arena, const sinew_allocator *allocator);
void *sinewi_arena_alloc(sinewi_arena *arena, size_t size); // zeroed, 16-byte aligned
void *sinewi_arena_array(sinewi_arena *arena, size_t count, size_t size); // overflow-checked
// Not zeroed: for scratch that is written before it is read (the compressor's per-segment arrays).
void *sinewi_arena_array_uninit(sinewi_arena *arena, size_t count, size_t size);
char *sinewi_arena_strdup(sinewi_arena *arena, const char *text);
char *sinewi_arena_strndup(sinewi_arena *arena, const char *text, size_t length);
void sinewi_arena_free(sinewi_arena *arena);
// Forgets every allocation but keeps the blocks for the next ones (scratch used task after task:
// memory the allocator would hand back and the system fault in again each time).
void sinewi_arena_rewind(sinewi_arena *arena);

// Size arithmetic that reports overflow instead of wrapping (counts from untrusted input).
static inline bool sinewi_mul_size(size_t a, size_t b, size_t *out) {
	if (b != 0 && a > SIZE_MAX / b) return false;
	*out = a * b;
	return true;
}
static inline bool sinewi_add_size(size_t a, size_t b, size_t *out) {
	if (a > SIZE_MAX - b) return false;
	*out = a + b;
	return true;
}

// fmax, fmin and nextafterf(x, INFINITY) without libm (the codec calls none of its functions but sqrt,
// floor and ceil: docs/format.md, Appendix B), one result on every platform: a NaN gives way to the
// other operand, and of +0 and -0 the second is returned; the next float up of -0 and +0 is the smallest
// subnormal, of -min it is -0.
static inline double sinewi_fmax(double a, double b) {
	return a > b || b != b ? a : b;
}
static inline double sinewi_fmin(double a, double b) {
	return a < b || b != b ? a : b;
}
static inline float sinewi_fmaxf(float a, float b) {
	return a > b || b != b ? a : b;
}
static inline float sinewi_next_up(float x) {
	union {
		float f;
		uint32_t u;
	} v = {x};
	if ((v.u & 0x7fffffffu) > 0x7f800000u || v.u == 0x7f800000u) return x; // NaN, +inf
	if ((v.u & 0x7fffffffu) == 0) v.u = 1u;                                 // -0, +0
	else v.u = v.u >> 31 ? v.u - 1u : v.u + 1u;
	return v.f;
}

// Unit conversions (DESIGN §4: thresholds are given in centimetres).
static inline double sinewi_cm_to_units(double cm, double unit_scale) {
	return cm * 0.01 * unit_scale;
}

#endif

// sinew — see include/sinew.h for version and licence
// Little-endian field access and the LSB-first bit stream of docs/format.md. Never casts the
// blob to a struct; every multi-byte field is assembled from bytes.
#ifndef SINEW_CORE_BITS_H
#define SINEW_CORE_BITS_H

#include <stdint.h>
#include <string.h>

// wasm is little-endian and loads unaligned: one load instead of four (the decoder module counts bytes).
static inline uint16_t sinewi_rd16(const unsigned char *p) {
#ifdef __wasm__
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
#else
	return (uint16_t)(p[0] | (p[1] << 8));
#endif
}
static inline uint32_t sinewi_rd32(const unsigned char *p) {
#ifdef __wasm__
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
#else
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
#endif
}
static inline uint64_t sinewi_rd64(const unsigned char *p) {
	return (uint64_t)sinewi_rd32(p) | ((uint64_t)sinewi_rd32(p + 4) << 32);
}
static inline float sinewi_rdf32(const unsigned char *p) {
	uint32_t u = sinewi_rd32(p);
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static inline double sinewi_rdf64(const unsigned char *p) {
	uint64_t u = sinewi_rd64(p);
	double f;
	memcpy(&f, &u, 8);
	return f;
}
static inline void sinewi_wr16(unsigned char *p, uint32_t v) {
	p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
}
static inline void sinewi_wr32(unsigned char *p, uint32_t v) {
	p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}
static inline void sinewi_wr64(unsigned char *p, uint64_t v) {
	sinewi_wr32(p, (uint32_t)v);
	sinewi_wr32(p + 4, (uint32_t)(v >> 32));
}
static inline void sinewi_wrf32(unsigned char *p, float f) {
	uint32_t u;
	memcpy(&u, &f, 4);
	sinewi_wr32(p, u);
}
static inline void sinewi_wrf64(unsigned char *p, double f) {
	uint64_t u;
	memcpy(&u, &f, 8);
	sinewi_wr64(p, u);
}

// Reads `width` (<= 32) bits at bit position `pos` of an LSB-first stream. The caller guarantees
// 8 readable bytes from pos / 8 (the format pads every blob with 8 trailing bytes).
static inline uint32_t sinewi_read_bits(const unsigned char *base, uint64_t pos, uint32_t width) {
	uint64_t word;
	memcpy(&word, base + (pos >> 3), 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	word = __builtin_bswap64(word);
#endif
	return (uint32_t)((word >> (pos & 7u)) & ((1ull << width) - 1ull));
}

// The stream from bit position `pos` on, in the low bits of a word: at least 57 valid bits (same
// guarantee as sinewi_read_bits), so several narrow fields need one load.
static inline uint64_t sinewi_read_word(const unsigned char *base, uint64_t pos) {
	uint64_t word;
	memcpy(&word, base + (pos >> 3), 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	word = __builtin_bswap64(word);
#endif
	return word >> (pos & 7u);
}

// Appends `width` bits (<= 32) to an LSB-first stream; `buffer` must be zeroed and large enough.
// A byte at a time (the bits of `value` above `width` are not written).
static inline void sinewi_write_bits(unsigned char *buffer, uint64_t *pos, uint32_t value, uint32_t width) {
	uint64_t p = *pos, v = width < 32 ? value & ((1u << width) - 1u) : value;
	for (uint32_t left = width; left;) {
		const uint32_t bit = (uint32_t)(p & 7u), n = 8u - bit < left ? 8u - bit : left;
		buffer[p >> 3] |= (unsigned char)((v & ((1u << n) - 1u)) << bit);
		v >>= n, p += n, left -= n;
	}
	*pos += width;
}

#endif

// sinew — see include/sinew.h for version and licence
// XXH32 (the xxHash 32-bit algorithm, seed 0), the blob checksum of docs/format.md §checksum.
#include "base.h"
#include "bits.h"
#include "hash.h"

#define P1 2654435761u
#define P2 2246822519u
#define P3 3266489917u
#define P4 668265263u
#define P5 374761393u

static uint32_t rotl(uint32_t x, int r) {
	return (x << r) | (x >> (32 - r));
}

static uint32_t round32(uint32_t acc, uint32_t input) {
	acc += input * P2;
	acc = rotl(acc, 13);
	return acc * P1;
}

uint32_t sinewi_xxh32(const void *data, size_t size, uint32_t seed) {
	const unsigned char *p = (const unsigned char *)data, *end = p + size;
	uint32_t h;
	if (size >= 16) {
		uint32_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
		const unsigned char *limit = end - 16;
		do {
			v1 = round32(v1, sinewi_rd32(p));
			v2 = round32(v2, sinewi_rd32(p + 4));
			v3 = round32(v3, sinewi_rd32(p + 8));
			v4 = round32(v4, sinewi_rd32(p + 12));
			p += 16;
		} while (p <= limit);
		h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
	} else {
		h = seed + P5;
	}
	h += (uint32_t)size;
	while (p + 4 <= end) {
		h += sinewi_rd32(p) * P3;
		h = rotl(h, 17) * P4;
		p += 4;
	}
	while (p < end) {
		h += (*p) * P5;
		h = rotl(h, 11) * P1;
		++p;
	}
	h ^= h >> 15;
	h *= P2;
	h ^= h >> 13;
	h *= P3;
	h ^= h >> 16;
	return h;
}

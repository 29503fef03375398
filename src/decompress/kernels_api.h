// sinew — see include/sinew.h for version and licence
// The math phase of sampling, one implementation per instruction set (kernels.h compiled per
// ISA). Bit unpacking is scalar and shared; kernels only dequantize, rebuild and interpolate,
// with exactly the operation order of docs/format.md, so every kernel gives identical floats.
#ifndef SINEW_DECOMPRESS_KERNELS_API_H
#define SINEW_DECOMPRESS_KERNELS_API_H

#include <stdint.h>

#define SINEWI_MAX_LANES 8u

// Quantized rotations, structure of arrays, `count` entries padded to the kernel's lanes.
typedef struct sinewi_rotation_batch {
	float *lo[3], *step[3];  // per stored slot (segment constants)
	float *dropped;          // rebuilt component index as a float 0..3 (segment constant)
	float *qa[3], *qb[3];    // quantized values of the two knots, as floats
	float *alpha;
	float *out[4];           // x, y, z, w
} sinewi_rotation_batch;

// Translations, scales and scalar tracks: 4 floats per entry (unused components are zero).
typedef struct sinewi_vector_batch {
	float *lo, *step;        // [count * 4] (segment constants)
	float *qa, *qb;          // [count * 4]
	float *alpha;            // [count]
	float *out;              // [count * 4]
} sinewi_vector_batch;

typedef struct sinewi_kernel_table {
	const char *name;
	uint32_t lanes;
	void (*rotations)(const sinewi_rotation_batch *b, uint32_t count);
	void (*vectors)(const sinewi_vector_batch *b, uint32_t count);
} sinewi_kernel_table;

extern const sinewi_kernel_table sinewi_kernel_scalar;
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
extern const sinewi_kernel_table sinewi_kernel_sse2;
extern const sinewi_kernel_table sinewi_kernel_avx2;
#endif
#if defined(__aarch64__) || defined(__ARM_NEON)
extern const sinewi_kernel_table sinewi_kernel_neon;
#endif
#if defined(__wasm_simd128__)
extern const sinewi_kernel_table sinewi_kernel_wasm_simd128;
#endif

#endif

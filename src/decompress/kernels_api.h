// sinew — see include/sinew.h for version and licence
// The math phase of sampling, one implementation per instruction set (kernels.h compiled per
// ISA). Bit unpacking is scalar and shared; kernels convert the quantized integers, rebuild
// predicted knots (integer arithmetic), dequantize, rebuild and interpolate, with exactly the
// operation order of docs/format.md, so every kernel gives identical floats.
#ifndef SINEW_DECOMPRESS_KERNELS_API_H
#define SINEW_DECOMPRESS_KERNELS_API_H

#include <stdint.h>

#define SINEWI_MAX_LANES 8u

// Natively the kernels rebuild predicted rotation knots in integer lanes, and interpolate rotations
// in a second pass; the wasm decoder, which counts bytes, rebuilds predicted knots while unpacking
// and makes one pass.
#if defined(__wasm__)
#define SINEWI_KERNEL_MIDPOINTS 0
#define SINEWI_KERNEL_TWO_PASS 0
#else
#define SINEWI_KERNEL_MIDPOINTS 1
#define SINEWI_KERNEL_TWO_PASS 1
#endif

// Quantized rotations, structure of arrays, `count` entries padded to the kernel's lanes. The
// quantized values are integers (converted in the kernels); with `residuals`, an entry whose `mid`
// is 1 (2) takes for knot a (b) the midpoint prediction from qa, qb and its residual field qr
// (docs/format.md §midpoint knots), computed in the kernels' integer lanes.
typedef struct sinewi_rotation_batch {
	float *lo[3], *step[3];  // per stored slot (segment constants)
	float *dropped;          // rebuilt component index as a float 0..3 (segment constant)
	uint32_t *bias[3];       // midpoint residual bias per stored slot (segment constant)
	uint32_t *mask[3];       // the slot's bits: the rebuilt value wraps modulo 2^width (segment constant)
	uint32_t *qa[3], *qb[3]; // quantized values of the two knots (predicted ones: their plain neighbours)
	uint32_t *qr[3];         // residual fields of the predicted knot
	float *mid;              // 0: both knots plain, 1: knot a is predicted, 2: knot b is (with `residuals`)
	uint32_t residuals;      // some entry may have mid != 0
	float *alpha;
	const float *fit;        // Slerp_fit coefficients (sinewi_slerp_fit), or NULL: plain nlerp (clip constant)
	float *ka[4], *kb[4];    // the two knots' quaternions (between the kernel's passes)
	float *out[4];           // x, y, z, w
} sinewi_rotation_batch;

// Translations, scales and scalar tracks: 4 values per entry (unused components are zero); their
// predicted knots are rebuilt while unpacking.
typedef struct sinewi_vector_batch {
	float *lo, *step;        // [count * 4] (segment constants)
	uint32_t *qa, *qb;       // [count * 4] quantized values
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

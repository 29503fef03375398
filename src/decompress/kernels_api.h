// sinew — see include/sinew.h for version and licence
// The math phase of sampling, one implementation per instruction set (kernels.h compiled per
// ISA). Bit unpacking is scalar and shared; kernels convert the quantized integers, rebuild
// predicted knots (integer arithmetic), dequantize, rebuild and interpolate, with exactly the
// operation order of docs/format.md, so every kernel gives identical floats.
#ifndef SINEW_DECOMPRESS_KERNELS_API_H
#define SINEW_DECOMPRESS_KERNELS_API_H

#include <stddef.h>
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

// Batch entries the kernels take per call: a sampling call unpacks, runs the kernels and scatters chunk by
// chunk, in a batch on its own stack (hot in L1 whatever the context: none of a context's lines is written).
#define SINEWI_CHUNK 32u

// Quantized rotations, structure of arrays, `count` (<= SINEWI_CHUNK) entries, read up to the kernel's lanes
// (the segment constants are followed by SINEWI_MAX_LANES floats of slack). The quantized values are integers (converted in
// the kernels); with `residuals`, an entry whose `mid` is 1 (2) takes for knot a (b) the midpoint prediction
// from qa, qb and its residual field qr (docs/format.md §midpoint knots), computed in the kernels' integer lanes.
typedef struct sinewi_rotation_batch {
	const float *lo[3], *step[3];  // per stored slot (segment constants, at the chunk's first entry)
	uint32_t residuals;            // some entry may have mid != 0
	const float *fit;              // Slerp_fit coefficients (sinewi_slerp_fit), or NULL: plain nlerp (clip constant)
	const float *dropped;          // rebuilt component index as a float 0..3 (segment constants, at the chunk's first entry)
	float *pose;                   // with a kernel that `writes_pose`: entry b's quaternion goes to pose + out_offsets[b], not
	const uint32_t *out_offsets;   // to `out` (NULL: to `out`; sample.c scatters it)
	_Alignas(64) uint32_t qa[3][SINEWI_CHUNK], qb[3][SINEWI_CHUNK]; // quantized values of the two knots (predicted ones: their plain neighbours)
#if SINEWI_KERNEL_MIDPOINTS
	uint32_t qr[3][SINEWI_CHUNK];  // residual fields of the predicted knot, less their bias
	uint32_t mask[3][SINEWI_CHUNK]; // the slot's bits: the rebuilt value wraps modulo 2^width (set where `mid` is not 0)
	float mid[SINEWI_CHUNK];       // 0: both knots plain, 1: knot a is predicted, 2: knot b is (with `residuals`)
#endif
	float alpha[SINEWI_CHUNK];
#if SINEWI_KERNEL_TWO_PASS
	union { // (one space for two phases: the AVX2 unpack's words, then the kernel's knots)
		struct {
			float ka[4][SINEWI_CHUNK], kb[4][SINEWI_CHUNK]; // the two knots' quaternions (between the kernel's passes)
		};
		uint64_t words[4][SINEWI_CHUNK]; // AVX2 unpack (unpack_avx2.h): each entry's knot words and width bytes
	};
#endif
	float out[4][SINEWI_CHUNK];    // x, y, z, w
} sinewi_rotation_batch;

// Translations, scales and scalar tracks: 4 values per entry (unused components are zero); their
// predicted knots are rebuilt while unpacking.
typedef struct sinewi_vector_batch {
	const float *lo, *step;        // [count * 4] (segment constants, at the chunk's first entry)
	_Alignas(64) uint32_t qa[4 * SINEWI_CHUNK], qb[4 * SINEWI_CHUNK]; // quantized values (the arrays in whole lines)
	float alpha[SINEWI_CHUNK];
	float out[4 * SINEWI_CHUNK];
} sinewi_vector_batch;

struct sinewi_segment_params;
struct sinewi_knot_picks;
struct sinewi_cached_track;

typedef struct sinewi_kernel_table {
	const char *name;
	uint32_t lanes;
	void (*rotations)(sinewi_rotation_batch *b, uint32_t count);
	void (*vectors)(sinewi_vector_batch *b, uint32_t count);
	// The unpack loops of unpack.h for a format-3 segment (the same integers), compiled for this instruction set
	// where it unpacks faster (BMI2's shifts and masks); NULL: sample.c's. `residuals`: bit 0 some track is split,
	// bit 1 the picks are uniform (sinewi_knot_picks.uniform_sel). unpack_rotations also zeroes alpha and mid
	// in the lanes from `count` to the kernel's next multiple of lanes (sample.c does it after its own loops).
	void (*unpack_rotations)(const struct sinewi_segment_params *seg, const struct sinewi_knot_picks *kp, uint32_t residuals,
	                         uint32_t first, uint32_t count, sinewi_rotation_batch *b);
	void (*unpack_vectors)(const struct sinewi_segment_params *seg, const struct sinewi_knot_picks *kp, uint32_t residuals,
	                       const struct sinewi_cached_track *tracks, uint32_t first, uint32_t count, uint32_t joint_vectors,
	                       sinewi_vector_batch *b);
	uint32_t writes_pose;          // `rotations` writes the quaternions to the pose itself when the batch's `pose` is set
	                               // (AVX2: its lanes transposed in registers instead of through `out` and a scatter)
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

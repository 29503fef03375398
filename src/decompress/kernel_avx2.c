// sinew — see include/sinew.h for version and licence
// AVX2 kernel: kernels.h with 8 lanes, compiled for AVX2 by a target attribute so the rest of
// the library stays baseline; chosen at run time only on CPUs (and OSes) that support it.
// No FMA: contraction would change the floats (docs/format.md, exactness across kernels).
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>

#include "kernels_api.h"

#define KERNEL_TABLE sinewi_kernel_avx2
#define KERNEL_NAME "avx2"
#define KERNEL_ATTR __attribute__((target("avx2,bmi2")))
#define VW 8
#define VEC __m256
#define VMASK __m256
#define V_LOAD(p) _mm256_loadu_ps(p)
#define V_STORE(p, v) _mm256_storeu_ps(p, v)
#define V_SET1(x) _mm256_set1_ps(x)
#define V_ADD _mm256_add_ps
#define V_SUB _mm256_sub_ps
#define V_MUL _mm256_mul_ps
#define V_DIV _mm256_div_ps
#define V_SQRT _mm256_sqrt_ps
#define V_MAX _mm256_max_ps
#define V_NEG(a) _mm256_xor_ps(a, _mm256_set1_ps(-0.0f))
#define V_EQ(a, b) _mm256_cmp_ps(a, b, _CMP_EQ_OQ)
#define V_LT(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define V_LE(a, b) _mm256_cmp_ps(a, b, _CMP_LE_OQ)
#define V_GT(a, b) _mm256_cmp_ps(a, b, _CMP_GT_OQ)
#define V_SEL(m, a, b) _mm256_blendv_ps(b, a, m)
#define VI __m256i
#define VI_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VI_SET1(x) _mm256_set1_epi32((int)(x))
#define VI_ADD _mm256_add_epi32
#define VI_AND _mm256_and_si256
#define VI_SRL1(a) _mm256_srli_epi32(a, 1)
#define VI_TOF _mm256_cvtepi32_ps
#define V4_LOAD_TOF(p) _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)(const void *)(p)))
// Eight quaternions (lanes of x, y, z, w) to pose + out[k] for the first `left` of them (all eight when left >= 8): the
// 4x8 transpose in registers, each quaternion a 16-byte store.
KERNEL_ATTR static inline void store_quats8(float *pose, const uint32_t *out, uint32_t left, __m256 x, __m256 y, __m256 z, __m256 w) {
	const __m256 t0 = _mm256_unpacklo_ps(x, y), t1 = _mm256_unpackhi_ps(x, y); // x0 y0 x1 y1 | x4 y4 x5 y5; x2 y2 x3 y3 | ...
	const __m256 t2 = _mm256_unpacklo_ps(z, w), t3 = _mm256_unpackhi_ps(z, w);
	const __m256 q04 = _mm256_shuffle_ps(t0, t2, 0x44), q15 = _mm256_shuffle_ps(t0, t2, 0xEE); // q0 | q4, q1 | q5
	const __m256 q26 = _mm256_shuffle_ps(t1, t3, 0x44), q37 = _mm256_shuffle_ps(t1, t3, 0xEE);
	if (left >= 8) {
		_mm_storeu_ps(pose + out[0], _mm256_castps256_ps128(q04)), _mm_storeu_ps(pose + out[1], _mm256_castps256_ps128(q15));
		_mm_storeu_ps(pose + out[2], _mm256_castps256_ps128(q26)), _mm_storeu_ps(pose + out[3], _mm256_castps256_ps128(q37));
		_mm_storeu_ps(pose + out[4], _mm256_extractf128_ps(q04, 1)), _mm_storeu_ps(pose + out[5], _mm256_extractf128_ps(q15, 1));
		_mm_storeu_ps(pose + out[6], _mm256_extractf128_ps(q26, 1)), _mm_storeu_ps(pose + out[7], _mm256_extractf128_ps(q37, 1));
		return;
	}
	const __m128 q[8] = {_mm256_castps256_ps128(q04), _mm256_castps256_ps128(q15), _mm256_castps256_ps128(q26), _mm256_castps256_ps128(q37),
	                     _mm256_extractf128_ps(q04, 1), _mm256_extractf128_ps(q15, 1), _mm256_extractf128_ps(q26, 1), _mm256_extractf128_ps(q37, 1)};
	for (uint32_t k = 0; k < left; ++k) _mm_storeu_ps(pose + out[k], q[k]);
}
#define V_STORE_QUATS store_quats8
#define V4 __m128
#define V4_LOAD _mm_loadu_ps
#define V4_STORE _mm_storeu_ps
#define V4_SET1 _mm_set1_ps
#define V4_ADD _mm_add_ps
#define V4_SUB _mm_sub_ps
#define V4_MUL _mm_mul_ps

// The unpack loops compiled for AVX2 and BMI2 (every AVX2 CPU has it; dispatch.c checks both): rotations cut their
// fields in vector lanes (unpack_avx2.h); vectors take unpack.h's loop, where BMI2 cuts a field of variable width with
// one instruction instead of a table load, a shift through cl and an and.
#include "context.h"
#define SINEWI_UNPACK_BMI2 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi2")
#endif
#include "unpack.h"
#include "unpack_avx2.h"
// (`residuals` bit 0: some track is split; bit 1: the picks are uniform)
static void unpack_rotations_avx2(const sinewi_segment_params *seg, const sinewi_knot_picks *kp, uint32_t residuals, uint32_t first,
                                  uint32_t count, sinewi_rotation_batch *rb) {
	switch (residuals) {
	case 0: unpack_rotations_lanes(seg, kp, false, false, first, count, rb); break;
	case 1: unpack_rotations_lanes(seg, kp, true, false, first, count, rb); break;
	case 2: unpack_rotations_lanes(seg, kp, false, true, first, count, rb); break;
	default: unpack_rotations_lanes(seg, kp, true, true, first, count, rb); break;
	}
}
static void unpack_vectors_bmi2(const sinewi_segment_params *seg, const sinewi_knot_picks *kp, uint32_t residuals,
                                const sinewi_cached_track *tracks, uint32_t first, uint32_t count, uint32_t joint_vectors,
                                sinewi_vector_batch *vb) {
	switch (residuals) {
	case 0: unpack_vectors(seg, kp, false, true, false, tracks, first, count, joint_vectors, vb); break;
	case 1: unpack_vectors(seg, kp, true, true, false, tracks, first, count, joint_vectors, vb); break;
	case 2: unpack_vectors(seg, kp, false, true, true, tracks, first, count, joint_vectors, vb); break;
	default: unpack_vectors(seg, kp, true, true, true, tracks, first, count, joint_vectors, vb); break;
	}
}
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#define KERNEL_UNPACK unpack_rotations_avx2, unpack_vectors_bmi2

#include "kernels.h"
#else
typedef int sinewi_kernel_avx2_not_built; // this target has no such instruction set
#endif

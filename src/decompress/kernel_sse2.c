// sinew — see include/sinew.h for version and licence
// SSE2 kernel (x86-64 baseline): kernels.h with 4 lanes.
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <emmintrin.h>

#include "kernels_api.h"

#define KERNEL_TABLE sinewi_kernel_sse2
#define KERNEL_NAME "sse2"
#define KERNEL_ATTR __attribute__((target("sse2")))
#define VW 4
#define VEC __m128
#define VMASK __m128
#define V_LOAD(p) _mm_loadu_ps(p)
#define V_STORE(p, v) _mm_storeu_ps(p, v)
#define V_SET1(x) _mm_set1_ps(x)
#define V_ADD _mm_add_ps
#define V_SUB _mm_sub_ps
#define V_MUL _mm_mul_ps
#define V_DIV _mm_div_ps
#define V_SQRT _mm_sqrt_ps
#define V_MAX _mm_max_ps // max(x, +0) returns +0 for x = -0, like the scalar `x > 0 ? x : 0`
#define V_NEG(a) _mm_xor_ps(a, _mm_set1_ps(-0.0f))
#define V_EQ _mm_cmpeq_ps
#define V_LT _mm_cmplt_ps
#define V_LE _mm_cmple_ps
#define V_GT _mm_cmpgt_ps
#define V_SEL(m, a, b) _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b))
#define VI __m128i
#define VI_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define VI_SET1(x) _mm_set1_epi32((int)(x))
#define VI_ADD _mm_add_epi32
#define VI_AND _mm_and_si128
#define VI_SRL1(a) _mm_srli_epi32(a, 1)
#define VI_TOF _mm_cvtepi32_ps
#define V4_LOAD_TOF(p) _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define V4 __m128
#define V4_LOAD _mm_loadu_ps
#define V4_STORE _mm_storeu_ps
#define V4_SET1 _mm_set1_ps
#define V4_ADD _mm_add_ps
#define V4_SUB _mm_sub_ps
#define V4_MUL _mm_mul_ps
#include "kernels.h"
#else
typedef int sinewi_kernel_sse2_not_built; // this target has no such instruction set
#endif

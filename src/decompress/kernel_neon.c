// sinew — see include/sinew.h for version and licence
// NEON kernel (AArch64): kernels.h with 4 lanes. Plain multiply and add, never vfma, so the
// floats match every other kernel.
#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels_api.h"

#define KERNEL_TABLE sinewi_kernel_neon
#define KERNEL_NAME "neon"
#define KERNEL_ATTR
#define VW 4
#define VEC float32x4_t
#define VMASK uint32x4_t
#define V_LOAD(p) vld1q_f32(p)
#define V_STORE(p, v) vst1q_f32(p, v)
#define V_SET1(x) vdupq_n_f32(x)
#define V_ADD vaddq_f32
#define V_SUB vsubq_f32
#define V_MUL vmulq_f32
#define V_DIV vdivq_f32
#define V_SQRT vsqrtq_f32
#define V_MAX(a, b) vbslq_f32(vcgtq_f32(a, b), a, b) // x > 0 ? x : 0, as the scalar kernel
#define V_NEG vnegq_f32
#define V_EQ vceqq_f32
#define V_LT vcltq_f32
#define V_LE vcleq_f32
#define V_GT vcgtq_f32
#define V_SEL(m, a, b) vbslq_f32(m, a, b)
#define VI uint32x4_t
#define VI_LOAD(p) vld1q_u32(p)
#define VI_SET1(x) vdupq_n_u32(x)
#define VI_ADD vaddq_u32
#define VI_AND vandq_u32
#define VI_SRL1(a) vshrq_n_u32(a, 1)
#define VI_TOF(a) vcvtq_f32_s32(vreinterpretq_s32_u32(a))
#define V4_LOAD_TOF(p) vcvtq_f32_s32(vreinterpretq_s32_u32(vld1q_u32(p)))
#define V4 float32x4_t
#define V4_LOAD vld1q_f32
#define V4_STORE vst1q_f32
#define V4_SET1 vdupq_n_f32
#define V4_ADD vaddq_f32
#define V4_SUB vsubq_f32
#define V4_MUL vmulq_f32
#include "kernels.h"
#else
typedef int sinewi_kernel_neon_not_built; // this target has no such instruction set
#endif

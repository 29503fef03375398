// sinew — see include/sinew.h for version and licence
// WebAssembly SIMD128 kernel: kernels.h with 4 lanes (built with -msimd128 for the web runtime).
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "kernels_api.h"

#define KERNEL_TABLE sinewi_kernel_wasm_simd128
#define KERNEL_NAME "wasm-simd128"
#define KERNEL_ATTR
#define VW 4
#define VEC v128_t
#define VMASK v128_t
#define V_LOAD(p) wasm_v128_load(p)
#define V_STORE(p, v) wasm_v128_store(p, v)
#define V_SET1(x) wasm_f32x4_splat(x)
#define V_ADD wasm_f32x4_add
#define V_SUB wasm_f32x4_sub
#define V_MUL wasm_f32x4_mul
#define V_DIV wasm_f32x4_div
#define V_SQRT wasm_f32x4_sqrt
#define V_MAX(a, b) wasm_v128_bitselect(a, b, wasm_f32x4_gt(a, b))
#define V_NEG wasm_f32x4_neg
#define V_EQ wasm_f32x4_eq
#define V_LT wasm_f32x4_lt
#define V_LE wasm_f32x4_le
#define V_GT wasm_f32x4_gt
#define V_SEL(m, a, b) wasm_v128_bitselect(a, b, m)
#define VI v128_t
#define VI_LOAD(p) wasm_v128_load(p)
#define VI_SET1(x) wasm_i32x4_splat((int32_t)(x))
#define VI_ADD wasm_i32x4_add
#define VI_AND wasm_v128_and
#define VI_SRL1(a) wasm_u32x4_shr(a, 1)
#define VI_TOF wasm_f32x4_convert_i32x4
#define V4_LOAD_TOF(p) wasm_f32x4_convert_i32x4(wasm_v128_load(p))
#define V4 v128_t
#define V4_LOAD wasm_v128_load
#define V4_STORE wasm_v128_store
#define V4_SET1 wasm_f32x4_splat
#define V4_ADD wasm_f32x4_add
#define V4_SUB wasm_f32x4_sub
#define V4_MUL wasm_f32x4_mul
#include "kernels.h"
#else
typedef int sinewi_kernel_wasm_not_built; // this target has no such instruction set
#endif

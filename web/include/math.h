// sinew — see include/sinew.h for version and licence
// Freestanding <math.h> for the wasm build: the few functions the decoder uses, as compiler
// builtins that lower to single wasm instructions (f32.sqrt, f64.floor, ...). No imports.
#ifndef SINEW_WEB_MATH_H
#define SINEW_WEB_MATH_H

#define sqrtf(x) __builtin_sqrtf(x)
#define sqrt(x) __builtin_sqrt(x)
#define floor(x) __builtin_floor(x)
#define floorf(x) __builtin_floorf(x)
#define ceil(x) __builtin_ceil(x)
#define ceilf(x) __builtin_ceilf(x)
#define fabs(x) __builtin_fabs(x)
#define fabsf(x) __builtin_fabsf(x)
#define trunc(x) __builtin_trunc(x)
#define fmin(a, b) __builtin_fmin(a, b)
#define fmax(a, b) __builtin_fmax(a, b)
#define fminf(a, b) __builtin_fminf(a, b)
#define fmaxf(a, b) __builtin_fmaxf(a, b)
#define isfinite(x) __builtin_isfinite(x)
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define HUGE_VAL __builtin_huge_val()

#endif

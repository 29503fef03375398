// sinew — see include/sinew.h for version and licence
// src/core/elementary.c once more, with the fast paths' rounding test made to fail for every input: these
// copies take the accurate paths alone, which tests/test_elementary.c pins on the same sweeps (the library
// takes them for about one input in a hundred).
#define SINEWI_FAST_ERROR 1.0
#define sinewi_sincos sinewi_sincos_accurate
#define sinewi_sin sinewi_sin_accurate
#define sinewi_cos sinewi_cos_accurate
#define sinewi_atan2 sinewi_atan2_accurate
#define sinewi_cbrt sinewi_cbrt_accurate
#define sinewi_log2 sinewi_log2_accurate
#define sinewi_pow10 sinewi_pow10_accurate
#include "core/elementary.c"

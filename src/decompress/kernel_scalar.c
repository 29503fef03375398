// sinew — see include/sinew.h for version and licence
// The reference kernel: kernels.h with one lane of plain floats.
#include <math.h>

#include "kernels_api.h"

#define KERNEL_TABLE sinewi_kernel_scalar
#define KERNEL_NAME "scalar"
#define KERNEL_ATTR
#define VW 1
#define VEC float
#define VMASK int
#define V_LOAD(p) (*(p))
#define V_STORE(p, v) (*(p) = (v))
#define V_SET1(x) (x)
#define V_ADD(a, b) ((a) + (b))
#define V_SUB(a, b) ((a) - (b))
#define V_MUL(a, b) ((a) * (b))
#define V_DIV(a, b) ((a) / (b))
#define V_SQRT(a) sqrtf(a)
#define V_MAX(a, b) ((a) > (b) ? (a) : (b))
#define V_NEG(a) (-(a))
#define V_EQ(a, b) ((a) == (b))
#define V_LT(a, b) ((a) < (b))
#define V_LE(a, b) ((a) <= (b))
#define V_GT(a, b) ((a) > (b))
#define V_SEL(m, a, b) ((m) ? (a) : (b))
#define VI uint32_t
#define VI_LOAD(p) (*(p))
#define VI_SET1(x) (x)
#define VI_ADD(a, b) ((a) + (b))
#define VI_AND(a, b) ((a) & (b))
#define VI_SRL1(a) ((a) >> 1)
#define VI_TOF(a) ((float)(int32_t)(a))
#include "kernels.h"

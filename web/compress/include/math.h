// sinew — see include/sinew.h for version and licence
// <math.h> of the wasm compressor (web/compress/libm.c). sqrt, floor, ceil, trunc, fabs and rint are wasm
// instructions (exact, as on x86-64); sin, cos, acos, atan2, cbrt, log2, pow are computed within an ulp,
// the inputs the compressor gives them then rounded to float; fmin/fmax/fminf/fmaxf follow glibc on x86-64
// (minsd/maxsd order for equal operands, the other operand for a NaN).
#ifndef SINEW_WC_MATH_H
#define SINEW_WC_MATH_H

#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#define M_PI 3.14159265358979323846
#define isfinite(x) __builtin_isfinite(x)
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define signbit(x) __builtin_signbit(x)
#define isless(a, b) __builtin_isless(a, b)
#define isgreater(a, b) __builtin_isgreater(a, b)

#define sqrt(x) __builtin_sqrt(x)
#define sqrtf(x) __builtin_sqrtf(x)
#define floor(x) __builtin_floor(x)
#define floorf(x) __builtin_floorf(x)
#define ceil(x) __builtin_ceil(x)
#define ceilf(x) __builtin_ceilf(x)
#define trunc(x) __builtin_trunc(x)
#define truncf(x) __builtin_truncf(x)
#define fabs(x) __builtin_fabs(x)
#define fabsf(x) __builtin_fabsf(x)
#define rint(x) __builtin_rint(x)
#define nearbyint(x) __builtin_rint(x)
#define copysign(a, b) __builtin_copysign(a, b)
#define copysignf(a, b) __builtin_copysignf(a, b)

static inline double fmin(double a, double b) { return __builtin_isnan(a) ? b : __builtin_isnan(b) ? a : a < b ? a : b; }
static inline double fmax(double a, double b) { return __builtin_isnan(a) ? b : __builtin_isnan(b) ? a : a > b ? a : b; }
static inline float fminf(float a, float b) { return __builtin_isnan(a) ? b : __builtin_isnan(b) ? a : a < b ? a : b; }
static inline float fmaxf(float a, float b) { return __builtin_isnan(a) ? b : __builtin_isnan(b) ? a : a > b ? a : b; }

double sin(double x);
double cos(double x);
double tan(double x);
double asin(double x);
double acos(double x);
double atan(double x);
double atan2(double y, double x);
double exp(double x);
double exp2(double x);
double log(double x);
double log2(double x);
double log10(double x);
double pow(double x, double y);
double fmod(double x, double y);
double round(double x);
float roundf(float x);
long lround(double x);
long long llround(double x);
double frexp(double x, int *e);
double ldexp(double x, int e);
double modf(double x, double *integral);
double hypot(double x, double y);
double cbrt(double x);
double nextafter(double x, double y);
float nextafterf(float x, float y);
float sinf(float x);
float cosf(float x);

#endif

// sinew — see include/sinew.h for version and licence
// The codec's own elementary functions. Whatever reaches a blob's bytes (importers, resampler,
// compressor) calls these, never the platform's libm, whose results differ by an ulp here and there
// between glibc, musl, macOS, MSVC and wasi-libc (docs/format.md, Appendix B). They use IEEE double
// addition, multiplication, division and integer operations only (no FMA: the build passes
// -ffp-contract=off), so every build computes the same bits, and they return the correctly rounded
// result: cbrt by construction (an exact test of the midpoints), 10^n checked for every n, sin, cos,
// atan2 and log2 wherever their double-double value (within about 2^-83) is not that close to a
// rounding boundary, which none of tests/test_elementary.c's inputs is. sin, cos and atan2 first try a
// fast path (error below 2^-63) and take the accurate one when Ziv's test cannot settle the rounding.
// C Annex F's special values (NaN, infinities, signed zeros) throughout.
#ifndef SINEW_CORE_ELEMENTARY_H
#define SINEW_CORE_ELEMENTARY_H

// A double-double: hi + lo with |lo| <= ulp(hi) / 2 (106 bits of significand).
typedef struct sinewi_dd {
	double hi, lo;
} sinewi_dd;

double sinewi_sin(double x);
double sinewi_cos(double x);
void sinewi_sincos(double x, double *s, double *c); // sin and cos of one argument, reduced once
double sinewi_atan2(double y, double x);
double sinewi_cbrt(double x);
double sinewi_log2(double x);
double sinewi_pow10(int n); // 10^n

#endif

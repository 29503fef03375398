// sinew — see include/sinew.h for version and licence
// The math functions the compressor calls that are not wasm instructions: sin, cos, acos, atan2 (glTF slerp
// resampling, BVH/AMC Euler angles), cbrt (the resampler's interval count, ceil()ed), log2 (the compressor's
// half-range estimate), pow (BVH and ACL decimal scales, integer exponents), nextafterf. Each is computed with the leading terms in double-double
// arithmetic (exact products by Veltkamp splitting: the build has no FMA), so the result is the correctly
// rounded one but for inputs within a small fraction of an ulp of a rounding boundary. glibc's sin, cos, acos,
// atan2, log2 and pow are within about 0.52 ulp, so the two agree but for rare inputs (about 0.1 %, by one
// ulp), and the compressor rounds these results to float; glibc's cbrt is up to 3 ulp off, and its one use
// here ceil()s a product of it.
// web/compress/test_libc.c measures the agreement with glibc natively. Constants: libm_constants.h,
// generated from their definitions by gen_constants.py.
#include <stdint.h>
#include <string.h>
#ifndef SINEW_WC_NATIVE_TEST
#include <math.h>
#else // test_libc.c: these functions renamed wc_*, glibc's math.h kept out of the way
#define INFINITY __builtin_inff()
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define fabs(x) __builtin_fabs(x)
#define floor(x) __builtin_floor(x)
#define rint(x) __builtin_rint(x)
#define sqrt(x) __builtin_sqrt(x)
#define copysign(a, b) __builtin_copysign(a, b)
double sin(double x);
double cos(double x);
double acos(double x);
double atan2(double y, double x);
double cbrt(double x);
double log2(double x);
double pow(double x, double y);
double ldexp(double x, int e);
double frexp(double x, int *e);
double fmod(double x, double y);
float nextafterf(float x, float y);
#endif

typedef struct dd {
	double hi, lo;
} dd;

#include "libm_constants.h"

static inline uint64_t bits_of(double x) {
	uint64_t u;
	memcpy(&u, &x, 8);
	return u;
}

static inline double from_bits(uint64_t u) {
	double x;
	memcpy(&x, &u, 8);
	return x;
}

static inline dd two_sum(double a, double b) {
	double s = a + b, bb = s - a;
	return (dd){s, (a - (s - bb)) + (b - bb)};
}

static inline dd fast_two_sum(double a, double b) { // |a| >= |b|
	double s = a + b;
	return (dd){s, b - (s - a)};
}

static inline void split(double a, double *hi, double *lo) {
	double c = 134217729.0 * a; // 2^27 + 1
	*hi = c - (c - a);
	*lo = a - *hi;
}

static inline dd two_prod(double a, double b) {
	double p = a * b, ah, al, bh, bl;
	split(a, &ah, &al);
	split(b, &bh, &bl);
	return (dd){p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

static inline dd dd_mul(dd a, dd b) {
	dd p = two_prod(a.hi, b.hi);
	return fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

static inline dd dd_div(dd a, dd b) {
	double q = a.hi / b.hi;
	dd r = dd_mul((dd){q, 0}, b);
	double rest = ((a.hi - r.hi) - r.lo + a.lo) / b.hi;
	return fast_two_sum(q, rest);
}

/* ---- argument reduction: x = n pi/2 + r, |r| <= about pi/4 ---- */

// Payne-Hanek for large |x|: x (2/pi) mod 4 from the bits of 2/pi that matter for x's exponent.
static int reduce_large(double x, dd *r) {
	uint64_t u = bits_of(x);
	int e = (int)(u >> 52 & 0x7FF) - 1075; // x = m 2^e
	uint64_t m = (u & 0xFFFFFFFFFFFFFull) | 1ull << 52;
	int i0 = e - 1 > 1 ? e - 1 : 1; // bits of 2/pi before i0 give multiples of 4
	uint32_t w[6];
	for (int k = 0; k < 6; ++k) { // bits i0 + 32k .. i0 + 32k + 31 (bit 1 = top bit of word 0)
		int bit = i0 - 1 + 32 * k, word = bit / 32, sh = bit % 32;
		uint32_t a = word < 44 ? TWO_OVER_PI[word] : 0, b = word + 1 < 44 ? TWO_OVER_PI[word + 1] : 0;
		w[k] = sh ? a << sh | b >> (32 - sh) : a;
	}
	// P = m * W, W = w[0..5] big-endian: 8 words little-endian
	uint32_t p[8] = {0};
	uint32_t ml[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
	for (int k = 0; k < 6; ++k) {
		uint64_t carry = 0, wk = w[5 - k];
		for (int j = 0; j < 2; ++j) {
			uint64_t t = (uint64_t)ml[j] * wk + p[k + j] + carry;
			p[k + j] = (uint32_t)t;
			carry = t >> 32;
		}
		for (int j = k + 2; carry && j < 8; ++j) {
			uint64_t t = (uint64_t)p[j] + carry;
			p[j] = (uint32_t)t;
			carry = t >> 32;
		}
	}
	int point = 192 + i0 - 1 - e; // P / 2^point = x (2/pi) mod 4 (and multiples of 4)
#define PBIT(b) ((b) >= 0 && (b) < 256 ? (p[(b) / 32] >> ((b) % 32) & 1u) : 0u)
	int n = (int)(PBIT(point) | PBIT(point + 1) << 1);
	// 128 fraction bits below the point, normalized
	uint64_t f0 = 0, f1 = 0;
	int lead = 0;
	for (int b = point - 1; b >= 0 && !PBIT(b); --b) ++lead;
	for (int k = 0; k < 128; ++k) {
		int b = point - 1 - lead - k;
		uint64_t bit = PBIT(b);
		if (k < 64) f0 |= bit << (63 - k);
		else f1 |= bit << (127 - k);
	}
#undef PBIT
	// f = (f0 2^-64 + f1 2^-128) 2^-lead in [0, 1)
	double scale = ldexp(1.0, -lead);
	dd f = two_sum((double)(f0 & ~0x7FFull) * 0x1p-64 * scale,
	               ((double)(f0 & 0x7FFull) * 0x1p-64 + (double)f1 * 0x1p-128) * scale);
	if (f.hi >= 0.5) n += 1, f = two_sum(f.hi - 1.0, f.lo); // exact: f.hi in [0.5, 1)
	dd pio2 = {PIO2_1, PIO2_2};
	*r = dd_mul(f, pio2);
	return n & 3;
}

static int reduce(double x, dd *r) {
	double ax = fabs(x);
	if (ax <= 0x1.921fb54442d18p-1) { // pi/4
		*r = (dd){x, 0};
		return 0;
	}
	if (ax < 0x1p+20) {
		double n = rint(x * INVPIO2_HI);
		dd a = two_prod(n, PIO2_1), b = two_prod(n, PIO2_2);
		double t = x - a.hi; // exact (Sterbenz)
		dd s = two_sum(t, -a.lo);
		dd s2 = two_sum(s.hi, -b.hi);
		double lo = s.lo + s2.lo - b.lo - n * PIO2_3;
		*r = fast_two_sum(s2.hi, lo);
		return (int)((int64_t)n & 3);
	}
	int q = reduce_large(ax, r);
	if (x < 0) r->hi = -r->hi, r->lo = -r->lo, q = (4 - q) & 3;
	return q;
}

/* ---- kernels on |r| <= about pi/4 ---- */

static inline dd dd_add(dd a, dd b) {
	dd s = two_sum(a.hi, b.hi);
	return fast_two_sum(s.hi, s.lo + a.lo + b.lo);
}

static double poly(const double *c, int n, double z) {
	double s = c[n - 1];
	for (int k = n - 2; k >= 0; --k) s = c[k] + z * s;
	return s;
}

// sin(h + l) = h + l cos h + h^3/3! ... : the terms to h^7 in double-double, the rest in double (below
// 2^-75 of the result), rounded once.
static double sin_kernel(dd r) {
	dd z = two_prod(r.hi, r.hi), h = {r.hi, 0};
	dd p3 = dd_mul(z, h), p5 = dd_mul(p3, z), p7 = dd_mul(p5, z);
	double rest = p7.hi * z.hi * poly(SIN_REST, 6, z.hi) + r.lo * (1.0 - 0.5 * z.hi * (1.0 - z.hi / 12.0)); // + l cos h
	dd s = dd_add(dd_mul(p7, SIN_DD[2]), (dd){rest, 0});
	s = dd_add(dd_mul(p5, SIN_DD[1]), s);
	s = dd_add(dd_mul(p3, SIN_DD[0]), s);
	dd t = two_sum(r.hi, s.hi);
	return t.hi + (t.lo + s.lo);
}

// cos(h + l) = 1 - z/2 + z^2/4! - z^3/6! ... - l h, z = h^2 (double-double)
static double cos_kernel(dd r) {
	dd z = two_prod(r.hi, r.hi);
	dd z2 = dd_mul(z, z), z3 = dd_mul(z2, z);
	double rest = z3.hi * z.hi * poly(COS_REST, 6, z.hi) - r.hi * r.lo * (1.0 - z.hi / 6.0 * (1.0 - z.hi / 20.0)); // - l sin h
	dd s = dd_add(dd_mul(z3, COS_DD[1]), (dd){rest, 0});
	s = dd_add(dd_mul(z2, COS_DD[0]), s);
	s = dd_add((dd){-0.5 * z.hi, -0.5 * z.lo}, s);
	dd t = two_sum(1.0, s.hi);
	return t.hi + (t.lo + s.lo);
}

double sin(double x) {
	if (!isfinite(x)) return x - x;
	if (fabs(x) < 0x1p-26) return x;
	dd r;
	switch (reduce(x, &r)) {
	case 0: return sin_kernel(r);
	case 1: return cos_kernel(r);
	case 2: return -sin_kernel(r);
	default: return -cos_kernel(r);
	}
}

double cos(double x) {
	if (!isfinite(x)) return x - x;
	if (fabs(x) < 0x1p-27) return 1.0;
	dd r;
	switch (reduce(x, &r)) {
	case 0: return cos_kernel(r);
	case 1: return -sin_kernel(r);
	case 2: return -cos_kernel(r);
	default: return sin_kernel(r);
	}
}

/* ---- acos ---- */

// asin(t) - t for |t| <= 1/2 (z = t^2, both double-double): the terms to t^9 in double-double.
static dd asin_tail(dd t, dd z) {
	dd p3 = dd_mul(t, z), p5 = dd_mul(p3, z), p7 = dd_mul(p5, z), p9 = dd_mul(p7, z);
	double rest = p9.hi * z.hi * poly(ASIN_REST, 26, z.hi);
	dd s = dd_add(dd_mul(p9, ASIN_DD[3]), (dd){rest, 0});
	s = dd_add(dd_mul(p7, ASIN_DD[2]), s);
	s = dd_add(dd_mul(p5, ASIN_DD[1]), s);
	return dd_add(dd_mul(p3, ASIN_DD[0]), s);
}

double acos(double x) {
	if (isnan(x)) return x + x;
	double ax = fabs(x);
	if (ax > 1.0) return (x - x) / (x - x);
	if (ax == 1.0) return x > 0 ? 0.0 : PI_HI;
	dd pio2 = {PIO2_1, PIO2_2};
	if (ax <= 0.5) { // pi/2 - asin(x)
		if (ax < 0x1p-57) return PIO2_1;
		dd a = dd_add((dd){x, 0}, asin_tail((dd){x, 0}, two_prod(x, x)));
		dd r = dd_add(pio2, (dd){-a.hi, -a.lo});
		return r.hi + r.lo;
	}
	// |x| > 1/2: asin(s) with s = sqrt((1 - |x|) / 2) as s + ds in double-double, z = s^2 exact
	double z = 0.5 * (1.0 - ax); // exact
	double s = sqrt(z);
	dd ss = two_prod(s, s);
	dd t = fast_two_sum(s, ((z - ss.hi) - ss.lo) / (2.0 * s));
	dd a = dd_add(t, asin_tail(t, (dd){z, 0})); // asin(s)
	if (x > 0) return 2.0 * a.hi + 2.0 * a.lo;
	dd r = dd_add(pio2, (dd){-a.hi, -a.lo}); // pi - 2 asin(s) = 2 (pi/2 - asin(s))
	return 2.0 * r.hi + 2.0 * r.lo;
}

/* ---- atan2 ---- */

// atan(t) for t >= 0 (double-double): t > 1 as pi/2 - atan(1/t); then atan(t) = atan(k/8) + atan(u),
// u = (t - k/8) / (1 + t k/8), |u| <= 1/16, the series to u^5 in double-double.
static dd atan_positive(dd t) {
	const int inverse = t.hi > 1.0;
	if (inverse) t = dd_div((dd){1.0, 0}, t);
	int k = (int)(t.hi * 8.0 + 0.5);
	if (k > 8) k = 8;
	const double c = k / 8.0; // exact
	dd u = dd_div(dd_add(t, (dd){-c, 0}), dd_add((dd){1.0, 0}, dd_mul(t, (dd){c, 0})));
	dd u2 = dd_mul(u, u), u3 = dd_mul(u2, u), u5 = dd_mul(u3, u2);
	double rest = u5.hi * u2.hi * poly(ATAN_REST, 8, u2.hi);
	dd s = dd_add(dd_mul(u5, ATAN_DD[1]), (dd){rest, 0});
	s = dd_add(dd_mul(u3, ATAN_DD[0]), s);
	s = dd_add(ATAN_K8[k], dd_add(u, s));
	if (inverse) s = dd_add((dd){PIO2_HI, PIO2_LO}, (dd){-s.hi, -s.lo});
	return s;
}

double atan2(double y, double x) {
	if (isnan(x) || isnan(y)) return x + y;
	const int sy = __builtin_signbit(y) != 0, sx = __builtin_signbit(x) != 0;
	const dd pi = {PI_HI, PI_LO}, pio2 = {PIO2_HI, PIO2_LO};
	if (y == 0) return sx ? (sy ? -PI_HI : PI_HI) : y;
	if (x == 0) return sy ? -PIO2_HI : PIO2_HI;
	if (isinf(x)) {
		if (isinf(y)) {
			dd a = dd_mul(pi, (dd){sx ? 0.75 : 0.25, 0});
			return sy ? -(a.hi + a.lo) : a.hi + a.lo;
		}
		return sx ? (sy ? -PI_HI : PI_HI) : (sy ? -0.0 : 0.0);
	}
	if (isinf(y)) return sy ? -PIO2_HI : PIO2_HI;
	const double ax = fabs(x), ay = fabs(y);
	dd r;
	if (ay > ax * 0x1p60) r = dd_add(pio2, (dd){-(ax / ay), 0}); // atan(t) = pi/2 - 1/t + 1/(3t^3) ...
	else if (ay < ax * 0x1p-60) r = (dd){ay / ax, 0};          // atan(t) = t - t^3/3 ...
	else r = atan_positive(dd_div((dd){ay, 0}, (dd){ax, 0}));
	if (sx) r = dd_add(pi, (dd){-r.hi, -r.lo});
	const double v = r.hi + r.lo;
	return sy ? -v : v;
}

/* ---- cbrt ---- */

// Newton's iteration on the mantissa, then the candidate (it, or an ulp either side) whose cube, in
// double-double, is nearest: the correctly rounded root (exact for perfect cubes).
double cbrt(double x) {
	if (x == 0 || !isfinite(x)) return x + x;
	int e;
	double m = frexp(fabs(x), &e); // |x| = m 2^e, m in [0.5, 1)
	int r = e % 3;
	if (r < 0) r += 3;
	m = ldexp(m, r), e -= r; // m in [0.5, 4), e a multiple of 3
	double y = 1.0;
	for (int i = 0; i < 8; ++i) y -= (y * y * y - m) / (3.0 * y * y);
	double best = y, best_diff = INFINITY;
	for (int k = -1; k <= 1; ++k) {
		uint64_t u = bits_of(y);
		double c = from_bits(u + (uint64_t)(int64_t)k);
		dd c3 = dd_mul(two_prod(c, c), (dd){c, 0});
		dd diff = dd_add(c3, (dd){-m, 0});
		double d = fabs(diff.hi + diff.lo);
		if (d < best_diff) best = c, best_diff = d;
	}
	best = ldexp(best, e / 3);
	return x < 0 ? -best : best;
}

/* ---- log2, exp, pow ---- */

// ln(x) for finite x > 0 as double-double (x = 2^k m, m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(f),
// f = (m - 1) / (m + 1): 2f + 2f^3/3 + 2f^5/5 in double-double, the rest in double).
static dd ln_dd(double x, int *k_out) {
	int k = 0;
	if (x < 0x1p-1022) x *= 0x1p54, k = -54; // subnormal
	uint64_t u = bits_of(x);
	k += (int)(u >> 52 & 0x7FF) - 1023;
	double m = from_bits((u & 0xFFFFFFFFFFFFFull) | 0x3FF0000000000000ull);
	if (m > 2.0 * SQRT_HALF) m *= 0.5, k++;
	*k_out = k;
	double v = m - 1.0; // exact
	dd f = dd_div((dd){v, 0}, two_sum(2.0, v));
	dd f2 = dd_mul(f, f), f3 = dd_mul(f2, f), f5 = dd_mul(f3, f2);
	double rest = f5.hi * f2.hi * poly(LOG_REST, 12, f2.hi);
	dd s = dd_add(dd_mul(f5, LOG_DD[1]), (dd){rest, 0});
	s = dd_add(dd_mul(f3, LOG_DD[0]), s);
	return dd_add((dd){2.0 * f.hi, 2.0 * f.lo}, s);
}

double log2(double x) {
	if (isnan(x) || x == INFINITY) return x + x;
	if (x == 0) return -INFINITY;
	if (x < 0) return (x - x) / (x - x);
	int k;
	dd l = ln_dd(x, &k);
	dd inv = {INVLN2_HI, INVLN2_LO};
	dd p = dd_mul(l, inv);
	dd s = two_sum((double)k, p.hi);
	return s.hi + (s.lo + p.lo);
}

// e^r for |r| <= ln2/2 + a little, r as double-double
static dd exp_small(dd r) {
	double z = r.hi;
	double tail = z * z * poly(EXP_COEF, 14, z); // e^z - 1 - z
	dd s = two_sum(1.0, z);
	return fast_two_sum(s.hi, s.lo + tail + r.lo * (1.0 + z));
}

// exp(y ln x) for x > 0, as x^y for non-integer y
static double pow_general(double x, double y) {
	int k;
	dd l = ln_dd(x, &k);
	dd lnx = two_sum((double)k * LN2_HI, l.hi);
	lnx.lo += (double)k * LN2_LO + l.lo;
	dd t = dd_mul(lnx, (dd){y, 0}); // y ln x
	if (t.hi > 709.8) return INFINITY;
	if (t.hi < -745.2) return 0.0;
	double n = rint(t.hi * INVLN2_HI);
	dd a = two_prod(n, LN2_HI);
	dd r = two_sum(t.hi - a.hi, t.lo - a.lo - n * LN2_LO);
	dd e = exp_small(r);
	return ldexp(e.hi + e.lo, (int)n);
}

static dd normalized(dd v, long *e) { // v = m 2^k, m in [0.5, 1): the exponent moves to *e
	int k;
	double hi = frexp(v.hi, &k);
	*e += k;
	return (dd){hi, ldexp(v.lo, -k)};
}

// x^n for x > 0 and 0 < n <= 1024 in double-double, as v 2^e
static dd pow_int(double x, int n, long *e) {
	int kx;
	double m = frexp(x, &kx);
	dd base = {m, 0}, acc = {1.0, 0};
	long eb = kx, ea = 0;
	for (int b = n; b; b >>= 1) {
		if (b & 1) acc = dd_mul(acc, base), ea += eb, acc = normalized(acc, &ea);
		if (b >> 1) base = dd_mul(base, base), eb *= 2, base = normalized(base, &eb);
	}
	*e = ea;
	return acc;
}

double pow(double x, double y) {
	if (y == 0 || x == 1.0) return 1.0;
	if (isnan(x) || isnan(y)) return x + y;
	int y_int = y == floor(y), y_odd = y_int && fabs(y) < 0x1p53 && fmod(y, 2.0) != 0;
	if (x == 0) {
		if (y > 0) return y_odd ? x : 0.0;
		return y_odd ? copysign(INFINITY, x) : INFINITY;
	}
	if (isinf(y)) {
		double ax = fabs(x);
		if (ax == 1.0) return 1.0;
		return (ax > 1.0) == (y > 0) ? INFINITY : 0.0;
	}
	if (isinf(x)) {
		if (x > 0) return y > 0 ? INFINITY : 0.0;
		return y > 0 ? (y_odd ? -INFINITY : INFINITY) : (y_odd ? -0.0 : 0.0);
	}
	if (x < 0 && !y_int) return (x - x) / (x - x);
	double ax = fabs(x), sign = x < 0 && y_odd ? -1.0 : 1.0;
	if (y_int && fabs(y) <= 1024) { // binary powering in double-double, one rounding at the end
		long e;
		dd v = pow_int(ax, (int)fabs(y), &e);
		if (y < 0) v = dd_div((dd){1.0, 0}, v), e = -e, v = normalized(v, &e);
		if (e > 1025) return sign * INFINITY;
		if (e < -1080) return sign * 0.0;
		return sign * ldexp(v.hi + v.lo, (int)e);
	}
	return sign * pow_general(ax, y);
}

/* ---- small helpers ---- */

// x 2^e; in the subnormal range x is first brought near the boundary while it stays normal, so the last
// multiplication is the only rounding for the x this file passes (frexp-normalized).
double ldexp(double x, int e) {
	if (e > 1023) {
		x *= 0x1p1023, e -= 1023;
		if (e > 1023) x *= 0x1p1023, e -= 1023;
		if (e > 1023) e = 1023;
	} else if (e < -1022) {
		x *= 0x1p-969, e += 969; // 2^-1022 2^53
		if (e < -1022) x *= 0x1p-969, e += 969;
		if (e < -1022) e = -1022;
	}
	return x * from_bits((uint64_t)(0x3FF + e) << 52);
}

double frexp(double x, int *e) {
	if (x == 0 || !isfinite(x)) return *e = 0, x;
	uint64_t u = bits_of(x);
	int be = (int)(u >> 52 & 0x7FF);
	if (!be) { // subnormal
		x *= 0x1p64;
		u = bits_of(x);
		be = (int)(u >> 52 & 0x7FF) - 64;
	}
	*e = be - 1022;
	return from_bits((u & 0x800FFFFFFFFFFFFFull) | 0x3FE0000000000000ull);
}

double fmod(double x, double y) {
	if (isnan(x) || isnan(y) || isinf(x) || y == 0) return (x * y) / (x * y);
	if (isinf(y) || fabs(x) < fabs(y)) return x;
	// exact: subtract y 2^k for decreasing k (each step exact)
	double ax = fabs(x), ay = fabs(y);
	while (ax >= ay) {
		double t = ay;
		while (t * 2 <= ax && isfinite(t * 2)) t *= 2;
		ax -= t;
	}
	return copysign(ax, x);
}

float nextafterf(float x, float y) {
	if (isnan(x) || isnan(y)) return x + y;
	if (x == y) return y;
	uint32_t u;
	memcpy(&u, &x, 4);
	if (x == 0) u = 1u | (y < 0 ? 0x80000000u : 0);
	else if ((x < y) == (x > 0)) u++;
	else u--;
	float r;
	memcpy(&r, &u, 4);
	return r;
}

// sinew — see include/sinew.h for version and licence
// sin, cos, atan2, cbrt, log2 and 10^n for the codec (elementary.h says why). The leading terms are
// carried in double-double arithmetic: Knuth's exact sums and Dekker's exact products by Veltkamp's
// splitting (exact only without FMA contraction, which the build turns off); tables of i/64 keep the
// series short; the one rounding is the last addition. Constants: elementary_tables.h, generated.
#include "elementary.h"

#include <math.h> // INFINITY and NAN only: nothing here calls libm
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base.h"
#include "elementary_tables.h"

/* ---- double-double arithmetic ---- */

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

static inline double abs_of(double x) {
	return from_bits(bits_of(x) & 0x7fffffffffffffffull);
}

static inline double pow2(int k) { // 2^k, -1022 <= k <= 1023
	return from_bits((uint64_t)(1023 + k) << 52);
}

static inline sinewi_dd two_sum(double a, double b) { // a + b exactly
	double s = a + b, bb = s - a;
	return (sinewi_dd){s, (a - (s - bb)) + (b - bb)};
}

static inline sinewi_dd fast_two_sum(double a, double b) { // a + b exactly when |a| >= |b| (or a = 0)
	double s = a + b;
	return (sinewi_dd){s, b - (s - a)};
}

static inline sinewi_dd two_prod(double a, double b) { // a b exactly (|a|, |b| below 2^995, the product normal)
	double p = a * b;
	double ca = 134217729.0 * a, cb = 134217729.0 * b; // 2^27 + 1
	double ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
	return (sinewi_dd){p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

static inline sinewi_dd two_prod_short(double a, double b) { // the same when a has at most 26 significant bits
	double p = a * b, cb = 134217729.0 * b;
	double bh = cb - (cb - b), bl = b - bh;
	return (sinewi_dd){p, (a * bh - p) + a * bl};
}

static inline sinewi_dd dd_mul(sinewi_dd a, sinewi_dd b) { // relative error below 2^-104
	sinewi_dd p = two_prod(a.hi, b.hi);
	return fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

static inline sinewi_dd dd_mul_d(sinewi_dd a, double b) {
	sinewi_dd p = two_prod(a.hi, b);
	return fast_two_sum(p.hi, p.lo + a.lo * b);
}

// a + b with an error below 2^-105 max(|a|, |b|): only where a and b do not cancel (each caller says so)
static inline sinewi_dd dd_add(sinewi_dd a, sinewi_dd b) {
	sinewi_dd s = two_sum(a.hi, b.hi);
	return fast_two_sum(s.hi, s.lo + a.lo + b.lo);
}

static inline sinewi_dd dd_neg(sinewi_dd a) {
	return (sinewi_dd){-a.hi, -a.lo};
}

static inline sinewi_dd dd_div(sinewi_dd a, sinewi_dd b) {
	double q = a.hi / b.hi;
	sinewi_dd p = dd_mul_d(b, q);
	double rest = (((a.hi - p.hi) - p.lo) + a.lo) / b.hi; // a.hi - p.hi is exact (they are within an ulp)
	return fast_two_sum(q, rest);
}

/* ---- sin and cos ---- */

// Bits j .. j + 31 of 2/pi as one word, bit j (weight 2^-j, j >= 1) the most significant.
static uint32_t two_over_pi_bits(int j) {
	int b = j - 1, word = b >> 5, shift = b & 31;
	uint32_t a = word < 48 ? TWO_OVER_PI[word] : 0u, c = word + 1 < 48 ? TWO_OVER_PI[word + 1] : 0u;
	return shift ? a << shift | c >> (32 - shift) : a;
}

static inline unsigned bit_at(const uint32_t *p, int i) {
	return i < 0 ? 0u : p[i >> 5] >> (i & 31) & 1u;
}

// Payne and Hanek's reduction for |x| >= 2^20: x (2/pi) mod 4 from the 256 bits of 2/pi that matter for
// x's exponent, in integers. x = m 2^e (m < 2^53): a bit of 2/pi of weight 2^-j adds m 2^(e - j), a multiple
// of 4 for j < e - 1. The fraction keeps 128 bits after its leading zeros (no double comes within 2^-61 of
// a non-zero multiple of pi/2: Muller, "Elementary Functions", chapter 11).
static unsigned reduce_large(double ax, sinewi_dd *r) {
	uint64_t u = bits_of(ax);
	int e = (int)(u >> 52) - 1075;
	uint64_t m = (u & 0xfffffffffffffull) | 1ull << 52;
	int j0 = e - 1 > 1 ? e - 1 : 1;
	uint32_t p[10] = {0}; // m times the window (bits j0 .. j0 + 255), least significant word first
	const uint64_t ml = (uint32_t)m, mh = m >> 32;
	for (int k = 0; k < 8; ++k) {
		uint64_t w = two_over_pi_bits(j0 + 32 * (7 - k)); // weight 2^(32 k) in the window
		uint64_t t = ml * w + p[k];
		p[k] = (uint32_t)t;
		t = (t >> 32) + mh * w + p[k + 1];
		p[k + 1] = (uint32_t)t;
		for (int j = k + 2; (t >>= 32) != 0 && j < 10; ++j) {
			t += p[j];
			p[j] = (uint32_t)t;
		}
	}
	// the window's last bit has weight 2^-(j0 + 255): bit `point` of p is the units bit of x 2/pi
	const int point = j0 + 255 - e;
	unsigned q = bit_at(p, point) | bit_at(p, point + 1) << 1;
	int top = point - 1;
	while (top >= 0 && !bit_at(p, top)) --top;
	if (top < 0) { // never for a double (pi is irrational); kept for safety
		*r = (sinewi_dd){0.0, 0.0};
		return q;
	}
	uint64_t hi = 0, lo = 0; // bits top .. top - 127
	for (int k = 0; k < 64; ++k) {
		hi |= (uint64_t)bit_at(p, top - k) << (63 - k);
		lo |= (uint64_t)bit_at(p, top - 64 - k) << (63 - k);
	}
	const double scale = pow2(top - point - 63); // the weight of hi's last bit
	sinewi_dd f = two_sum((double)(hi & ~0x7ffull) * scale,
	                      ((double)(hi & 0x7ffull) + (double)lo * 0x1p-64) * scale); // exact, then to 2^-117
	if (f.hi >= 0.5) q += 1, f = two_sum(f.hi - 1.0, f.lo); // f.hi - 1 is exact
	*r = dd_mul(f, PIO2);
	return q & 3u;
}

// x = k pi/2 + r with |r| <= pi/4 (and a hair), r in double-double; returns k mod 4. Below 2^20,
// Cody and Waite's reduction with pi/2 in four pieces, three of them short enough for k times them to be
// exact; the sums are exact but for the last, so r is within 2^-105 |r| + 2^-135 of x - k pi/2 (and no
// double comes within 2^-61 of a non-zero multiple of pi/2).
static unsigned reduce(double x, sinewi_dd *r) {
	const double ax = abs_of(x);
	if (ax <= PI_4) {
		*r = (sinewi_dd){x, 0.0};
		return 0;
	}
	if (ax < 0x1p20) {
		const double k = (x * INV_PIO2 + 0x1.8p52) - 0x1.8p52; // the nearest integer (|k| < 2^20)
		const double t = x - k * PIO2_A;                      // exact: within a factor 2 of each other
		const sinewi_dd s = two_sum(t, -k * PIO2_B), v = two_sum(s.hi, -k * PIO2_C);
		*r = fast_two_sum(v.hi, (s.lo + v.lo) - k * PIO2_D); // k PIO2_D < 2^-83
		return (unsigned)(int64_t)k & 3u;
	}
	unsigned q = reduce_large(ax, r);
	if (x < 0) *r = dd_neg(*r), q = (4u - q) & 3u;
	return q;
}

// Ziv's rounding test: h + l is within SINEWI_FAST_ERROR |h| of the exact value (the fast paths below err
// by less than 2^-63); when both ends of that interval round to the same double, so does the exact value,
// and that double is the answer. Otherwise (about one input in a hundred) the accurate path decides.
#ifndef SINEWI_FAST_ERROR // (tests/test_elementary_accurate.c sets it to 1: every input takes the accurate path)
#define SINEWI_FAST_ERROR 0x1p-61
#endif
static inline bool rounds_surely(double h, double l, double *out) {
	const double e = SINEWI_FAST_ERROR * abs_of(h), a = h + (l - e);
	*out = a;
	return a == h + (l + e);
}

// sin r and cos r, fast (either output may be NULL; returns which it settled, 1 for sin and 2 for cos):
// r = a + t with a = i/64 from the table, |t| <= 1/128 + 2^-40, sin t - t and cos t - 1 by their series in
// double, then sin(a + t) = sin a + cos a t + (sin a (cos t - 1) + cos a (sin t - t)) with cos a t exact
// and the same for cos; the terms in double err by less than 2^-64 of the result.
static int sincos_fast(sinewi_dd r, double *s_out, double *c_out) {
	const int negative = r.hi < 0;
	const double rh = negative ? -r.hi : r.hi, rl = negative ? -r.lo : r.lo;
	const int i = (int)(rh * 64.0 + 0.5);
	const double th = rh - (double)i * 0x1p-6; // exact
	const double z = th * (th + 2.0 * rl);     // t^2
	const double sin_rest = rl + th * z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880)))); // sin t - th
	const double cos_rest = z * (-0.5 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320))));                 // cos t - 1
	const sinewi_dd sa = SIN_64[i][0], ca = SIN_64[i][1];
	int settled = 0;
	if (s_out) {
		const sinewi_dd p = two_prod(ca.hi, th), h = fast_two_sum(sa.hi, p.hi); // sin a >= 2 cos a t, or 0
		const double l = h.lo + p.lo + sa.lo + ca.hi * sin_rest + ca.lo * th + sa.hi * cos_rest;
		if (rounds_surely(h.hi, l, s_out)) settled |= 1, *s_out = negative ? -*s_out : *s_out;
	}
	if (c_out) { // cos a >= 0.69 > sin a t
		const sinewi_dd p = two_prod(sa.hi, th), h = fast_two_sum(ca.hi, -p.hi);
		const double l = h.lo - p.lo + ca.lo - sa.hi * sin_rest - sa.lo * th + ca.hi * cos_rest;
		if (rounds_surely(h.hi, l, c_out)) settled |= 2;
	}
	return settled;
}

// The same, accurately: sin t and cos t - 1 with their first terms in double-double, then
// sin(a + t) = sin a + (sin a (cos t - 1) + cos a sin t) in double-double; below 2^-84 of the result.
static void sincos_accurate(sinewi_dd r, double *s_out, double *c_out) {
	const int negative = r.hi < 0;
	if (negative) r = dd_neg(r);
	const int i = (int)(r.hi * 64.0 + 0.5);
	const sinewi_dd t = two_sum(r.hi - (double)i * 0x1p-6, r.lo); // r.hi - i/64 is exact
	sinewi_dd z = two_prod(t.hi, t.hi);                             // t^2
	z.lo += 2.0 * t.hi * t.lo;
	const double zh = z.hi;
	// sin t = t + t z (-1/6 + z S), S = 1/5! - z/7! + ...
	const double s5 = 1.0 / 120 + zh * (-1.0 / 5040 + zh * (1.0 / 362880 + zh * (-1.0 / 39916800 + zh * (1.0 / 6227020800.0))));
	sinewi_dd u = fast_two_sum(NEG_SIXTH.hi, zh * s5);
	u.lo += NEG_SIXTH.lo;
	const sinewi_dd st = dd_add(t, dd_mul(t, dd_mul(z, u))); // the correction is below 2^-16 of t
	// cos t - 1 = -z/2 + z^2 C, C = 1/4! - z/6! + ...
	const double c4 = 1.0 / 24 + zh * (-1.0 / 720 + zh * (1.0 / 40320 + zh * (-1.0 / 3628800 + zh * (1.0 / 479001600))));
	sinewi_dd cm = fast_two_sum(-0.5 * zh, zh * zh * c4);
	cm.lo -= 0.5 * z.lo;
	const sinewi_dd sa = SIN_64[i][0], ca = SIN_64[i][1];
	if (s_out) { // the bracket is at most half of sin a (a >= 1/64 when it is not 0)
		sinewi_dd v = dd_add(sa, dd_add(dd_mul(sa, cm), dd_mul(ca, st)));
		*s_out = negative ? -v.hi : v.hi;
	}
	if (c_out) *c_out = dd_add(ca, dd_add(dd_mul(ca, cm), dd_neg(dd_mul(sa, st)))).hi; // cos a >= 0.69
}

// sin x and cos x for finite |x| >= 2^-27 (either output may be NULL).
static void sincos_finite(double x, double *s, double *c) {
	sinewi_dd r;
	const unsigned q = reduce(x, &r);
	// x = q pi/2 + r: sin x is +-sin r (q even) or +-cos r, cos x the other one
	double *sr = q & 1u ? c : s, *cr = q & 1u ? s : c;
	const int settled = sincos_fast(r, sr, cr);
	sr = settled & 1 ? NULL : sr, cr = settled & 2 ? NULL : cr;
	if (sr || cr) sincos_accurate(r, sr, cr);
	if (s && q & 2u) *s = -*s;
	if (c && (q + 1u) & 2u) *c = -*c;
}

void sinewi_sincos(double x, double *s, double *c) {
	if (x - x != 0.0) *s = *c = x - x; // NaN, infinities
	else if (abs_of(x) < 0x1p-27) *s = x, *c = 1.0; // sin x = x and cos x = 1 once rounded (x^2/6 is below a quarter ulp)
	else sincos_finite(x, s, c);
}

double sinewi_sin(double x) {
	double v;
	if (x - x != 0.0) v = x - x;
	else if (abs_of(x) < 0x1p-27) v = x;
	else sincos_finite(x, &v, NULL);
	return v;
}

double sinewi_cos(double x) {
	double v;
	if (x - x != 0.0) v = x - x;
	else if (abs_of(x) < 0x1p-27) v = 1.0;
	else sincos_finite(x, NULL, &v);
	return v;
}

/* ---- atan2 ---- */

// atan(n / d) for 0 < n <= d, d in [1, 2) and n / d >= 2^-900, fast: as h + l within 2^-64 of it. c = i/64
// nearest n / d, u = (n - c d) / (d + c n) = (t - c) / (1 + t c) in double-double (|u| <= 1/128), then
// atan(c) + u + (atan u - u), the last by its series in double.
static sinewi_dd atan_fast(double n, double d) {
	const int i = (int)(n / d * 64.0 + 0.5);
	const double c = (double)i * 0x1p-6;
	const sinewi_dd cd = two_prod_short(c, d), cn = two_prod_short(c, n); // c has 7 bits
	const double nh = n - cd.hi; // exact (within a factor 2)
	sinewi_dd den = fast_two_sum(d, cn.hi);
	den.lo += cn.lo;
	const double uh = (nh - cd.lo) / den.hi;
	const sinewi_dd p = two_prod(uh, den.hi);
	const double ul = ((((nh - p.hi) - p.lo) - cd.lo) - uh * den.lo) / den.hi;
	const double w = uh * uh;
	const double rest = uh * w * (-1.0 / 3 + w * (1.0 / 5 + w * (-1.0 / 7 + w * (1.0 / 9 + w * (-1.0 / 11)))));
	const sinewi_dd h = fast_two_sum(ATAN_64[i].hi, uh); // atan c >= 2 |u|, or 0
	return (sinewi_dd){h.hi, h.lo + ATAN_64[i].lo + ul + rest};
}

// The same, accurately: t = n / d in double-double, u = (t - c) / (1 + t c), the series' first term in
// double-double; below 2^-83 of the result.
static sinewi_dd atan_accurate(double n, double d) {
	const sinewi_dd t = dd_div((sinewi_dd){n, 0.0}, (sinewi_dd){d, 0.0});
	const int i = (int)(t.hi * 64.0 + 0.5);
	const double c = (double)i * 0x1p-6;
	sinewi_dd num = two_sum(t.hi - c, t.lo); // t.hi - c is exact
	const sinewi_dd tc = dd_mul_d(t, c);
	sinewi_dd den = fast_two_sum(1.0, tc.hi); // 1 + t c, t c <= 1
	den = fast_two_sum(den.hi, den.lo + tc.lo);
	const sinewi_dd u = dd_div(num, den);
	sinewi_dd w = two_prod(u.hi, u.hi);
	w.lo += 2.0 * u.hi * u.lo;
	const double wh = w.hi;
	const double a5 = 1.0 / 5 + wh * (-1.0 / 7 + wh * (1.0 / 9 + wh * (-1.0 / 11 + wh * (1.0 / 13))));
	sinewi_dd v = fast_two_sum(NEG_THIRD.hi, wh * a5);
	v.lo += NEG_THIRD.lo;
	const sinewi_dd au = dd_add(u, dd_mul(u, dd_mul(w, v)));
	return dd_add(ATAN_64[i], au); // |atan u| is at most half of atan c (c >= 1/64 when it is not 0)
}

// pi/2 - a (swap: the angle was atan(d / n)), then pi - that (x < 0); a within [0, pi/4] before: no cancellation.
static sinewi_dd atan_quadrant(sinewi_dd a, int swap, int negative_x) {
	if (swap) {
		const sinewi_dd s = two_sum(PIO2.hi, -a.hi);
		a = (sinewi_dd){s.hi, (s.lo + PIO2.lo) - a.lo};
	}
	if (negative_x) {
		const sinewi_dd s = two_sum(PI.hi, -a.hi);
		a = (sinewi_dd){s.hi, (s.lo + PI.lo) - a.lo};
	}
	return a;
}

// atan2 of finite non-zero |y| and |x|: both are scaled by a power of two to put the larger in [1, 2)
// (exact while the smaller stays normal); quotients below 2^-900, too small for exact products, are
// atan's value already (q - q^3/3 ...) and rounded once.
static double atan2_finite(double ay, double ax, int negative_x) {
	const int swap = ay > ax;
	double n = swap ? ax : ay, d = swap ? ay : ax;
	const double q = n / d;
	sinewi_dd a;
	double v;
	if (q < 0x1p-900) {
		a = atan_quadrant((sinewi_dd){q, 0.0}, swap, negative_x);
		return a.hi + a.lo;
	}
	int e = (int)(bits_of(d) >> 52) - 1023;
	if (e < -1022) { // d subnormal (and so is n): scale both up first, exactly
		n *= 0x1p54, d *= 0x1p54;
		e = (int)(bits_of(d) >> 52) - 1023;
	}
	const double s1 = pow2(-(e / 2)), s2 = pow2(-(e - e / 2)); // two steps: 2^-e alone may not be a double
	n = n * s1 * s2, d = d * s1 * s2;
	a = atan_quadrant(atan_fast(n, d), swap, negative_x);
	if (rounds_surely(a.hi, a.lo, &v)) return v;
	a = atan_accurate(n, d);
	if (swap) a = dd_add(PIO2, dd_neg(a)); // pi/2 - (<= pi/4)
	if (negative_x) a = dd_add(PI, dd_neg(a)); // pi - (<= pi/2)
	return a.hi;
}

double sinewi_atan2(double y, double x) {
	if (x != x || y != y) return x + y;
	const int sy = (int)(bits_of(y) >> 63), sx = (int)(bits_of(x) >> 63);
	const double ax = abs_of(x), ay = abs_of(y);
	double v;
	if (ay == 0.0) v = sx ? PI_1 : 0.0; // atan2(+-0, x): +-0 for x = +0 or > 0, +-pi for x = -0 or < 0
	else if (ax == INFINITY) v = ay == INFINITY ? (sx ? PI3_4 : PI_4) : (sx ? PI_1 : 0.0);
	else if (ax == 0.0 || ay == INFINITY) v = PI_2;
	else v = atan2_finite(ay, ax, sx);
	return sy ? -v : v;
}

/* ---- cbrt ---- */

// Sign of a^3 - m 2^shift (a < 2^55, m < 2^53, shift < 128), in 32-bit words.
static int cube_compare(uint64_t a, uint64_t m, int shift) {
	uint32_t cube[6] = {0}, rhs[6] = {0};
	const uint32_t x[2] = {(uint32_t)a, (uint32_t)(a >> 32)};
	uint32_t sq[4] = {0};
	for (int i = 0; i < 2; ++i) {
		uint64_t carry = 0;
		for (int j = 0; j < 2; ++j) {
			uint64_t t = (uint64_t)x[i] * x[j] + sq[i + j] + carry;
			sq[i + j] = (uint32_t)t, carry = t >> 32;
		}
		sq[i + 2] = (uint32_t)carry;
	}
	for (int i = 0; i < 4; ++i) {
		uint64_t carry = 0;
		for (int j = 0; j < 2; ++j) {
			uint64_t t = (uint64_t)sq[i] * x[j] + cube[i + j] + carry;
			cube[i + j] = (uint32_t)t, carry = t >> 32;
		}
		if (i + 2 < 6) cube[i + 2] = (uint32_t)carry;
	}
	for (int b = 0; b < 53; ++b) // m 2^shift, bit by bit
		if (m >> b & 1u) rhs[(b + shift) >> 5] |= 1u << ((b + shift) & 31);
	for (int i = 5; i >= 0; --i)
		if (cube[i] != rhs[i]) return cube[i] < rhs[i] ? -1 : 1;
	return 0;
}

// Correctly rounded for every input: Newton's iteration gives a root within an ulp, then the cubes of
// the midpoints beside it, compared with x in integers, settle the rounding (a midpoint's cube is never a
// double: ties cannot happen).
double sinewi_cbrt(double x) {
	if (x == 0.0 || x - x != 0.0) return x + x; // +-0, +-inf, NaN
	double ax = abs_of(x);
	int k = 0;
	if (ax < 0x1p-1022) ax *= 0x1p54, k = -18; // subnormal: 2^54 = (2^18)^3
	const uint64_t u = bits_of(ax);
	const int e = (int)(u >> 52) - 1023, r = ((e % 3) + 3) % 3; // e = 3 j + r
	k += (e - r) / 3;
	const uint64_t mant = (u & 0xfffffffffffffull) | 1ull << 52; // m = mant 2^(r - 52) in [1, 8)
	const double m = from_bits((u & 0xfffffffffffffull) | (uint64_t)(1023 + r) << 52);
	double y = 1.0 + (m - 1.0) * (1.0 / 7); // the chord from (1, 1) to (8, 2): within 0.16
	for (int i = 0; i < 5; ++i) y -= (y * y * y - m) / (3.0 * y * y);
	sinewi_dd y3 = dd_mul_d(two_prod(y, y), y);
	y -= ((y3.hi - m) + y3.lo) / (3.0 * y * y); // y3.hi - m is exact
	// y = C 2^-52 in [1, 2]; the midpoints beside it are (2C -+ 1) 2^-53, whose cubes are compared with
	// m 2^159 = mant 2^(107 + r)
	uint64_t c = (uint64_t)(y * 0x1p52);
	while (cube_compare(2 * c + 1, mant, 107 + r) < 0) ++c;
	while (c > 1ull << 52 && cube_compare(2 * c - 1, mant, 107 + r) > 0) --c;
	const double root = (double)c * 0x1p-52 * pow2(k);
	return x < 0 ? -root : root;
}

/* ---- log2 ---- */

// x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh f = 2 f (1 + f^2/3 + f^4/5 + ...), f = (m - 1) / (m + 1),
// |f| <= 0.172: the terms to f^20 in double-double, the rest (below 2^-55) in double; then times 1/ln 2.
double sinewi_log2(double x) {
	if (x != x || x == INFINITY) return x + x;
	if (x == 0.0) return -INFINITY;
	if (x < 0.0) return NAN;
	int e = 0;
	if (x < 0x1p-1022) x *= 0x1p54, e = -54;
	const uint64_t u = bits_of(x);
	e += (int)(u >> 52) - 1023;
	double m = from_bits((u & 0xfffffffffffffull) | 0x3ff0000000000000ull);
	if (m > 2.0 * SQRT_HALF) m *= 0.5, e += 1;
	if (m == 1.0) return (double)e;
	const sinewi_dd f = dd_div((sinewi_dd){m - 1.0, 0.0}, two_sum(m, 1.0)); // m - 1 is exact
	const sinewi_dd f2 = dd_mul(f, f);
	double tail = 0.0;
	for (int k = 20; k >= 11; --k) tail = INV_ODD[k].hi + f2.hi * tail;
	sinewi_dd s = {tail, 0.0};
	for (int k = 10; k >= 0; --k) s = dd_add(INV_ODD[k], dd_mul(f2, s)); // all terms positive
	sinewi_dd l = dd_mul(dd_mul(s, f), INV_LN2);
	l.hi *= 2.0, l.lo *= 2.0;
	return dd_add((sinewi_dd){(double)e, 0.0}, l).hi; // |l| < 1/2: no cancellation beyond a factor 2
}

/* ---- 10^n ---- */

static sinewi_dd normalized(sinewi_dd v, int *e) { // v = w 2^k with w.hi in [1, 2): k moves to *e
	int k = (int)(bits_of(v.hi) >> 52 & 0x7ff) - 1023;
	*e += k;
	const double s = pow2(-k);
	return (sinewi_dd){v.hi * s, v.lo * s};
}

// Correctly rounded (tests/test_core_math.c checks every n that gives a finite non-zero double): 10^|n| by
// binary powering in double-double (below 2^-95 of error), its reciprocal for n < 0, one rounding; in the
// subnormal range the count of 2^-1074 units is rounded instead, so there is still one rounding.
double sinewi_pow10(int n) {
	static const double exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	if (n >= 0 && n <= 22) return exact[n];
	if (n > 308) return INFINITY;
	if (n < -343) return 0.0;
	sinewi_dd v = {1.0, 0.0}, b = {1.25, 0.0}; // 10 = 1.25 2^3
	int ev = 0, eb = 3;
	for (unsigned k = n < 0 ? (unsigned)-n : (unsigned)n; k; k >>= 1) {
		if (k & 1u) v = normalized(dd_mul(v, b), &ev), ev += eb;
		if (k > 1u) eb *= 2, b = normalized(dd_mul(b, b), &eb);
	}
	if (n < 0) {
		ev = -ev;
		v = normalized(dd_div((sinewi_dd){1.0, 0.0}, v), &ev);
	}
	if (ev >= -1022) return (v.hi + v.lo) * pow2(ev); // v.hi + v.lo <= 2: the product is exact
	// subnormal: v 2^(ev + 1074) units of 2^-1074, at most 2^52; round that count to the nearest integer
	const double s = pow2(ev + 1074);
	const double uh = v.hi * s, ul = v.lo * s;
	double units = (uh + 0x1p52) - 0x1p52;
	const double rest = (uh - units) + ul;
	if (rest > 0.5) units += 1.0;
	else if (rest < -0.5) units -= 1.0;
	return units * 0x1p-537 * 0x1p-537;
}

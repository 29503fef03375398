// sinew — see include/sinew.h for version and licence
// The codec's own elementary functions (src/core/elementary.c) against a 113-bit reference: gcc's
// __float128 with libquadmath on x86-64, long double (IEEE binary128) and glibc's *l functions on AArch64.
// Each result must be the correctly rounded one, on dense sweeps of the ranges the codec uses (BVH and AMC
// Euler angles in degrees, the resampler's slerp angles) and of every range of doubles, with the special
// values of C Annex F. Where the reference itself lies within 2^-104 of a rounding boundary the test
// cannot tell which side is right: such inputs are counted ("undecided") and may not exceed a handful.
#include "test.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "core/elementary.h"

#if defined(SINEW_TEST_QUADMATH)
typedef __float128 quad;
__float128 sinq(__float128);
__float128 cosq(__float128);
__float128 atan2q(__float128, __float128);
__float128 cbrtq(__float128);
__float128 log2q(__float128);
__float128 powq(__float128, __float128);
__float128 expq(__float128);
#define Q_SIN sinq
#define Q_COS cosq
#define Q_ATAN2 atan2q
#define Q_CBRT cbrtq
#define Q_LOG2 log2q
#define Q_POW powq
#define Q_EXP expq
#define HAVE_REFERENCE 1
#elif LDBL_MANT_DIG == 113
typedef long double quad;
#define Q_SIN sinl
#define Q_COS cosl
#define Q_ATAN2 atan2l
#define Q_CBRT cbrtl
#define Q_LOG2 log2l
#define Q_POW powl
#define Q_EXP expl
#define HAVE_REFERENCE 1
#else
#define HAVE_REFERENCE 0
#endif

#if HAVE_REFERENCE

#include "core/elementary_tables.h"

static uint64_t bits_of(double x) {
	uint64_t u;
	memcpy(&u, &x, 8);
	return u;
}

static double from_bits(uint64_t u) {
	double x;
	memcpy(&x, &u, 8);
	return x;
}

static quad qabs(quad x) {
	return x < 0 ? -x : x;
}

// The library's functions, or the copies of tests/test_elementary_accurate.c that take the accurate paths only.
void sinewi_sincos_accurate(double x, double *s, double *c);
double sinewi_sin_accurate(double x);
double sinewi_cos_accurate(double x);
double sinewi_atan2_accurate(double y, double x);
typedef struct variant {
	const char *sin, *cos, *atan2; // names in the report
	void (*sincos_fn)(double, double *, double *);
	double (*sin_fn)(double), (*cos_fn)(double), (*atan2_fn)(double, double);
} variant;
static const variant library = {"sin", "cos", "atan2", sinewi_sincos, sinewi_sin, sinewi_cos, sinewi_atan2};
static const variant accurate = {"sin (accurate path)", "cos (accurate path)", "atan2 (accurate path)", sinewi_sincos_accurate,
                                 sinewi_sin_accurate, sinewi_cos_accurate, sinewi_atan2_accurate};
static const variant *fn = &library;

typedef struct tally {
	const char *name;
	unsigned long inputs, undecided;
	bool failed;
} tally;

// `got` against the correctly rounded `ref`. Reports the first few failures; true when it passes.
static bool pin(tally *t, double x, double y, double got, quad ref) {
	t->inputs++;
	const double want = (double)ref; // the conversion rounds to nearest
	if (bits_of(got) == bits_of(want)) return true;
	if (got == want && got == 0.0) { // a zero's sign: the reference's
		if (!t->failed) test_fail(__FILE__, __LINE__, "%s(%a, %a): %a, want %a (sign)", t->name, x, y, got, want);
		t->failed = true;
		return false;
	}
	// adjacent doubles whose midpoint is within 2^-104 of the reference: the reference cannot decide
	if (got == got && want == want && (got > want ? nextafter(want, INFINITY) == got : nextafter(want, -INFINITY) == got)) {
		quad mid = ((quad)got + (quad)want) / 2;
		if (qabs(ref - mid) <= qabs(ref) * (quad)0x1p-104) {
			t->undecided++;
			return true;
		}
	}
	if (!t->failed) {
		double ulp = fabs(nextafter(want, INFINITY) - want);
		test_fail(__FILE__, __LINE__, "%s(%a, %a) = %a, correctly rounded %a (off by %.3g ulp)", t->name, x, y, got, want,
		          (double)(((quad)got - ref) / (quad)ulp));
	}
	t->failed = true;
	return false;
}

static bool report(tally *t) {
	printf("    %s: %lu inputs, correctly rounded%s (%lu undecided by the reference)\n", t->name, t->inputs,
	       t->failed ? " but for failures above" : "", t->undecided);
	return !t->failed && t->undecided <= t->inputs / 100000 + 2;
}

static double log_uniform(test_rng *r, int lo, int hi) { // 2^[lo, hi), any significand
	const int e = lo + (int)(test_rand_u32(r) % (unsigned)(hi - lo));
	const uint64_t mant = ((uint64_t)test_rand_u32(r) << 32 | test_rand_u32(r)) & 0xfffffffffffffull;
	return from_bits((uint64_t)(1023 + e) << 52 | mant);
}

static void sincos_case(tally *ts, tally *tc, double x) {
	double s, c;
	fn->sincos_fn(x, &s, &c);
	pin(ts, x, 0, s, Q_SIN((quad)x));
	pin(tc, x, 0, c, Q_COS((quad)x));
	// the single functions give the same bits as the pair
	if (bits_of(fn->sin_fn(x)) != bits_of(s) || bits_of(fn->cos_fn(x)) != bits_of(c)) {
		if (!ts->failed) test_fail(__FILE__, __LINE__, "%s/%s(%a) differ from the pair", fn->sin, fn->cos, x);
		ts->failed = true;
	}
}

static void sin_cos_sweep(void) {
	tally ts = {fn->sin, 0, 0, false}, tc = {fn->cos, 0, 0, false};
	// BVH and AMC: a rotation of d degrees as half angles d pi/360 (BVH) and (d pi/180) / 2 (AMC), every
	// 0.02 degree in [-1080, 1080], and every seventh printed value of three decimals in [-200, 200]
	for (int i = -54000; i <= 54000; ++i) {
		const double d = (double)i / 50.0;
		sincos_case(&ts, &tc, d * (3.14159265358979323846 / 360.0));
	}
	for (int i = -200000; i <= 200000; i += 7) {
		const double d = (double)i / 1000.0;
		sincos_case(&ts, &tc, 0.5 * (d * (3.14159265358979323846 / 180.0)));
	}
	test_rng r = {0x5eed0001ull};
	for (int i = 0; i < 50000; ++i) sincos_case(&ts, &tc, test_rand_range(&r, -7.0, 7.0)); // the slerp's angles and beyond
	for (int i = 0; i < 30000; ++i) {                                                      // every binade
		const double x = log_uniform(&r, -60, 1024);
		sincos_case(&ts, &tc, i & 1 ? -x : x);
	}
	// next to multiples of pi/2 (the reduction's cancellation), both reductions (below and above 2^20)
	for (int k = 1; k <= 8000; ++k) {
		const double m = (double)k * 1.57079632679489661923;
		for (int d = -2; d <= 2; ++d) {
			const double x = from_bits(bits_of(m) + (uint64_t)(int64_t)d);
			sincos_case(&ts, &tc, x);
			sincos_case(&ts, &tc, -x);
		}
	}
	for (int i = 0; i < 10000; ++i) {
		const double m = (double)(test_rand_u32(&r) | 1u) * 4096.0 * 1.57079632679489661923;
		sincos_case(&ts, &tc, from_bits(bits_of(m) + (test_rand_u32(&r) & 3u)));
	}
	// the double closest to a multiple of pi/2 (6381956970095103 2^797: Muller, "Elementary Functions", ch. 11)
	sincos_case(&ts, &tc, 0x1.6ac5b262ca1ffp+849);
	sincos_case(&ts, &tc, 0x1.921fb54442d18p+0);
	sincos_case(&ts, &tc, 0x1p20);
	sincos_case(&ts, &tc, nextafter(0x1p20, 0));
	sincos_case(&ts, &tc, DBL_MAX);
	sincos_case(&ts, &tc, 0x1p-27);
	sincos_case(&ts, &tc, nextafter(0x1p-27, 0));
	sincos_case(&ts, &tc, 0x1p-1074);
	CHECK(report(&ts));
	CHECK(report(&tc));
	// Annex F: sin(+-0) = +-0, cos(+-0) = 1, NaN for infinities and NaN
	double s, c;
	sinewi_sincos(-0.0, &s, &c);
	CHECK(bits_of(s) == bits_of(-0.0) && c == 1.0);
	CHECK(bits_of(sinewi_sin(0.0)) == 0 && bits_of(sinewi_sin(-0.0)) == bits_of(-0.0) && sinewi_cos(-0.0) == 1.0);
	const double specials[3] = {INFINITY, -INFINITY, NAN};
	for (int i = 0; i < 3; ++i) {
		sinewi_sincos(specials[i], &s, &c);
		CHECK(s != s && c != c && sinewi_sin(specials[i]) != sinewi_sin(specials[i]) &&
		      sinewi_cos(specials[i]) != sinewi_cos(specials[i]));
	}
}

static void atan2_case(tally *t, double y, double x) {
	pin(t, y, x, fn->atan2_fn(y, x), Q_ATAN2((quad)y, (quad)x));
}

static void atan2_sweep(void) {
	tally t = {fn->atan2, 0, 0, false};
	test_rng r = {0x5eed0002ull};
	// the resampler's slerp: 2 atan2(sqrt(|a - b|^2), sqrt(|a + b|^2)) of unit quaternions, every angle
	for (int i = 0; i < 100000; ++i) {
		const double diff = test_rand_range(&r, 0.0, 4.0), sum = 4.0 - diff;
		atan2_case(&t, sqrt(diff), sqrt(sum));
		const double small = log_uniform(&r, -60, -2);
		atan2_case(&t, sqrt(small), sqrt(4.0 - small));
	}
	// a circle, all four quadrants, and the table's joints i/64 (and their neighbours)
	for (int i = 0; i < 65536; ++i) {
		const double a = (double)i * (6.283185307179586 / 65536.0);
		atan2_case(&t, sin(a), cos(a));
		atan2_case(&t, 3e5 * sin(a), 3e5 * cos(a));
	}
	for (int i = 0; i <= 64; ++i)
		for (int d = -3; d <= 3; ++d) {
			const double y = from_bits(bits_of((double)i / 64.0) + (uint64_t)(int64_t)(i ? d : (d < 0 ? -d : d)));
			atan2_case(&t, y, 1.0);
			atan2_case(&t, 1.0, y);
			atan2_case(&t, -y, -1.0);
		}
	// any magnitudes, signs and ratios (subnormal to huge)
	for (int i = 0; i < 60000; ++i) {
		double y = log_uniform(&r, -1074 + 52, 1024), x = log_uniform(&r, -1074 + 52, 1024);
		if (i & 1) y = -y;
		if (i & 2) x = -x;
		atan2_case(&t, y, x);
		atan2_case(&t, y, y * test_rand_range(&r, 0.5, 2.0)); // near 45 degrees
	}
	atan2_case(&t, 0x1p-1074, 0x1p-1074);
	atan2_case(&t, 0x1p-1074, 3.0);
	atan2_case(&t, 0x1p-1074, 0x1.8p-1070);
	atan2_case(&t, DBL_MAX, 0x1p-1074);
	atan2_case(&t, DBL_MAX, DBL_MAX);
	atan2_case(&t, 1e-300, 1.0);
	CHECK(report(&t));
	// Annex F
	CHECK(bits_of(sinewi_atan2(0.0, 0.0)) == 0 && bits_of(sinewi_atan2(-0.0, 0.0)) == bits_of(-0.0));
	CHECK(sinewi_atan2(0.0, -0.0) == (double)Q_ATAN2(0, -(quad)0) && sinewi_atan2(-0.0, -0.0) == -(double)Q_ATAN2(0, -(quad)0));
	CHECK(sinewi_atan2(0.0, -1.0) == 0x1.921fb54442d18p+1 && sinewi_atan2(-0.0, -1.0) == -0x1.921fb54442d18p+1);
	CHECK(bits_of(sinewi_atan2(-0.0, 5.0)) == bits_of(-0.0) && sinewi_atan2(1.0, 0.0) == 0x1.921fb54442d18p+0);
	CHECK(sinewi_atan2(-1.0, -0.0) == -0x1.921fb54442d18p+0);
	CHECK(sinewi_atan2(INFINITY, INFINITY) == (double)Q_ATAN2(1, 1) && sinewi_atan2(-INFINITY, INFINITY) == -(double)Q_ATAN2(1, 1));
	CHECK(sinewi_atan2(INFINITY, -INFINITY) == (double)Q_ATAN2(1, -1));
	CHECK(sinewi_atan2(1.0, -INFINITY) == 0x1.921fb54442d18p+1 && bits_of(sinewi_atan2(-1.0, INFINITY)) == bits_of(-0.0));
	CHECK(sinewi_atan2(-INFINITY, 3.0) == -0x1.921fb54442d18p+0);
	CHECK(sinewi_atan2(NAN, 1.0) != sinewi_atan2(NAN, 1.0) && sinewi_atan2(1.0, NAN) != sinewi_atan2(1.0, NAN));
}

static void test_sin_cos_correctly_rounded(void) {
	fn = &library;
	sin_cos_sweep();
}

static void test_sin_cos_accurate_path_correctly_rounded(void) {
	fn = &accurate;
	sin_cos_sweep();
	fn = &library;
}

static void test_atan2_correctly_rounded(void) {
	fn = &library;
	atan2_sweep();
}

static void test_atan2_accurate_path_correctly_rounded(void) {
	fn = &accurate;
	atan2_sweep();
	fn = &library;
}

static void cbrt_case(tally *t, double x) {
	pin(t, x, 0, sinewi_cbrt(x), Q_CBRT((quad)x));
}

static void test_cbrt_correctly_rounded(void) {
	tally t = {"cbrt", 0, 0, false};
	test_rng r = {0x5eed0003ull};
	for (int i = 0; i < 100000; ++i) cbrt_case(&t, 1.0 + 7.0 * (double)i / 100000.0); // the resampler's ratios, dense
	for (int i = 0; i < 60000; ++i) {
		double x = log_uniform(&r, -1022, 1024);
		cbrt_case(&t, i & 1 ? -x : x);
	}
	for (int i = 0; i < 20000; ++i) cbrt_case(&t, from_bits(((uint64_t)test_rand_u32(&r) << 32 | test_rand_u32(&r)) & 0xfffffffffffffull)); // subnormal
	for (uint64_t k = 1; k <= 100000; k += 1 + k / 1000) { // exact cubes and their neighbours
		const double c = (double)(k * k * k);
		cbrt_case(&t, c);
		cbrt_case(&t, nextafter(c, 0));
		cbrt_case(&t, nextafter(c, INFINITY));
		cbrt_case(&t, c * 0x1p-300);
	}
	cbrt_case(&t, nextafter(8.0, 0));
	cbrt_case(&t, nextafter(1.0, 0));
	cbrt_case(&t, DBL_MAX);
	cbrt_case(&t, 0x1p-1074);
	CHECK(report(&t));
	CHECK(t.undecided == 0); // no midpoint's cube is a double: the reference always decides
	CHECK(bits_of(sinewi_cbrt(-0.0)) == bits_of(-0.0) && bits_of(sinewi_cbrt(0.0)) == 0);
	CHECK(sinewi_cbrt(-INFINITY) == -INFINITY && sinewi_cbrt(INFINITY) == INFINITY && sinewi_cbrt(NAN) != sinewi_cbrt(NAN));
	CHECK(sinewi_cbrt(-27.0) == -3.0 && sinewi_cbrt(0x1p-1071) == 0x1p-357 && sinewi_cbrt(0x1p-1074) == (double)Q_CBRT(0x1p-1074));
}

static void log2_case(tally *t, double x) {
	pin(t, x, 0, sinewi_log2(x), Q_LOG2((quad)x));
}

static void test_log2_correctly_rounded(void) {
	tally t = {"log2", 0, 0, false};
	test_rng r = {0x5eed0004ull};
	// the compressor's half-range estimate: ratios of float extents, mostly within [1/2, 4]
	for (int i = 0; i < 100000; ++i) {
		const float a = (float)test_rand_range(&r, 1e-6, 10.0), b = (float)((double)a * test_rand_range(&r, 0.5, 4.0));
		log2_case(&t, (double)b / (double)a);
	}
	for (int i = 0; i < 60000; ++i) log2_case(&t, log_uniform(&r, -1022, 1024));
	for (int i = 0; i < 20000; ++i) log2_case(&t, from_bits(((uint64_t)test_rand_u32(&r) << 32 | test_rand_u32(&r)) & 0xfffffffffffffull));
	for (int k = 1; k <= 20000; ++k) { // next to 1 (results near 0) and to sqrt(2) (the reduction's switch)
		log2_case(&t, from_bits(bits_of(1.0) + (uint64_t)k));
		log2_case(&t, from_bits(bits_of(1.0) - (uint64_t)k));
		log2_case(&t, from_bits(bits_of(1.4142135623730951) + (uint64_t)k - 10000));
	}
	for (int e = -1074; e <= 1023; ++e) log2_case(&t, ldexp(1.0, e));
	CHECK(report(&t));
	CHECK(sinewi_log2(1.0) == 0.0 && bits_of(sinewi_log2(1.0)) == 0 && sinewi_log2(0x1p-1074) == -1074.0);
	CHECK(sinewi_log2(0.0) == -INFINITY && sinewi_log2(-0.0) == -INFINITY && sinewi_log2(INFINITY) == INFINITY);
	CHECK(sinewi_log2(-1.0) != sinewi_log2(-1.0) && sinewi_log2(NAN) != sinewi_log2(NAN) && sinewi_log2(-INFINITY) != sinewi_log2(-INFINITY));
}

static void test_pow10_correctly_rounded(void) {
	tally t = {"pow10", 0, 0, false};
	for (int n = -400; n <= 400; ++n) pin(&t, n, 10, sinewi_pow10(n), Q_POW(10, (quad)n));
	CHECK(report(&t));
	CHECK(t.undecided == 0);
	CHECK(sinewi_pow10(-2147483647 - 1) == 0.0 && sinewi_pow10(2147483647) == INFINITY);
}

// Every constant of elementary_tables.h against the reference: the generator and this file agree.
static void test_elementary_tables_match_reference(void) {
	const quad pi = 4 * Q_ATAN2(1, 1);
	const quad pio2 = (quad)PIO2_A + (quad)PIO2_B + (quad)PIO2_C + (quad)PIO2_D;
	CHECK(qabs(pio2 - pi / 2) <= pi * (quad)0x1p-111);
	CHECK(PIO2.hi == (double)(pi / 2) && qabs((quad)PIO2.hi + (quad)PIO2.lo - pi / 2) <= (quad)0x1p-105);
	CHECK(PI.hi == (double)pi && qabs((quad)PI.hi + (quad)PI.lo - pi) <= (quad)0x1p-104);
	CHECK(PI_4 == (double)(pi / 4) && PI3_4 == (double)(3 * pi / 4) && PI_1 == (double)pi && PI_2 == (double)(pi / 2));
	CHECK(INV_PIO2 == (double)(2 / pi));
	CHECK(qabs((quad)INV_LN2.hi + (quad)INV_LN2.lo - Q_LOG2(Q_EXP(1))) <= (quad)0x1p-106); // 1/ln 2 = log2 e
	// 2/pi's first three words, as far as 113 bits reach
	quad f = 2 / pi;
	for (int w = 0; w < 3; ++w) {
		f *= (quad)4294967296.0;
		const uint32_t word = (uint32_t)f;
		f -= (quad)word;
		CHECK(w == 2 ? (TWO_OVER_PI[w] >> 16) == (word >> 16) : TWO_OVER_PI[w] == word);
	}
	for (int i = 0; i < 52; ++i) {
		const quad a = (quad)i / 64;
		CHECK_MSG(qabs((quad)SIN_64[i][0].hi + (quad)SIN_64[i][0].lo - Q_SIN(a)) <= (quad)0x1p-106, "sin(%d/64)", i);
		CHECK_MSG(qabs((quad)SIN_64[i][1].hi + (quad)SIN_64[i][1].lo - Q_COS(a)) <= (quad)0x1p-106, "cos(%d/64)", i);
	}
	for (int i = 0; i <= 64; ++i)
		CHECK_MSG(qabs((quad)ATAN_64[i].hi + (quad)ATAN_64[i].lo - Q_ATAN2((quad)i / 64, 1)) <= (quad)0x1p-106, "atan(%d/64)", i);
	for (int k = 0; k <= 20; ++k)
		CHECK(qabs((quad)INV_ODD[k].hi + (quad)INV_ODD[k].lo - 1 / (quad)(2 * k + 1)) <= (quad)0x1p-106);
	CHECK(qabs((quad)NEG_SIXTH.hi + (quad)NEG_SIXTH.lo + 1 / (quad)6) <= (quad)0x1p-108);
	CHECK(qabs((quad)NEG_THIRD.hi + (quad)NEG_THIRD.lo + 1 / (quad)3) <= (quad)0x1p-107);
	CHECK(SQRT_HALF == (double)Q_POW(2, (quad)-0.5));
}

#else

static void no_reference(void) {
	test_skip("no 113-bit floating point on this platform (gcc's __float128 with libquadmath, or binary128 long double)");
}
#define test_sin_cos_correctly_rounded no_reference
#define test_atan2_correctly_rounded no_reference
#define test_sin_cos_accurate_path_correctly_rounded no_reference
#define test_atan2_accurate_path_correctly_rounded no_reference
#define test_cbrt_correctly_rounded no_reference
#define test_log2_correctly_rounded no_reference
#define test_pow10_correctly_rounded no_reference
#define test_elementary_tables_match_reference no_reference

#endif

void suite_elementary(void) {
	RUN(test_elementary_tables_match_reference);
	RUN(test_sin_cos_correctly_rounded);
	RUN(test_sin_cos_accurate_path_correctly_rounded);
	RUN(test_atan2_correctly_rounded);
	RUN(test_atan2_accurate_path_correctly_rounded);
	RUN(test_cbrt_correctly_rounded);
	RUN(test_log2_correctly_rounded);
	RUN(test_pow10_correctly_rounded);
}

// sinew — see include/sinew.h for version and licence
// Native test of the wasm compressor's libc pieces against glibc (web/compress/test_libc.sh builds it with
// the functions renamed wc_*): printf's conversions and strtod must agree byte for byte and bit for bit
// (the JSON the glTF writer and the CLI print depends on them), the math functions are counted where they
// differ from glibc (they must be rare and within an ulp), and the allocator survives random
// malloc/realloc/free sequences with every block's bytes intact.
// Last line: "N passed, N failed" (non-zero exit code on a failure).
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wc_snprintf(char *buf, size_t size, const char *fmt, ...);
double wc_strtod(const char *s, char **end);
double wc_sin(double x);
double wc_cos(double x);
double wc_acos(double x);
double wc_atan2(double y, double x);
double wc_cbrt(double x);
double wc_log2(double x);
double wc_pow(double x, double y);
double wc_ldexp(double x, int e);
float wc_nextafterf(float x, float y);
void *wc_malloc(size_t n);
void *wc_realloc(void *p, size_t n);
void *wc_calloc(size_t n, size_t s);
void *wc_aligned_alloc(size_t a, size_t n);
void wc_free(void *p);
void wc_qsort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *));

static int passed, failed;
static unsigned long long rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void) {
	rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

static double from_bits(uint64_t u) {
	double d;
	memcpy(&d, &u, 8);
	return d;
}

static uint64_t to_bits(double d) {
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

static void check(int ok, const char *what) {
	if (ok) passed++;
	else failed++, printf("FAIL %s\n", what);
}

// a double of some kind: random bits, a short decimal, an integer, a value near a power of ten
static double sample(int kind) {
	switch (kind % 6) {
	case 0: {
		double d;
		do d = from_bits(next()); while (!isfinite(d));
		return d;
	}
	case 1: return (double)(int64_t)(next() % 2000001) / 1000.0 - 1000.0;
	case 2: return (double)(int64_t)(next() >> 11) * (next() & 1 ? 1 : -1);
	case 3: return pow(10.0, (double)((int)(next() % 600) - 300)) * (1.0 + (double)(next() % 1000) * 1e-12);
	case 4: return from_bits(next() & 0x800FFFFFFFFFFFFFull); // subnormal
	default: return (double)(float)((double)(next() >> 11) * 0x1p-53 * 20.0 - 10.0); // float values, as the writer prints
	}
}

static void test_printf(void) {
	static const char *formats[] = {"%.1g",   "%.2g",  "%.3g",  "%.5g",   "%.6g", "%.8g",  "%.9g",  "%.12g", "%.15g",
	                                "%.16g",  "%.17g", "%g",    "%e",     "%.0e", "%.3e",  "%f",    "%.0f",  "%.3f",
	                                "%12.4f", "%-14.5e|", "%+g", "% .3f", "%010.2f", "%.20g", "%.1f"}; // (no "#": glibc keeps a zero too few in "%#.3g" of 999.6)
	long bad = 0, total = 0;
	char a[2048], b[2048];
	for (int i = 0; i < 300000; ++i) {
		double v = sample(i);
		const char *f = formats[i % (sizeof formats / sizeof formats[0])];
		if (strstr(f, "f") && fabs(v) > 1e30) continue; // %f of huge values: long but the same code
		snprintf(a, sizeof a, f, v);
		wc_snprintf(b, sizeof b, f, v);
		total++;
		if (strcmp(a, b) != 0 && bad++ < 10) printf("  printf %s of %a: glibc '%s', wc '%s'\n", f, v, a, b);
	}
	static const double specials[] = {0.0, -0.0, 0.5, 1.5, 2.5, 0.25, 0.125, 1e21, 1e-7, 5e-324, 1.7976931348623157e308,
	                                  9.5, 0.05, 999999.5, 9.9999995e-5, 123456789.0};
	for (size_t i = 0; i < sizeof specials / sizeof specials[0]; ++i)
		for (size_t k = 0; k < sizeof formats / sizeof formats[0]; ++k) {
			snprintf(a, sizeof a, formats[k], specials[i]);
			wc_snprintf(b, sizeof b, formats[k], specials[i]);
			total++;
			if (strcmp(a, b) != 0 && bad++ < 20) printf("  printf %s of %a: glibc '%s', wc '%s'\n", formats[k], specials[i], a, b);
		}
	// integers, strings, widths
	snprintf(a, sizeof a, "%d|%5u|%-4x|%08.3d|%llu|%zu|%s|%.3s|%10s|%c|%%|%lld|%X|%#x|%o", -42, 7u, 255u, 12, 18446744073709551615ull,
	         (size_t)99, "str", "abcdef", "right", 'q', -9223372036854775807ll - 1, 0xBEEFu, 0x1fu, 8u);
	wc_snprintf(b, sizeof b, "%d|%5u|%-4x|%08.3d|%llu|%zu|%s|%.3s|%10s|%c|%%|%lld|%X|%#x|%o", -42, 7u, 255u, 12, 18446744073709551615ull,
	            (size_t)99, "str", "abcdef", "right", 'q', -9223372036854775807ll - 1, 0xBEEFu, 0x1fu, 8u);
	total++;
	if (strcmp(a, b) != 0) bad++, printf("  printf integers: glibc '%s', wc '%s'\n", a, b);
	char small[8];
	int n1 = snprintf(small, sizeof small, "%s-%d", "truncated", 12345), n2 = wc_snprintf(b, 8, "%s-%d", "truncated", 12345);
	total++;
	if (n1 != n2 || strcmp(small, b) != 0) bad++, printf("  printf truncation: %d '%s' vs %d '%s'\n", n1, small, n2, b);
	printf("printf: %ld of %ld differ\n", bad, total);
	check(bad == 0, "printf agrees with glibc");
}

static void test_strtod(void) {
	long bad = 0, total = 0;
	char text[1200];
	for (int i = 0; i < 300000; ++i) {
		double v = sample(i);
		int digits = 1 + (int)(next() % 20);
		snprintf(text, sizeof text, "%.*g", digits, v);
		if (i % 7 == 0) { // long random mantissas and exponents
			int n = 0, len = 1 + (int)(next() % 40);
			text[n++] = next() & 1 ? '-' : '+';
			for (int k = 0; k < len; ++k) text[n++] = (char)('0' + next() % 10);
			if (next() & 1) text[n++] = '.';
			for (int k = 0; k < (int)(next() % 30); ++k) text[n++] = (char)('0' + next() % 10);
			n += sprintf(text + n, "e%d", (int)(next() % 700) - 350);
			text[n] = 0;
		}
		char *e1, *e2;
		errno = 0;
		double a = strtod(text, &e1);
		int er1 = errno;
		errno = 0;
		double b = wc_strtod(text, &e2);
		int er2 = errno;
		total++;
		if ((to_bits(a) != to_bits(b) || e1 != e2 || er1 != er2) && bad++ < 10)
			printf("  strtod '%s': glibc %a (+%d, errno %d), wc %a (+%d, errno %d)\n", text, a, (int)(e1 - text), er1, b,
			       (int)(e2 - text), er2);
	}
	static const char *cases[] = {"0", "-0", "1e-400", "2.4703282292062327e-324", "2.4703282292062328e-324", "4.9e-324",
	                              "2.2250738585072011e-308", "2.2250738585072014e-308", "1.7976931348623157e308",
	                              "1.7976931348623159e308", "1e309", "0x1.8p3", "0X1P-1074", "0x.8p1", "0x1.fffffffffffff8p0",
	                              "inf", "-Infinity", "nan", "NaN(123)", "  -12.5e+3x", ".5", "5.", "1e", "1e+", "0x", "-.e5",
	                              "00000000000000000000000000000000001.5", "9007199254740993", "9007199254740992.5000000001",
	                              "123456789012345678901234567890e-20", "1.00000000000000011102230246251565404236316680908203125",
	                              "1.00000000000000011102230246251565404236316680908203124",
	                              "1.00000000000000011102230246251565404236316680908203126", "+", "", "e5", "0.000001e-330",
	                              "7.2057594037927933e16", "4.35679828856744e-317", "1e23", "8.5e-323"};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		char *e1, *e2;
		errno = 0;
		double a = strtod(cases[i], &e1);
		int er1 = errno;
		errno = 0;
		double b = wc_strtod(cases[i], &e2);
		int er2 = errno;
		total++;
		int same = (to_bits(a) == to_bits(b) || (isnan(a) && isnan(b))) && e1 - cases[i] == e2 - cases[i] && er1 == er2;
		if (!same && bad++ < 30)
			printf("  strtod '%s': glibc %a (+%d, errno %d), wc %a (+%d, errno %d)\n", cases[i], a, (int)(e1 - cases[i]), er1,
			       b, (int)(e2 - cases[i]), er2);
	}
	// a 1000-digit number just above and below a halfway point
	char big[1300];
	strcpy(big, "1.00000000000000011102230246251565404236316680908203125");
	size_t n = strlen(big);
	memset(big + n, '0', 900);
	strcpy(big + n + 900, "1");
	double a = strtod(big, NULL), b = wc_strtod(big, NULL);
	total++;
	if (to_bits(a) != to_bits(b)) bad++, printf("  strtod long halfway+: %a vs %a\n", a, b);
	big[n + 900] = 0;
	a = strtod(big, NULL), b = wc_strtod(big, NULL);
	total++;
	if (to_bits(a) != to_bits(b)) bad++, printf("  strtod long halfway: %a vs %a\n", a, b);
	printf("strtod: %ld of %ld differ\n", bad, total);
	check(bad == 0, "strtod agrees with glibc");
}

static int ulps(double a, double b) {
	if (to_bits(a) == to_bits(b)) return 0;
	if (isnan(a) && isnan(b)) return 0;
	int64_t x = (int64_t)to_bits(a), y = (int64_t)to_bits(b);
	if (x < 0) x = (int64_t)0x8000000000000000ull - x;
	if (y < 0) y = (int64_t)0x8000000000000000ull - y;
	int64_t d = x > y ? x - y : y - x;
	return d > 1000000 ? 1000000 : (int)d;
}

static void math_case_limits(const char *name, double (*ref)(double), double (*mine)(double), double lo, double hi, int count,
                             int log_scale, long max_ulps, double max_share) {
	long differ = 0, worst = 0;
	double at = 0;
	for (int i = 0; i < count; ++i) {
		double u = (double)(next() >> 11) * 0x1p-53;
		double x = log_scale ? lo * pow(hi / lo, u) : lo + (hi - lo) * u;
		int d = ulps(ref(x), mine(x));
		if (d) differ++;
		if (d > worst) worst = d, at = x;
	}
	printf("%s on [%g, %g]: %ld of %d differ from glibc, worst %ld ulp (at %a)\n", name, lo, hi, differ, count, worst, at);
	check(worst <= max_ulps && differ <= max_share * count, name);
}

// glibc itself misrounds ~0.1 % of sin/cos and more of acos near 1: within an ulp, on at most 1 %
static void math_case(const char *name, double (*ref)(double), double (*mine)(double), double lo, double hi, int count, int log_scale) {
	math_case_limits(name, ref, mine, lo, hi, count, log_scale, 1, 0.01);
}

static double p10(double k) {
	return pow(10.0, k);
}

static double wc_p10(double k) {
	return wc_pow(10.0, k);
}

static void test_math(void) {
	math_case("sin", sin, wc_sin, -3.2, 3.2, 2000000, 0);
	math_case("cos", cos, wc_cos, -3.2, 3.2, 2000000, 0);
	math_case("sin (small)", sin, wc_sin, 1e-12, 0.8, 300000, 1);
	math_case("sin (large)", sin, wc_sin, 10, 1e15, 300000, 1);
	math_case("cos (large)", cos, wc_cos, 10, 1e300, 300000, 1);
	math_case("acos", acos, wc_acos, -1.0, 1.0, 2000000, 0);
	math_case("acos (near 1)", acos, wc_acos, 0.999, 1.0, 300000, 0);
	math_case("log2", log2, wc_log2, 1e-6, 1e6, 1000000, 1);
	math_case("log2 (near 1)", log2, wc_log2, 0.9, 1.1, 300000, 0);
	// glibc's cbrt is a polynomial and one Halley step: up to 3 ulp off (checked with mpmath), half its results
	// misrounded; ours is correctly rounded. gltf_resample.c ceil()s n * cbrt(r) * 1.1: the two decide differently
	// only when that product lies within a few ulps of an integer
	math_case_limits("cbrt (glibc misrounds)", cbrt, wc_cbrt, 1e-150, 1e150, 1000000, 1, 3, 0.6);
	math_case_limits("cbrt (near 1, glibc misrounds)", cbrt, wc_cbrt, 0.5, 4.0, 300000, 0, 3, 0.6);
	{ // atan2 as gltf_resample.c uses it (2 atan2(sqrt(diff), sqrt(sum)): both positive), and over the plane
		long differ = 0, worst = 0;
		for (int i = 0; i < 1000000; ++i) {
			double y = (double)(next() >> 11) * 0x1p-53 * (i % 3 ? 4.0 : 1e-3), x = (double)(next() >> 11) * 0x1p-53 * 4.0;
			if (i % 5 == 0) y = -y;
			if (i % 7 == 0) x = -x;
			int d = ulps(atan2(y, x), wc_atan2(y, x));
			differ += d != 0;
			if (d > worst) worst = d;
		}
		printf("atan2 on [-4, 4]^2: %ld of 1000000 differ from glibc, worst %ld ulp\n", differ, worst);
		check(worst <= 1 && differ * 100 <= 1000000, "atan2");
		static const double specials[][2] = {{0.0, 0.0}, {-0.0, 0.0}, {0.0, -0.0}, {-0.0, -0.0}, {1, 0}, {-1, -0.0}, {0, -3},
		                                    {INFINITY, INFINITY}, {-INFINITY, -INFINITY}, {2, INFINITY}, {2, -INFINITY}, {1e300, 1e-300}, {1e-300, 1e300}};
		for (size_t i = 0; i < sizeof specials / sizeof specials[0]; ++i) {
			double a = atan2(specials[i][0], specials[i][1]), b = wc_atan2(specials[i][0], specials[i][1]);
			if (ulps(a, b)) printf("  atan2(%g, %g): %a vs %a\n", specials[i][0], specials[i][1], a, b);
			check(ulps(a, b) == 0, "atan2 special case");
		}
		for (int k = 1; k < 2000; ++k) check(wc_cbrt((double)k * k * k) == (double)k, "cbrt of a perfect cube");
	}
	long bad = 0;
	for (int k = -400; k <= 400; ++k) {
		int d = ulps(p10(k), wc_p10(k));
		if (d) bad++, printf("  pow(10, %d): glibc %a, wc %a%s\n", k, p10(k), wc_p10(k), k == 23 || k == 210 ? "" : " (!)");
		if (d && k != 23 && k != 210) bad += 100;
	}
	printf("pow(10, k), k = -400..400: %ld differ (glibc's 10^23 and 10^210 are not correctly rounded)\n", bad);
	check(bad <= 2, "pow(10, k)");
	long differ = 0;
	for (int i = 0; i < 200000; ++i) {
		double x = 0.5 + (double)(next() >> 11) * 0x1p-53 * 10, y = (double)((int)(next() % 60) - 30);
		if (ulps(pow(x, y), wc_pow(x, y))) differ++;
	}
	printf("pow(x, n), n = -30..30: %ld of 200000 differ\n", differ);
	check(differ * 100 <= 200000, "pow(x, n)");
	static const double specials[][2] = {{0, 1}, {-0.0, 3}, {-0.0, -3}, {0, -2}, {INFINITY, -1}, {-INFINITY, 3}, {-2, 3},
	                                    {-2, 0.5}, {1, NAN}, {NAN, 0}, {2, 1024}, {2, -1075}, {0.5, INFINITY}, {-1, INFINITY}};
	for (size_t i = 0; i < sizeof specials / sizeof specials[0]; ++i) {
		double a = pow(specials[i][0], specials[i][1]), b = wc_pow(specials[i][0], specials[i][1]);
		check(ulps(a, b) == 0, "pow special case");
		if (ulps(a, b)) printf("  pow(%g, %g): %a vs %a\n", specials[i][0], specials[i][1], a, b);
	}
	for (int i = 0; i < 100000; ++i) {
		float x, y;
		uint32_t u = (uint32_t)next(), v = (uint32_t)next();
		memcpy(&x, &u, 4), memcpy(&y, &v, 4);
		float a = nextafterf(x, y), b = wc_nextafterf(x, y);
		if (memcmp(&a, &b, 4) != 0 && !(isnan(a) && isnan(b))) {
			check(0, "nextafterf");
			printf("  nextafterf(%a, %a): %a vs %a\n", x, y, a, b);
			break;
		}
	}
	for (int i = 0; i < 100000; ++i) {
		double x = sample(i);
		int e = (int)(next() % 2300) - 1150;
		if (ulps(ldexp(x, e), wc_ldexp(x, e)) && fabs(ldexp(x, e)) >= 0x1p-1022) {
			check(0, "ldexp");
			printf("  ldexp(%a, %d): %a vs %a\n", x, e, ldexp(x, e), wc_ldexp(x, e));
			break;
		}
	}
}

static void test_heap(void) {
	enum { SLOTS = 4000 };
	static unsigned char *p[SLOTS];
	static size_t n[SLOTS];
	static unsigned char tag[SLOTS];
	int bad = 0;
	for (int step = 0; step < 400000 && !bad; ++step) {
		int i = (int)(next() % SLOTS);
		if (p[i]) { // the block still holds its bytes
			for (size_t k = 0; k < n[i]; k += 1 + k / 8)
				if (p[i][k] != (unsigned char)(tag[i] + k)) bad = 1;
		}
		int op = (int)(next() % 4);
		size_t size = next() % 8 == 0 ? next() % 200000 : next() % 600;
		if (op == 0 && p[i]) {
			wc_free(p[i]), p[i] = NULL;
			continue;
		}
		if (op == 1 && p[i]) {
			unsigned char *q = (unsigned char *)wc_realloc(p[i], size + 1);
			if (!q) continue;
			for (size_t k = 0; k < n[i] && k <= size; k += 1 + k / 8)
				if (q[k] != (unsigned char)(tag[i] + k)) bad = 2;
			p[i] = q;
		} else {
			if (p[i]) wc_free(p[i]);
			size_t align = op == 2 ? (size_t)16 << (next() % 3) : 16;
			p[i] = (unsigned char *)(op == 2 ? wc_aligned_alloc(align, size + 1) : wc_malloc(size + 1));
			if (!p[i]) continue;
			if ((uintptr_t)p[i] % align) bad = 3;
		}
		n[i] = size + 1, tag[i] = (unsigned char)next();
		for (size_t k = 0; k < n[i]; k += 1 + k / 8) p[i][k] = (unsigned char)(tag[i] + k);
	}
	for (int i = 0; i < SLOTS; ++i) wc_free(p[i]);
	if (bad) printf("  heap: corruption %d\n", bad);
	check(!bad, "heap keeps every block's bytes");
	void *all = wc_malloc(1 << 20); // everything was given back: the heap starts again at its base
	void *again = wc_malloc(16);
	check(all && again && (uintptr_t)again > (uintptr_t)all, "heap reuses freed memory");
	wc_free(again), wc_free(all);
	void *huge = wc_malloc((size_t)3 << 30);
	check(huge == NULL, "an allocation beyond the memory gives NULL");
	check(wc_calloc((size_t)1 << 31, 4) == NULL, "calloc overflow gives NULL");
}

typedef struct pair {
	int key, order;
} pair;

static int by_key(const void *a, const void *b) {
	return ((const pair *)a)->key - ((const pair *)b)->key;
}

static void test_qsort(void) {
	static pair a[5000];
	for (int i = 0; i < 5000; ++i) a[i].key = (int)(next() % 50), a[i].order = i;
	wc_qsort(a, 5000, sizeof a[0], by_key);
	int ok = 1;
	for (int i = 1; i < 5000; ++i) ok &= a[i - 1].key < a[i].key || (a[i - 1].key == a[i].key && a[i - 1].order < a[i].order);
	check(ok, "qsort is stable");
}

int main(void) {
	test_printf();
	test_strtod();
	test_math();
	test_heap();
	test_qsort();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

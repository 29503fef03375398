// sinew — see include/sinew.h for version and licence
// Number text for the wasm compressor, as glibc does it, so the wasm build writes the same bytes as the
// native CLI: printf's conversions (floating point from the exact decimal expansion of the binary value,
// rounded half to even like glibc in the default rounding mode) and a correctly rounded strtod (decimal
// and hexadecimal). Both use a small big-integer type: a double is m * 2^e, its exact decimal digits are
// those of m * 2^e (e >= 0) or of m * 5^-e shifted -e places (e < 0).
#define _POSIX_C_SOURCE 200809L // strnlen (native test builds)
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wc_internal.h"

/* ---- big integers: little-endian 32-bit words ---- */

#define BIG_WORDS 110 // 3520 bits: m * 5^1074 (2547 bits), 800 decimal digits * 5^1131 bounds (see strtod)

typedef struct big {
	uint32_t w[BIG_WORDS];
	int n; // words in use; no leading zero word
} big;

static void big_set(big *a, uint64_t v) {
	a->n = 0;
	while (v) a->w[a->n++] = (uint32_t)v, v >>= 32;
}

static void big_mul_small(big *a, uint32_t m, uint32_t add) {
	uint64_t carry = add;
	for (int i = 0; i < a->n; ++i) {
		uint64_t t = (uint64_t)a->w[i] * m + carry;
		a->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry && a->n < BIG_WORDS) a->w[a->n++] = (uint32_t)carry;
}

static void big_mul_pow5(big *a, int e) {
	for (; e >= 13; e -= 13) big_mul_small(a, 1220703125u, 0); // 5^13
	static const uint32_t p5[13] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625};
	if (e) big_mul_small(a, p5[e], 0);
}

static void big_shl(big *a, int s) {
	if (!a->n || !s) return;
	int words = s / 32, bits = s % 32;
	if (bits) {
		uint32_t carry = 0;
		for (int i = 0; i < a->n; ++i) {
			uint32_t v = a->w[i];
			a->w[i] = v << bits | carry;
			carry = v >> (32 - bits);
		}
		if (carry && a->n < BIG_WORDS) a->w[a->n++] = carry;
	}
	if (words) {
		int n = a->n + words > BIG_WORDS ? BIG_WORDS - words : a->n;
		memmove(a->w + words, a->w, (size_t)n * 4);
		memset(a->w, 0, (size_t)words * 4);
		a->n = n + words;
	}
}

static void big_shr1(big *a) {
	for (int i = 0; i < a->n; ++i) a->w[i] = a->w[i] >> 1 | (i + 1 < a->n ? a->w[i + 1] << 31 : 0);
	while (a->n && !a->w[a->n - 1]) a->n--;
}

static int big_bits(const big *a) {
	return a->n ? 32 * (a->n - 1) + 32 - __builtin_clz(a->w[a->n - 1]) : 0;
}

static int big_cmp(const big *a, const big *b) {
	if (a->n != b->n) return a->n < b->n ? -1 : 1;
	for (int i = a->n - 1; i >= 0; --i)
		if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

static void big_sub(big *a, const big *b) { // a -= b, a >= b
	int64_t borrow = 0;
	for (int i = 0; i < a->n; ++i) {
		int64_t t = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
		borrow = t < 0;
		a->w[i] = (uint32_t)(t + (borrow << 32));
	}
	while (a->n && !a->w[a->n - 1]) a->n--;
}

static uint32_t big_divmod_small(big *a, uint32_t d) { // a /= d, returns the remainder
	uint64_t r = 0;
	for (int i = a->n - 1; i >= 0; --i) {
		uint64_t t = r << 32 | a->w[i];
		a->w[i] = (uint32_t)(t / d);
		r = t % d;
	}
	while (a->n && !a->w[a->n - 1]) a->n--;
	return (uint32_t)r;
}

/* ---- exact decimal expansion of a double ---- */

// Digits of |v| (finite, nonzero) into `out` (no leading or trailing zeros); returns their count and sets
// *point so that |v| = 0.d1 d2 ... * 10^point.
static int exact_digits(double v, char *out, int *point) {
	uint64_t bits;
	memcpy(&bits, &v, 8);
	int be = (int)(bits >> 52 & 0x7FF);
	uint64_t m = bits & 0xFFFFFFFFFFFFFull;
	if (be) m |= 1ull << 52;
	int e = (be ? be : 1) - 1075;
	while (!(m & 1)) m >>= 1, e++;
	static big n; // static: 440 bytes off the 64 KB stack per call are not worth it, and there is one thread
	big_set(&n, m);
	int shift = 0;
	if (e >= 0) big_shl(&n, e);
	else big_mul_pow5(&n, -e), shift = -e;
	char rev[1200];
	int count = 0;
	while (n.n) {
		uint32_t chunk = big_divmod_small(&n, 1000000000u);
		for (int i = 0; i < 9; ++i) rev[count++] = (char)('0' + chunk % 10), chunk /= 10;
	}
	while (count && rev[count - 1] == '0') count--;
	int start = 0;
	while (start < count && rev[start] == '0') start++; // trailing zeros of the integer
	int len = count - start;
	for (int i = 0; i < len; ++i) out[i] = rev[count - 1 - i];
	*point = count - shift;
	return len;
}

// Rounds digits[0..len) to `keep` digits (half to even); may carry into a new leading digit (then *point
// grows). keep may be 0 (rounds to 0 or to one unit of the next place, then digits = "1", *point + 1) or
// negative (0). Returns the new length (digits past len count as zeros, so the result may be shorter).
static int round_digits(char *d, int len, int keep, int *point) {
	if (keep >= len) return len;
	if (keep < 0) return 0;
	int up;
	char next = d[keep];
	if (next > '5') up = 1;
	else if (next < '5') up = 0;
	else {
		int rest = 0;
		for (int i = keep + 1; i < len; ++i) rest |= d[i] != '0';
		up = rest || (keep > 0 && (d[keep - 1] - '0') % 2 == 1);
	}
	len = keep;
	if (up) {
		int i = keep - 1;
		while (i >= 0 && d[i] == '9') d[i--] = '0';
		if (i >= 0) d[i]++;
		else {
			memmove(d + 1, d, (size_t)keep);
			d[0] = '1';
			len = keep + 1;
			(*point)++;
		}
	}
	while (len && d[len - 1] == '0') len--;
	return len;
}

/* ---- printf ---- */

typedef struct spec {
	int left, plus, space, alt, zero;
	int width, precision; // precision -1: none
	char conv;
} spec;

static void out(sinew_wc_sink *s, const char *t, size_t n) {
	if (n) s->write(s, t, n);
	s->count += n;
}

static void pad(sinew_wc_sink *s, char c, int n) {
	char block[32];
	memset(block, c, sizeof block);
	for (; n > 0; n -= 32) out(s, block, n < 32 ? (size_t)n : 32);
}

// prefix (sign, 0x), zeros, body, padded to the width
static void emit(sinew_wc_sink *s, const spec *sp, const char *prefix, int zeros, const char *body, int body_len) {
	int plen = (int)strlen(prefix), total = plen + zeros + body_len;
	int fill = sp->width > total ? sp->width - total : 0;
	if (!sp->left && !sp->zero) pad(s, ' ', fill);
	out(s, prefix, (size_t)plen);
	if (!sp->left && sp->zero) pad(s, '0', fill);
	pad(s, '0', zeros);
	out(s, body, (size_t)body_len);
	if (sp->left) pad(s, ' ', fill);
}

static void format_int(sinew_wc_sink *s, spec sp, unsigned long long v, int negative) {
	char buf[72];
	int n = 0;
	unsigned base = sp.conv == 'o' ? 8 : (sp.conv == 'x' || sp.conv == 'X' || sp.conv == 'p') ? 16 : 10;
	const char *digits = sp.conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	while (v) buf[sizeof buf - 1 - n++] = digits[v % base], v /= base;
	const char *body = buf + sizeof buf - n;
	int zeros = 0;
	if (sp.precision >= 0) {
		sp.zero = 0;
		if (n < sp.precision) zeros = sp.precision - n;
	} else if (n == 0) {
		zeros = 1;
	}
	char prefix[4] = "";
	if (negative) strcpy(prefix, "-");
	else if (sp.conv == 'd' || sp.conv == 'i') {
		if (sp.plus) strcpy(prefix, "+");
		else if (sp.space) strcpy(prefix, " ");
	}
	if (sp.alt && sp.conv == 'o' && zeros == 0 && (n == 0 || body[0] != '0')) zeros = 1;
	if ((sp.alt && (sp.conv == 'x' || sp.conv == 'X') && n) || sp.conv == 'p') strcpy(prefix, sp.conv == 'X' ? "0X" : "0x");
	emit(s, &sp, prefix, zeros, body, n);
}

static void format_float(sinew_wc_sink *s, spec sp, double v) {
	char prefix[2] = "";
	if (__builtin_signbit(v)) prefix[0] = '-';
	else if (sp.plus) prefix[0] = '+';
	else if (sp.space) prefix[0] = ' ';
	int upper = sp.conv == 'F' || sp.conv == 'E' || sp.conv == 'G';
	if (!__builtin_isfinite(v)) {
		const char *t = __builtin_isnan(v) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
		sp.zero = 0;
		emit(s, &sp, prefix, 0, t, 3);
		return;
	}
	char d[1200];
	int point = 1, len = 0;
	if (v != 0) len = exact_digits(v, d, &point);
	int precision = sp.precision < 0 ? 6 : sp.precision;
	char conv = (char)(sp.conv | 0x20); // f e g
	int strip = 0;
	if (conv == 'g') {
		int p = precision ? precision : 1;
		int x; // exponent of the value rounded to p digits
		if (len) {
			char t[1200];
			memcpy(t, d, (size_t)len);
			int pt = point;
			round_digits(t, len, p, &pt);
			x = pt - 1;
		} else {
			x = 0;
		}
		if (p > x && x >= -4) conv = 'f', precision = p - 1 - x;
		else conv = 'e', precision = p - 1;
		strip = !sp.alt;
	}
	char body[1600];
	int n = 0;
	if (conv == 'f') {
		if (len) len = round_digits(d, len, point + precision, &point);
		if (!len) point = 1;
		// integer part
		if (point <= 0) body[n++] = '0';
		for (int i = 0; i < point; ++i) body[n++] = i < len ? d[i] : '0';
		int frac_start = n;
		if (precision > 0 || sp.alt) body[n++] = '.';
		for (int i = 0; i < precision; ++i) {
			int k = point + i; // digit index
			body[n++] = k >= 0 && k < len ? d[k] : '0';
			if (n > (int)sizeof body - 8) break;
		}
		if (strip && precision > 0) {
			while (n > frac_start + 1 && body[n - 1] == '0') n--;
			if (n == frac_start + 1) n = frac_start;
		}
	} else {
		int x = 0;
		if (len) {
			len = round_digits(d, len, precision + 1, &point);
			x = point - 1;
		}
		body[n++] = len ? d[0] : '0';
		int frac_start = n;
		if (precision > 0 || sp.alt) body[n++] = '.';
		for (int i = 1; i <= precision && n < (int)sizeof body - 16; ++i) body[n++] = i < len ? d[i] : '0';
		if (strip && precision > 0) {
			while (n > frac_start + 1 && body[n - 1] == '0') n--;
			if (n == frac_start + 1) n = frac_start;
		}
		body[n++] = upper ? 'E' : 'e';
		body[n++] = x < 0 ? '-' : '+';
		int ax = x < 0 ? -x : x;
		if (ax >= 100) body[n++] = (char)('0' + ax / 100);
		body[n++] = (char)('0' + ax / 10 % 10);
		body[n++] = (char)('0' + ax % 10);
	}
	emit(s, &sp, prefix, 0, body, n);
}

int sinew_wc_format(sinew_wc_sink *s, const char *fmt, va_list args) {
	s->count = 0;
	for (const char *f = fmt; *f; ++f) {
		if (*f != '%') {
			const char *run = f;
			while (f[1] && f[1] != '%') ++f;
			out(s, run, (size_t)(f - run + 1));
			continue;
		}
		spec sp = {0, 0, 0, 0, 0, 0, -1, 0};
		for (++f;; ++f) {
			if (*f == '-') sp.left = 1;
			else if (*f == '+') sp.plus = 1;
			else if (*f == ' ') sp.space = 1;
			else if (*f == '#') sp.alt = 1;
			else if (*f == '0') sp.zero = 1;
			else break;
		}
		if (*f == '*') {
			sp.width = va_arg(args, int);
			if (sp.width < 0) sp.left = 1, sp.width = -sp.width;
			++f;
		} else {
			while (*f >= '0' && *f <= '9') sp.width = sp.width * 10 + (*f++ - '0');
		}
		if (*f == '.') {
			++f;
			sp.precision = 0;
			if (*f == '*') {
				sp.precision = va_arg(args, int);
				if (sp.precision < 0) sp.precision = -1;
				++f;
			} else {
				while (*f >= '0' && *f <= '9') sp.precision = sp.precision * 10 + (*f++ - '0');
			}
		}
		if (sp.left) sp.zero = 0;
		int length = 0; // -2 hh, -1 h, 1 l, 2 ll, 3 z/t (size_t), 4 j, 5 L
		for (;; ++f) {
			if (*f == 'h') length = length == -1 ? -2 : -1;
			else if (*f == 'l') length = length == 1 ? 2 : 1;
			else if (*f == 'z' || *f == 't') length = 3;
			else if (*f == 'j') length = 4;
			else if (*f == 'L') length = 5;
			else break;
		}
		sp.conv = *f;
		switch (*f) {
		case 'd':
		case 'i': {
			long long v = length == 2 || length == 4 ? va_arg(args, long long)
			              : length == 1 ? va_arg(args, long)
			              : length == 3 ? (long long)va_arg(args, ptrdiff_t) : va_arg(args, int);
			if (length == -1) v = (short)v;
			if (length == -2) v = (signed char)v;
			format_int(s, sp, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			unsigned long long v = length == 2 || length == 4 ? va_arg(args, unsigned long long)
			                       : length == 1 ? va_arg(args, unsigned long)
			                       : length == 3 ? va_arg(args, size_t) : va_arg(args, unsigned);
			if (length == -1) v = (unsigned short)v;
			if (length == -2) v = (unsigned char)v;
			format_int(s, sp, v, 0);
			break;
		}
		case 'p': format_int(s, sp, (uintptr_t)va_arg(args, void *), 0); break;
		case 'c': {
			char c = (char)va_arg(args, int);
			sp.zero = 0;
			emit(s, &sp, "", 0, &c, 1);
			break;
		}
		case 's': {
			const char *t = va_arg(args, const char *);
			if (!t) t = sp.precision < 0 || sp.precision >= 6 ? "(null)" : "";
			size_t n = sp.precision >= 0 ? strnlen(t, (size_t)sp.precision) : strlen(t);
			sp.zero = 0;
			emit(s, &sp, "", 0, t, (int)n);
			break;
		}
		case 'f':
		case 'F':
		case 'e':
		case 'E':
		case 'g':
		case 'G': format_float(s, sp, va_arg(args, double)); break; // (no long double: L is not used)
		case '%': out(s, "%", 1); break;
		case '\0': --f; break;
		default: // not a conversion this libc knows: written as it stands
			out(s, "%", 1);
			out(s, f, 1);
			break;
		}
	}
	return (int)s->count;
}

typedef struct buffer_sink {
	sinew_wc_sink base;
	char *p;
	size_t size;
} buffer_sink;

static void buffer_write(sinew_wc_sink *s, const char *t, size_t n) {
	buffer_sink *b = (buffer_sink *)s;
	for (size_t i = 0; i < n; ++i)
		if (s->count + i + 1 < b->size) b->p[s->count + i] = t[i];
}

int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list args) {
	buffer_sink b = {{buffer_write, 0}, buf, size};
	int n = sinew_wc_format(&b.base, fmt, args);
	if (size) buf[(size_t)n < size ? (size_t)n : size - 1] = '\0';
	return n;
}

int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...) {
	va_list args;
	va_start(args, fmt);
	int n = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

/* ---- strtod ---- */

static int lower(int c) {
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int space(int c) {
	return c == ' ' || (c >= '\t' && c <= '\r');
}

// q * 2^e2 (+ a fraction below q's last bit when sticky), q != 0, correctly rounded to a double; errno
// ERANGE on overflow and when the result is subnormal or zero (as glibc).
static double make_double(uint64_t q, int e2, int sticky, int negative) {
	int len = 64 - __builtin_clzll(q);
	long lead = (long)e2 + len - 1; // exponent of the leading bit
	if (lead > 1023) return errno = ERANGE, negative ? -__builtin_huge_val() : __builtin_huge_val();
	int bits = lead >= -1022 ? 53 : (int)(lead + 1075); // mantissa bits the result can hold
	uint64_t m;
	long e;
	int inexact = sticky;
	if (bits <= 0) { // below the smallest subnormal's half (0), or up to it (0 or the smallest subnormal)
		errno = ERANGE;
		int exact_half = bits == 0 && (q & (q - 1)) == 0 && !sticky; // exactly 2^-1075: a tie, to even (0)
		if (bits < 0 || exact_half) return negative ? -0.0 : 0.0;
		m = 1, e = -1074;
	} else {
		int shift = len - bits;
		if (shift > 0) {
			uint64_t rest = q & ((1ull << shift) - 1), half = 1ull << (shift - 1);
			m = q >> shift;
			inexact |= rest != 0;
			if (rest > half || (rest == half && (sticky || (m & 1)))) m++;
		} else {
			m = q << -shift;
		}
		e = e2 + shift;
		if (m >> bits) m >>= 1, e++; // the rounding carried into a new bit
		if (e + 52 > 1023) return errno = ERANGE, negative ? -__builtin_huge_val() : __builtin_huge_val();
	}
	uint64_t out; // m * 2^e, m < 2^53, exactly representable
	if (m >> 52) out = (uint64_t)(e + 52 + 1023) << 52 | (m & 0xFFFFFFFFFFFFFull);
	else out = m << (e + 1074); // subnormal (e == -1074): glibc reports ERANGE when it is inexact
	if (!(m >> 52) && inexact) errno = ERANGE;
	if (negative) out |= 1ull << 63;
	double d;
	memcpy(&d, &out, 8);
	return d;
}

#define MAX_DIGITS 800

static double decimal_value(char *digits, int n, long exp10, int sticky, int negative) {
	static big num, den; // one thread
	if (n + exp10 > 310) return errno = ERANGE, negative ? -__builtin_huge_val() : __builtin_huge_val();
	if (n + exp10 < -330) return errno = ERANGE, negative ? -0.0 : 0.0;
	if (sticky) { // more digits than any halfway case needs: a nonzero digit after them stands for the rest
		// (digits is MAX_DIGITS + 1 long)
		digits[n++] = '1', exp10--;
	}
	// fast path: exact integer and exact power of ten
	if (n <= 15 && exp10 >= -22 && exp10 <= 22) {
		uint64_t v = 0;
		for (int i = 0; i < n; ++i) v = v * 10 + (uint64_t)(digits[i] - '0');
		static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
		                               1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
		double d = (double)v;
		d = exp10 < 0 ? d / p10[-exp10] : d * p10[exp10];
		return negative ? -d : d;
	}
	big_set(&num, 0);
	for (int i = 0; i < n; i += 9) {
		uint32_t chunk = 0, scale = 1;
		for (int k = i; k < i + 9 && k < n; ++k) chunk = chunk * 10 + (uint32_t)(digits[k] - '0'), scale *= 10;
		if (!num.n) big_set(&num, chunk);
		else big_mul_small(&num, scale, chunk);
	}
	if (!num.n) return negative ? -0.0 : 0.0;
	if (exp10 >= 0) {
		big_mul_pow5(&num, (int)exp10);
		int len = big_bits(&num);
		if (len <= 64) {
			uint64_t q = num.w[0] | (num.n > 1 ? (uint64_t)num.w[1] << 32 : 0);
			return make_double(q, (int)exp10, 0, negative);
		}
		int drop = len - 64, words = drop / 32, bits = drop % 32, sticky_bits = 0;
		for (int i = 0; i < words; ++i) sticky_bits |= num.w[i] != 0;
		if (bits) sticky_bits |= (num.w[words] & ((1u << bits) - 1)) != 0;
		uint64_t q = 0;
		for (int b = 63; b >= 0; --b) {
			int at = drop + b;
			q |= (uint64_t)(num.w[at / 32] >> (at % 32) & 1) << b;
		}
		return make_double(q, (int)exp10 + drop, sticky_bits, negative);
	}
	big_set(&den, 1);
	big_mul_pow5(&den, (int)-exp10);
	int s = big_bits(&den) + 56 - big_bits(&num), t = 0;
	if (s > 0) big_shl(&num, s);
	else t = -s, s = 0, big_shl(&den, t);
	// q = floor(num / den), 56 or 57 bits
	uint64_t q = 0;
	big_shl(&den, 57);
	for (int b = 57; b >= 0; --b) {
		if (big_cmp(&num, &den) >= 0) big_sub(&num, &den), q |= 1ull << b;
		big_shr1(&den);
	}
	return make_double(q, (int)exp10 - s + t, num.n != 0, negative);
}

static int hex_digit(int c) {
	if (c >= '0' && c <= '9') return c - '0';
	c = lower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

double strtod(const char *restrict text, char **restrict end) {
	const char *p = text;
	while (space((unsigned char)*p)) ++p;
	int negative = 0;
	if (*p == '+' || *p == '-') negative = *p++ == '-';
	if (lower(p[0]) == 'i' && lower(p[1]) == 'n' && lower(p[2]) == 'f') {
		p += 3;
		if (lower(p[0]) == 'i' && lower(p[1]) == 'n' && lower(p[2]) == 'i' && lower(p[3]) == 't' && lower(p[4]) == 'y')
			p += 5;
		if (end) *end = (char *)(uintptr_t)p;
		return negative ? -__builtin_huge_val() : __builtin_huge_val();
	}
	if (lower(p[0]) == 'n' && lower(p[1]) == 'a' && lower(p[2]) == 'n') {
		p += 3;
		if (*p == '(') {
			const char *q = p + 1;
			while ((*q >= '0' && *q <= '9') || (lower(*q) >= 'a' && lower(*q) <= 'z') || *q == '_') ++q;
			if (*q == ')') p = q + 1;
		}
		if (end) *end = (char *)(uintptr_t)p;
		return negative ? -__builtin_nan("") : __builtin_nan("");
	}
	if (p[0] == '0' && lower(p[1]) == 'x' && (hex_digit((unsigned char)p[2]) >= 0 || (p[2] == '.' && hex_digit((unsigned char)p[3]) >= 0))) {
		p += 2;
		uint64_t q = 0;
		long e2 = 0;
		int sticky = 0, any = 0;
		for (int dot = 0;; ++p) {
			if (*p == '.' && !dot) {
				dot = 1;
				continue;
			}
			int h = hex_digit((unsigned char)*p);
			if (h < 0) break;
			any = 1;
			if (q >> 60) sticky |= h != 0, e2 += dot ? 0 : 4;
			else q = q << 4 | (uint64_t)h, e2 -= dot ? 4 : 0;
		}
		if (lower(*p) == 'p') {
			const char *q2 = p + 1;
			int eneg = 0;
			if (*q2 == '+' || *q2 == '-') eneg = *q2++ == '-';
			if (*q2 >= '0' && *q2 <= '9') {
				long x = 0;
				for (; *q2 >= '0' && *q2 <= '9'; ++q2)
					if (x < 100000) x = x * 10 + (*q2 - '0');
				e2 += eneg ? -x : x;
				p = q2;
			}
		}
		(void)any;
		if (end) *end = (char *)(uintptr_t)p;
		if (!q) return negative ? -0.0 : 0.0;
		if (e2 > 5000) e2 = 5000;
		if (e2 < -5000) e2 = -5000;
		return make_double(q, (int)e2, sticky, negative);
	}
	static char digits[MAX_DIGITS + 2];
	int n = 0, sticky = 0, any = 0;
	long exp10 = 0;
	while (*p == '0') ++p, any = 1;
	for (; *p >= '0' && *p <= '9'; ++p, any = 1) {
		if (n < MAX_DIGITS) digits[n++] = *p;
		else sticky |= *p != '0', exp10++;
	}
	if (*p == '.' && ((p[1] >= '0' && p[1] <= '9') || any)) {
		++p;
		if (!n)
			while (*p == '0') ++p, exp10--, any = 1;
		for (; *p >= '0' && *p <= '9'; ++p, any = 1) {
			if (n < MAX_DIGITS) digits[n++] = *p, exp10--;
			else sticky |= *p != '0';
		}
	}
	if (!any) {
		if (end) *end = (char *)(uintptr_t)text;
		return 0.0;
	}
	if (lower(*p) == 'e') {
		const char *q = p + 1;
		int eneg = 0;
		if (*q == '+' || *q == '-') eneg = *q++ == '-';
		if (*q >= '0' && *q <= '9') {
			long x = 0;
			for (; *q >= '0' && *q <= '9'; ++q)
				if (x < 100000) x = x * 10 + (*q - '0');
			exp10 += eneg ? -x : x;
			p = q;
		}
	}
	if (end) *end = (char *)(uintptr_t)p;
	while (n && digits[n - 1] == '0' && !sticky) n--, exp10++;
	if (!n) return negative ? -0.0 : 0.0;
	return decimal_value(digits, n, exp10, sticky, negative);
}

float strtof(const char *restrict text, char **restrict end) {
	// Correct rounding to float through the double is exact here only when the double is exact or far
	// from a float halfway point; the compressor does not call strtof (kept for completeness).
	return (float)strtod(text, end);
}

double atof(const char *s) {
	return strtod(s, NULL);
}

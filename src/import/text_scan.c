// sinew — see include/sinew.h for version and licence
#include "text_scan.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void sinewi_scan_init(sinewi_scanner *s, const unsigned char *data, size_t size) {
	memset(s, 0, sizeof *s);
	s->cur = (const char *)data;
	s->end = (const char *)data + size;
	s->line = 1;
	s->at_line_start = true;
}

static inline bool is_blank(const sinewi_scanner *s, char c) {
	if (c == ' ' || c == '\t' || c == '\v' || c == '\f') return true;
	return s->paren_is_space && (c == '(' || c == ')' || c == ',');
}

// Consumes one line break at `cur` (LF, CRLF or a lone CR, so old Mac files count lines too).
static inline void eat_newline(sinewi_scanner *s) {
	if (*s->cur == '\r' && s->end - s->cur > 1 && s->cur[1] == '\n') ++s->cur;
	++s->cur;
	++s->line;
	s->at_line_start = true;
}

// Skips blanks and comments on the current line; stops at a line break, a token or the end.
static void skip_blanks(sinewi_scanner *s) {
	while (s->cur < s->end) {
		char c = *s->cur;
		if (is_blank(s, c)) {
			++s->cur;
		} else if (c == '#' && s->hash_comments) {
			while (s->cur < s->end && *s->cur != '\n' && *s->cur != '\r') ++s->cur;
		} else {
			break;
		}
	}
}

static void take_token(sinewi_scanner *s, sinewi_token *tok) {
	const char *start = s->cur;
	while (s->cur < s->end) {
		char c = *s->cur;
		if (c == '\n' || c == '\r' || is_blank(s, c) || (c == '#' && s->hash_comments)) break;
		++s->cur;
	}
	tok->text = start;
	tok->length = (size_t)(s->cur - start);
	tok->line = s->line;
	tok->first_on_line = s->at_line_start;
	s->at_line_start = false;
}

bool sinewi_scan_next(sinewi_scanner *s, sinewi_token *tok) {
	for (;;) {
		skip_blanks(s);
		if (s->cur >= s->end) return false;
		if (*s->cur == '\n' || *s->cur == '\r') {
			eat_newline(s);
			continue;
		}
		take_token(s, tok);
		return true;
	}
}

bool sinewi_scan_next_on_line(sinewi_scanner *s, sinewi_token *tok) {
	skip_blanks(s);
	if (s->cur >= s->end || *s->cur == '\n' || *s->cur == '\r') return false;
	take_token(s, tok);
	return true;
}

void sinewi_scan_skip_line(sinewi_scanner *s) {
	while (s->cur < s->end && *s->cur != '\n' && *s->cur != '\r') ++s->cur;
	if (s->cur < s->end) eat_newline(s);
}

bool sinewi_scan_at_end(sinewi_scanner *s) {
	for (;;) {
		skip_blanks(s);
		if (s->cur >= s->end) return true;
		if (*s->cur != '\n' && *s->cur != '\r') return false;
		eat_newline(s);
	}
}

bool sinewi_token_is(const sinewi_token *tok, const char *word) {
	size_t n = strlen(word);
	return tok->length == n && memcmp(tok->text, word, n) == 0;
}

bool sinewi_token_is_nocase(const sinewi_token *tok, const char *word) {
	size_t n = strlen(word);
	if (tok->length != n) return false;
	for (size_t i = 0; i < n; ++i) {
		char a = tok->text[i], b = word[i];
		if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
		if (a != b) return false;
	}
	return true;
}

static inline bool is_digit(char c) {
	return c >= '0' && c <= '9';
}

// Exact powers of ten representable in a double (10^22 is the largest).
static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

bool sinewi_token_number(const sinewi_token *tok, double *out) {
	const char *p = tok->text, *end = tok->text + tok->length;
	if (p == end) return false;
	bool negative = false;
	if (*p == '+' || *p == '-') negative = *p++ == '-';
	// Validate the grammar ourselves (strtod would also take hex, inf, nan and leading spaces) while
	// collecting up to 19 significant digits for the fast path; longer mantissas go to strtod.
	uint64_t mantissa = 0;
	int significant = 0, int_digits = 0, frac_digits = 0;
	bool dropped = false;
	long exponent = 0;
	for (; p < end && is_digit(*p); ++p, ++int_digits) {
		if (mantissa == 0 && *p == '0') continue;
		if (significant < 19)
			mantissa = mantissa * 10 + (uint64_t)(*p - '0'), ++significant;
		else
			dropped = true, ++exponent;
	}
	if (p < end && *p == '.') {
		for (++p; p < end && is_digit(*p); ++p, ++frac_digits) {
			if (mantissa == 0 && *p == '0') {
				--exponent;
				continue;
			}
			if (significant < 19)
				mantissa = mantissa * 10 + (uint64_t)(*p - '0'), ++significant, --exponent;
			else
				dropped = true;
		}
	}
	if (int_digits + frac_digits == 0) return false;
	if (p < end && (*p == 'e' || *p == 'E')) {
		++p;
		bool exp_negative = false;
		if (p < end && (*p == '+' || *p == '-')) exp_negative = *p++ == '-';
		if (p == end || !is_digit(*p)) return false;
		long e = 0;
		for (; p < end && is_digit(*p); ++p)
			if (e < 100000) e = e * 10 + (*p - '0');
		exponent += exp_negative ? -e : e;
	}
	if (p != end) return false;
	double value;
	if (mantissa == 0) {
		value = 0.0;
	} else if (!dropped && mantissa <= ((uint64_t)1 << 53) && exponent >= -22 && exponent <= 22 &&
	           FLT_EVAL_METHOD == 0) {
		// Clinger's fast path: one correctly rounded operation on exact operands.
		value = exponent < 0 ? (double)mantissa / pow10_exact[-exponent] : (double)mantissa * pow10_exact[exponent];
	} else {
		char buffer[128];
		if (tok->length >= sizeof buffer) return false;
		memcpy(buffer, tok->text, tok->length);
		buffer[tok->length] = 0;
		value = fabs(strtod(buffer, NULL));
	}
	if (!isfinite(value)) return false;
	*out = negative ? -value : value;
	return true;
}

bool sinewi_token_uint(const sinewi_token *tok, uint64_t max, uint64_t *out) {
	if (tok->length == 0) return false;
	uint64_t v = 0;
	for (size_t i = 0; i < tok->length; ++i) {
		char c = tok->text[i];
		if (!is_digit(c)) return false;
		uint64_t d = (uint64_t)(c - '0');
		if (v > (max - d) / 10) return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

int sinewi_token_decimals(const sinewi_token *tok) {
	const char *dot = memchr(tok->text, '.', tok->length);
	if (!dot) return 0;
	for (const char *p = tok->text; p < tok->text + tok->length; ++p)
		if (*p == 'e' || *p == 'E') return -1;
	size_t n = (size_t)(tok->text + tok->length - dot - 1);
	return n > 30 ? 30 : (int)n;
}

const char *sinewi_token_quote(const sinewi_token *tok, char *buffer, size_t size) {
	if (size == 0) return buffer;
	size_t n = tok->length, limit = size - 1;
	bool truncated = false;
	if (n > limit) {
		n = limit > 3 ? limit - 3 : 0;
		truncated = true;
	}
	for (size_t i = 0; i < n; ++i) {
		unsigned char c = (unsigned char)tok->text[i];
		buffer[i] = (c >= 32 && c < 127) || c >= 128 ? (char)c : '?';
	}
	if (truncated) {
		size_t k = 0;
		for (; k < 3 && n + k < limit; ++k) buffer[n + k] = '.';
		n += k;
	}
	buffer[n] = 0;
	return buffer;
}

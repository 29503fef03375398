// sinew — see include/sinew.h for version and licence
// SJSON parser (see sjson.h): one pass over the text into a flat node array, no recursion.
#include "sjson.h"

#include "../core/elementary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NUMBER_LENGTH 400 // longer numbers skip strtod and are approximated

typedef struct parser {
	sinewi_sjson_doc *doc;
	const char *text;
	size_t size, pos;
	uint32_t line;
	const char *label;
	sinew_error *error;
} parser;

static sinew_result parse_fail(parser *p, uint32_t line, const char *fmt, ...) SINEWI_PRINTF(3, 4);
static sinew_result parse_fail(parser *p, uint32_t line, const char *fmt, ...) {
	char message[200];
	va_list args;
	va_start(args, fmt);
	vsnprintf(message, sizeof message, fmt, args);
	va_end(args);
	return sinewi_fail(p->error, SINEW_RESULT_PARSE, "%s:%u: %s", p->label, line, message);
}

static bool is_space(unsigned char c) {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Characters that end a bare word; '/' too, so `1// comment` reads as 1 and a comment.
static bool ends_bare(unsigned char c) {
	return is_space(c) || c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '=' || c == '"' || c == '/';
}

// Skips whitespace and comments. Fails only on an unterminated block comment or a stray '/'.
static sinew_result skip_space(parser *p) {
	const char *t = p->text;
	while (p->pos < p->size) {
		unsigned char c = (unsigned char)t[p->pos];
		if (c == '\n') {
			p->line++, p->pos++;
		} else if (is_space(c)) {
			p->pos++;
		} else if (c == '/' && p->pos + 1 < p->size && t[p->pos + 1] == '/') {
			const char *nl = (const char *)memchr(t + p->pos, '\n', p->size - p->pos);
			p->pos = nl ? (size_t)(nl - t) : p->size;
		} else if (c == '/' && p->pos + 1 < p->size && t[p->pos + 1] == '*') {
			uint32_t start_line = p->line;
			size_t i = p->pos + 2;
			for (;;) {
				if (i + 1 >= p->size) {
					p->pos = p->size;
					return parse_fail(p, start_line, "unterminated /* comment");
				}
				if (t[i] == '*' && t[i + 1] == '/') break;
				if (t[i] == '\n') p->line++;
				++i;
			}
			p->pos = i + 2;
		} else if (c == '/') {
			return parse_fail(p, p->line, "'/' that does not start a comment");
		} else {
			break;
		}
	}
	return SINEW_RESULT_OK;
}

static sinew_result add_node(parser *p, uint32_t type, uint32_t *out) {
	sinewi_sjson_doc *doc = p->doc;
	if (doc->node_count == doc->node_capacity) {
		// Nodes never outnumber input bytes + 1, so the capacity cannot overflow uint32 (input < 4 GiB).
		uint32_t cap = doc->node_capacity ? doc->node_capacity * 2 : 256;
		if (cap < doc->node_capacity) cap = UINT32_MAX;
		sinewi_sjson_node *nodes = (sinewi_sjson_node *)sinewi_calloc(&doc->alloc, cap, sizeof *nodes);
		if (!nodes)
			return sinewi_fail(p->error, SINEW_RESULT_OUT_OF_MEMORY, "%s: out of memory (%u nodes)", p->label, cap);
		if (doc->node_count) memcpy(nodes, doc->nodes, (size_t)doc->node_count * sizeof *nodes);
		sinewi_free(&doc->alloc, doc->nodes, (size_t)doc->node_capacity * sizeof *nodes);
		doc->nodes = nodes;
		doc->node_capacity = cap;
	}
	uint32_t i = doc->node_count++;
	sinewi_sjson_node *n = &doc->nodes[i];
	memset(n, 0, sizeof *n);
	n->type = type;
	n->start = (uint32_t)p->pos;
	n->line = p->line;
	n->next = i + 1;
	*out = i;
	return SINEW_RESULT_OK;
}

// A quoted string at p->pos (on the opening quote). Escapes are skipped, not decoded.
static sinew_result parse_string(parser *p, uint32_t *out) {
	uint32_t start_line = p->line;
	size_t i = p->pos + 1;
	for (;;) {
		if (i >= p->size) {
			p->pos = p->size;
			return parse_fail(p, start_line, "unterminated string");
		}
		char c = p->text[i];
		if (c == '"') break;
		if (c == '\\') {
			if (i + 1 >= p->size) {
				i = p->size; // reported as unterminated on the next turn
				continue;
			}
			if (p->text[i + 1] == '\n') p->line++;
			i += 2;
			continue;
		}
		if (c == '\n') p->line++;
		++i;
	}
	uint32_t line_after = p->line;
	p->line = start_line;
	++p->pos; // node text starts after the quote
	SINEWI_TRY(add_node(p, SINEWI_SJSON_STRING, out));
	p->doc->nodes[*out].length = (uint32_t)(i - p->pos);
	p->pos = i + 1;
	p->line = line_after;
	return SINEW_RESULT_OK;
}

static sinew_result parse_bare(parser *p, uint32_t *out) {
	size_t i = p->pos;
	while (i < p->size && !ends_bare((unsigned char)p->text[i])) {
		unsigned char c = (unsigned char)p->text[i];
		if (c < 0x20 || c == 0x7f) return parse_fail(p, p->line, "unexpected byte 0x%02x", c);
		++i;
	}
	if (i == p->pos) {
		unsigned char c = (unsigned char)p->text[i];
		return parse_fail(p, p->line, "unexpected '%c'", c);
	}
	SINEWI_TRY(add_node(p, SINEWI_SJSON_BARE, out));
	p->doc->nodes[*out].length = (uint32_t)(i - p->pos);
	p->pos = i;
	return SINEW_RESULT_OK;
}

static void describe_key(const parser *p, uint32_t key, char *buffer, size_t size) {
	sinewi_sjson_text(p->doc, key, buffer, size);
}

sinew_result sinewi_sjson_parse(sinewi_sjson_doc *doc, const char *text, size_t size, const sinew_allocator *allocator,
                                const char *label, sinew_error *error) {
	memset(doc, 0, sizeof *doc);
	doc->alloc = sinewi_alloc_from(allocator);
	doc->text = text;
	doc->size = size;
	if (!label) label = "input";
	SINEWI_CHECK(size < UINT32_MAX, error, SINEW_RESULT_UNSUPPORTED, "%s: SJSON input of 4 GiB or more", label);
	parser p = {doc, text, size, 0, 1, label, error};
	// UTF-8 byte order mark
	if (size >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
		p.pos = 3;

	uint32_t stack[SINEWI_SJSON_MAX_DEPTH + 1];
	uint32_t depth = 0;
	sinew_result r = add_node(&p, SINEWI_SJSON_OBJECT, &stack[0]);
	while (r == SINEW_RESULT_OK) {
		if ((r = skip_space(&p)) != SINEW_RESULT_OK) break;
		uint32_t top = stack[depth];
		sinewi_sjson_node *container = &doc->nodes[top];
		bool is_object = container->type == SINEWI_SJSON_OBJECT;
		bool at_end = p.pos >= p.size;
		char c = at_end ? 0 : text[p.pos];
		if (at_end) {
			if (depth == 0) break;
			r = parse_fail(&p, container->line, "%s is not closed before the end of the input",
			               is_object ? "object '{'" : "array '['");
			break;
		}
		if (c == '}' || c == ']') {
			if (depth == 0 || (c == '}') != is_object) {
				r = parse_fail(&p, p.line, "unexpected '%c'", c);
				break;
			}
			++p.pos;
			container->next = doc->node_count;
			--depth;
		} else {
			if (is_object) {
				uint32_t key;
				if (c == '"')
					r = parse_string(&p, &key);
				else if (c == '{' || c == '[' || c == '=' || c == ',')
					r = parse_fail(&p, p.line, "expected a key, found '%c'", c);
				else
					r = parse_bare(&p, &key);
				if (r != SINEW_RESULT_OK) break;
				if ((r = skip_space(&p)) != SINEW_RESULT_OK) break;
				if (p.pos >= p.size || text[p.pos] != '=') {
					char name[64];
					describe_key(&p, key, name, sizeof name);
					r = parse_fail(&p, p.line, "expected '=' after key '%s'", name);
					break;
				}
				++p.pos;
				if ((r = skip_space(&p)) != SINEW_RESULT_OK) break;
				if (p.pos >= p.size) {
					char name[64];
					describe_key(&p, key, name, sizeof name);
					r = parse_fail(&p, p.line, "key '%s' has no value", name);
					break;
				}
				c = text[p.pos];
			}
			doc->nodes[top].count++; // `container` may move when the array grows
			uint32_t value;
			if (c == '{' || c == '[') {
				if (depth == SINEWI_SJSON_MAX_DEPTH) {
					r = parse_fail(&p, p.line, "nesting deeper than %d levels", SINEWI_SJSON_MAX_DEPTH);
					break;
				}
				if ((r = add_node(&p, c == '{' ? SINEWI_SJSON_OBJECT : SINEWI_SJSON_ARRAY, &value)) != SINEW_RESULT_OK)
					break;
				++p.pos;
				stack[++depth] = value;
				continue; // the comma check runs when the container closes
			}
			if (c == '"')
				r = parse_string(&p, &value);
			else if (c == ',' || c == '=')
				r = parse_fail(&p, p.line, "unexpected '%c'", c);
			else
				r = parse_bare(&p, &value);
			if (r != SINEW_RESULT_OK) break;
		}
		// One optional comma after a value or a closed container.
		if ((r = skip_space(&p)) != SINEW_RESULT_OK) break;
		if (p.pos < p.size && text[p.pos] == ',') ++p.pos;
	}
	if (r != SINEW_RESULT_OK) {
		sinewi_sjson_free(doc);
		return r;
	}
	doc->nodes[0].next = doc->node_count;
	return SINEW_RESULT_OK;
}

void sinewi_sjson_free(sinewi_sjson_doc *doc) {
	sinewi_free(&doc->alloc, doc->nodes, (size_t)doc->node_capacity * sizeof *doc->nodes);
	doc->nodes = NULL;
	doc->node_count = doc->node_capacity = 0;
}

static bool text_equals(const sinewi_sjson_doc *doc, uint32_t node, const char *text, size_t length) {
	const sinewi_sjson_node *n = &doc->nodes[node];
	if (n->type != SINEWI_SJSON_STRING && n->type != SINEWI_SJSON_BARE) return false;
	return n->length == length && memcmp(doc->text + n->start, text, length) == 0;
}

bool sinewi_sjson_equals(const sinewi_sjson_doc *doc, uint32_t node, const char *text) {
	return text_equals(doc, node, text, strlen(text));
}

uint32_t sinewi_sjson_find(const sinewi_sjson_doc *doc, uint32_t object, const char *key, uint32_t *duplicate) {
	if (duplicate) *duplicate = SINEWI_SJSON_NONE;
	if (doc->nodes[object].type != SINEWI_SJSON_OBJECT) return SINEWI_SJSON_NONE;
	size_t length = strlen(key);
	uint32_t found = SINEWI_SJSON_NONE;
	uint32_t k = sinewi_sjson_first(doc, object);
	for (uint32_t i = 0; i < doc->nodes[object].count; ++i) {
		uint32_t value = k + 1; // keys are scalars, so the value follows immediately
		if (text_equals(doc, k, key, length)) {
			if (found != SINEWI_SJSON_NONE) {
				if (duplicate) *duplicate = k;
				break;
			}
			found = value;
		}
		k = doc->nodes[value].next;
	}
	return found;
}

const char *sinewi_sjson_text(const sinewi_sjson_doc *doc, uint32_t node, char *buffer, size_t size) {
	if (size == 0) return buffer;
	buffer[0] = 0;
	if (node == SINEWI_SJSON_NONE) return buffer;
	const sinewi_sjson_node *n = &doc->nodes[node];
	if (n->type == SINEWI_SJSON_OBJECT) return snprintf(buffer, size, "{...}"), buffer;
	if (n->type == SINEWI_SJSON_ARRAY) return snprintf(buffer, size, "[...]"), buffer;
	size_t length = n->length < size - 1 ? n->length : size - 1;
	for (size_t i = 0; i < length; ++i) {
		unsigned char c = (unsigned char)doc->text[n->start + i];
		buffer[i] = (char)(c < 0x20 || c == 0x7f ? '?' : c); // keep messages on one line
	}
	buffer[length] = 0;
	return buffer;
}

static int hex_value(char c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static bool parse_hex(const char *s, size_t length, unsigned max_digits, uint64_t *out) {
	if (length == 0 || length > max_digits) return false;
	uint64_t v = 0;
	for (size_t i = 0; i < length; ++i) {
		int h = hex_value(s[i]);
		if (h < 0) return false;
		v = (v << 4) | (uint64_t)h;
	}
	*out = v;
	return true;
}

bool sinewi_sjson_hex_bits(const sinewi_sjson_doc *doc, uint32_t node, unsigned max_digits, uint64_t *out) {
	const sinewi_sjson_node *n = &doc->nodes[node];
	const char *s = doc->text + n->start;
	if (n->type == SINEWI_SJSON_STRING) {
		if (n->length > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			return parse_hex(s + 2, n->length - 2, max_digits, out);
		return parse_hex(s, n->length, max_digits, out);
	}
	if (n->type == SINEWI_SJSON_BARE && n->length > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_hex(s + 2, n->length - 2, max_digits, out);
	return false;
}

bool sinewi_sjson_bool(const sinewi_sjson_doc *doc, uint32_t node, bool *out) {
	if (sinewi_sjson_equals(doc, node, "true")) return *out = true, true;
	if (sinewi_sjson_equals(doc, node, "false")) return *out = false, true;
	return false;
}

// Powers of ten that are exact in a double (Clinger's fast path).
static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Decimal text to double. The common case (significand up to 2^53, power of ten within 1e±22) is
// exact without strtod (Clinger's fast path); the rest goes to strtod, whose result must use every
// character (a locale with ',' as decimal point stops early), with a close approximation as the
// last resort.
static bool parse_decimal(const char *s, size_t length, double *out) {
	size_t i = 0;
	bool negative = false;
	if (i < length && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
	uint64_t mantissa = 0; // the first 19 significant digits
	int digits = 0, exp10 = 0;
	bool any_digit = false, inexact = false;
	for (; i < length && s[i] >= '0' && s[i] <= '9'; ++i) {
		any_digit = true;
		if (mantissa == 0 && s[i] == '0') continue;
		if (digits < 19) {
			mantissa = mantissa * 10 + (uint64_t)(s[i] - '0'), ++digits;
		} else {
			++exp10;
			inexact |= s[i] != '0';
		}
	}
	if (i < length && s[i] == '.') {
		for (++i; i < length && s[i] >= '0' && s[i] <= '9'; ++i) {
			any_digit = true;
			if (mantissa == 0 && s[i] == '0') {
				--exp10;
			} else if (digits < 19) {
				mantissa = mantissa * 10 + (uint64_t)(s[i] - '0'), ++digits, --exp10;
			} else {
				inexact |= s[i] != '0';
			}
		}
	}
	if (!any_digit) return false;
	if (i < length && (s[i] == 'e' || s[i] == 'E')) {
		++i;
		bool exp_negative = false;
		if (i < length && (s[i] == '+' || s[i] == '-')) exp_negative = s[i++] == '-';
		if (i >= length || s[i] < '0' || s[i] > '9') return false;
		int e = 0;
		for (; i < length && s[i] >= '0' && s[i] <= '9'; ++i)
			if (e < 100000) e = e * 10 + (s[i] - '0');
		exp10 += exp_negative ? -e : e;
	}
	if (i != length) return false;
	if (mantissa == 0) {
		*out = negative ? -0.0 : 0.0;
		return true;
	}
	if (!inexact && mantissa <= ((uint64_t)1 << 53) && exp10 >= -22 && exp10 <= 22) {
		double v = (double)mantissa;
		v = exp10 < 0 ? v / exact_pow10[-exp10] : v * exact_pow10[exp10];
		*out = negative ? -v : v;
		return true;
	}
	if (length <= MAX_NUMBER_LENGTH) {
		char buffer[MAX_NUMBER_LENGTH + 1];
		memcpy(buffer, s, length);
		buffer[length] = 0;
		char *end = NULL;
		double v = strtod(buffer, &end);
		if (end == buffer + length) {
			*out = v;
			return true;
		}
	}
	// Within a few ulps of the correctly rounded value.
	double v = (double)mantissa;
	if (exp10 < -300) v *= 1e-300, exp10 += 300;
	v *= sinewi_pow10(exp10);
	*out = negative ? -v : v;
	return true;
}

bool sinewi_sjson_number(const sinewi_sjson_doc *doc, uint32_t node, double *out) {
	const sinewi_sjson_node *n = &doc->nodes[node];
	if (n->type != SINEWI_SJSON_STRING && n->type != SINEWI_SJSON_BARE) return false;
	const char *s = doc->text + n->start;
	size_t length = n->length;
	// Special values as sjson-cpp writes them ("nan", "inf", "-inf"); bare spellings accepted too.
	if (text_equals(doc, node, "nan", 3)) return *out = NAN, true;
	if (text_equals(doc, node, "inf", 3) || text_equals(doc, node, "+inf", 4)) return *out = INFINITY, true;
	if (text_equals(doc, node, "-inf", 4)) return *out = -INFINITY, true;
	if (n->type != SINEWI_SJSON_BARE) return false;
	size_t i = 0;
	bool negative = false;
	if (i < length && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
	if (length - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		uint64_t v;
		if (!parse_hex(s + i + 2, length - i - 2, 16, &v)) return false;
		*out = negative ? -(double)v : (double)v;
		return true;
	}
	return parse_decimal(s, length, out);
}

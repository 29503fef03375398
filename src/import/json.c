// sinew — see include/sinew.h for version and licence
// Strict JSON reader (RFC 8259) and writer. Values are parsed depth-first; the elements of the
// array or object being parsed sit on a scratch stack and are copied into the arena, contiguous,
// when it closes, so each value is copied once and the whole parse is linear in the input size.
#include "json.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct json_parser {
	const char *text;
	size_t size, pos;
	sinewi_arena *arena;
	sinewi_alloc al;
	sinewi_json *values; // scratch stack of finished elements of open arrays/objects
	size_t value_count, value_capacity;
	const char **keys; // scratch stack of keys of open objects
	size_t key_count, key_capacity;
	sinew_error *error;
	const char *decimal_point; // of the C locale in effect, for strtod
	size_t decimal_point_length;
} json_parser;

void sinewi_json_line_column(const char *text, size_t size, size_t offset, uint32_t *line, uint32_t *column) {
	if (offset > size) offset = size;
	size_t l = 1, line_start = 0;
	for (size_t i = 0; i < offset; ++i) {
		if (text[i] == '\n') ++l, line_start = i + 1;
	}
	size_t c = offset - line_start + 1;
	*line = l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
	*column = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

static sinew_result json_error(json_parser *p, size_t offset, const char *what) {
	uint32_t line, column;
	sinewi_json_line_column(p->text, p->size, offset, &line, &column);
	return sinewi_fail(p->error, SINEW_RESULT_PARSE, "line %u, column %u: %s", line, column, what);
}

static sinew_result json_oom(json_parser *p) {
	return sinewi_fail(p->error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory while parsing JSON");
}

static void skip_space(json_parser *p) {
	while (p->pos < p->size) {
		char c = p->text[p->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
		++p->pos;
	}
}

static bool grow(const sinewi_alloc *al, void **data, size_t *capacity, size_t count, size_t element) {
	if (count < *capacity) return true;
	size_t new_capacity = *capacity ? *capacity * 2 : 64;
	size_t bytes, old_bytes = *capacity * element;
	if (new_capacity < *capacity || !sinewi_mul_size(new_capacity, element, &bytes)) return false;
	void *grown = sinewi_malloc(al, bytes);
	if (!grown) return false;
	if (*data) {
		memcpy(grown, *data, old_bytes);
		sinewi_free(al, *data, old_bytes);
	}
	*data = grown;
	*capacity = new_capacity;
	return true;
}

static int hex_digit(char c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

// Reads the 4 hex digits after "\u" at text[pos]; -1 when malformed.
static long read_hex4(const json_parser *p, size_t pos) {
	if (p->size - pos < 4) return -1;
	long v = 0;
	for (size_t i = 0; i < 4; ++i) {
		int d = hex_digit(p->text[pos + i]);
		if (d < 0) return -1;
		v = v * 16 + d;
	}
	return v;
}

// Length of the valid UTF-8 sequence starting at s[0] (a byte >= 0x80), 0 when invalid
// (overlong forms, UTF-16 surrogates, code points above U+10FFFF, truncated sequences).
static size_t utf8_sequence(const unsigned char *s, size_t available) {
	unsigned char c = s[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		if (c == 0xE0) lo = 0xA0;
		if (c == 0xED) hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		if (c == 0xF0) lo = 0x90;
		if (c == 0xF4) hi = 0x8F;
	} else {
		return 0;
	}
	if (available < n) return 0;
	if (s[1] < lo || s[1] > hi) return 0;
	for (size_t i = 2; i < n; ++i)
		if (s[i] < 0x80 || s[i] > 0xBF) return 0;
	return n;
}

static size_t encode_utf8(unsigned long cp, char *out) {
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

// Parses a string starting at the opening quote; the decoded text is never longer than the raw text.
static sinew_result parse_string(json_parser *p, const char **out, size_t *out_length) {
	size_t start = p->pos + 1, end = start;
	while (end < p->size && p->text[end] != '"') end += p->text[end] == '\\' ? 2 : 1;
	if (end >= p->size) return json_error(p, p->pos, "unterminated string");
	char *decoded = (char *)sinewi_arena_alloc(p->arena, end - start + 1);
	if (!decoded) return json_oom(p);
	size_t n = 0, i = start;
	while (i < end) {
		unsigned char c = (unsigned char)p->text[i];
		if (c < 0x20) return json_error(p, i, "control character in string (must be escaped)");
		if (c >= 0x80) {
			size_t len = utf8_sequence((const unsigned char *)p->text + i, end - i);
			if (!len) return json_error(p, i, "invalid UTF-8 in string");
			memcpy(decoded + n, p->text + i, len);
			n += len, i += len;
			continue;
		}
		if (c != '\\') {
			decoded[n++] = (char)c;
			++i;
			continue;
		}
		char e = p->text[i + 1]; // i + 1 < end: the scan above skipped the escaped byte
		switch (e) {
		case '"': decoded[n++] = '"'; break;
		case '\\': decoded[n++] = '\\'; break;
		case '/': decoded[n++] = '/'; break;
		case 'b': decoded[n++] = '\b'; break;
		case 'f': decoded[n++] = '\f'; break;
		case 'n': decoded[n++] = '\n'; break;
		case 'r': decoded[n++] = '\r'; break;
		case 't': decoded[n++] = '\t'; break;
		case 'u': {
			long hi = i + 6 <= end ? read_hex4(p, i + 2) : -1;
			if (hi < 0) return json_error(p, i, "malformed \\u escape");
			unsigned long cp = (unsigned long)hi;
			if (hi >= 0xDC00 && hi <= 0xDFFF) return json_error(p, i, "lone low surrogate in \\u escape");
			if (hi >= 0xD800 && hi <= 0xDBFF) {
				long lo = (i + 12 <= end && p->text[i + 6] == '\\' && p->text[i + 7] == 'u') ? read_hex4(p, i + 8) : -1;
				if (lo < 0xDC00 || lo > 0xDFFF) return json_error(p, i, "lone high surrogate in \\u escape");
				cp = 0x10000 + (((unsigned long)hi - 0xD800) << 10) + ((unsigned long)lo - 0xDC00);
				i += 6;
			}
			n += encode_utf8(cp, decoded + n);
			i += 6;
			continue;
		}
		default: return json_error(p, i, "invalid escape in string");
		}
		i += 2;
	}
	decoded[n] = '\0';
	p->pos = end + 1;
	*out = decoded;
	*out_length = n;
	return SINEW_RESULT_OK;
}

static bool is_digit(char c) {
	return c >= '0' && c <= '9';
}

// RFC 8259 §6 grammar first (so strtod never sees hex, nan, inf or leading '+'), then strtod on a copy
// with the locale's decimal point.
static sinew_result parse_number(json_parser *p, double *out) {
	const char *t = p->text;
	size_t start = p->pos, i = start, n = p->size;
	if (i < n && t[i] == '-') ++i;
	if (i >= n || !is_digit(t[i])) return json_error(p, i, "invalid number");
	if (t[i] == '0') {
		++i;
		if (i < n && is_digit(t[i])) return json_error(p, start, "leading zero in number");
	} else {
		while (i < n && is_digit(t[i])) ++i;
	}
	size_t dot = 0;
	if (i < n && t[i] == '.') {
		dot = i++;
		if (i >= n || !is_digit(t[i])) return json_error(p, i, "digit expected after decimal point");
		while (i < n && is_digit(t[i])) ++i;
	}
	if (i < n && (t[i] == 'e' || t[i] == 'E')) {
		++i;
		if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
		if (i >= n || !is_digit(t[i])) return json_error(p, i, "digit expected in exponent");
		while (i < n && is_digit(t[i])) ++i;
	}
	size_t length = i - start;
	char local[80];
	char *copy = local;
	size_t needed = length + p->decimal_point_length + 1;
	if (needed > sizeof local) {
		copy = (char *)sinewi_arena_alloc(p->arena, needed);
		if (!copy) return json_oom(p);
	}
	size_t m = 0;
	for (size_t k = start; k < i; ++k) {
		if (dot && k == dot) {
			memcpy(copy + m, p->decimal_point, p->decimal_point_length);
			m += p->decimal_point_length;
		} else {
			copy[m++] = t[k];
		}
	}
	copy[m] = '\0';
	char *end = NULL;
	double v = strtod(copy, &end);
	if (end != copy + m) return json_error(p, start, "invalid number");
	if (!isfinite(v)) return json_error(p, start, "number out of range");
	*out = v;
	p->pos = i;
	return SINEW_RESULT_OK;
}

static bool match_literal(json_parser *p, const char *word) {
	size_t len = strlen(word);
	if (p->size - p->pos < len || memcmp(p->text + p->pos, word, len) != 0) return false;
	p->pos += len;
	return true;
}

static sinew_result parse_value(json_parser *p, uint32_t depth, sinewi_json *out);

static sinew_result push_value(json_parser *p, const sinewi_json *v) {
	if (!grow(&p->al, (void **)&p->values, &p->value_capacity, p->value_count, sizeof *p->values)) return json_oom(p);
	p->values[p->value_count++] = *v;
	return SINEW_RESULT_OK;
}

// Moves the elements above `base` on the scratch stacks into the arena.
static sinew_result close_container(json_parser *p, sinewi_json *out, size_t base, size_t key_base) {
	size_t count = p->value_count - base;
	if (count > UINT32_MAX) return json_error(p, out->offset, "too many elements");
	out->count = (uint32_t)count;
	if (count) {
		out->children = (sinewi_json *)sinewi_arena_array(p->arena, count, sizeof *out->children);
		if (!out->children) return json_oom(p);
		memcpy(out->children, p->values + base, count * sizeof *out->children);
		if (out->type == SINEWI_JSON_OBJECT) {
			out->keys = (const char **)sinewi_arena_array(p->arena, count, sizeof *out->keys);
			if (!out->keys) return json_oom(p);
			memcpy((void *)out->keys, (const void *)(p->keys + key_base), count * sizeof *out->keys);
		}
	}
	p->value_count = base;
	p->key_count = key_base;
	return SINEW_RESULT_OK;
}

static sinew_result parse_array(json_parser *p, uint32_t depth, sinewi_json *out) {
	size_t base = p->value_count;
	++p->pos; // '['
	skip_space(p);
	if (p->pos < p->size && p->text[p->pos] == ']') {
		++p->pos;
		return close_container(p, out, base, p->key_count);
	}
	for (;;) {
		sinewi_json element;
		SINEWI_TRY(parse_value(p, depth + 1, &element));
		SINEWI_TRY(push_value(p, &element));
		skip_space(p);
		if (p->pos >= p->size) return json_error(p, p->pos, "unexpected end of input in array");
		char c = p->text[p->pos++];
		if (c == ']') break;
		if (c != ',') return json_error(p, p->pos - 1, "',' or ']' expected in array");
		skip_space(p);
		if (p->pos < p->size && p->text[p->pos] == ']') return json_error(p, p->pos, "trailing comma in array");
	}
	return close_container(p, out, base, p->key_count);
}

static sinew_result parse_object(json_parser *p, uint32_t depth, sinewi_json *out) {
	size_t base = p->value_count, key_base = p->key_count;
	++p->pos; // '{'
	skip_space(p);
	if (p->pos < p->size && p->text[p->pos] == '}') {
		++p->pos;
		return close_container(p, out, base, key_base);
	}
	for (;;) {
		if (p->pos >= p->size) return json_error(p, p->pos, "unexpected end of input in object");
		if (p->text[p->pos] != '"') return json_error(p, p->pos, "string key expected in object");
		const char *key;
		size_t key_length;
		SINEWI_TRY(parse_string(p, &key, &key_length));
		skip_space(p);
		if (p->pos >= p->size || p->text[p->pos] != ':') return json_error(p, p->pos, "':' expected after key");
		++p->pos;
		sinewi_json member;
		SINEWI_TRY(parse_value(p, depth + 1, &member));
		if (!grow(&p->al, (void **)&p->keys, &p->key_capacity, p->key_count, sizeof *p->keys)) return json_oom(p);
		p->keys[p->key_count++] = key;
		SINEWI_TRY(push_value(p, &member));
		skip_space(p);
		if (p->pos >= p->size) return json_error(p, p->pos, "unexpected end of input in object");
		char c = p->text[p->pos++];
		if (c == '}') break;
		if (c != ',') return json_error(p, p->pos - 1, "',' or '}' expected in object");
		skip_space(p);
		if (p->pos < p->size && p->text[p->pos] == '}') return json_error(p, p->pos, "trailing comma in object");
	}
	return close_container(p, out, base, key_base);
}

static sinew_result parse_value(json_parser *p, uint32_t depth, sinewi_json *out) {
	memset(out, 0, sizeof *out);
	skip_space(p);
	if (p->pos >= p->size) return json_error(p, p->pos, "unexpected end of input, value expected");
	out->offset = p->pos;
	char c = p->text[p->pos];
	switch (c) {
	case '{':
	case '[':
		if (depth >= SINEWI_JSON_MAX_DEPTH) return json_error(p, p->pos, "nesting deeper than 256 levels");
		if (c == '{') {
			out->type = SINEWI_JSON_OBJECT;
			return parse_object(p, depth, out);
		}
		out->type = SINEWI_JSON_ARRAY;
		return parse_array(p, depth, out);
	case '"': out->type = SINEWI_JSON_STRING; return parse_string(p, &out->string, &out->length);
	case 't':
		out->type = SINEWI_JSON_TRUE;
		if (!match_literal(p, "true")) return json_error(p, p->pos, "invalid literal");
		return SINEW_RESULT_OK;
	case 'f':
		out->type = SINEWI_JSON_FALSE;
		if (!match_literal(p, "false")) return json_error(p, p->pos, "invalid literal");
		return SINEW_RESULT_OK;
	case 'n':
		out->type = SINEWI_JSON_NULL;
		if (!match_literal(p, "null")) return json_error(p, p->pos, "invalid literal");
		return SINEW_RESULT_OK;
	default:
		if (c == '-' || is_digit(c)) {
			out->type = SINEWI_JSON_NUMBER;
			return parse_number(p, &out->number);
		}
		return json_error(p, p->pos, "unexpected character, value expected");
	}
}

sinew_result sinewi_json_parse(sinewi_arena *arena, const char *text, size_t size, sinewi_json **out,
                               sinew_error *error) {
	SINEWI_CHECK(arena && out && (text || size == 0), error, SINEW_RESULT_INVALID_ARGUMENT, "json: NULL argument");
	*out = NULL;
	json_parser p;
	memset(&p, 0, sizeof p);
	p.text = text ? text : "";
	p.size = size;
	p.arena = arena;
	p.al = arena->alloc;
	p.error = error;
	const struct lconv *lc = localeconv();
	p.decimal_point = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point : ".";
	p.decimal_point_length = strlen(p.decimal_point);
	if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) p.pos = 3;
	sinewi_json *root = (sinewi_json *)sinewi_arena_alloc(arena, sizeof *root);
	sinew_result r = root ? parse_value(&p, 0, root) : json_oom(&p);
	if (r == SINEW_RESULT_OK) {
		skip_space(&p);
		if (p.pos < p.size) r = json_error(&p, p.pos, "unexpected data after the JSON value");
	}
	sinewi_free(&p.al, p.values, p.value_capacity * sizeof *p.values);
	sinewi_free(&p.al, (void *)p.keys, p.key_capacity * sizeof *p.keys);
	if (r == SINEW_RESULT_OK) *out = root;
	return r;
}

const sinewi_json *sinewi_json_get(const sinewi_json *object, const char *key) {
	if (!object || object->type != SINEWI_JSON_OBJECT || !key) return NULL;
	for (uint32_t i = object->count; i-- > 0;)
		if (strcmp(object->keys[i], key) == 0) return &object->children[i];
	return NULL;
}

const sinewi_json *sinewi_json_at(const sinewi_json *array, uint32_t index) {
	if (!array || array->type != SINEWI_JSON_ARRAY || index >= array->count) return NULL;
	return &array->children[index];
}

bool sinewi_json_number(const sinewi_json *value, double *out) {
	if (!value || value->type != SINEWI_JSON_NUMBER) return false;
	*out = value->number;
	return true;
}

bool sinewi_json_uint(const sinewi_json *value, uint32_t *out) {
	if (!value || value->type != SINEWI_JSON_NUMBER) return false;
	double v = value->number;
	if (!(v >= 0.0 && v <= 4294967295.0) || v != floor(v)) return false;
	*out = (uint32_t)v;
	return true;
}

const char *sinewi_json_string(const sinewi_json *value) {
	return value && value->type == SINEWI_JSON_STRING ? value->string : NULL;
}

/* ---- writer ---- */

void sinewi_json_writer_init(sinewi_json_writer *w, const sinew_allocator *allocator) {
	memset(w, 0, sizeof *w);
	w->alloc = sinewi_alloc_from(allocator);
}

static bool writer_reserve(sinewi_json_writer *w, size_t extra) {
	if (w->failed) return false;
	size_t needed;
	if (!sinewi_add_size(w->size, extra, &needed) || !sinewi_add_size(needed, 1, &needed)) {
		w->failed = true;
		return false;
	}
	if (needed <= w->capacity) return true;
	size_t capacity = w->capacity ? w->capacity : 256;
	while (capacity < needed) {
		if (capacity > SIZE_MAX / 2) {
			capacity = needed;
			break;
		}
		capacity *= 2;
	}
	char *data = (char *)sinewi_malloc(&w->alloc, capacity);
	if (!data) {
		w->failed = true;
		return false;
	}
	if (w->data) {
		memcpy(data, w->data, w->size);
		sinewi_free(&w->alloc, w->data, w->capacity);
	}
	w->data = data;
	w->capacity = capacity;
	return true;
}

void sinewi_json_write_raw(sinewi_json_writer *w, const char *text, size_t length) {
	if (!writer_reserve(w, length)) return;
	memcpy(w->data + w->size, text, length);
	w->size += length;
	w->data[w->size] = '\0';
}

static void write_string_n(sinewi_json_writer *w, const char *text, size_t length) {
	static const char hex[] = "0123456789abcdef";
	sinewi_json_write_raw(w, "\"", 1);
	size_t run = 0; // bytes copied as is since the last escape
	for (size_t i = 0; i < length; ++i) {
		unsigned char c = (unsigned char)text[i];
		if (c >= 0x20 && c != '"' && c != '\\') continue;
		sinewi_json_write_raw(w, text + run, i - run);
		run = i + 1;
		char esc[6] = {'\\', 0, 0, 0, 0, 0};
		size_t n = 2;
		switch (c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			esc[1] = 'u', esc[2] = '0', esc[3] = '0', esc[4] = hex[c >> 4], esc[5] = hex[c & 15];
			n = 6;
			break;
		}
		sinewi_json_write_raw(w, esc, n);
	}
	sinewi_json_write_raw(w, text + run, length - run);
	sinewi_json_write_raw(w, "\"", 1);
}

void sinewi_json_write_string(sinewi_json_writer *w, const char *text) {
	if (!text) {
		sinewi_json_write_raw(w, "null", 4);
		return;
	}
	write_string_n(w, text, strlen(text));
}

void sinewi_json_write_number(sinewi_json_writer *w, double value) {
	if (!isfinite(value)) {
		sinewi_json_write_raw(w, "null", 4);
		return;
	}
	char buffer[64];
	for (int precision = 15; precision <= 17; ++precision) {
		snprintf(buffer, sizeof buffer, "%.*g", precision, value);
		if (strtod(buffer, NULL) == value) break;
	}
	// snprintf follows the C locale's decimal point; JSON needs '.'.
	const struct lconv *lc = localeconv();
	const char *dp = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point : ".";
	size_t dp_length = strlen(dp);
	char out[64];
	size_t n = 0;
	for (size_t i = 0; buffer[i] && n < sizeof out - 1;) {
		if (strncmp(buffer + i, dp, dp_length) == 0) {
			out[n++] = '.';
			i += dp_length;
		} else {
			out[n++] = buffer[i++];
		}
	}
	sinewi_json_write_raw(w, out, n);
}

void sinewi_json_write_value(sinewi_json_writer *w, const sinewi_json *value) {
	if (!value) {
		sinewi_json_write_raw(w, "null", 4);
		return;
	}
	switch (value->type) {
	case SINEWI_JSON_NULL: sinewi_json_write_raw(w, "null", 4); break;
	case SINEWI_JSON_FALSE: sinewi_json_write_raw(w, "false", 5); break;
	case SINEWI_JSON_TRUE: sinewi_json_write_raw(w, "true", 4); break;
	case SINEWI_JSON_NUMBER: sinewi_json_write_number(w, value->number); break;
	case SINEWI_JSON_STRING:
		write_string_n(w, value->string ? value->string : "", value->string ? value->length : 0);
		break;
	case SINEWI_JSON_ARRAY:
		sinewi_json_write_raw(w, "[", 1);
		for (uint32_t i = 0; i < value->count; ++i) {
			if (i) sinewi_json_write_raw(w, ",", 1);
			sinewi_json_write_value(w, &value->children[i]);
		}
		sinewi_json_write_raw(w, "]", 1);
		break;
	case SINEWI_JSON_OBJECT:
		sinewi_json_write_raw(w, "{", 1);
		for (uint32_t i = 0; i < value->count; ++i) {
			if (i) sinewi_json_write_raw(w, ",", 1);
			sinewi_json_write_string(w, value->keys ? value->keys[i] : "");
			sinewi_json_write_raw(w, ":", 1);
			sinewi_json_write_value(w, &value->children[i]);
		}
		sinewi_json_write_raw(w, "}", 1);
		break;
	}
}

void sinewi_json_writer_free(sinewi_json_writer *w) {
	sinewi_free(&w->alloc, w->data, w->capacity);
	w->data = NULL;
	w->size = w->capacity = 0;
}

// sinew — see include/sinew.h for version and licence
// JSON reader and writer (src/import/json.c): valid documents, every class of malformed input with the
// line number in the message, truncation sweeps, depth limit, writer round trips.
#include "test.h"

#include "import/json.h"

#include <stdlib.h>
#include <string.h>

static sinew_result parse(sinewi_arena *arena, const char *text, sinewi_json **out, sinew_error *error) {
	return sinewi_json_parse(arena, text, strlen(text), out, error);
}

static void json_parses_nested_document(void) {
	const char *text = "{\n"
	                   "  \"name\": \"caf\\u00e9 \\\"q\\\" \\\\ \\/ \\b\\f\\n\\r\\t\",\n"
	                   "  \"list\": [1, -2.5, 3e2, 1E-2, -0, 0.125e+1, 12345678901234567890],\n"
	                   "  \"nested\": {\"a\": [[], {}, [true, false, null]], \"b\": {\"c\": {\"d\": \"deep\"}}},\n"
	                   "  \"emoji\": \"\\ud83d\\ude00 \xF0\x9F\x98\x80 \xE2\x82\xAC\",\n"
	                   "  \"dup\": 1, \"dup\": 2,\n"
	                   "  \"nul\": \"a\\u0000b\"\n"
	                   "}";
	sinewi_arena arena;
	sinewi_arena_init(&arena, NULL);
	sinewi_json *root = NULL;
	sinew_error err = {0};
	CHECK_OK(parse(&arena, text, &root, &err), &err);
	CHECK(root->type == SINEWI_JSON_OBJECT);
	CHECK_EQ(root->count, 7);
	CHECK(strcmp(sinewi_json_string(sinewi_json_get(root, "name")), "caf\xC3\xA9 \"q\" \\ / \b\f\n\r\t") == 0);
	const sinewi_json *list = sinewi_json_get(root, "list");
	CHECK(list && list->type == SINEWI_JSON_ARRAY && list->count == 7);
	double expected[] = {1, -2.5, 300, 0.01, -0.0, 1.25, 12345678901234567890.0};
	for (uint32_t i = 0; i < 7; ++i) {
		double v;
		CHECK(sinewi_json_number(sinewi_json_at(list, i), &v));
		CHECK(v == expected[i]);
	}
	double neg_zero;
	CHECK(sinewi_json_number(sinewi_json_at(list, 4), &neg_zero) && signbit(neg_zero));
	const sinewi_json *a = sinewi_json_get(sinewi_json_get(root, "nested"), "a");
	CHECK(a && a->count == 3);
	CHECK(sinewi_json_at(a, 0)->type == SINEWI_JSON_ARRAY && sinewi_json_at(a, 0)->count == 0);
	CHECK(sinewi_json_at(a, 1)->type == SINEWI_JSON_OBJECT && sinewi_json_at(a, 1)->count == 0);
	const sinewi_json *bools = sinewi_json_at(a, 2);
	CHECK(bools->children[0].type == SINEWI_JSON_TRUE && bools->children[1].type == SINEWI_JSON_FALSE &&
	      bools->children[2].type == SINEWI_JSON_NULL);
	const sinewi_json *b = sinewi_json_get(sinewi_json_get(root, "nested"), "b");
	CHECK(strcmp(sinewi_json_string(sinewi_json_get(sinewi_json_get(b, "c"), "d")), "deep") == 0);
	// surrogate pair escape and raw UTF-8 decode to the same bytes
	CHECK(strcmp(sinewi_json_string(sinewi_json_get(root, "emoji")),
	             "\xF0\x9F\x98\x80 \xF0\x9F\x98\x80 \xE2\x82\xAC") == 0);
	double dup;
	CHECK(sinewi_json_number(sinewi_json_get(root, "dup"), &dup) && dup == 2.0); // last wins
	const sinewi_json *nul = sinewi_json_get(root, "nul");
	CHECK(nul->length == 3 && memcmp(nul->string, "a\0b", 3) == 0);
	// offsets point at the values
	CHECK(text[sinewi_json_get(root, "list")->offset] == '[');
	CHECK(text[sinewi_json_get(root, "nested")->offset] == '{');
	sinewi_arena_free(&arena);
}

static void json_typed_accessors(void) {
	sinewi_arena arena;
	sinewi_arena_init(&arena, NULL);
	sinewi_json *root = NULL;
	sinew_error err = {0};
	CHECK_OK(parse(&arena, "[0, 4294967295, 4294967296, -1, 1.5, \"7\", 3.0]", &root, &err), &err);
	uint32_t u = 99;
	CHECK(sinewi_json_uint(sinewi_json_at(root, 0), &u) && u == 0);
	CHECK(sinewi_json_uint(sinewi_json_at(root, 1), &u) && u == 4294967295u);
	CHECK(!sinewi_json_uint(sinewi_json_at(root, 2), &u));
	CHECK(!sinewi_json_uint(sinewi_json_at(root, 3), &u));
	CHECK(!sinewi_json_uint(sinewi_json_at(root, 4), &u));
	CHECK(!sinewi_json_uint(sinewi_json_at(root, 5), &u));
	CHECK(sinewi_json_uint(sinewi_json_at(root, 6), &u) && u == 3);
	CHECK(sinewi_json_at(root, 7) == NULL);
	CHECK(sinewi_json_get(root, "x") == NULL); // not an object
	CHECK(sinewi_json_string(sinewi_json_at(root, 0)) == NULL);
	CHECK(strcmp(sinewi_json_string(sinewi_json_at(root, 5)), "7") == 0);
	double d;
	CHECK(!sinewi_json_number(sinewi_json_at(root, 5), &d));
	CHECK(!sinewi_json_number(NULL, &d));
	sinewi_arena_free(&arena);
}

typedef struct bad_case {
	const char *text;
	unsigned line;
} bad_case;

static void json_rejects_malformed_with_line(void) {
	static const bad_case cases[] = {
	    {"", 1},
	    {"   \n  ", 2},
	    {"[1, 2,]", 1},
	    {"{\"a\": 1,\n}", 2},
	    {"{\"a\": 1 \"b\": 2}", 1},
	    {"{\"a\" 1}", 1},
	    {"{1: 2}", 1},
	    {"[01]", 1},
	    {"[-01]", 1},
	    {"[1.]", 1},
	    {"[.5]", 1},
	    {"[1e]", 1},
	    {"[1e+]", 1},
	    {"[+1]", 1},
	    {"[0x10]", 1},
	    {"[NaN]", 1},
	    {"[Infinity]", 1},
	    {"[-Infinity]", 1},
	    {"[1e999]", 1},
	    {"[tru]", 1},
	    {"[nul]", 1},
	    {"[True]", 1},
	    {"// comment\n{}", 1},
	    {"{}\n/* c */", 2},
	    {"{} x", 1},
	    {"1 2", 1},
	    {"\"abc", 1},
	    {"[\"a\\x\"]", 1},
	    {"[\"a\\u12\"]", 1},
	    {"[\"a\\u12g4\"]", 1},
	    {"[\"tab\there\"]", 1},
	    {"[\"new\nline\"]", 1},
	    {"[\"\\ud800\"]", 1},
	    {"[\"\\ud800\\u0041\"]", 1},
	    {"[\"\\udc00\"]", 1},
	    {"[\"\\ud800\\ud800\"]", 1},
	    {"[\n\n\"\xC3\x28\"]", 3},
	    {"[\"\xC0\xAF\"]", 1},
	    {"[\"\xE0\x80\xAF\"]", 1},
	    {"[\"\xED\xA0\x80\"]", 1},
	    {"[\"\xF4\x90\x80\x80\"]", 1},
	    {"[\"\xF8\x88\x80\x80\x80\"]", 1},
	    {"[\"\xE2\x82\"]", 1},
	    {"[\"\x80\"]", 1},
	    {"\xFF", 1},
	    {"{\n\"a\": [1,\n2,\n,3]}", 4},
	    {"[1,\r\n2,\r\n]", 3},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		sinewi_arena arena;
		sinewi_arena_init(&arena, NULL);
		sinewi_json *root = (sinewi_json *)&arena; // must be reset to NULL on failure
		sinew_error err = {0};
		sinew_result r = parse(&arena, cases[i].text, &root, &err);
		sinewi_arena_free(&arena);
		CHECK_MSG(r == SINEW_RESULT_PARSE, "case %zu: %s (%s)", i, sinew_result_name(r), err.message);
		CHECK_MSG(root == NULL, "case %zu: out not cleared", i);
		char expect[32];
		snprintf(expect, sizeof expect, "line %u,", cases[i].line);
		CHECK_MSG(strstr(err.message, expect) != NULL, "case %zu: message \"%s\" lacks \"%s\"", i, err.message, expect);
	}
}

static void json_error_names_column(void) {
	sinewi_arena arena;
	sinewi_arena_init(&arena, NULL);
	sinewi_json *root = NULL;
	sinew_error err = {0};
	CHECK_RESULT(parse(&arena, "{\n  \"a\": [1, 2],\n  \"b\": tru\n}", &root, &err), SINEW_RESULT_PARSE, &err);
	CHECK_MSG(strstr(err.message, "line 3, column 8") != NULL, "%s", err.message);
	sinewi_arena_free(&arena);
}

static void json_depth_limit(void) {
	size_t n = 10000;
	char *text = (char *)malloc(2 * n + 1);
	CHECK(text);
	for (size_t i = 0; i < n; ++i) text[i] = '[', text[2 * n - 1 - i] = ']';
	text[2 * n] = 0;
	sinewi_arena arena;
	sinewi_arena_init(&arena, NULL);
	sinewi_json *root = NULL;
	sinew_error err = {0};
	sinew_result r = sinewi_json_parse(&arena, text, 2 * n, &root, &err);
	sinewi_arena_free(&arena);
	if (r != SINEW_RESULT_PARSE || !strstr(err.message, "nesting")) {
		free(text);
		CHECK_MSG(false, "depth 10000: %s %s", sinew_result_name(r), err.message);
	}
	// exactly the limit parses, one more does not; the same for objects
	for (int extra = 0; extra <= 1; ++extra) {
		size_t depth = SINEWI_JSON_MAX_DEPTH + (size_t)extra, len = 0;
		for (size_t i = 0; i < depth; ++i)
			len += (size_t)snprintf(text + len, 2 * n + 1 - len, i % 2 ? "[" : "{\"k\":");
		text[len++] = '1';
		for (size_t i = depth; i-- > 0;) text[len++] = i % 2 ? ']' : '}';
		sinewi_arena_init(&arena, NULL);
		r = sinewi_json_parse(&arena, text, len, &root, &err);
		sinewi_arena_free(&arena);
		if (r != (extra ? SINEW_RESULT_PARSE : SINEW_RESULT_OK)) {
			free(text);
			CHECK_MSG(false, "depth %zu: %s %s", depth, sinew_result_name(r), err.message);
		}
	}
	free(text);
}

static const char *sample_document = "{\"asset\":{\"version\":\"2.0\",\"generator\":\"t\\u00e9st \\ud83d\\ude00\"},"
                                     "\"nodes\":[{\"name\":\"root\",\"children\":[1],\"translation\":[0.5,-1e-3,2E+2]},"
                                     "{\"rotation\":[0,0,0.7071067811865476,0.7071067811865476]}],"
                                     "\"flags\":[true,false,null],\"empty\":{},\"list\":[],\"s\":\"tab\\tquote\\\"\"}";

static void json_truncation_sweep(void) {
	size_t size = strlen(sample_document);
	for (size_t n = 0; n < size; ++n) {
		// copy so ASan sees reads past the prefix
		char *copy = (char *)malloc(n ? n : 1);
		CHECK(copy);
		memcpy(copy, sample_document, n);
		sinewi_arena arena;
		sinewi_arena_init(&arena, NULL);
		sinewi_json *root = NULL;
		sinew_error err = {0};
		sinew_result r = sinewi_json_parse(&arena, copy, n, &root, &err);
		sinewi_arena_free(&arena);
		free(copy);
		CHECK_MSG(r == SINEW_RESULT_PARSE && strstr(err.message, "line 1, column"), "prefix %zu: %s %s", n,
		          sinew_result_name(r), err.message);
	}
}

static bool json_equal(const sinewi_json *a, const sinewi_json *b) {
	if (a->type != b->type || a->count != b->count) return false;
	switch (a->type) {
	case SINEWI_JSON_NUMBER: return a->number == b->number && signbit(a->number) == signbit(b->number);
	case SINEWI_JSON_STRING: return a->length == b->length && memcmp(a->string, b->string, a->length) == 0;
	case SINEWI_JSON_ARRAY:
	case SINEWI_JSON_OBJECT:
		for (uint32_t i = 0; i < a->count; ++i) {
			if (a->type == SINEWI_JSON_OBJECT && strcmp(a->keys[i], b->keys[i]) != 0) return false;
			if (!json_equal(&a->children[i], &b->children[i])) return false;
		}
		return true;
	default: return true;
	}
}

static void json_writer_round_trip(void) {
	const char *docs[] = {
	    sample_document,
	    "[0.1, 0.2, 0.30000000000000004, 1e21, 1e-7, -0, 123456789, 3.141592653589793, 1.7976931348623157e308, "
	    "5e-324, 2.2250738585072014e-308, 0.333333333333333314829616256247]",
	    "{\"ctrl\":\"\\u0001\\u001f\\b\\f\\n\\r\\t\",\"quote\":\"\\\"\\\\/\",\"utf8\":\"\xE2\x82\xAC\xF0\x9F\x98\x80\","
	    "\"nul\":\"x\\u0000y\"}",
	    "\"just a string\"",
	    "null",
	};
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; ++i) {
		sinewi_arena arena;
		sinewi_arena_init(&arena, NULL);
		sinewi_json *first = NULL, *second = NULL;
		sinew_error err = {0};
		CHECK_OK(parse(&arena, docs[i], &first, &err), &err);
		sinewi_json_writer w1, w2;
		sinewi_json_writer_init(&w1, NULL);
		sinewi_json_writer_init(&w2, NULL);
		sinewi_json_write_value(&w1, first);
		bool ok = !w1.failed && sinewi_json_parse(&arena, w1.data, w1.size, &second, &err) == SINEW_RESULT_OK;
		if (ok) sinewi_json_write_value(&w2, second);
		bool same = ok && json_equal(first, second) && w1.size == w2.size && memcmp(w1.data, w2.data, w1.size) == 0;
		char shown[160];
		snprintf(shown, sizeof shown, "%s", w1.data ? w1.data : "");
		sinewi_json_writer_free(&w1);
		sinewi_json_writer_free(&w2);
		sinewi_arena_free(&arena);
		CHECK_MSG(ok && same, "doc %zu does not round-trip: %s (%s)", i, shown, err.message);
	}
}

static void json_writer_numbers_and_strings(void) {
	static const struct {
		double value;
		const char *text;
	} numbers[] = {
	    {0.0, "0"},      {1.0, "1"},          {-3.0, "-3"},   {0.1, "0.1"}, {0.5, "0.5"},
	    {1e21, "1e+21"}, {2.5e-8, "2.5e-08"}, {100.0, "100"}, {-0.0, "-0"}, {1.0 / 3.0, "0.3333333333333333"}};
	sinewi_json_writer w;
	for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; ++i) {
		sinewi_json_writer_init(&w, NULL);
		sinewi_json_write_number(&w, numbers[i].value);
		bool same = !w.failed && strcmp(w.data, numbers[i].text) == 0;
		char shown[64];
		snprintf(shown, sizeof shown, "%s", w.data ? w.data : "");
		sinewi_json_writer_free(&w);
		CHECK_MSG(same, "number %zu written as %s, expected %s", i, shown, numbers[i].text);
	}
	sinewi_json_writer_init(&w, NULL);
	sinewi_json_write_number(&w, NAN);
	sinewi_json_write_raw(&w, ",", 1);
	sinewi_json_write_number(&w, -INFINITY);
	sinewi_json_write_raw(&w, ",", 1);
	sinewi_json_write_string(&w, "a\"b\\c\n\x01\xC3\xA9");
	bool same = !w.failed && strcmp(w.data, "null,null,\"a\\\"b\\\\c\\n\\u0001\xC3\xA9\"") == 0;
	char shown[64];
	snprintf(shown, sizeof shown, "%s", w.data ? w.data : "");
	sinewi_json_writer_free(&w);
	CHECK_MSG(same, "got %s", shown);
	// every double written reads back bit-exactly
	test_rng rng = {0x1234567u};
	for (int i = 0; i < 2000; ++i) {
		uint64_t bits = ((uint64_t)test_rand_u32(&rng) << 32) | test_rand_u32(&rng);
		double v;
		memcpy(&v, &bits, sizeof v);
		if (!isfinite(v)) continue;
		sinewi_json_writer_init(&w, NULL);
		sinewi_json_write_number(&w, v);
		double back = strtod(w.data, NULL);
		sinewi_json_writer_free(&w);
		CHECK_MSG(back == v, "random double %d does not round-trip", i);
	}
}

static void json_frees_everything(void) {
	long live = 0;
	sinew_allocator counting = {counting_alloc, counting_free, &live};
	for (int pass = 0; pass < 2; ++pass) {
		sinewi_arena arena;
		sinewi_arena_init(&arena, &counting);
		sinewi_json *root = NULL;
		sinew_error err = {0};
		sinew_result r = parse(&arena, pass ? "[1, [2, {\"a\": x}]]" : sample_document, &root, &err);
		CHECK(r == (pass ? SINEW_RESULT_PARSE : SINEW_RESULT_OK));
		sinewi_json_writer w;
		sinewi_json_writer_init(&w, &counting);
		if (root) sinewi_json_write_value(&w, root);
		sinewi_json_writer_free(&w);
		sinewi_arena_free(&arena);
		CHECK_EQ(live, 0);
	}
}

void suite_json(void) {
	RUN(json_parses_nested_document);
	RUN(json_typed_accessors);
	RUN(json_rejects_malformed_with_line);
	RUN(json_error_names_column);
	RUN(json_depth_limit);
	RUN(json_truncation_sweep);
	RUN(json_writer_round_trip);
	RUN(json_writer_numbers_and_strings);
	RUN(json_frees_everything);
}

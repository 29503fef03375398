// sinew — see include/sinew.h for version and licence
// SJSON ("simplified JSON", ACL's text format): `key = value` pairs without commas, `//` and `/* */`
// comments, quoted or bare keys, quoted strings, bare words (numbers, true/false, enum names),
// arrays and objects. The top level is an object without braces.
//
// The parser builds a flat node array in document order (jsmn style): every node records the index
// of the node that follows its subtree, so children are walked without pointers and values are read
// lazily from the source text. Objects hold key and value nodes alternately. Nothing recurses, the
// nesting depth is limited, and a syntax error reports its line.
#ifndef SINEW_IMPORT_SJSON_H
#define SINEW_IMPORT_SJSON_H

#include "../core/base.h"

#define SINEWI_SJSON_NONE UINT32_MAX // "no node" (a missing key)
#define SINEWI_SJSON_MAX_DEPTH 64

typedef enum sinewi_sjson_type {
	SINEWI_SJSON_OBJECT = 1,
	SINEWI_SJSON_ARRAY = 2,
	SINEWI_SJSON_STRING = 3, // quoted; start/length exclude the quotes, escapes are kept as written
	SINEWI_SJSON_BARE = 4    // unquoted word: number, true/false, identifier
} sinewi_sjson_type;

typedef struct sinewi_sjson_node {
	uint32_t start;  // byte offset of the text
	uint32_t length; // bytes of text (scalars only)
	uint32_t line;   // 1-based line where the node starts
	uint32_t count;  // arrays: elements; objects: key/value pairs
	uint32_t next;   // index of the first node after this subtree
	uint32_t type;   // sinewi_sjson_type
} sinewi_sjson_node;

typedef struct sinewi_sjson_doc {
	const char *text;
	size_t size;
	sinewi_sjson_node *nodes; // nodes[0] is the implicit top-level object
	uint32_t node_count, node_capacity;
	sinewi_alloc alloc;
} sinewi_sjson_doc;

// Parses `text[0..size)`. Errors: PARSE (message "<label>:<line>: ..."), UNSUPPORTED (input of 4 GiB or
// more), OUT_OF_MEMORY. On failure the document is left empty; sinewi_sjson_free is always safe.
sinew_result sinewi_sjson_parse(sinewi_sjson_doc *doc, const char *text, size_t size, const sinew_allocator *allocator,
                                const char *label, sinew_error *error);
void sinewi_sjson_free(sinewi_sjson_doc *doc);

// First child of an array or object (for objects: the first key); SINEWI_SJSON_NONE when empty.
static inline uint32_t sinewi_sjson_first(const sinewi_sjson_doc *doc, uint32_t node) {
	return doc->nodes[node].count ? node + 1 : SINEWI_SJSON_NONE;
}
// Next sibling of a child (the caller counts siblings with the parent's count).
static inline uint32_t sinewi_sjson_next(const sinewi_sjson_doc *doc, uint32_t node) {
	return doc->nodes[node].next;
}
static inline uint32_t sinewi_sjson_type_of(const sinewi_sjson_doc *doc, uint32_t node) {
	return doc->nodes[node].type;
}

// Value of `key` in `object`; SINEWI_SJSON_NONE when absent. When the key appears more than once,
// *duplicate (may be NULL) receives the index of the second key node, else SINEWI_SJSON_NONE.
uint32_t sinewi_sjson_find(const sinewi_sjson_doc *doc, uint32_t object, const char *key, uint32_t *duplicate);

// True when a string or bare node's text is exactly `text`.
bool sinewi_sjson_equals(const sinewi_sjson_doc *doc, uint32_t node, const char *text);

// Decimal number ([+-]digits[.digits][e[+-]digits]), hexadecimal integer (0x1F, up to 16 digits), or the
// special values nan/inf/-inf (quoted or bare). Returns false when the node is not one of these.
bool sinewi_sjson_number(const sinewi_sjson_doc *doc, uint32_t node, double *out);

// Raw bits written in hexadecimal: a quoted string of 1..max_digits hex digits ("3F800000", ACL's
// binary-exact form) or a bare 0x-prefixed word. Returns false otherwise.
bool sinewi_sjson_hex_bits(const sinewi_sjson_doc *doc, uint32_t node, unsigned max_digits, uint64_t *out);

// true/false, bare or quoted.
bool sinewi_sjson_bool(const sinewi_sjson_doc *doc, uint32_t node, bool *out);

// Copies a string or bare node into `buffer` (NUL-terminated, truncated to fit) for messages.
const char *sinewi_sjson_text(const sinewi_sjson_doc *doc, uint32_t node, char *buffer, size_t size);

#endif

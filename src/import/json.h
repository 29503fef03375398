// sinew — see include/sinew.h for version and licence
// Strict RFC 8259 JSON reader (for glTF and other text formats) and a small JSON writer.
// The reader treats its input as hostile: UTF-8 is validated, nesting is limited to
// SINEWI_JSON_MAX_DEPTH, every error names the line and column.
#ifndef SINEW_IMPORT_JSON_H
#define SINEW_IMPORT_JSON_H

#include "../core/base.h"

#define SINEWI_JSON_MAX_DEPTH 256

typedef enum sinewi_json_type {
	SINEWI_JSON_NULL,
	SINEWI_JSON_FALSE,
	SINEWI_JSON_TRUE,
	SINEWI_JSON_NUMBER,
	SINEWI_JSON_STRING,
	SINEWI_JSON_ARRAY,
	SINEWI_JSON_OBJECT
} sinewi_json_type;

typedef struct sinewi_json sinewi_json;
struct sinewi_json {
	sinewi_json_type type;
	uint32_t count;        // array elements / object members
	double number;         // NUMBER
	const char *string;    // STRING: decoded UTF-8, NUL-terminated (escapes resolved); NULL for other types
	size_t length;         // STRING: byte length (the string may contain "\u0000", hence the length)
	sinewi_json *children; // ARRAY/OBJECT: `count` values, contiguous
	const char **keys;     // OBJECT: `count` keys (decoded, NUL-terminated), keys[i] names children[i]
	size_t offset;         // byte offset of the value in the source text (for error messages)
};

// Parses text[0..size) into a tree allocated from `arena` (all memory freed with the arena).
// Strict RFC 8259 (no comments, no trailing commas), UTF-8 validated, depth limit 256, \u escapes incl.
// surrogate pairs, numbers via strtod on a bounded copy (reject nan/inf/hex), duplicate keys allowed (last
// wins for lookups). A leading UTF-8 byte order mark is skipped (RFC 8259 §8.1 allows ignoring it).
// Errors: SINEW_RESULT_PARSE with "line L, column C: <what>" in the message; OUT_OF_MEMORY.
sinew_result sinewi_json_parse(sinewi_arena *arena, const char *text, size_t size, sinewi_json **out,
                               sinew_error *error);

// Line and column (both 1-based, column in bytes) of a byte offset, for messages about parsed values.
void sinewi_json_line_column(const char *text, size_t size, size_t offset, uint32_t *line, uint32_t *column);

const sinewi_json *sinewi_json_get(const sinewi_json *object, const char *key); // NULL if absent or not an object
const sinewi_json *sinewi_json_at(const sinewi_json *array, uint32_t index);    // NULL if out of range / not array
bool sinewi_json_number(const sinewi_json *value, double *out);                 // false if not a number
bool sinewi_json_uint(const sinewi_json *value, uint32_t *out);                 // integer in [0, 2^32-1] exactly
const char *sinewi_json_string(const sinewi_json *value);                       // NULL if not a string

// Serialization helpers for writers (escapes control chars, quotes, backslash; writes UTF-8 as is).
// On allocation failure `failed` is set and later writes are ignored; check it once at the end.
typedef struct sinewi_json_writer {
	char *data; // NUL-terminated after every write (not counted in size)
	size_t size, capacity;
	bool failed;
	sinewi_alloc alloc;
} sinewi_json_writer;

void sinewi_json_writer_init(sinewi_json_writer *w, const sinew_allocator *allocator);
void sinewi_json_write_raw(sinewi_json_writer *w, const char *text, size_t length);
void sinewi_json_write_string(sinewi_json_writer *w, const char *text); // quoted + escaped
// Shortest representation that reads back to the same double (%.15g..%.17g); integers without ".0";
// non-finite values are written as null.
void sinewi_json_write_number(sinewi_json_writer *w, double value);
void sinewi_json_write_value(sinewi_json_writer *w, const sinewi_json *value); // re-serializes a tree compactly
void sinewi_json_writer_free(sinewi_json_writer *w);

#endif

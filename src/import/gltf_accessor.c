// sinew — see include/sinew.h for version and licence
// glTF containers and binary data: GLB chunks, buffers (GLB BIN, data: URIs, relative files), bufferViews,
// accessors (strides, sparse, normalized integers, zero-filled), and the typed JSON property helpers every
// part of the glTF reader uses. Every offset, length, stride and count is checked (overflow-checked) against
// the view and buffer before a byte is read.
#include "gltf_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// Accessors without a bufferView are zero-filled with `count` elements that cost no file bytes: cap them.
#define MAX_ZERO_FILLED_VALUES ((size_t)1 << 22)

#define GLB_CHUNK_JSON 0x4E4F534Au
#define GLB_CHUNK_BIN 0x004E4942u

sinew_result sinewi_gltf_fail(sinewi_gltf_doc *d, sinew_result code, const char *fmt, ...) {
	char what[256];
	va_list args;
	va_start(args, fmt);
	vsnprintf(what, sizeof what, fmt, args);
	va_end(args);
	return sinewi_fail(d->error, code, "%s: %s", d->label, what);
}

sinew_result sinewi_gltf_oom(sinewi_gltf_doc *d) {
	return sinewi_gltf_fail(d, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
}

// "line L" of a parsed value, so schema errors point into the text as well.
uint32_t sinewi_gltf_line(const sinewi_gltf_doc *d, const sinewi_json *v) {
	uint32_t line = 0, column = 0;
	if (v && d->text) sinewi_json_line_column(d->text, d->text_size, v->offset, &line, &column);
	return line;
}

/* ---- typed property access: absent is fine unless required, a wrong type is CORRUPT ---- */

sinew_result sinewi_gltf_prop_array(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, const char *where,
                                    const sinewi_json **out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	*out = NULL;
	if (!v) return SINEW_RESULT_OK;
	if (v->type != SINEWI_JSON_ARRAY)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s%s\"%s\" must be an array (line %u)", where,
		                        *where ? "." : "", key, sinewi_gltf_line(d, v));
	*out = v;
	return SINEW_RESULT_OK;
}

sinew_result sinewi_gltf_prop_object(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, bool required,
                                     const char *where, const sinewi_json **out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	*out = NULL;
	if (!v) {
		if (required)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s: \"%s\" is missing (line %u)", where, key,
			                        sinewi_gltf_line(d, obj));
		return SINEW_RESULT_OK;
	}
	if (v->type != SINEWI_JSON_OBJECT)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\" must be an object (line %u)", where, key,
		                        sinewi_gltf_line(d, v));
	*out = v;
	return SINEW_RESULT_OK;
}

// Unsigned integer property; with `limit_what` it is an index that must be < limit.
sinew_result sinewi_gltf_prop_uint(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, bool required,
                                   uint32_t limit, const char *limit_what, const char *where, bool *present,
                                   uint32_t *out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	if (present) *present = v != NULL;
	if (!v) {
		if (required)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s: \"%s\" is missing (line %u)", where, key,
			                        sinewi_gltf_line(d, obj));
		return SINEW_RESULT_OK;
	}
	uint32_t u;
	if (!sinewi_json_uint(v, &u))
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\" must be an unsigned integer (line %u)", where, key,
		                        sinewi_gltf_line(d, v));
	if (limit_what && u >= limit)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\": %s %u does not exist (%u defined)", where, key,
		                        limit_what, u, limit);
	*out = u;
	return SINEW_RESULT_OK;
}

sinew_result sinewi_gltf_prop_string(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, bool required,
                                     const char *where, const char **out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	*out = NULL;
	if (!v) {
		if (required)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s: \"%s\" is missing (line %u)", where, key,
			                        sinewi_gltf_line(d, obj));
		return SINEW_RESULT_OK;
	}
	if (v->type != SINEWI_JSON_STRING)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\" must be a string (line %u)", where, key,
		                        sinewi_gltf_line(d, v));
	*out = v->string;
	return SINEW_RESULT_OK;
}

// Fixed-length array of numbers (node translation/rotation/scale/matrix).
sinew_result sinewi_gltf_prop_numbers(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, uint32_t count,
                                      const char *where, bool *present, double *out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	*present = v != NULL;
	if (!v) return SINEW_RESULT_OK;
	if (v->type != SINEWI_JSON_ARRAY || v->count != count)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\" must be an array of %u numbers (line %u)", where,
		                        key, count, sinewi_gltf_line(d, v));
	for (uint32_t i = 0; i < count; ++i)
		if (!sinewi_json_number(&v->children[i], &out[i]))
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\"[%u] must be a number (line %u)", where, key, i,
			                        sinewi_gltf_line(d, &v->children[i]));
	return SINEW_RESULT_OK;
}

sinew_result sinewi_gltf_element(sinewi_gltf_doc *d, const sinewi_json *array, uint32_t index, const char *what,
                                 const sinewi_json **out) {
	const sinewi_json *v = sinewi_json_at(array, index);
	if (!v || v->type != SINEWI_JSON_OBJECT)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "%s %u must be an object (line %u)", what, index,
		                        sinewi_gltf_line(d, v));
	*out = v;
	return SINEW_RESULT_OK;
}

/* ---- GLB container ---- */

static uint32_t read_u32(const unsigned char *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// GLB 2.0: 12-byte header (magic, version 2, total length), then chunks (length, type, data) 4-byte aligned:
// JSON first, then at most one BIN; chunks of other types are skipped as the spec requires.
sinew_result sinewi_gltf_parse_glb(sinewi_gltf_doc *d, const unsigned char *data, size_t size, const char **json,
                                   size_t *json_size) {
	if (size < 12) return sinewi_gltf_fail(d, SINEW_RESULT_TRUNCATED, "GLB header needs 12 bytes, file has %zu", size);
	uint32_t version = read_u32(data + 4), length = read_u32(data + 8);
	if (version != 2)
		return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED, "GLB version %u (only glTF 2.0 is supported)", version);
	if (length > size)
		return sinewi_gltf_fail(d, SINEW_RESULT_TRUNCATED, "GLB header says %u bytes, file has %zu", length, size);
	if (length < size)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "GLB header says %u bytes but the data has %zu bytes", length,
		                        size);
	if (length % 4) return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "GLB length %u is not a multiple of 4", length);
	size_t offset = 12;
	uint32_t index = 0;
	bool have_json = false;
	while (offset < length) {
		if (length - offset < 8)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "GLB chunk %u header at byte %zu is cut off", index,
			                        offset);
		uint32_t chunk_length = read_u32(data + offset), type = read_u32(data + offset + 4);
		size_t start = offset + 8;
		if (chunk_length > length - start)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "GLB chunk %u at byte %zu: length %u exceeds the file",
			                        index, offset, chunk_length);
		if (chunk_length % 4)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
			                        "GLB chunk %u at byte %zu: length %u is not a multiple of 4", index, offset,
			                        chunk_length);
		if (index == 0) {
			if (type != GLB_CHUNK_JSON)
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "GLB first chunk has type 0x%08x, expected JSON",
				                        type);
			*json = (const char *)data + start;
			*json_size = chunk_length;
			have_json = true;
		} else if (type == GLB_CHUNK_BIN) {
			if (d->has_bin)
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "GLB has more than one BIN chunk (chunk %u)", index);
			if (index != 1)
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "GLB BIN chunk must follow the JSON chunk");
			d->bin = data + start;
			d->bin_size = chunk_length;
			d->has_bin = true;
		} else if (type == GLB_CHUNK_JSON) {
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "GLB has more than one JSON chunk (chunk %u)", index);
		}
		offset = start + chunk_length;
		++index;
	}
	if (!have_json) return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "GLB has no JSON chunk");
	// Padding is spaces by the spec; some writers pad with NUL bytes.
	while (*json_size > 0 && (*json)[*json_size - 1] == '\0') --*json_size;
	return SINEW_RESULT_OK;
}

/* ---- buffers ---- */

static int base64_value(unsigned char c) {
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+' || c == '-') return 62; // '-' and '_': base64url, seen in the wild
	if (c == '/' || c == '_') return 63;
	return -1;
}

static int hex_value(char c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static sinew_result decode_data_uri(sinewi_gltf_doc *d, uint32_t index, const char *uri, unsigned char **out,
                                    size_t *out_size) {
	const char *comma = strchr(uri, ',');
	if (!comma) return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "buffer %u: data URI without ','", index);
	size_t header = (size_t)(comma - uri);
	bool base64 = header >= 7 && memcmp(comma - 7, ";base64", 7) == 0;
	const char *p = comma + 1;
	size_t n = strlen(p);
	// base64 gives at most 3 bytes per 4 characters, percent-encoding at most one byte per character
	unsigned char *bytes = (unsigned char *)sinewi_arena_alloc(d->arena, base64 ? n / 4 * 3 + 3 : n + 1);
	if (!bytes) return sinewi_gltf_oom(d);
	size_t m = 0;
	if (base64) {
		while (n > 0 && p[n - 1] == '=') --n;
		uint32_t acc = 0, bits = 0;
		for (size_t i = 0; i < n; ++i) {
			int v = base64_value((unsigned char)p[i]);
			if (v < 0)
				return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "buffer %u: invalid base64 character at position %zu",
				                        index, i);
			acc = (acc << 6) | (uint32_t)v;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				bytes[m++] = (unsigned char)(acc >> bits);
				acc &= (1u << bits) - 1;
			}
		}
	} else {
		for (size_t i = 0; i < n; ++i) {
			if (p[i] == '%') {
				int hi = n - i >= 3 ? hex_value(p[i + 1]) : -1, lo = hi >= 0 ? hex_value(p[i + 2]) : -1;
				if (hi < 0 || lo < 0)
					return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "buffer %u: bad %% escape in data URI", index);
				int v = hi * 16 + lo;
				bytes[m++] = (unsigned char)v;
				i += 2;
			} else {
				bytes[m++] = (unsigned char)p[i];
			}
		}
	}
	*out = bytes;
	*out_size = m;
	return SINEW_RESULT_OK;
}

// Relative file reference -> path under base_dir. Refuses schemes, absolute paths and ".." components so a
// hostile file cannot read outside its folder.
static sinew_result resolve_uri(sinewi_gltf_doc *d, uint32_t index, const char *uri, char *path, size_t path_size) {
	char decoded[1024];
	size_t n = 0;
	for (size_t i = 0; uri[i]; ++i) {
		char c = uri[i];
		if (c == '?' || c == '#') break;
		if (c == '%') {
			int hi = hex_value(uri[i + 1]), lo = hi >= 0 ? hex_value(uri[i + 2]) : -1;
			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
				return sinewi_gltf_fail(d, SINEW_RESULT_IO, "buffer %u: bad %% escape in uri \"%.64s\"", index, uri);
			c = (char)(hi * 16 + lo);
			i += 2;
		}
		if (n + 1 >= sizeof decoded) return sinewi_gltf_fail(d, SINEW_RESULT_IO, "buffer %u: uri too long", index);
		decoded[n++] = c;
	}
	decoded[n] = '\0';
	if (n == 0) return sinewi_gltf_fail(d, SINEW_RESULT_IO, "buffer %u: empty uri", index);
	bool absolute = decoded[0] == '/' || decoded[0] == '\\';
	for (size_t i = 0; i < n && decoded[i] != '/' && decoded[i] != '\\'; ++i)
		if (decoded[i] == ':') absolute = true; // "http:", "file:", "C:"
	if (absolute)
		return sinewi_gltf_fail(d, SINEW_RESULT_IO,
		                        "buffer %u: uri \"%.64s\" is absolute or remote (only relative files are read)", index,
		                        uri);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && decoded[j] != '/' && decoded[j] != '\\') ++j;
		if (j - i == 2 && decoded[i] == '.' && decoded[i + 1] == '.')
			return sinewi_gltf_fail(d, SINEW_RESULT_IO, "buffer %u: uri \"%.64s\" leaves the file's folder (\"..\")",
			                        index, uri);
		i = j + 1;
	}
	if (!d->ctx->base_dir)
		return sinewi_gltf_fail(
		    d, SINEW_RESULT_IO,
		    "buffer %u: external uri \"%.64s\" needs a base folder (import from a file or set base_path)", index, uri);
	if (!sinewi_join_path(path, path_size, d->ctx->base_dir, decoded))
		return sinewi_gltf_fail(d, SINEW_RESULT_IO, "buffer %u: path too long", index);
	return SINEW_RESULT_OK;
}

static sinew_result load_buffer(sinewi_gltf_doc *d, uint32_t index, const unsigned char **data, size_t *size) {
	sinewi_gltf_buffer *b = &d->buffer_cache[index];
	if (b->loaded) {
		*data = b->data;
		*size = b->size;
		return SINEW_RESULT_OK;
	}
	char where[48];
	snprintf(where, sizeof where, "buffers[%u]", index);
	const sinewi_json *obj = NULL;
	SINEWI_TRY(sinewi_gltf_element(d, d->buffers, index, "buffer", &obj));
	uint32_t byte_length = 0;
	const char *uri = NULL;
	SINEWI_TRY(sinewi_gltf_prop_uint(d, obj, "byteLength", true, 0, NULL, where, NULL, &byte_length));
	SINEWI_TRY(sinewi_gltf_prop_string(d, obj, "uri", false, where, &uri));
	const unsigned char *bytes = NULL;
	size_t available = 0;
	if (!uri) {
		if (index != 0 || !d->has_bin)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
			                        "buffer %u has no uri and there is no GLB BIN chunk for it", index);
		bytes = d->bin;
		available = d->bin_size;
	} else if (strncmp(uri, "data:", 5) == 0) {
		unsigned char *decoded = NULL;
		SINEWI_TRY(decode_data_uri(d, index, uri, &decoded, &available));
		bytes = decoded;
	} else {
		char path[4096];
		SINEWI_TRY(resolve_uri(d, index, uri, path, sizeof path));
		sinew_error inner = {0};
		sinew_result r = sinewi_read_file(path, &d->al, &b->owned, &b->owned_size, &inner);
		if (r != SINEW_RESULT_OK) return sinewi_gltf_fail(d, r, "buffer %u (\"%.64s\"): %s", index, uri, inner.message);
		++b->owned_size; // sinewi_read_file allocates one extra byte
		bytes = b->owned;
		available = b->owned_size - 1;
	}
	if (available < byte_length)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "buffer %u: byteLength is %u but only %zu bytes are present",
		                        index, byte_length, available);
	b->loaded = true;
	b->data = bytes;
	b->size = byte_length;
	*data = b->data;
	*size = b->size;
	return SINEW_RESULT_OK;
}

// A bufferView's bytes; *stride is 0 when the view has no byteStride.
static sinew_result load_view(sinewi_gltf_doc *d, uint32_t index, const unsigned char **data, size_t *length,
                              uint32_t *stride) {
	char where[48];
	snprintf(where, sizeof where, "bufferViews[%u]", index);
	const sinewi_json *obj = NULL;
	SINEWI_TRY(sinewi_gltf_element(d, d->views, index, "bufferView", &obj));
	uint32_t buffer = 0, offset = 0, byte_length = 0;
	bool has_stride = false;
	*stride = 0;
	SINEWI_TRY(sinewi_gltf_prop_uint(d, obj, "buffer", true, d->buffer_count, "buffer", where, NULL, &buffer));
	SINEWI_TRY(sinewi_gltf_prop_uint(d, obj, "byteOffset", false, 0, NULL, where, NULL, &offset));
	SINEWI_TRY(sinewi_gltf_prop_uint(d, obj, "byteLength", true, 0, NULL, where, NULL, &byte_length));
	SINEWI_TRY(sinewi_gltf_prop_uint(d, obj, "byteStride", false, 0, NULL, where, &has_stride, stride));
	if (has_stride && (*stride < 4 || *stride > 252 || *stride % 4))
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
		                        "bufferView %u: byteStride %u (must be 4..252, a multiple of 4)", index, *stride);
	const sinewi_json *ext = sinewi_json_get(obj, "extensions");
	if (sinewi_json_get(ext, "EXT_meshopt_compression") || sinewi_json_get(ext, "KHR_meshopt_compression")) {
		// The view's own buffer is only a fallback (often without data); decoding meshopt is out of scope.
		return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED,
		                        "bufferView %u uses meshopt compression (decompress it with gltfpack first)", index);
	}
	const unsigned char *bytes = NULL;
	size_t size;
	SINEWI_TRY(load_buffer(d, buffer, &bytes, &size));
	if (offset > size || byte_length > size - offset)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
		                        "bufferView %u: bytes %u..%llu lie outside buffer %u (%zu bytes)", index, offset,
		                        (unsigned long long)offset + byte_length, buffer, size);
	*data = bytes + offset;
	*length = byte_length;
	return SINEW_RESULT_OK;
}

/* ---- accessors ---- */

static uint32_t component_size(uint32_t type) {
	switch (type) {
	case 5120:
	case 5121: return 1;
	case 5122:
	case 5123: return 2;
	case 5125:
	case 5126: return 4;
	default: return 0;
	}
}

static uint32_t type_components(const char *type) {
	static const struct {
		const char *name;
		uint32_t n;
	} types[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
		if (strcmp(type, types[i].name) == 0) return types[i].n;
	return 0;
}

// glTF 2.0 §3.11 / KHR_mesh_quantization: normalized integers map to [-1, 1] / [0, 1].
static float read_component(const unsigned char *p, uint32_t type, bool normalized) {
	switch (type) {
	case 5120: {
		int8_t v = (int8_t)p[0];
		return normalized ? sinewi_fmaxf((float)v / 127.0f, -1.0f) : (float)v;
	}
	case 5121: return normalized ? (float)p[0] / 255.0f : (float)p[0];
	case 5122: {
		int16_t v = (int16_t)(uint16_t)(p[0] | p[1] << 8);
		return normalized ? sinewi_fmaxf((float)v / 32767.0f, -1.0f) : (float)v;
	}
	case 5123: {
		uint16_t v = (uint16_t)(p[0] | p[1] << 8);
		return normalized ? (float)v / 65535.0f : (float)v;
	}
	case 5125: return (float)read_u32(p);
	default: {
		uint32_t bits = read_u32(p);
		float f;
		memcpy(&f, &bits, sizeof f);
		return f;
	}
	}
}

// Checks that `count` elements of `element_size` bytes at `offset` with `stride` fit in `length` bytes.
static bool elements_fit(size_t length, size_t offset, size_t stride, size_t count, size_t element_size) {
	if (count == 0) return offset <= length;
	size_t last, end;
	if (!sinewi_mul_size(count - 1, stride, &last) || !sinewi_add_size(last, offset, &end) ||
	    !sinewi_add_size(end, element_size, &end))
		return false;
	return end <= length;
}

static sinew_result decode_sparse(sinewi_gltf_doc *d, uint32_t index, const sinewi_json *sparse,
                                  sinewi_gltf_accessor *a) {
	char where[64];
	snprintf(where, sizeof where, "accessors[%u].sparse", index);
	uint32_t count = 0;
	SINEWI_TRY(sinewi_gltf_prop_uint(d, sparse, "count", true, 0, NULL, where, NULL, &count));
	if (count == 0 || count > a->count)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: sparse count %u (must be 1..%u)", index, count,
		                        a->count);
	const sinewi_json *indices = NULL, *values = NULL;
	SINEWI_TRY(sinewi_gltf_prop_object(d, sparse, "indices", true, where, &indices));
	SINEWI_TRY(sinewi_gltf_prop_object(d, sparse, "values", true, where, &values));
	char where_i[80], where_v[80];
	snprintf(where_i, sizeof where_i, "%s.indices", where);
	snprintf(where_v, sizeof where_v, "%s.values", where);
	uint32_t iview = 0, ioffset = 0, itype = 0, vview = 0, voffset = 0;
	SINEWI_TRY(
	    sinewi_gltf_prop_uint(d, indices, "bufferView", true, d->view_count, "bufferView", where_i, NULL, &iview));
	SINEWI_TRY(sinewi_gltf_prop_uint(d, indices, "byteOffset", false, 0, NULL, where_i, NULL, &ioffset));
	SINEWI_TRY(sinewi_gltf_prop_uint(d, indices, "componentType", true, 0, NULL, where_i, NULL, &itype));
	SINEWI_TRY(
	    sinewi_gltf_prop_uint(d, values, "bufferView", true, d->view_count, "bufferView", where_v, NULL, &vview));
	SINEWI_TRY(sinewi_gltf_prop_uint(d, values, "byteOffset", false, 0, NULL, where_v, NULL, &voffset));
	if (itype != 5121 && itype != 5123 && itype != 5125)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
		                        "accessor %u: sparse indices componentType %u (must be 5121, 5123 or 5125)", index,
		                        itype);
	const unsigned char *ibytes = NULL, *vbytes = NULL;
	size_t ilength, vlength;
	uint32_t unused_stride;
	SINEWI_TRY(load_view(d, iview, &ibytes, &ilength, &unused_stride));
	SINEWI_TRY(load_view(d, vview, &vbytes, &vlength, &unused_stride));
	uint32_t isize = component_size(itype), csize = component_size(a->component_type);
	size_t element = (size_t)csize * a->components;
	if (!elements_fit(ilength, ioffset, isize, count, isize))
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
		                        "accessor %u: %u sparse indices at byte %u exceed bufferView %u (%zu bytes)", index,
		                        count, ioffset, iview, ilength);
	if (!elements_fit(vlength, voffset, element, count, element))
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
		                        "accessor %u: %u sparse values at byte %u exceed bufferView %u (%zu bytes)", index,
		                        count, voffset, vview, vlength);
	for (uint32_t i = 0; i < count; ++i) {
		const unsigned char *ip = ibytes + ioffset + (size_t)i * isize;
		uint32_t target = isize == 1 ? ip[0] : isize == 2 ? (uint32_t)(ip[0] | ip[1] << 8) : read_u32(ip);
		if (target >= a->count)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
			                        "accessor %u: sparse index %u is %u, beyond the %u elements", index, i, target,
			                        a->count);
		const unsigned char *vp = vbytes + voffset + (size_t)i * element;
		for (uint32_t c = 0; c < a->components; ++c)
			a->data[(size_t)target * a->components + c] =
			    read_component(vp + (size_t)c * csize, a->component_type, a->normalized);
	}
	return SINEW_RESULT_OK;
}

// Decodes an accessor (SCALAR/VECn of any component type, MAT4 of floats) to floats once; later calls return the cache.
sinew_result sinewi_gltf_decode_accessor(sinewi_gltf_doc *d, uint32_t index, sinewi_gltf_accessor **out) {
	sinewi_gltf_accessor *a = &d->accessor_cache[index];
	*out = a;
	if (a->decoded) return SINEW_RESULT_OK;
	char where[48];
	snprintf(where, sizeof where, "accessors[%u]", index);
	const sinewi_json *obj = NULL;
	SINEWI_TRY(sinewi_gltf_element(d, d->accessors, index, "accessor", &obj));
	uint32_t view = 0, offset = 0, count = 0, ctype = 0;
	bool has_view = false, has_offset = false;
	const char *type = NULL;
	SINEWI_TRY(
	    sinewi_gltf_prop_uint(d, obj, "bufferView", false, d->view_count, "bufferView", where, &has_view, &view));
	SINEWI_TRY(sinewi_gltf_prop_uint(d, obj, "byteOffset", false, 0, NULL, where, &has_offset, &offset));
	SINEWI_TRY(sinewi_gltf_prop_uint(d, obj, "componentType", true, 0, NULL, where, NULL, &ctype));
	SINEWI_TRY(sinewi_gltf_prop_uint(d, obj, "count", true, 0, NULL, where, NULL, &count));
	SINEWI_TRY(sinewi_gltf_prop_string(d, obj, "type", true, where, &type));
	const sinewi_json *normalized = sinewi_json_get(obj, "normalized");
	if (normalized && normalized->type != SINEWI_JSON_TRUE && normalized->type != SINEWI_JSON_FALSE)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: \"normalized\" must be a boolean", index);
	a->normalized = normalized && normalized->type == SINEWI_JSON_TRUE;
	uint32_t csize = component_size(ctype);
	if (!csize) return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: unknown componentType %u", index, ctype);
	if (a->normalized && (ctype == 5125 || ctype == 5126))
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: componentType %u cannot be normalized", index,
		                        ctype);
	uint32_t components = type_components(type);
	if (!components)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: unknown type \"%.16s\"", index, type);
	// MAT4 of floats (skins' inverseBindMatrices, read for skin shells) has no padding; other matrices
	// hold nothing this importer reads
	if (components > 4 && !(components == 16 && ctype == 5126))
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: type %s cannot hold animation data", index,
		                        type);
	if (has_offset && !has_view)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: byteOffset without bufferView", index);
	size_t values;
	if (!sinewi_mul_size(count, components, &values))
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: count %u is too large", index, count);
	a->count = count;
	a->components = components;
	a->component_type = ctype;
	a->matrix = type[0] == 'M';
	size_t element = (size_t)csize * components;
	const unsigned char *bytes = NULL;
	size_t length = 0;
	uint32_t stride = 0;
	if (has_view) {
		SINEWI_TRY(load_view(d, view, &bytes, &length, &stride));
		if (stride && stride < element)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
			                        "accessor %u: bufferView %u byteStride %u is smaller than an element (%zu bytes)",
			                        index, view, stride, element);
		if (!elements_fit(length, offset, stride ? stride : element, count, element))
			return sinewi_gltf_fail(
			    d, SINEW_RESULT_CORRUPT,
			    "accessor %u: %u elements (%s) of %zu bytes at byte %u (stride %u) exceed bufferView %u (%zu bytes)", index,
			    count, type, element, offset, stride ? stride : (uint32_t)element, view, length);
	} else if (values > MAX_ZERO_FILLED_VALUES) {
		return sinewi_gltf_fail(d, SINEW_RESULT_UNSUPPORTED,
		                        "accessor %u: %u elements without a bufferView (limit %zu values)", index, count,
		                        MAX_ZERO_FILLED_VALUES);
	}
	a->data = (float *)sinewi_arena_array(d->arena, values ? values : 1, sizeof(float)); // zeroed
	if (!a->data) return sinewi_gltf_oom(d);
	if (has_view) {
		size_t step = stride ? stride : element;
		for (uint32_t i = 0; i < count; ++i) {
			const unsigned char *p = bytes + offset + (size_t)i * step;
			for (uint32_t c = 0; c < components; ++c)
				a->data[(size_t)i * components + c] = read_component(p + (size_t)c * csize, ctype, a->normalized);
		}
	}
	const sinewi_json *sparse = NULL;
	SINEWI_TRY(sinewi_gltf_prop_object(d, obj, "sparse", false, where, &sparse));
	if (sparse) SINEWI_TRY(decode_sparse(d, index, sparse, a));
	a->decoded = true;
	return SINEW_RESULT_OK;
}

sinew_result sinewi_gltf_check_times(sinewi_gltf_doc *d, uint32_t index, sinewi_gltf_accessor *a) {
	if (a->times_checked) return SINEW_RESULT_OK;
	if (a->component_type != 5126 || a->components != 1 || a->normalized)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: animation input must be a SCALAR float accessor",
		                        index);
	for (uint32_t i = 0; i < a->count; ++i) {
		float t = a->data[i];
		if (!isfinite(t))
			return sinewi_gltf_fail(d, SINEW_RESULT_NOT_FINITE, "accessor %u: key time %u is not finite", index, i);
		if (t < 0.0f)
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: key time %u is negative (%g)", index, i,
			                        (double)t);
		if (i > 0 && t < a->data[i - 1])
			return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: key times decrease at key %u (%g after %g)",
			                        index, i, (double)t, (double)a->data[i - 1]);
	}
	a->times_checked = true;
	return SINEW_RESULT_OK;
}

const char *sinewi_gltf_path_name(sinewi_gltf_path path) {
	static const char *names[] = {"translation", "rotation", "scale", "weights"};
	return names[path];
}

sinew_result sinewi_gltf_check_output(sinewi_gltf_doc *d, uint32_t index, sinewi_gltf_accessor *a,
                                      sinewi_gltf_path path) {
	static const uint32_t expected[] = {3, 4, 3, 1};
	if (a->components != expected[path])
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT,
		                        "accessor %u: %s output needs %u components per element, it has %u", index,
		                        sinewi_gltf_path_name(path), expected[path], a->components);
	uint32_t t = a->component_type;
	bool small_int = t == 5120 || t == 5121 || t == 5122 || t == 5123;
	bool ok = t == 5126 || (small_int && a->normalized) ||
	          (small_int && (path == SINEWI_GLTF_TRANSLATION || path == SINEWI_GLTF_SCALE)); // KHR_mesh_quantization
	if (!ok)
		return sinewi_gltf_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: componentType %u%s is not allowed for %s output",
		                        index, t, a->normalized ? " (normalized)" : "", sinewi_gltf_path_name(path));
	if (!a->values_checked) {
		size_t n = (size_t)a->count * a->components;
		for (size_t i = 0; i < n; ++i)
			if (!isfinite(a->data[i]))
				return sinewi_gltf_fail(d, SINEW_RESULT_NOT_FINITE, "accessor %u: element %zu is not finite", index,
				                        i / a->components);
		a->values_checked = true;
	}
	return SINEW_RESULT_OK;
}

uint64_t sinewi_gltf_accessor_bytes(const sinewi_json *accessor) {
	uint32_t count, type;
	if (!sinewi_json_uint(sinewi_json_get(accessor, "count"), &count) ||
	    !sinewi_json_uint(sinewi_json_get(accessor, "componentType"), &type))
		return 0;
	const uint32_t size = type == 5120 || type == 5121 ? 1 : type == 5122 || type == 5123 ? 2 : 4;
	const char *name = sinewi_json_string(sinewi_json_get(accessor, "type"));
	static const char *const names[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"};
	static const uint32_t components[] = {1, 2, 3, 4, 4, 9, 16};
	for (size_t i = 0; name && i < sizeof names / sizeof names[0]; ++i)
		if (strcmp(name, names[i]) == 0) return (uint64_t)count * components[i] * size;
	return 0;
}

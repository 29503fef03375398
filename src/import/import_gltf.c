// sinew — see include/sinew.h for version and licence
// glTF 2.0 animation importer: .gltf (JSON + external or data: buffers) and .glb.
//
// Only what animation needs is read and validated: the node hierarchy (always: cycles and nodes with two
// parents are errors), animations, their samplers and accessors, the buffers behind them (loaded lazily),
// the rest transforms and names of skeleton nodes, skins (joint lists) and morph target counts/defaults.
// Meshes, materials, images and scenes are not interpreted, so a file whose only faults lie there still
// imports. Results: schema violations (wrong JSON types, missing required properties, indices out of range,
// inconsistent counts, data outside its buffer) are CORRUPT with the JSON path or accessor in the message,
// JSON syntax errors PARSE, unreadable buffers IO, NaN/inf data NOT_FINITE. Channels that cannot become
// joint or morph tracks (no target node, unknown path such as KHR_animation_pointer's "pointer",
// zero keys, weights on a node without morph targets) are skipped with a warning; so are animations left
// without channels. A file with no usable channel at all is BAD_COUNT "no animation with node channels".
//
// Decisions beyond the spec:
// - key times must be finite, >= 0 and non-decreasing; equal consecutive times are accepted and make a
//   step (the later key wins from that time on), as exporters write them for discontinuities.
// - rotations are normalized (a warning when a float quaternion is off by more than 1e-3); a zero-length
//   rotation key is CORRUPT.
// - external buffers: relative paths only (no scheme, no leading '/', no ".." component), %XX decoded,
//   resolved against ctx->base_dir; without a base_dir they are an IO error.
// - a node `matrix` is decomposed into T, R, S (negative determinant: negative x scale); a matrix with
//   shear or a projective row is CORRUPT (glTF requires decomposable matrices).
#include "gltf_internal.h"
#include "json.h"

#include "../core/quat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Accessors without a bufferView are zero-filled with `count` elements that cost no file bytes: cap them.
#define MAX_ZERO_FILLED_VALUES ((size_t)1 << 22)

#define GLB_CHUNK_JSON 0x4E4F534Au
#define GLB_CHUNK_BIN 0x004E4942u

typedef struct gltf_buffer {
	bool loaded;
	const unsigned char *data; // byteLength bytes
	size_t size;
	unsigned char *owned; // file data read from disk (freed at the end)
	size_t owned_size;
} gltf_buffer;

typedef struct gltf_accessor {
	bool decoded;
	bool times_checked;
	bool values_checked;
	uint32_t count, components;
	uint32_t component_type;
	bool normalized;
	float *data; // count * components
} gltf_accessor;

typedef struct gltf_sampler {
	uint32_t input, output;
	uint8_t interpolation; // sinewi_gltf_interpolation
} gltf_sampler;

typedef struct gltf_channel {
	uint32_t animation;
	uint32_t node;
	sinewi_gltf_curve curve;
} gltf_channel;

typedef struct gltf_doc {
	const sinewi_import_ctx *ctx;
	sinewi_arena *arena;
	sinewi_alloc al;
	sinew_error *error;
	char label[96];
	const char *text; // JSON text, for line numbers in messages
	size_t text_size;
	const sinewi_json *root;
	const sinewi_json *nodes, *accessors, *views, *buffers, *meshes, *skins, *animations;
	uint32_t node_count, accessor_count, view_count, buffer_count, mesh_count;
	const unsigned char *bin;
	size_t bin_size;
	bool has_bin;
	gltf_buffer *buffer_cache;
	gltf_accessor *accessor_cache;
	int32_t *parent; // [node_count], -1 for roots
	uint32_t *node_targets; // [node_count], morph target count + 1, 0 = not looked up yet
	gltf_channel *channels;
	uint32_t channel_count, channel_capacity;
	uint32_t skipped_channels;
} gltf_doc;

static sinew_result doc_fail(gltf_doc *d, sinew_result code, const char *fmt, ...) SINEWI_PRINTF(3, 4);
static sinew_result doc_fail(gltf_doc *d, sinew_result code, const char *fmt, ...) {
	char what[256];
	va_list args;
	va_start(args, fmt);
	vsnprintf(what, sizeof what, fmt, args);
	va_end(args);
	return sinewi_fail(d->error, code, "%s: %s", d->label, what);
}

static sinew_result doc_oom(gltf_doc *d) {
	return doc_fail(d, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
}

// "line L" of a parsed value, so schema errors point into the text as well.
static uint32_t value_line(const gltf_doc *d, const sinewi_json *v) {
	uint32_t line = 0, column = 0;
	if (v && d->text) sinewi_json_line_column(d->text, d->text_size, v->offset, &line, &column);
	return line;
}

/* ---- typed property access: absent is fine unless required, a wrong type is CORRUPT ---- */

static sinew_result prop_array(gltf_doc *d, const sinewi_json *obj, const char *key, const char *where,
                               const sinewi_json **out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	*out = NULL;
	if (!v) return SINEW_RESULT_OK;
	if (v->type != SINEWI_JSON_ARRAY)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "%s%s\"%s\" must be an array (line %u)", where, *where ? "." : "", key,
		                value_line(d, v));
	*out = v;
	return SINEW_RESULT_OK;
}

static sinew_result prop_object(gltf_doc *d, const sinewi_json *obj, const char *key, bool required, const char *where,
                                const sinewi_json **out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	*out = NULL;
	if (!v) {
		if (required) return doc_fail(d, SINEW_RESULT_CORRUPT, "%s: \"%s\" is missing (line %u)", where, key, value_line(d, obj));
		return SINEW_RESULT_OK;
	}
	if (v->type != SINEWI_JSON_OBJECT)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\" must be an object (line %u)", where, key, value_line(d, v));
	*out = v;
	return SINEW_RESULT_OK;
}

// Unsigned integer property; `limit` > 0 makes it an index that must be < limit.
static sinew_result prop_uint(gltf_doc *d, const sinewi_json *obj, const char *key, bool required, uint32_t limit,
                              const char *limit_what, const char *where, bool *present, uint32_t *out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	if (present) *present = v != NULL;
	if (!v) {
		if (required) return doc_fail(d, SINEW_RESULT_CORRUPT, "%s: \"%s\" is missing (line %u)", where, key, value_line(d, obj));
		return SINEW_RESULT_OK;
	}
	uint32_t u;
	if (!sinewi_json_uint(v, &u))
		return doc_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\" must be an unsigned integer (line %u)", where, key,
		                value_line(d, v));
	if (limit_what && u >= limit)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\": %s %u does not exist (%u defined)", where, key, limit_what, u,
		                limit);
	*out = u;
	return SINEW_RESULT_OK;
}

static sinew_result prop_string(gltf_doc *d, const sinewi_json *obj, const char *key, bool required, const char *where,
                                const char **out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	*out = NULL;
	if (!v) {
		if (required) return doc_fail(d, SINEW_RESULT_CORRUPT, "%s: \"%s\" is missing (line %u)", where, key, value_line(d, obj));
		return SINEW_RESULT_OK;
	}
	if (v->type != SINEWI_JSON_STRING)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\" must be a string (line %u)", where, key, value_line(d, v));
	*out = v->string;
	return SINEW_RESULT_OK;
}

// Fixed-length array of numbers (node translation/rotation/scale/matrix).
static sinew_result prop_numbers(gltf_doc *d, const sinewi_json *obj, const char *key, uint32_t count, const char *where,
                                 bool *present, double *out) {
	const sinewi_json *v = sinewi_json_get(obj, key);
	*present = v != NULL;
	if (!v) return SINEW_RESULT_OK;
	if (v->type != SINEWI_JSON_ARRAY || v->count != count)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\" must be an array of %u numbers (line %u)", where, key, count,
		                value_line(d, v));
	for (uint32_t i = 0; i < count; ++i)
		if (!sinewi_json_number(&v->children[i], &out[i]))
			return doc_fail(d, SINEW_RESULT_CORRUPT, "%s.\"%s\"[%u] must be a number (line %u)", where, key, i,
			                value_line(d, &v->children[i]));
	return SINEW_RESULT_OK;
}

static sinew_result element_object(gltf_doc *d, const sinewi_json *array, uint32_t index, const char *what,
                                   const sinewi_json **out) {
	const sinewi_json *v = sinewi_json_at(array, index);
	if (!v || v->type != SINEWI_JSON_OBJECT)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "%s %u must be an object (line %u)", what, index, value_line(d, v));
	*out = v;
	return SINEW_RESULT_OK;
}

static float to_float(double v) {
	// Out-of-range double -> float conversion is undefined in C; make it an explicit infinity so
	// sinew_clip_validate reports NOT_FINITE instead.
	if (v > 3.4028234663852886e38) return INFINITY;
	if (v < -3.4028234663852886e38) return -INFINITY;
	return (float)v;
}

/* ---- GLB container ---- */

static uint32_t read_u32(const unsigned char *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// GLB 2.0: 12-byte header (magic, version 2, total length), then chunks (length, type, data) 4-byte aligned:
// JSON first, then at most one BIN; chunks of other types are skipped as the spec requires.
static sinew_result parse_glb(gltf_doc *d, const unsigned char *data, size_t size, const char **json, size_t *json_size) {
	if (size < 12) return doc_fail(d, SINEW_RESULT_TRUNCATED, "GLB header needs 12 bytes, file has %zu", size);
	uint32_t version = read_u32(data + 4), length = read_u32(data + 8);
	if (version != 2) return doc_fail(d, SINEW_RESULT_UNSUPPORTED, "GLB version %u (only glTF 2.0 is supported)", version);
	if (length > size) return doc_fail(d, SINEW_RESULT_TRUNCATED, "GLB header says %u bytes, file has %zu", length, size);
	if (length < size)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB header says %u bytes but the data has %zu bytes", length, size);
	if (length % 4) return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB length %u is not a multiple of 4", length);
	size_t offset = 12;
	uint32_t index = 0;
	bool have_json = false;
	while (offset < length) {
		if (length - offset < 8)
			return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB chunk %u header at byte %zu is cut off", index, offset);
		uint32_t chunk_length = read_u32(data + offset), type = read_u32(data + offset + 4);
		size_t start = offset + 8;
		if (chunk_length > length - start)
			return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB chunk %u at byte %zu: length %u exceeds the file", index, offset,
			                chunk_length);
		if (chunk_length % 4)
			return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB chunk %u at byte %zu: length %u is not a multiple of 4", index,
			                offset, chunk_length);
		if (index == 0) {
			if (type != GLB_CHUNK_JSON)
				return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB first chunk has type 0x%08x, expected JSON", type);
			*json = (const char *)data + start;
			*json_size = chunk_length;
			have_json = true;
		} else if (type == GLB_CHUNK_BIN) {
			if (d->has_bin) return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB has more than one BIN chunk (chunk %u)", index);
			if (index != 1) return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB BIN chunk must follow the JSON chunk");
			d->bin = data + start;
			d->bin_size = chunk_length;
			d->has_bin = true;
		} else if (type == GLB_CHUNK_JSON) {
			return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB has more than one JSON chunk (chunk %u)", index);
		}
		offset = start + chunk_length;
		++index;
	}
	if (!have_json) return doc_fail(d, SINEW_RESULT_CORRUPT, "GLB has no JSON chunk");
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

static sinew_result decode_data_uri(gltf_doc *d, uint32_t index, const char *uri, unsigned char **out, size_t *out_size) {
	const char *comma = strchr(uri, ',');
	if (!comma) return doc_fail(d, SINEW_RESULT_CORRUPT, "buffer %u: data URI without ','", index);
	size_t header = (size_t)(comma - uri);
	bool base64 = header >= 7 && memcmp(comma - 7, ";base64", 7) == 0;
	const char *p = comma + 1;
	size_t n = strlen(p);
	unsigned char *bytes = (unsigned char *)sinewi_arena_alloc(d->arena, n / 4 * 3 + 3);
	if (!bytes) return doc_oom(d);
	size_t m = 0;
	if (base64) {
		while (n > 0 && p[n - 1] == '=') --n;
		uint32_t acc = 0, bits = 0;
		for (size_t i = 0; i < n; ++i) {
			int v = base64_value((unsigned char)p[i]);
			if (v < 0) return doc_fail(d, SINEW_RESULT_CORRUPT, "buffer %u: invalid base64 character at position %zu", index, i);
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
				if (hi < 0 || lo < 0) return doc_fail(d, SINEW_RESULT_CORRUPT, "buffer %u: bad %% escape in data URI", index);
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
static sinew_result resolve_uri(gltf_doc *d, uint32_t index, const char *uri, char *path, size_t path_size) {
	char decoded[1024];
	size_t n = 0;
	for (size_t i = 0; uri[i]; ++i) {
		char c = uri[i];
		if (c == '?' || c == '#') break;
		if (c == '%') {
			int hi = hex_value(uri[i + 1]), lo = hi >= 0 ? hex_value(uri[i + 2]) : -1;
			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
				return doc_fail(d, SINEW_RESULT_IO, "buffer %u: bad %% escape in uri \"%.64s\"", index, uri);
			c = (char)(hi * 16 + lo);
			i += 2;
		}
		if (n + 1 >= sizeof decoded) return doc_fail(d, SINEW_RESULT_IO, "buffer %u: uri too long", index);
		decoded[n++] = c;
	}
	decoded[n] = '\0';
	if (n == 0) return doc_fail(d, SINEW_RESULT_IO, "buffer %u: empty uri", index);
	bool absolute = decoded[0] == '/' || decoded[0] == '\\';
	for (size_t i = 0; i < n && decoded[i] != '/' && decoded[i] != '\\'; ++i)
		if (decoded[i] == ':') absolute = true; // "http:", "file:", "C:"
	if (absolute)
		return doc_fail(d, SINEW_RESULT_IO, "buffer %u: uri \"%.64s\" is absolute or remote (only relative files are read)",
		                index, uri);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && decoded[j] != '/' && decoded[j] != '\\') ++j;
		if (j - i == 2 && decoded[i] == '.' && decoded[i + 1] == '.')
			return doc_fail(d, SINEW_RESULT_IO, "buffer %u: uri \"%.64s\" leaves the file's folder (\"..\")", index, uri);
		i = j + 1;
	}
	if (!d->ctx->base_dir)
		return doc_fail(d, SINEW_RESULT_IO,
		                "buffer %u: external uri \"%.64s\" needs a base folder (import from a file or set base_path)", index,
		                uri);
	if (!sinewi_join_path(path, path_size, d->ctx->base_dir, decoded))
		return doc_fail(d, SINEW_RESULT_IO, "buffer %u: path too long", index);
	return SINEW_RESULT_OK;
}

static sinew_result load_buffer(gltf_doc *d, uint32_t index, const unsigned char **data, size_t *size) {
	gltf_buffer *b = &d->buffer_cache[index];
	if (b->loaded) {
		*data = b->data;
		*size = b->size;
		return SINEW_RESULT_OK;
	}
	char where[48];
	snprintf(where, sizeof where, "buffers[%u]", index);
	const sinewi_json *obj = NULL;
	SINEWI_TRY(element_object(d, d->buffers, index, "buffer", &obj));
	uint32_t byte_length = 0;
	const char *uri = NULL;
	SINEWI_TRY(prop_uint(d, obj, "byteLength", true, 0, NULL, where, NULL, &byte_length));
	SINEWI_TRY(prop_string(d, obj, "uri", false, where, &uri));
	const unsigned char *bytes = NULL;
	size_t available = 0;
	if (!uri) {
		if (index != 0 || !d->has_bin)
			return doc_fail(d, SINEW_RESULT_CORRUPT, "buffer %u has no uri and there is no GLB BIN chunk for it", index);
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
		if (r != SINEW_RESULT_OK) return doc_fail(d, r, "buffer %u (\"%.64s\"): %s", index, uri, inner.message);
		++b->owned_size; // sinewi_read_file allocates one extra byte
		bytes = b->owned;
		available = b->owned_size - 1;
	}
	if (available < byte_length)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "buffer %u: byteLength is %u but only %zu bytes are present", index,
		                byte_length, available);
	b->loaded = true;
	b->data = bytes;
	b->size = byte_length;
	*data = b->data;
	*size = b->size;
	return SINEW_RESULT_OK;
}

// A bufferView's bytes; *stride is 0 when the view has no byteStride.
static sinew_result load_view(gltf_doc *d, uint32_t index, const unsigned char **data, size_t *length, uint32_t *stride) {
	char where[48];
	snprintf(where, sizeof where, "bufferViews[%u]", index);
	const sinewi_json *obj = NULL;
	SINEWI_TRY(element_object(d, d->views, index, "bufferView", &obj));
	uint32_t buffer = 0, offset = 0, byte_length = 0;
	bool has_stride = false;
	*stride = 0;
	SINEWI_TRY(prop_uint(d, obj, "buffer", true, d->buffer_count, "buffer", where, NULL, &buffer));
	SINEWI_TRY(prop_uint(d, obj, "byteOffset", false, 0, NULL, where, NULL, &offset));
	SINEWI_TRY(prop_uint(d, obj, "byteLength", true, 0, NULL, where, NULL, &byte_length));
	SINEWI_TRY(prop_uint(d, obj, "byteStride", false, 0, NULL, where, &has_stride, stride));
	if (has_stride && (*stride < 4 || *stride > 252 || *stride % 4))
		return doc_fail(d, SINEW_RESULT_CORRUPT, "bufferView %u: byteStride %u (must be 4..252, a multiple of 4)", index,
		                *stride);
	const sinewi_json *ext = sinewi_json_get(obj, "extensions");
	if (sinewi_json_get(ext, "EXT_meshopt_compression") || sinewi_json_get(ext, "KHR_meshopt_compression")) {
		// The view's own buffer is only a fallback (often without data); decoding meshopt is out of scope.
		return doc_fail(d, SINEW_RESULT_UNSUPPORTED, "bufferView %u uses meshopt compression (decompress it with gltfpack first)",
		                index);
	}
	const unsigned char *bytes = NULL;
	size_t size;
	SINEWI_TRY(load_buffer(d, buffer, &bytes, &size));
	if (offset > size || byte_length > size - offset)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "bufferView %u: bytes %u..%llu lie outside buffer %u (%zu bytes)", index,
		                offset, (unsigned long long)offset + byte_length, buffer, size);
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
		return normalized ? fmaxf((float)v / 127.0f, -1.0f) : (float)v;
	}
	case 5121: return normalized ? (float)p[0] / 255.0f : (float)p[0];
	case 5122: {
		int16_t v = (int16_t)(uint16_t)(p[0] | p[1] << 8);
		return normalized ? fmaxf((float)v / 32767.0f, -1.0f) : (float)v;
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

static sinew_result decode_sparse(gltf_doc *d, uint32_t index, const sinewi_json *sparse, gltf_accessor *a) {
	char where[64];
	snprintf(where, sizeof where, "accessors[%u].sparse", index);
	uint32_t count = 0;
	SINEWI_TRY(prop_uint(d, sparse, "count", true, 0, NULL, where, NULL, &count));
	if (count == 0 || count > a->count)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: sparse count %u (must be 1..%u)", index, count, a->count);
	const sinewi_json *indices = NULL, *values = NULL;
	SINEWI_TRY(prop_object(d, sparse, "indices", true, where, &indices));
	SINEWI_TRY(prop_object(d, sparse, "values", true, where, &values));
	char where_i[80], where_v[80];
	snprintf(where_i, sizeof where_i, "%s.indices", where);
	snprintf(where_v, sizeof where_v, "%s.values", where);
	uint32_t iview = 0, ioffset = 0, itype = 0, vview = 0, voffset = 0;
	SINEWI_TRY(prop_uint(d, indices, "bufferView", true, d->view_count, "bufferView", where_i, NULL, &iview));
	SINEWI_TRY(prop_uint(d, indices, "byteOffset", false, 0, NULL, where_i, NULL, &ioffset));
	SINEWI_TRY(prop_uint(d, indices, "componentType", true, 0, NULL, where_i, NULL, &itype));
	SINEWI_TRY(prop_uint(d, values, "bufferView", true, d->view_count, "bufferView", where_v, NULL, &vview));
	SINEWI_TRY(prop_uint(d, values, "byteOffset", false, 0, NULL, where_v, NULL, &voffset));
	if (itype != 5121 && itype != 5123 && itype != 5125)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: sparse indices componentType %u (must be 5121, 5123 or 5125)",
		                index, itype);
	const unsigned char *ibytes = NULL, *vbytes = NULL;
	size_t ilength, vlength;
	uint32_t unused_stride;
	SINEWI_TRY(load_view(d, iview, &ibytes, &ilength, &unused_stride));
	SINEWI_TRY(load_view(d, vview, &vbytes, &vlength, &unused_stride));
	uint32_t isize = component_size(itype), csize = component_size(a->component_type);
	size_t element = (size_t)csize * a->components;
	if (!elements_fit(ilength, ioffset, isize, count, isize))
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: %u sparse indices at byte %u exceed bufferView %u (%zu bytes)",
		                index, count, ioffset, iview, ilength);
	if (!elements_fit(vlength, voffset, element, count, element))
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: %u sparse values at byte %u exceed bufferView %u (%zu bytes)",
		                index, count, voffset, vview, vlength);
	for (uint32_t i = 0; i < count; ++i) {
		const unsigned char *ip = ibytes + ioffset + (size_t)i * isize;
		uint32_t target = isize == 1 ? ip[0] : isize == 2 ? (uint32_t)(ip[0] | ip[1] << 8) : read_u32(ip);
		if (target >= a->count)
			return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: sparse index %u is %u, beyond the %u elements", index, i,
			                target, a->count);
		const unsigned char *vp = vbytes + voffset + (size_t)i * element;
		for (uint32_t c = 0; c < a->components; ++c)
			a->data[(size_t)target * a->components + c] = read_component(vp + (size_t)c * csize, a->component_type, a->normalized);
	}
	return SINEW_RESULT_OK;
}

// Decodes an accessor (SCALAR/VECn, any component type) to floats once; later calls return the cache.
static sinew_result decode_accessor(gltf_doc *d, uint32_t index, gltf_accessor **out) {
	gltf_accessor *a = &d->accessor_cache[index];
	*out = a;
	if (a->decoded) return SINEW_RESULT_OK;
	char where[48];
	snprintf(where, sizeof where, "accessors[%u]", index);
	const sinewi_json *obj = NULL;
	SINEWI_TRY(element_object(d, d->accessors, index, "accessor", &obj));
	uint32_t view = 0, offset = 0, count = 0, ctype = 0;
	bool has_view = false, has_offset = false;
	const char *type = NULL;
	SINEWI_TRY(prop_uint(d, obj, "bufferView", false, d->view_count, "bufferView", where, &has_view, &view));
	SINEWI_TRY(prop_uint(d, obj, "byteOffset", false, 0, NULL, where, &has_offset, &offset));
	SINEWI_TRY(prop_uint(d, obj, "componentType", true, 0, NULL, where, NULL, &ctype));
	SINEWI_TRY(prop_uint(d, obj, "count", true, 0, NULL, where, NULL, &count));
	SINEWI_TRY(prop_string(d, obj, "type", true, where, &type));
	const sinewi_json *normalized = sinewi_json_get(obj, "normalized");
	if (normalized && normalized->type != SINEWI_JSON_TRUE && normalized->type != SINEWI_JSON_FALSE)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: \"normalized\" must be a boolean", index);
	a->normalized = normalized && normalized->type == SINEWI_JSON_TRUE;
	uint32_t csize = component_size(ctype);
	if (!csize) return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: unknown componentType %u", index, ctype);
	if (a->normalized && (ctype == 5125 || ctype == 5126))
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: componentType %u cannot be normalized", index, ctype);
	uint32_t components = type_components(type);
	if (!components) return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: unknown type \"%.16s\"", index, type);
	if (components > 4)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: type %s cannot hold animation data", index, type);
	if (has_offset && !has_view)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: byteOffset without bufferView", index);
	size_t values;
	if (!sinewi_mul_size(count, components, &values))
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: count %u is too large", index, count);
	a->count = count;
	a->components = components;
	a->component_type = ctype;
	size_t element = (size_t)csize * components;
	const unsigned char *bytes = NULL;
	size_t length = 0;
	uint32_t stride = 0;
	if (has_view) {
		SINEWI_TRY(load_view(d, view, &bytes, &length, &stride));
		if (stride && stride < element)
			return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: bufferView %u byteStride %u is smaller than an element (%zu bytes)",
			                index, view, stride, element);
		if (!elements_fit(length, offset, stride ? stride : element, count, element))
			return doc_fail(d, SINEW_RESULT_CORRUPT,
			                "accessor %u: %u elements of %zu bytes at byte %u (stride %u) exceed bufferView %u (%zu bytes)",
			                index, count, element, offset, stride ? stride : (uint32_t)element, view, length);
	} else if (values > MAX_ZERO_FILLED_VALUES) {
		return doc_fail(d, SINEW_RESULT_UNSUPPORTED, "accessor %u: %u elements without a bufferView (limit %zu values)", index,
		                count, MAX_ZERO_FILLED_VALUES);
	}
	a->data = (float *)sinewi_arena_array(d->arena, values ? values : 1, sizeof(float)); // zeroed
	if (!a->data) return doc_oom(d);
	if (has_view) {
		size_t step = stride ? stride : element;
		for (uint32_t i = 0; i < count; ++i) {
			const unsigned char *p = bytes + offset + (size_t)i * step;
			for (uint32_t c = 0; c < components; ++c)
				a->data[(size_t)i * components + c] = read_component(p + (size_t)c * csize, ctype, a->normalized);
		}
	}
	const sinewi_json *sparse = NULL;
	SINEWI_TRY(prop_object(d, obj, "sparse", false, where, &sparse));
	if (sparse) SINEWI_TRY(decode_sparse(d, index, sparse, a));
	a->decoded = true;
	return SINEW_RESULT_OK;
}

static sinew_result check_times(gltf_doc *d, uint32_t index, gltf_accessor *a) {
	if (a->times_checked) return SINEW_RESULT_OK;
	if (a->component_type != 5126 || a->components != 1 || a->normalized)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: animation input must be a SCALAR float accessor", index);
	for (uint32_t i = 0; i < a->count; ++i) {
		float t = a->data[i];
		if (!isfinite(t))
			return doc_fail(d, SINEW_RESULT_NOT_FINITE, "accessor %u: key time %u is not finite", index, i);
		if (t < 0.0f)
			return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: key time %u is negative (%g)", index, i, (double)t);
		if (i > 0 && t < a->data[i - 1])
			return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: key times decrease at key %u (%g after %g)", index, i,
			                (double)t, (double)a->data[i - 1]);
	}
	a->times_checked = true;
	return SINEW_RESULT_OK;
}

static const char *path_name(sinewi_gltf_path path) {
	static const char *names[] = {"translation", "rotation", "scale", "weights"};
	return names[path];
}

static sinew_result check_output(gltf_doc *d, uint32_t index, gltf_accessor *a, sinewi_gltf_path path) {
	static const uint32_t expected[] = {3, 4, 3, 1};
	if (a->components != expected[path])
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: %s output needs %u components per element, it has %u", index,
		                path_name(path), expected[path], a->components);
	uint32_t t = a->component_type;
	bool small_int = t == 5120 || t == 5121 || t == 5122 || t == 5123;
	bool ok = t == 5126 || (small_int && a->normalized) ||
	          (small_int && (path == SINEWI_GLTF_TRANSLATION || path == SINEWI_GLTF_SCALE)); // KHR_mesh_quantization
	if (!ok)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: componentType %u%s is not allowed for %s output", index, t,
		                a->normalized ? " (normalized)" : "", path_name(path));
	if (!a->values_checked) {
		size_t n = (size_t)a->count * a->components;
		for (size_t i = 0; i < n; ++i)
			if (!isfinite(a->data[i]))
				return doc_fail(d, SINEW_RESULT_NOT_FINITE, "accessor %u: element %zu is not finite", index, i / a->components);
		a->values_checked = true;
	}
	return SINEW_RESULT_OK;
}

/* ---- nodes ---- */

static sinew_result node_object(gltf_doc *d, uint32_t node, const sinewi_json **out) {
	return element_object(d, d->nodes, node, "node", out);
}

// Parent of every node from `children`; two parents, self-reference and cycles are CORRUPT.
static sinew_result build_hierarchy(gltf_doc *d) {
	uint32_t n = d->node_count;
	d->parent = (int32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(int32_t));
	d->node_targets = (uint32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(uint32_t));
	if (!d->parent || !d->node_targets) return doc_oom(d);
	for (uint32_t i = 0; i < n; ++i) d->parent[i] = -1;
	for (uint32_t i = 0; i < n; ++i) {
		const sinewi_json *node = NULL, *children = NULL;
		SINEWI_TRY(node_object(d, i, &node));
		char where[48];
		snprintf(where, sizeof where, "nodes[%u]", i);
		SINEWI_TRY(prop_array(d, node, "children", where, &children));
		for (uint32_t k = 0; children && k < children->count; ++k) {
			uint32_t c;
			if (!sinewi_json_uint(&children->children[k], &c) || c >= n)
				return doc_fail(d, SINEW_RESULT_CORRUPT, "node %u: child %u is not a valid node index (line %u)", i, k,
				                value_line(d, &children->children[k]));
			if (c == i) return doc_fail(d, SINEW_RESULT_CORRUPT, "node %u lists itself as a child", i);
			if (d->parent[c] >= 0)
				return doc_fail(d, SINEW_RESULT_CORRUPT, "node %u has two parents (%d and %u)", c, d->parent[c], i);
			d->parent[c] = (int32_t)i;
		}
	}
	// With one parent per node, a node that cannot reach a root by following parents sits on a cycle.
	// Walk each node up until a root or an already-verified node; states: 0 unknown, 1 on the current walk, 2 ok.
	uint8_t *state = (uint8_t *)sinewi_arena_alloc(d->arena, n ? n : 1);
	if (!state) return doc_oom(d);
	for (uint32_t i = 0; i < n; ++i) {
		uint32_t k = i;
		while (state[k] == 0) {
			state[k] = 1;
			if (d->parent[k] < 0) break;
			k = (uint32_t)d->parent[k];
		}
		if (state[k] == 1 && d->parent[k] >= 0)
			return doc_fail(d, SINEW_RESULT_CORRUPT, "node hierarchy has a cycle through node %u", k);
		for (k = i; state[k] == 1; k = (uint32_t)d->parent[k]) {
			state[k] = 2;
			if (d->parent[k] < 0) break;
		}
	}
	return SINEW_RESULT_OK;
}

// Quaternion (x, y, z, w) of a rotation matrix r[row][col] (Shepperd's method).
static void quat_from_matrix(double r[3][3], double q[4]) {
	double tr = r[0][0] + r[1][1] + r[2][2];
	if (tr > 0.0) {
		double s = sqrt(tr + 1.0) * 2.0;
		q[3] = 0.25 * s, q[0] = (r[2][1] - r[1][2]) / s, q[1] = (r[0][2] - r[2][0]) / s, q[2] = (r[1][0] - r[0][1]) / s;
	} else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
		double s = sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]) * 2.0;
		q[3] = (r[2][1] - r[1][2]) / s, q[0] = 0.25 * s, q[1] = (r[0][1] + r[1][0]) / s, q[2] = (r[0][2] + r[2][0]) / s;
	} else if (r[1][1] > r[2][2]) {
		double s = sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]) * 2.0;
		q[3] = (r[0][2] - r[2][0]) / s, q[0] = (r[0][1] + r[1][0]) / s, q[1] = 0.25 * s, q[2] = (r[1][2] + r[2][1]) / s;
	} else {
		double s = sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]) * 2.0;
		q[3] = (r[1][0] - r[0][1]) / s, q[0] = (r[0][2] + r[2][0]) / s, q[1] = (r[1][2] + r[2][1]) / s, q[2] = 0.25 * s;
	}
	sinewi_quat_normalize_d(q);
}

static void cross3(const double a[3], const double b[3], double r[3]) {
	r[0] = a[1] * b[2] - a[2] * b[1];
	r[1] = a[2] * b[0] - a[0] * b[2];
	r[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3]) {
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Column-major 4x4 -> T, R, S. Zero-scale axes get a rotation axis completed from the others.
static sinew_result decompose_matrix(gltf_doc *d, uint32_t node, const double m[16], double t[3], double q[4], double s[3]) {
	double scale_max = 0.0;
	for (int i = 0; i < 12; ++i) scale_max = fmax(scale_max, fabs(m[i]));
	double tol = 1e-5 * fmax(1.0, scale_max);
	if (fabs(m[3]) > tol || fabs(m[7]) > tol || fabs(m[11]) > tol || fabs(m[15] - 1.0) > 1e-5)
		return doc_fail(d, SINEW_RESULT_CORRUPT, "node %u: matrix has a projective last row (%g %g %g %g)", node, m[3], m[7],
		                m[11], m[15]);
	double col[3][3];
	for (int c = 0; c < 3; ++c) {
		for (int r = 0; r < 3; ++r) col[c][r] = m[c * 4 + r];
		s[c] = sqrt(dot3(col[c], col[c]));
		t[c] = m[12 + c];
	}
	double cr[3];
	cross3(col[1], col[2], cr);
	if (dot3(col[0], cr) < 0.0) s[0] = -s[0]; // mirror: negative scale on x
	bool ok[3];
	int good = 0;
	for (int c = 0; c < 3; ++c) {
		ok[c] = fabs(s[c]) > 1e-12 * fmax(1.0, scale_max) && fabs(s[c]) > 0.0;
		if (ok[c]) {
			for (int r = 0; r < 3; ++r) col[c][r] /= s[c];
			++good;
		}
	}
	for (int a = 0; a < 3; ++a)
		for (int b = a + 1; b < 3; ++b)
			if (ok[a] && ok[b] && fabs(dot3(col[a], col[b])) > 1e-4)
				return doc_fail(d, SINEW_RESULT_CORRUPT, "node %u: matrix has shear (axes %d and %d are not orthogonal)", node, a,
				                b);
	if (good == 0) {
		for (int c = 0; c < 3; ++c)
			for (int r = 0; r < 3; ++r) col[c][r] = c == r ? 1.0 : 0.0;
	} else if (good == 1) {
		int a = ok[0] ? 0 : ok[1] ? 1 : 2, b = (a + 1) % 3, c = (a + 2) % 3;
		double helper[3] = {0, 0, 0};
		helper[fabs(col[a][0]) < 0.9 ? 0 : 1] = 1.0;
		cross3(col[a], helper, col[b]);
		double len = sqrt(dot3(col[b], col[b]));
		for (int r = 0; r < 3; ++r) col[b][r] /= len;
		cross3(col[a], col[b], col[c]);
	} else if (good == 2) {
		int c = !ok[0] ? 0 : !ok[1] ? 1 : 2;
		cross3(col[(c + 1) % 3], col[(c + 2) % 3], col[c]);
	}
	double rot[3][3];
	for (int r = 0; r < 3; ++r)
		for (int c = 0; c < 3; ++c) rot[r][c] = col[c][r];
	quat_from_matrix(rot, q);
	return SINEW_RESULT_OK;
}

// Normalizes a rotation; zero length is CORRUPT. Returns the length before normalizing in *length.
static bool normalize_rotation(double q[4], double *length) {
	double len = sqrt(sinewi_quat_dot_d(q, q));
	*length = len;
	if (!(len > 1e-6) || !isfinite(len)) return false;
	for (int i = 0; i < 4; ++i) q[i] /= len;
	return true;
}

static sinew_result node_rest_pose(gltf_doc *d, uint32_t index, double unit_scale, sinew_qvv *out) {
	const sinewi_json *node = NULL;
	SINEWI_TRY(node_object(d, index, &node));
	char where[48];
	snprintf(where, sizeof where, "nodes[%u]", index);
	double t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1}, m[16];
	bool has_t, has_r, has_s, has_m;
	SINEWI_TRY(prop_numbers(d, node, "translation", 3, where, &has_t, t));
	SINEWI_TRY(prop_numbers(d, node, "rotation", 4, where, &has_r, q));
	SINEWI_TRY(prop_numbers(d, node, "scale", 3, where, &has_s, s));
	SINEWI_TRY(prop_numbers(d, node, "matrix", 16, where, &has_m, m));
	if (has_m) {
		if (has_t || has_r || has_s)
			sinewi_import_warn(d->ctx, "%s: node %u has both matrix and TRS; using the matrix", d->label, index);
		SINEWI_TRY(decompose_matrix(d, index, m, t, q, s));
	}
	double length;
	if (!normalize_rotation(q, &length))
		return doc_fail(d, SINEW_RESULT_CORRUPT, "node %u: rotation has length %g", index, length);
	if (fabs(length - 1.0) > 1e-3)
		sinewi_import_warn(d->ctx, "%s: node %u: rotation length %g, normalized", d->label, index, length);
	for (int i = 0; i < 3; ++i) {
		out->translation[i] = to_float(t[i] * unit_scale);
		out->scale[i] = to_float(s[i]);
	}
	for (int i = 0; i < 4; ++i) out->rotation[i] = (float)q[i];
	return SINEW_RESULT_OK;
}

// Number of morph targets a node's weights drive: mesh.primitives[0].targets, else mesh.weights, else
// node.weights; 0 when unknown.
static sinew_result node_target_count(gltf_doc *d, uint32_t index, uint32_t *out, const sinewi_json **node_weights,
                                      const sinewi_json **mesh_weights) {
	*out = 0;
	*node_weights = *mesh_weights = NULL;
	const sinewi_json *node = NULL;
	SINEWI_TRY(node_object(d, index, &node));
	char where[48];
	snprintf(where, sizeof where, "nodes[%u]", index);
	SINEWI_TRY(prop_array(d, node, "weights", where, node_weights));
	uint32_t mesh_index = 0;
	bool has_mesh = false;
	SINEWI_TRY(prop_uint(d, node, "mesh", false, d->mesh_count, "mesh", where, &has_mesh, &mesh_index));
	uint32_t count = 0;
	if (has_mesh) {
		const sinewi_json *mesh = NULL;
		SINEWI_TRY(element_object(d, d->meshes, mesh_index, "mesh", &mesh));
		snprintf(where, sizeof where, "meshes[%u]", mesh_index);
		SINEWI_TRY(prop_array(d, mesh, "weights", where, mesh_weights));
		const sinewi_json *primitive = sinewi_json_at(sinewi_json_get(mesh, "primitives"), 0);
		const sinewi_json *targets = sinewi_json_get(primitive, "targets");
		if (targets && targets->type == SINEWI_JSON_ARRAY) count = targets->count;
		if (!count && *mesh_weights) count = (*mesh_weights)->count;
	}
	if (!count && *node_weights) count = (*node_weights)->count;
	*out = count;
	return SINEW_RESULT_OK;
}

/* ---- animations ---- */

static sinew_result parse_path(const char *text, sinewi_gltf_path *out) {
	static const char *names[] = {"translation", "rotation", "scale", "weights"};
	for (int i = 0; i < 4; ++i)
		if (strcmp(text, names[i]) == 0) {
			*out = (sinewi_gltf_path)i;
			return SINEW_RESULT_OK;
		}
	return SINEW_RESULT_UNSUPPORTED;
}

static sinew_result push_channel(gltf_doc *d, const gltf_channel *c) {
	if (d->channel_count == d->channel_capacity) {
		uint32_t capacity = d->channel_capacity ? d->channel_capacity * 2 : 64;
		if (capacity < d->channel_capacity) return doc_oom(d);
		gltf_channel *grown = (gltf_channel *)sinewi_arena_array(d->arena, capacity, sizeof *grown);
		if (!grown) return doc_oom(d);
		if (d->channel_count) memcpy(grown, d->channels, d->channel_count * sizeof *grown);
		d->channels = grown;
		d->channel_capacity = capacity;
	}
	d->channels[d->channel_count++] = *c;
	return SINEW_RESULT_OK;
}

// Rotation curves get their own normalized copy (tangents stay as they are).
static sinew_result normalize_rotation_curve(gltf_doc *d, uint32_t accessor, sinewi_gltf_curve *curve) {
	size_t per_key = curve->interpolation == SINEWI_GLTF_CUBICSPLINE ? 3 : 1;
	size_t n = (size_t)curve->key_count * per_key * 4;
	float *copy = (float *)sinewi_arena_array(d->arena, n, sizeof(float));
	if (!copy) return doc_oom(d);
	memcpy(copy, curve->values, n * sizeof(float));
	bool warned = false;
	for (uint32_t k = 0; k < curve->key_count; ++k) {
		float *v = copy + (k * per_key + (per_key == 3 ? 1 : 0)) * 4;
		double q[4] = {v[0], v[1], v[2], v[3]}, length;
		if (!normalize_rotation(q, &length))
			return doc_fail(d, SINEW_RESULT_CORRUPT, "accessor %u: rotation key %u has length %g", accessor, k, length);
		if (fabs(length - 1.0) > 1e-3 && d->accessor_cache[accessor].component_type == 5126 && !warned) {
			sinewi_import_warn(d->ctx, "%s: accessor %u: rotation key %u has length %g; rotations normalized", d->label,
			                   accessor, k, length);
			warned = true;
		}
		for (int i = 0; i < 4; ++i) v[i] = (float)q[i];
	}
	curve->values = copy;
	return SINEW_RESULT_OK;
}

static sinew_result read_animation(gltf_doc *d, uint32_t a_index) {
	const sinewi_json *anim = NULL, *channels = NULL, *samplers = NULL;
	SINEWI_TRY(element_object(d, d->animations, a_index, "animation", &anim));
	char where[96];
	snprintf(where, sizeof where, "animations[%u]", a_index);
	SINEWI_TRY(prop_array(d, anim, "channels", where, &channels));
	SINEWI_TRY(prop_array(d, anim, "samplers", where, &samplers));
	uint32_t sampler_count = samplers ? samplers->count : 0;
	// Every sampler is checked even when no channel uses it: a broken sampler means a broken file. Their fields
	// are kept so channels do not look them up again (a channel list can be long).
	gltf_sampler *parsed = (gltf_sampler *)sinewi_arena_array(d->arena, sampler_count ? sampler_count : 1, sizeof *parsed);
	if (!parsed) return doc_oom(d);
	for (uint32_t s = 0; s < sampler_count; ++s) {
		const sinewi_json *sampler = NULL;
		snprintf(where, sizeof where, "animations[%u].samplers[%u]", a_index, s);
		SINEWI_TRY(element_object(d, samplers, s, where, &sampler));
		const char *interpolation = NULL;
		SINEWI_TRY(prop_uint(d, sampler, "input", true, d->accessor_count, "accessor", where, NULL, &parsed[s].input));
		SINEWI_TRY(prop_uint(d, sampler, "output", true, d->accessor_count, "accessor", where, NULL, &parsed[s].output));
		SINEWI_TRY(prop_string(d, sampler, "interpolation", false, where, &interpolation));
		if (!interpolation || strcmp(interpolation, "LINEAR") == 0)
			parsed[s].interpolation = SINEWI_GLTF_LINEAR;
		else if (strcmp(interpolation, "STEP") == 0)
			parsed[s].interpolation = SINEWI_GLTF_STEP;
		else if (strcmp(interpolation, "CUBICSPLINE") == 0)
			parsed[s].interpolation = SINEWI_GLTF_CUBICSPLINE;
		else
			return doc_fail(d, SINEW_RESULT_CORRUPT, "%s: unknown interpolation \"%.32s\"", where, interpolation);
	}
	for (uint32_t c = 0; channels && c < channels->count; ++c) {
		const sinewi_json *channel = NULL, *target = NULL;
		snprintf(where, sizeof where, "animations[%u].channels[%u]", a_index, c);
		SINEWI_TRY(element_object(d, channels, c, where, &channel));
		uint32_t s = 0, node = 0;
		bool has_node = false;
		const char *path_text = NULL;
		SINEWI_TRY(prop_uint(d, channel, "sampler", true, sampler_count, "sampler", where, NULL, &s));
		SINEWI_TRY(prop_object(d, channel, "target", true, where, &target));
		char target_where[112];
		snprintf(target_where, sizeof target_where, "%s.target", where);
		SINEWI_TRY(prop_uint(d, target, "node", false, d->node_count, "node", target_where, &has_node, &node));
		SINEWI_TRY(prop_string(d, target, "path", true, target_where, &path_text));
		sinewi_gltf_path path;
		if (parse_path(path_text, &path) != SINEW_RESULT_OK) {
			sinewi_import_warn(d->ctx, "%s: %s: target path \"%.32s\" is not supported, channel skipped", d->label, where,
			                   path_text);
			++d->skipped_channels;
			continue;
		}
		if (!has_node) {
			sinewi_import_warn(d->ctx, "%s: %s has no target node, channel skipped", d->label, where);
			++d->skipped_channels;
			continue;
		}
		uint32_t input = parsed[s].input, output = parsed[s].output;
		sinewi_gltf_interpolation interp = (sinewi_gltf_interpolation)parsed[s].interpolation;
		gltf_accessor *in = NULL, *out = NULL;
		SINEWI_TRY(decode_accessor(d, input, &in));
		SINEWI_TRY(decode_accessor(d, output, &out));
		SINEWI_TRY(check_times(d, input, in));
		SINEWI_TRY(check_output(d, output, out, path));
		uint32_t components = path == SINEWI_GLTF_ROTATION ? 4 : 3;
		if (path == SINEWI_GLTF_WEIGHTS) {
			if (!d->node_targets[node]) { // cached: many channels may animate one node's weights
				const sinewi_json *node_weights = NULL, *mesh_weights = NULL;
				uint32_t targets = 0;
				SINEWI_TRY(node_target_count(d, node, &targets, &node_weights, &mesh_weights));
				if (targets == UINT32_MAX) return doc_fail(d, SINEW_RESULT_UNSUPPORTED, "node %u: too many morph targets", node);
				d->node_targets[node] = targets + 1;
			}
			components = d->node_targets[node] - 1;
			if (!components) {
				sinewi_import_warn(d->ctx, "%s: %s animates the weights of node %u, which has no morph targets; skipped",
				                   d->label, where, node);
				++d->skipped_channels;
				continue;
			}
		}
		if (in->count == 0) {
			sinewi_import_warn(d->ctx, "%s: %s: sampler %u has no keys, channel skipped", d->label, where, s);
			++d->skipped_channels;
			continue;
		}
		uint64_t expected = (uint64_t)in->count * (interp == SINEWI_GLTF_CUBICSPLINE ? 3u : 1u) *
		                    (path == SINEWI_GLTF_WEIGHTS ? components : 1u);
		if (out->count != expected)
			return doc_fail(d, SINEW_RESULT_CORRUPT, "%s: output accessor %u has %u elements, expected %llu (%u keys%s%s)", where,
			                output, out->count, (unsigned long long)expected, in->count,
			                interp == SINEWI_GLTF_CUBICSPLINE ? " x 3 for CUBICSPLINE" : "",
			                path == SINEWI_GLTF_WEIGHTS ? " x morph targets" : "");
		gltf_channel ch;
		memset(&ch, 0, sizeof ch);
		ch.animation = a_index;
		ch.node = node;
		ch.curve.path = (uint8_t)path;
		ch.curve.interpolation = (uint8_t)interp;
		ch.curve.components = components;
		ch.curve.key_count = in->count;
		ch.curve.times = in->data;
		ch.curve.values = out->data;
		if (path == SINEWI_GLTF_ROTATION) SINEWI_TRY(normalize_rotation_curve(d, output, &ch.curve));
		SINEWI_TRY(push_channel(d, &ch));
	}
	return SINEW_RESULT_OK;
}

/* ---- skeleton and clips ---- */

typedef struct gltf_skeleton {
	uint32_t joint_count;
	int32_t *node_to_joint; // [node_count], -1 when the node is not a joint
	sinew_joint *joints;
	uint32_t track_count;
	int32_t *node_first_track; // [node_count], -1 when the node has no morph tracks
	sinew_scalar_track *tracks;
} gltf_skeleton;

static sinew_result mark_skin_joints(gltf_doc *d, uint8_t *include) {
	uint32_t skin_count = d->skins ? d->skins->count : 0;
	for (uint32_t s = 0; s < skin_count; ++s) {
		const sinewi_json *skin = NULL, *joints = NULL;
		char where[48];
		snprintf(where, sizeof where, "skins[%u]", s);
		SINEWI_TRY(element_object(d, d->skins, s, "skin", &skin));
		SINEWI_TRY(prop_array(d, skin, "joints", where, &joints));
		if (!joints) return doc_fail(d, SINEW_RESULT_CORRUPT, "skin %u: \"joints\" is missing", s);
		for (uint32_t k = 0; k < joints->count; ++k) {
			uint32_t node;
			if (!sinewi_json_uint(&joints->children[k], &node) || node >= d->node_count)
				return doc_fail(d, SINEW_RESULT_CORRUPT, "skin %u: joint %u is not a valid node index (line %u)", s, k,
				                value_line(d, &joints->children[k]));
			include[node] = 1;
		}
	}
	return SINEW_RESULT_OK;
}

static sinew_result build_skeleton(gltf_doc *d, double unit_scale, gltf_skeleton *sk) {
	uint32_t n = d->node_count;
	uint8_t *include = (uint8_t *)sinewi_arena_alloc(d->arena, n ? n : 1);
	uint8_t *animated = (uint8_t *)sinewi_arena_alloc(d->arena, n ? n : 1);  // bit 0: TRS, bit 1: weights
	sk->node_to_joint = (int32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(int32_t));
	sk->node_first_track = (int32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(int32_t));
	uint32_t *target_count = (uint32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(uint32_t));
	if (!include || !animated || !sk->node_to_joint || !sk->node_first_track || !target_count) return doc_oom(d);
	for (uint32_t c = 0; c < d->channel_count; ++c) {
		const gltf_channel *ch = &d->channels[c];
		include[ch->node] = 1;
		animated[ch->node] |= ch->curve.path == SINEWI_GLTF_WEIGHTS ? 2 : 1;
		if (ch->curve.path == SINEWI_GLTF_WEIGHTS) target_count[ch->node] = ch->curve.components;
	}
	SINEWI_TRY(mark_skin_joints(d, include));
	for (uint32_t i = 0; i < n; ++i)
		if (include[i])
			for (int32_t p = d->parent[i]; p >= 0 && !include[p]; p = d->parent[p]) include[p] = 1;
	// Depth-first from the roots, children in file order: parents come before children, subtrees stay together.
	uint32_t *stack = (uint32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(uint32_t));
	uint32_t *order = (uint32_t *)sinewi_arena_array(d->arena, n ? n : 1, sizeof(uint32_t));
	if (!stack || !order) return doc_oom(d);
	uint32_t count = 0;
	for (uint32_t root = 0; root < n; ++root) {
		if (d->parent[root] >= 0 || !include[root]) continue;
		uint32_t top = 0;
		stack[top++] = root;
		while (top) {
			uint32_t node = stack[--top];
			order[count++] = node;
			const sinewi_json *children = sinewi_json_get(&d->nodes->children[node], "children");
			// push in reverse so the first child is visited first; validated in build_hierarchy
			for (uint32_t k = children ? children->count : 0; k-- > 0;) {
				uint32_t c = (uint32_t)children->children[k].number;
				if (include[c]) stack[top++] = c;
			}
		}
	}
	if (count > (uint32_t)INT32_MAX) return doc_fail(d, SINEW_RESULT_UNSUPPORTED, "too many joints");
	sk->joint_count = count;
	sk->joints = (sinew_joint *)sinewi_arena_array(d->arena, count ? count : 1, sizeof(sinew_joint));
	if (!sk->joints) return doc_oom(d);
	for (uint32_t i = 0; i < n; ++i) sk->node_to_joint[i] = -1, sk->node_first_track[i] = -1;
	uint32_t tracks = 0;
	for (uint32_t j = 0; j < count; ++j) {
		uint32_t node = order[j];
		sk->node_to_joint[node] = (int32_t)j;
		sinew_joint *joint = &sk->joints[j];
		const sinewi_json *obj = &d->nodes->children[node];
		char where[48];
		snprintf(where, sizeof where, "nodes[%u]", node);
		SINEWI_TRY(prop_string(d, obj, "name", false, where, &joint->name));
		joint->parent = d->parent[node] >= 0 ? sk->node_to_joint[d->parent[node]] : -1;
		joint->source_index = (int32_t)node;
		joint->rounding = SINEW_ROUNDING_CLIP;
		joint->has_track = (animated[node] & 1) ? 1 : 0; // unanimated ancestors and skin joints: hierarchy only
		SINEWI_TRY(node_rest_pose(d, node, unit_scale, &joint->default_pose));
		if ((animated[node] & 1) && sinewi_json_get(obj, "matrix"))
			sinewi_import_warn(d->ctx, "%s: node %u is animated but has a matrix; its decomposition is the rest pose",
			                   d->label, node);
		if (animated[node] & 2) {
			if (tracks > UINT32_MAX - target_count[node]) return doc_fail(d, SINEW_RESULT_UNSUPPORTED, "too many morph targets");
			sk->node_first_track[node] = (int32_t)tracks;
			tracks += target_count[node];
		}
	}
	sk->track_count = tracks;
	sk->tracks = (sinew_scalar_track *)sinewi_arena_array(d->arena, tracks ? tracks : 1, sizeof(sinew_scalar_track));
	if (!sk->tracks) return doc_oom(d);
	for (uint32_t j = 0; j < count; ++j) {
		uint32_t node = order[j];
		if (sk->node_first_track[node] < 0) continue;
		const sinewi_json *node_weights = NULL, *mesh_weights = NULL;
		uint32_t targets;
		SINEWI_TRY(node_target_count(d, node, &targets, &node_weights, &mesh_weights));
		// Defaults (glTF §3.7.2.2): node.weights, else mesh.weights, else zero.
		const sinewi_json *defaults = node_weights && node_weights->count == target_count[node] ? node_weights
		                              : mesh_weights && mesh_weights->count == target_count[node] ? mesh_weights
		                                                                                            : NULL;
		for (uint32_t t = 0; t < target_count[node]; ++t) {
			sinew_scalar_track *track = &sk->tracks[(uint32_t)sk->node_first_track[node] + t];
			track->components = 1;
			track->rounding = SINEW_ROUNDING_CLIP;
			track->source_node = (int32_t)node;
			track->source_target = (int32_t)t;
			double v = 0.0;
			if (defaults && !sinewi_json_number(&defaults->children[t], &v))
				return doc_fail(d, SINEW_RESULT_CORRUPT, "node %u: default weight %u is not a number (line %u)", node, t,
				                value_line(d, &defaults->children[t]));
			track->default_value[0] = to_float(v);
			char name[160];
			const char *node_name = sk->joints[sk->node_to_joint[node]].name;
			if (node_name)
				snprintf(name, sizeof name, "%.120s.weights[%u]", node_name, t);
			else
				snprintf(name, sizeof name, "node_%u.weights[%u]", node, t);
			track->name = sinewi_arena_strdup(d->arena, name);
			if (!track->name) return doc_oom(d);
		}
	}
	return SINEW_RESULT_OK;
}

// Copies the names the clips point at into the clip set, so they outlive the importer's arena.
static sinew_result own_names(gltf_doc *d, sinew_clip_set *set, gltf_skeleton *sk) {
	for (uint32_t j = 0; j < sk->joint_count; ++j)
		if (sk->joints[j].name && !(sk->joints[j].name = sinew_clip_set_strdup(set, sk->joints[j].name))) return doc_oom(d);
	for (uint32_t t = 0; t < sk->track_count; ++t)
		if (!(sk->tracks[t].name = sinew_clip_set_strdup(set, sk->tracks[t].name))) return doc_oom(d);
	return SINEW_RESULT_OK;
}

static sinew_result build_clips(gltf_doc *d, const gltf_skeleton *sk, double unit_scale, sinew_clip_set *set) {
	uint32_t anim_count = d->animations ? d->animations->count : 0;
	sinewi_gltf_binding *bindings =
	    (sinewi_gltf_binding *)sinewi_arena_array(d->arena, d->channel_count ? d->channel_count : 1, sizeof *bindings);
	// Slot of each (joint, path) and each weights node in the current clip: binding index + 1, 0 = none.
	uint32_t *slot = (uint32_t *)sinewi_arena_array(d->arena, (size_t)sk->joint_count * 4 + 1, sizeof(uint32_t));
	if (!bindings || !slot) return doc_oom(d);
	uint32_t c = 0;
	for (uint32_t a = 0; a < anim_count; ++a) {
		uint32_t first = c, count = 0;
		while (c < d->channel_count && d->channels[c].animation == a) {
			const gltf_channel *ch = &d->channels[c++];
			uint32_t joint = (uint32_t)sk->node_to_joint[ch->node];
			uint32_t key = joint * 4 + ch->curve.path;
			sinewi_gltf_binding b = {&ch->curve, joint, 0};
			if (ch->curve.path == SINEWI_GLTF_WEIGHTS) b.first_track = (uint32_t)sk->node_first_track[ch->node];
			if (slot[key]) {
				sinewi_import_warn(d->ctx, "%s: animation %u: node %u %s is animated twice; the later channel wins", d->label,
				                   a, ch->node, path_name((sinewi_gltf_path)ch->curve.path));
				bindings[slot[key] - 1] = b;
			} else {
				bindings[count] = b;
				slot[key] = ++count;
			}
		}
		for (uint32_t k = first; k < c; ++k) {
			const gltf_channel *ch = &d->channels[k];
			slot[(uint32_t)sk->node_to_joint[ch->node] * 4 + ch->curve.path] = 0;
		}
		if (count == 0) {
			sinewi_import_warn(d->ctx, "%s: animation %u has no usable channel; skipped", d->label, a);
			continue;
		}
		const sinewi_json *anim = &d->animations->children[a];
		char where[48], fallback[32];
		snprintf(where, sizeof where, "animations[%u]", a);
		const char *name = NULL;
		SINEWI_TRY(prop_string(d, anim, "name", false, where, &name));
		if (!name) {
			snprintf(fallback, sizeof fallback, "animation_%u", a);
			name = fallback;
		}
		sinewi_gltf_clip_input in = {name, bindings, count, sk->joints, sk->joint_count, sk->tracks, sk->track_count, unit_scale};
		sinew_result r = sinewi_gltf_build_clip(d->ctx, d->arena, &in, set, d->error);
		if (r != SINEW_RESULT_OK) {
			if (d->error) {
				char inner[256];
				snprintf(inner, sizeof inner, "%s", d->error->message);
				sinewi_fail(d->error, r, "%s: animation %u \"%.48s\": %s", d->label, a, name, inner);
			}
			return r;
		}
	}
	return SINEW_RESULT_OK;
}

static sinew_result import_document(gltf_doc *d, const unsigned char *data, size_t size, sinew_clip_set *set) {
	const char *json = (const char *)data;
	size_t json_size = size;
	if (size >= 4 && memcmp(data, "glTF", 4) == 0) SINEWI_TRY(parse_glb(d, data, size, &json, &json_size));
	d->text = json;
	d->text_size = json_size;
	sinewi_json *root = NULL;
	sinew_error inner = {0};
	sinew_result r = sinewi_json_parse(d->arena, json, json_size, &root, &inner);
	if (r != SINEW_RESULT_OK) return doc_fail(d, r, "%s", inner.message);
	d->root = root;
	if (root->type != SINEWI_JSON_OBJECT) return doc_fail(d, SINEW_RESULT_CORRUPT, "the JSON root is not an object");
	const sinewi_json *asset = NULL;
	SINEWI_TRY(prop_object(d, root, "asset", true, "glTF", &asset));
	const char *version = NULL, *min_version = NULL;
	SINEWI_TRY(prop_string(d, asset, "version", true, "asset", &version));
	SINEWI_TRY(prop_string(d, asset, "minVersion", false, "asset", &min_version));
	if (version[0] != '2' || version[1] != '.')
		return doc_fail(d, SINEW_RESULT_UNSUPPORTED, "glTF version \"%.16s\" (only 2.x is supported)", version);
	if (min_version && strcmp(min_version, "2.0") != 0)
		return doc_fail(d, SINEW_RESULT_UNSUPPORTED, "glTF minVersion \"%.16s\" is newer than 2.0", min_version);
	SINEWI_TRY(prop_array(d, root, "nodes", "", &d->nodes));
	SINEWI_TRY(prop_array(d, root, "accessors", "", &d->accessors));
	SINEWI_TRY(prop_array(d, root, "bufferViews", "", &d->views));
	SINEWI_TRY(prop_array(d, root, "buffers", "", &d->buffers));
	SINEWI_TRY(prop_array(d, root, "meshes", "", &d->meshes));
	SINEWI_TRY(prop_array(d, root, "skins", "", &d->skins));
	SINEWI_TRY(prop_array(d, root, "animations", "", &d->animations));
	d->node_count = d->nodes ? d->nodes->count : 0;
	d->accessor_count = d->accessors ? d->accessors->count : 0;
	d->view_count = d->views ? d->views->count : 0;
	d->buffer_count = d->buffers ? d->buffers->count : 0;
	d->mesh_count = d->meshes ? d->meshes->count : 0;
	d->buffer_cache = (gltf_buffer *)sinewi_arena_array(d->arena, d->buffer_count + 1, sizeof(gltf_buffer));
	d->accessor_cache = (gltf_accessor *)sinewi_arena_array(d->arena, d->accessor_count + 1, sizeof(gltf_accessor));
	if (!d->buffer_cache || !d->accessor_cache) return doc_oom(d);
	SINEWI_TRY(build_hierarchy(d));
	uint32_t anim_count = d->animations ? d->animations->count : 0;
	for (uint32_t a = 0; a < anim_count; ++a) SINEWI_TRY(read_animation(d, a));
	if (d->channel_count == 0)
		return doc_fail(d, SINEW_RESULT_BAD_COUNT, "no animation with node channels (%u animations, %u channels skipped)",
		                anim_count, d->skipped_channels);
	double unit_cm = d->ctx->options->unit_cm > 0.0 ? d->ctx->options->unit_cm : 100.0;
	double unit_scale = 100.0 / unit_cm;
	if (!isfinite(unit_scale) || !(unit_scale > 0.0))
		return doc_fail(d, SINEW_RESULT_INVALID_ARGUMENT, "unit_cm %g gives no usable unit scale", d->ctx->options->unit_cm);
	gltf_skeleton sk;
	memset(&sk, 0, sizeof sk);
	SINEWI_TRY(build_skeleton(d, unit_scale, &sk));
	SINEWI_TRY(own_names(d, set, &sk));
	return build_clips(d, &sk, unit_scale, set);
}

sinew_result sinewi_import_gltf(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size, sinew_clip_set *set,
                                sinew_error *error) {
	sinewi_arena arena;
	sinewi_arena_init(&arena, ctx->allocator);
	gltf_doc d;
	memset(&d, 0, sizeof d);
	d.ctx = ctx;
	d.arena = &arena;
	d.al = sinewi_alloc_from(ctx->allocator);
	d.error = error;
	const char *label = ctx->path ? ctx->path : "input";
	const char *slash = strrchr(label, '/');
	snprintf(d.label, sizeof d.label, "%s", slash ? slash + 1 : label);
	sinew_result r = import_document(&d, data, size, set);
	for (uint32_t i = 0; d.buffer_cache && i < d.buffer_count; ++i)
		sinewi_free(&d.al, d.buffer_cache[i].owned, d.buffer_cache[i].owned_size);
	sinewi_arena_free(&arena);
	return r;
}

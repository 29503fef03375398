// sinew — see include/sinew.h for version and licence
#define _POSIX_C_SOURCE 200809L
// glTF 2.0 writer: clips back to a .gltf (one embedded base64 buffer) or a .glb (4-byte aligned chunks).
//
// Without a source document: one node per joint of the set's skeleton (every clip must share it; a set
// whose clips differ is UNSUPPORTED), rest TRS = default pose in metres, one scene with the roots, and one
// skin per root listing its joints (no mesh uses it: it marks every joint, end sites and static leaves
// included, as part of the skeleton for importers). Scalar tracks cannot exist without a mesh to morph;
// they are skipped and counted in the animation's extras ("skipped_scalar_tracks").
//
// With a source document (the .gltf/.glb the clips were imported from): everything but `animations` is
// kept. All binary data (GLB BIN chunk, external .bin files, data: URIs, and images given by URI, embedded
// so the output stands alone) is copied into ONE buffer and the bufferViews are rewritten to point into it.
// Accessors and bufferViews used only by the old animations are dropped when every extension of the
// document is one whose references are rewritten here; otherwise all are kept (valid, they only cost
// space). Only relative paths without ".." are read: a buffer behind another URI is an error, an image
// behind one (or missing, or of unknown type) keeps its URI. Joints map to nodes by source_index, morph
// tracks by source_node/source_target; an animated node given by a matrix is rewritten as TRS.
//
// Every clip becomes one animation sampled at the clip rate: one float32 time accessor per clip (k / rate,
// with min/max), then per joint one translation/rotation/scale channel unless every sample equals the
// node's rest value in the output document. A joint with a track keeps at least one channel in the set
// (importers build skeletons from animated nodes) and every animation keeps at least one channel with all
// key times (its duration). Morph tracks become one `weights` channel per node covering all its targets
// (targets without a track hold their default weight). Interpolation is STEP for floor-rounded joints and
// tracks, LINEAR otherwise: ceil and nearest have no glTF equivalent, values at the sample times are exact.
// An interpolating key holds the value sampling plays at the key's float32 time (key_value).
// The animation's extras keep what glTF cannot say: rate, sample count, looping, the clip's rounding, unit
// scale and resampling error.
//
// The file is written to "<path>.tmp.<pid>" and renamed, so a failure never leaves a partial output.
//
// export_pack.c drives the same writer through a hook (export_internal.h): pack drops `animations` and appends
// the compressed blob as a 16-byte aligned bufferView with the SINEW_compressed_animation extension; unpack
// writes the decompressed clips back and drops the extension and its bufferView.
#include "../core/base.h"
#include "../core/format_layout.h"
#include "../clip/clip_internal.h"
#include "../import/import_internal.h"
#include "../import/json.h"
#include "export_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NONE UINT32_MAX
#define GLB_MAGIC 0x46546C67u
#define GLB_JSON 0x4E4F534Au
#define GLB_BIN 0x004E4942u

enum { PATH_T, PATH_R, PATH_S };
#define FORCE_ROTATION 8u

typedef struct src_buffer {
	const unsigned char *data; // NULL until loaded
	size_t size;               // bytes available at data
	uint32_t byte_length;      // declared
	unsigned char *owned;      // data we allocated (file contents or decoded data: URI)
	size_t owned_size;
} src_buffer;

typedef struct rest_trs {
	float t[3], r[4], s[3];
} rest_trs;

typedef struct source_doc {
	const char *path;
	char dir[1024];
	unsigned char *file;
	size_t file_size;
	const sinewi_json *root;
	const unsigned char *glb_bin;
	size_t glb_bin_size;
	bool has_glb_bin;
	const sinewi_json *buffers, *views, *accessors, *nodes, *meshes, *images, *skins;
	uint32_t buffer_count, view_count, accessor_count, node_count, mesh_count, image_count, skin_count;
	src_buffer *buffer;
	uint32_t *view_map;      // [view_count] new index or NONE
	size_t *view_offset;     // [view_count] byte offset in the output buffer
	uint32_t *accessor_map;  // [accessor_count]
	uint32_t *image_view;    // [image_count] new bufferView of an embedded image, or NONE
	const char **image_mime; // [image_count] mime type to add, or NULL
	bool compact;
} source_doc;

// Where key k of a clip's float32 time accessor falls on its sample grid: samples k0 and k0 + 1 blended by u.
typedef struct key_pos {
	uint32_t k0;
	double u;
} key_pos;

typedef struct exporter {
	const sinew_clip_set *set;
	sinew_error *error;
	const sinew_allocator *allocator;
	sinewi_alloc al;
	sinewi_arena arena;
	sinewi_json_writer bin;       // the one output buffer
	sinewi_json_writer views;     // new bufferView objects, comma-separated
	sinewi_json_writer accessors; // new accessor objects, comma-separated
	sinewi_json_writer anims;     // animation objects, comma-separated
	sinewi_json_writer json;      // final document
	uint32_t view_count, accessor_count;
	uint32_t new_views, new_accessors; // how many objects the writers above hold
	source_doc *src;
	uint32_t node_count;
	rest_trs *rest;        // [node_count] rest TRS as the output document states it
	uint8_t *node_rewrite; // [node_count] source only: matrix node rewritten as TRS from `rest`
	uint32_t *node_stamp;  // [node_count] duplicate-mapping check
	uint8_t **written;     // [clip][joint] bit per path (T, R, S) written; FORCE_ROTATION: keep the joint animated
	uint32_t anim_view;
	size_t anim_start;
	const sinewi_export_hook *hook; // pack/unpack (export_pack.c), NULL for a plain export
	uint32_t blob_view;             // pack: the new bufferView of the blob
	bool pointer_channels;          // a KHR_animation_pointer channel was written (the extension stays used)
	const key_pos *keys;            // [sample_count] of the clip being written (write_clip)
} exporter;

static bool is_mode(const exporter *e, sinewi_export_mode mode) {
	return e->hook && e->hook->mode == mode;
}

/* ---- small helpers ---- */

static void raw(sinewi_json_writer *w, const char *text) {
	sinewi_json_write_raw(w, text, strlen(text));
}

// Appends bytes; skips empty appends (the source pointer may then be NULL).
static void append(sinewi_json_writer *w, const void *data, size_t size) {
	if (size) sinewi_json_write_raw(w, (const char *)data, size);
}

static void key(sinewi_json_writer *w, bool *first, const char *name) {
	if (!*first) sinewi_json_write_raw(w, ",", 1);
	*first = false;
	sinewi_json_write_string(w, name);
	sinewi_json_write_raw(w, ":", 1);
}

static void num(sinewi_json_writer *w, double value) {
	sinewi_json_write_number(w, value);
}

static void floats(sinewi_json_writer *w, const float *v, uint32_t n) {
	sinewi_json_write_raw(w, "[", 1);
	for (uint32_t i = 0; i < n; ++i) {
		if (i) sinewi_json_write_raw(w, ",", 1);
		num(w, (double)v[i]);
	}
	sinewi_json_write_raw(w, "]", 1);
}

static void pad(sinewi_json_writer *w, size_t align, char fill) {
	while (w->size % align && !w->failed) sinewi_json_write_raw(w, &fill, 1);
}

static bool ends_with_ci(const char *s, const char *suffix) {
	size_t n = strlen(s), m = strlen(suffix);
	if (m > n) return false;
	for (size_t i = 0; i < m; ++i) {
		char a = s[n - m + i];
		if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
		if (a != suffix[i]) return false;
	}
	return true;
}

static uint32_t read_u32(const unsigned char *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(unsigned char *p, uint32_t v) {
	p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
	p[3] = (unsigned char)(v >> 24);
}

// Double to float without undefined behaviour for values beyond the float range (they saturate).
static float to_float(double v) {
	if (v > 3.4028234663852886e38) return INFINITY;
	if (v < -3.4028234663852886e38) return -INFINITY;
	return (float)v;
}

static void *arena_array(exporter *e, size_t count, size_t size) {
	return sinewi_arena_array(&e->arena, count ? count : 1, size);
}

static const char *clip_label(const sinew_clip *clip) {
	return clip->name ? clip->name : "";
}

static const char *joint_label(const sinew_joint *joint) {
	return joint->name ? joint->name : "";
}

// Effective rounding: per-joint/track value, or the clip's.
static uint8_t effective_rounding(uint8_t own, const sinew_clip *clip) {
	return own == SINEW_ROUNDING_CLIP ? clip->rounding : own;
}

static const char *rounding_name(uint8_t rounding) {
	switch (rounding) {
	case SINEW_ROUNDING_NONE: return "none";
	case SINEW_ROUNDING_FLOOR: return "floor";
	case SINEW_ROUNDING_CEIL: return "ceil";
	case SINEW_ROUNDING_NEAREST: return "nearest";
	default: return "unknown";
	}
}

// Rotations must be unit length in glTF (the validator checks); clips allow 1e-3 of slack.
static void unit_quat(const float q[4], float out[4]) {
	double n2 = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
	if (fabs(n2 - 1.0) <= 1e-6 || !(n2 > 0.0)) {
		memcpy(out, q, 4 * sizeof(float));
		if (!(n2 > 0.0)) out[0] = out[1] = out[2] = 0.0f, out[3] = 1.0f;
		return;
	}
	double inv = 1.0 / sqrt(n2);
	for (int i = 0; i < 4; ++i) out[i] = (float)((double)q[i] * inv);
}

static void qvv_to_rest(const sinew_qvv *x, double unit_scale, rest_trs *r) {
	for (int i = 0; i < 3; ++i) r->t[i] = to_float((double)x->translation[i] / unit_scale);
	unit_quat(x->rotation, r->r);
	for (int i = 0; i < 3; ++i) r->s[i] = x->scale[i];
}

static void rest_identity(rest_trs *r) {
	memset(r, 0, sizeof *r);
	r->r[3] = 1.0f;
	r->s[0] = r->s[1] = r->s[2] = 1.0f;
}

// Writes the non-identity TRS members of a node.
static void write_trs(sinewi_json_writer *w, bool *first, const rest_trs *r) {
	if (r->t[0] != 0.0f || r->t[1] != 0.0f || r->t[2] != 0.0f) key(w, first, "translation"), floats(w, r->t, 3);
	if (r->r[0] != 0.0f || r->r[1] != 0.0f || r->r[2] != 0.0f || r->r[3] != 1.0f)
		key(w, first, "rotation"), floats(w, r->r, 4);
	if (r->s[0] != 1.0f || r->s[1] != 1.0f || r->s[2] != 1.0f) key(w, first, "scale"), floats(w, r->s, 3);
}

static sinew_result out_of_memory(exporter *e) {
	return sinewi_fail(e->error, SINEW_RESULT_OUT_OF_MEMORY, "export: out of memory");
}

/* ---- base64 ---- */

static const char b64_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64_encode(sinewi_json_writer *w, const unsigned char *data, size_t size) {
	char chunk[1024];
	size_t n = 0;
	for (size_t i = 0; i < size; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16;
		if (i + 1 < size) v |= (uint32_t)data[i + 1] << 8;
		if (i + 2 < size) v |= data[i + 2];
		chunk[n++] = b64_chars[v >> 18 & 63];
		chunk[n++] = b64_chars[v >> 12 & 63];
		chunk[n++] = i + 1 < size ? b64_chars[v >> 6 & 63] : '=';
		chunk[n++] = i + 2 < size ? b64_chars[v & 63] : '=';
		if (n + 4 > sizeof chunk) sinewi_json_write_raw(w, chunk, n), n = 0;
	}
	if (n) sinewi_json_write_raw(w, chunk, n);
}

static int b64_value(unsigned char c) {
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+' || c == '-') return 62;
	if (c == '/' || c == '_') return 63;
	return -1;
}

// Decodes base64 text (padding optional). Returns false on an invalid character.
static bool base64_decode(const char *text, size_t length, unsigned char *out, size_t *out_size) {
	while (length && text[length - 1] == '=') --length;
	uint32_t acc = 0;
	int bits = 0;
	size_t n = 0;
	for (size_t i = 0; i < length; ++i) {
		int v = b64_value((unsigned char)text[i]);
		if (v < 0) return false;
		acc = (acc << 6 | (uint32_t)v) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (unsigned char)(acc >> bits);
		}
	}
	*out_size = n;
	return true;
}

/* ---- source document: loading ---- */

static int hex_value(char c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

// Resolves a glTF URI (base64 data: URI or path relative to the source's folder) to bytes allocated
// with e->al (free `*out_alloc` bytes). `what` names the object for messages.
static sinew_result load_uri(exporter *e, const char *uri, const char *what, unsigned char **out, size_t *out_size,
                             size_t *out_alloc) {
	source_doc *s = e->src;
	*out = NULL;
	*out_size = *out_alloc = 0;
	if (strncmp(uri, "data:", 5) == 0) {
		const char *comma = strchr(uri, ',');
		SINEWI_CHECK(comma, e->error, SINEW_RESULT_CORRUPT, "%s: %s: data URI without ','", s->path, what);
		SINEWI_CHECK(comma - uri >= 12 && memcmp(comma - 7, ";base64", 7) == 0, e->error, SINEW_RESULT_UNSUPPORTED,
		             "%s: %s: only base64 data URIs are supported", s->path, what);
		const char *text = comma + 1;
		size_t length = strlen(text);
		size_t capacity = length / 4 * 3 + 3;
		unsigned char *data = (unsigned char *)sinewi_malloc(&e->al, capacity);
		if (!data) return out_of_memory(e);
		size_t n = 0;
		if (!base64_decode(text, length, data, &n)) {
			sinewi_free(&e->al, data, capacity);
			return sinewi_fail(e->error, SINEW_RESULT_CORRUPT, "%s: %s: invalid base64 in data URI", s->path, what);
		}
		*out = data;
		*out_size = n;
		*out_alloc = capacity;
		return SINEW_RESULT_OK;
	}
	// A scheme (http:, file:, C:) or an absolute path would reach outside the source's folder.
	size_t span = strcspn(uri, ":/?#");
	SINEWI_CHECK(uri[span] != ':' && uri[0] != '/' && uri[0] != '\\', e->error, SINEW_RESULT_UNSUPPORTED,
	             "%s: %s: URI '%.64s' is not a relative path", s->path, what, uri);
	char decoded[1024];
	size_t n = 0;
	for (size_t i = 0; uri[i]; ++i) {
		SINEWI_CHECK(n + 1 < sizeof decoded, e->error, SINEW_RESULT_UNSUPPORTED, "%s: %s: URI too long", s->path, what);
		char c = uri[i];
		if (c == '%') {
			int hi = hex_value(uri[i + 1]), lo = hi >= 0 ? hex_value(uri[i + 2]) : -1;
			SINEWI_CHECK(hi >= 0 && lo >= 0 && (hi | lo) != 0, e->error, SINEW_RESULT_CORRUPT,
			             "%s: %s: bad percent escape in URI '%.64s'", s->path, what, uri);
			c = (char)(hi << 4 | lo);
			i += 2;
		}
		decoded[n++] = c;
	}
	decoded[n] = 0;
	// Like the importer: no ".." component, so a document cannot pull in files from outside its folder tree.
	for (const char *c = decoded; *c;) {
		size_t len = strcspn(c, "/\\");
		SINEWI_CHECK(!(len == 2 && c[0] == '.' && c[1] == '.'), e->error, SINEW_RESULT_UNSUPPORTED,
		             "%s: %s: URI '%.64s' leaves the document's folder", s->path, what, uri);
		c += len;
		if (*c) ++c;
	}
	char full[2048];
	SINEWI_CHECK(sinewi_join_path(full, sizeof full, s->dir, decoded), e->error, SINEW_RESULT_UNSUPPORTED,
	             "%s: %s: path too long", s->path, what);
	sinew_error inner = {0};
	sinew_result r = sinewi_read_file(full, &e->al, out, out_size, &inner);
	if (r != SINEW_RESULT_OK) return sinewi_fail(e->error, r, "%s: %s: %s", s->path, what, inner.message);
	*out_alloc = *out_size + 1; // sinewi_read_file adds a NUL
	return SINEW_RESULT_OK;
}

static sinew_result load_buffer(exporter *e, uint32_t index) {
	source_doc *s = e->src;
	src_buffer *b = &s->buffer[index];
	if (b->data) return SINEW_RESULT_OK;
	const sinewi_json *buffer = sinewi_json_at(s->buffers, index);
	const char *uri = sinewi_json_string(sinewi_json_get(buffer, "uri"));
	char what[64];
	snprintf(what, sizeof what, "buffer %u", index);
	if (!uri) {
		SINEWI_CHECK(index == 0 && s->has_glb_bin, e->error, SINEW_RESULT_CORRUPT,
		             "%s: buffer %u has no uri and is not the GLB BIN chunk", s->path, index);
		b->data = s->glb_bin;
		b->size = s->glb_bin_size;
		// GLB §: the chunk may be padded by up to 3 bytes past byteLength.
		SINEWI_CHECK(b->byte_length <= b->size, e->error, SINEW_RESULT_CORRUPT,
		             "%s: buffer 0: byteLength %u exceeds the BIN chunk (%zu bytes)", s->path, b->byte_length, b->size);
		return SINEW_RESULT_OK;
	}
	SINEWI_TRY(load_uri(e, uri, what, &b->owned, &b->size, &b->owned_size));
	b->data = b->owned;
	SINEWI_CHECK(b->byte_length <= b->size, e->error, SINEW_RESULT_TRUNCATED,
	             "%s: buffer %u: byteLength %u but only %zu bytes available", s->path, index, b->byte_length, b->size);
	return SINEW_RESULT_OK;
}

static const sinewi_json *array_member(exporter *e, const char *name, uint32_t *count, sinew_result *r) {
	const sinewi_json *v = sinewi_json_get(e->src->root, name);
	*count = 0;
	if (!v) return NULL;
	if (v->type != SINEWI_JSON_ARRAY) {
		*r = sinewi_fail(e->error, SINEW_RESULT_CORRUPT, "%s: '%s' is not an array", e->src->path, name);
		return NULL;
	}
	*count = v->count;
	return v;
}

static sinew_result parse_source(exporter *e, const char *path) {
	source_doc *s = e->src;
	s->path = path;
	const char *slash = strrchr(path, '/'), *backslash = strrchr(path, '\\');
	if (backslash && (!slash || backslash > slash)) slash = backslash;
	if (slash) {
		size_t n = (size_t)(slash - path);
		SINEWI_CHECK(n < sizeof s->dir, e->error, SINEW_RESULT_INVALID_ARGUMENT, "%s: path too long", path);
		memcpy(s->dir, path, n);
		s->dir[n] = 0;
	} else {
		strcpy(s->dir, ".");
	}
	sinew_error inner = {0};
	sinew_result r = sinewi_read_file(path, &e->al, &s->file, &s->file_size, &inner);
	if (r != SINEW_RESULT_OK) return sinewi_fail(e->error, r, "export: source: %s", inner.message);
	r = sinewi_expect_gltf(path, s->file, s->file_size, &inner);
	if (r != SINEW_RESULT_OK) return sinewi_fail(e->error, r, "export: source: %s", inner.message);
	const char *text = (const char *)s->file;
	size_t text_size = s->file_size;
	if (s->file_size >= 4 && read_u32(s->file) == GLB_MAGIC) {
		SINEWI_CHECK(s->file_size >= 20, e->error, SINEW_RESULT_TRUNCATED, "%s: GLB header truncated", path);
		uint32_t version = read_u32(s->file + 4), length = read_u32(s->file + 8);
		SINEWI_CHECK(version == 2, e->error, SINEW_RESULT_UNSUPPORTED, "%s: GLB version %u (expected 2)", path,
		             version);
		SINEWI_CHECK(length <= s->file_size && length >= 20, e->error, SINEW_RESULT_TRUNCATED,
		             "%s: GLB length %u but the file has %zu bytes", path, length, s->file_size);
		uint32_t json_length = read_u32(s->file + 12);
		SINEWI_CHECK(read_u32(s->file + 16) == GLB_JSON, e->error, SINEW_RESULT_CORRUPT,
		             "%s: first GLB chunk is not JSON", path);
		SINEWI_CHECK(json_length <= length - 20, e->error, SINEW_RESULT_CORRUPT,
		             "%s: GLB JSON chunk (%u bytes) exceeds the file", path, json_length);
		text = (const char *)s->file + 20;
		text_size = json_length;
		size_t at = 20 + (size_t)json_length;
		while (at + 8 <= length) { // first BIN chunk; unknown chunks are skipped
			uint32_t chunk_length = read_u32(s->file + at), type = read_u32(s->file + at + 4);
			SINEWI_CHECK(chunk_length <= length - at - 8, e->error, SINEW_RESULT_CORRUPT,
			             "%s: GLB chunk at offset %zu exceeds the file", path, at);
			if (type == GLB_BIN && !s->has_glb_bin) {
				s->has_glb_bin = true;
				s->glb_bin = s->file + at + 8;
				s->glb_bin_size = chunk_length;
			}
			at += 8 + (size_t)chunk_length;
		}
	}
	sinewi_json *root = NULL;
	r = sinewi_json_parse(&e->arena, text, text_size, &root, &inner);
	if (r != SINEW_RESULT_OK) return sinewi_fail(e->error, r, "%s: %s", path, inner.message);
	SINEWI_CHECK(root->type == SINEWI_JSON_OBJECT, e->error, SINEW_RESULT_CORRUPT, "%s: document is not an object",
	             path);
	s->root = root;
	r = SINEW_RESULT_OK;
	s->buffers = array_member(e, "buffers", &s->buffer_count, &r);
	s->views = array_member(e, "bufferViews", &s->view_count, &r);
	s->accessors = array_member(e, "accessors", &s->accessor_count, &r);
	s->nodes = array_member(e, "nodes", &s->node_count, &r);
	s->meshes = array_member(e, "meshes", &s->mesh_count, &r);
	s->images = array_member(e, "images", &s->image_count, &r);
	s->skins = array_member(e, "skins", &s->skin_count, &r);
	SINEWI_TRY(r);
	const sinewi_json *used = sinewi_json_get(root, "extensionsUsed");
	s->compact = true;
	static const char *const known[] = {
	    "KHR_texture_transform",   "KHR_lights_punctual", "KHR_mesh_quantization", "KHR_texture_basisu",
	    "EXT_texture_webp",        "EXT_texture_avif",    "KHR_animation_pointer", "KHR_draco_mesh_compression",
	    "EXT_mesh_gpu_instancing", "KHR_xmp_json_ld",     "KHR_materials_variants", SINEWI_PACK_EXTENSION};
	for (uint32_t i = 0; used && i < used->count; ++i) {
		const char *name = sinewi_json_string(sinewi_json_at(used, i));
		if (!name) continue;
		// Its bufferViews point into buffers by byte offset: merging buffers would break them.
		SINEWI_CHECK(strcmp(name, "EXT_meshopt_compression") != 0 && strcmp(name, "KHR_meshopt_compression") != 0,
		             e->error, SINEW_RESULT_UNSUPPORTED,
		             "%s: %s is not supported as an export source (decompress it first)", path, name);
		bool ok = strncmp(name, "KHR_materials_", 14) == 0;
		for (size_t k = 0; !ok && k < sizeof known / sizeof known[0]; ++k) ok = strcmp(name, known[k]) == 0;
		if (!ok) s->compact = false; // an unknown extension may reference accessors or bufferViews
		// Packing a packed file would lose the first blob; unpack it first.
		SINEWI_CHECK(!is_mode(e, SINEWI_EXPORT_PACK) || strcmp(name, SINEWI_PACK_EXTENSION) != 0, e->error,
		             SINEW_RESULT_UNSUPPORTED, "%s: already uses %s (unpack it first)", path, name);
	}
	s->buffer = (src_buffer *)arena_array(e, s->buffer_count, sizeof(src_buffer));
	s->view_map = (uint32_t *)arena_array(e, s->view_count, sizeof(uint32_t));
	s->view_offset = (size_t *)arena_array(e, s->view_count, sizeof(size_t));
	s->accessor_map = (uint32_t *)arena_array(e, s->accessor_count, sizeof(uint32_t));
	s->image_view = (uint32_t *)arena_array(e, s->image_count, sizeof(uint32_t));
	s->image_mime = (const char **)arena_array(e, s->image_count, sizeof(const char *));
	if (!s->buffer || !s->view_map || !s->view_offset || !s->accessor_map || !s->image_view || !s->image_mime)
		return out_of_memory(e);
	for (uint32_t i = 0; i < s->buffer_count; ++i) {
		const sinewi_json *b = sinewi_json_at(s->buffers, i);
		SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(b, "byteLength"), &s->buffer[i].byte_length), e->error,
		             SINEW_RESULT_CORRUPT, "%s: buffer %u: missing or invalid byteLength", path, i);
	}
	for (uint32_t i = 0; i < s->view_count; ++i) s->view_map[i] = NONE;
	for (uint32_t i = 0; i < s->accessor_count; ++i) s->accessor_map[i] = NONE;
	for (uint32_t i = 0; i < s->image_count; ++i) s->image_view[i] = NONE;
	return SINEW_RESULT_OK;
}

/* ---- source document: which accessors and bufferViews stay ---- */

static sinew_result use_accessor(exporter *e, const sinewi_json *ref, const char *where, uint32_t a, uint32_t b) {
	source_doc *s = e->src;
	uint32_t index;
	SINEWI_CHECK(sinewi_json_uint(ref, &index) && index < s->accessor_count, e->error, SINEW_RESULT_CORRUPT,
	             "%s: %s %u/%u: accessor reference out of range", s->path, where, a, b);
	s->accessor_map[index] = 0; // marked; numbered later
	return SINEW_RESULT_OK;
}

static sinew_result use_view(exporter *e, const sinewi_json *ref, const char *where, uint32_t a) {
	source_doc *s = e->src;
	uint32_t index;
	SINEWI_CHECK(sinewi_json_uint(ref, &index) && index < s->view_count, e->error, SINEW_RESULT_CORRUPT,
	             "%s: %s %u: bufferView reference out of range", s->path, where, a);
	s->view_map[index] = 0;
	return SINEW_RESULT_OK;
}

static sinew_result use_attribute_map(exporter *e, const sinewi_json *map, const char *where, uint32_t a, uint32_t b) {
	if (!map) return SINEW_RESULT_OK;
	SINEWI_CHECK(map->type == SINEWI_JSON_OBJECT, e->error, SINEW_RESULT_CORRUPT,
	             "%s: %s %u/%u: attributes are not an object", e->src->path, where, a, b);
	for (uint32_t i = 0; i < map->count; ++i) SINEWI_TRY(use_accessor(e, &map->children[i], where, a, b));
	return SINEW_RESULT_OK;
}

// Unpack: the blob's bufferView leaves the document. Nothing kept may point at it (a hostile file could
// make an accessor or image read the blob; dropping the view would leave that reference dangling).
static sinew_result drop_blob_view(exporter *e) {
	source_doc *s = e->src;
	uint32_t v = e->hook->blob_view, ref;
	SINEWI_CHECK(v < s->view_count, e->error, SINEW_RESULT_CORRUPT, "%s: bufferView %u does not exist", s->path, v);
	for (uint32_t a = 0; a < s->accessor_count; ++a) {
		if (s->accessor_map[a] == NONE) continue;
		const sinewi_json *acc = sinewi_json_at(s->accessors, a), *sparse = sinewi_json_get(acc, "sparse");
		bool hit = sinewi_json_uint(sinewi_json_get(acc, "bufferView"), &ref) && ref == v;
		hit = hit || (sinewi_json_uint(sinewi_json_get(sinewi_json_get(sparse, "indices"), "bufferView"), &ref) && ref == v);
		hit = hit || (sinewi_json_uint(sinewi_json_get(sinewi_json_get(sparse, "values"), "bufferView"), &ref) && ref == v);
		SINEWI_CHECK(!hit, e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u holds the compressed animation but accessor %u also uses it", s->path, v, a);
	}
	for (uint32_t i = 0; i < s->image_count; ++i)
		SINEWI_CHECK(!(sinewi_json_uint(sinewi_json_get(sinewi_json_at(s->images, i), "bufferView"), &ref) && ref == v),
		             e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u holds the compressed animation but image %u also uses it", s->path, v, i);
	SINEWI_CHECK(!s->compact || s->view_map[v] == NONE, e->error, SINEW_RESULT_CORRUPT,
	             "%s: bufferView %u holds the compressed animation but a mesh also uses it", s->path, v);
	s->view_map[v] = NONE;
	return SINEW_RESULT_OK;
}

static sinew_result mark_used(exporter *e) {
	source_doc *s = e->src;
	if (!s->compact) {
		for (uint32_t i = 0; i < s->accessor_count; ++i) s->accessor_map[i] = 0;
		for (uint32_t i = 0; i < s->view_count; ++i) s->view_map[i] = 0;
	}
	for (uint32_t m = 0; m < s->mesh_count; ++m) {
		const sinewi_json *prims = sinewi_json_get(sinewi_json_at(s->meshes, m), "primitives");
		for (uint32_t p = 0; prims && p < prims->count && prims->type == SINEWI_JSON_ARRAY; ++p) {
			const sinewi_json *prim = &prims->children[p];
			SINEWI_TRY(use_attribute_map(e, sinewi_json_get(prim, "attributes"), "mesh/primitive", m, p));
			const sinewi_json *indices = sinewi_json_get(prim, "indices");
			if (indices) SINEWI_TRY(use_accessor(e, indices, "mesh/primitive", m, p));
			const sinewi_json *targets = sinewi_json_get(prim, "targets");
			for (uint32_t t = 0; targets && targets->type == SINEWI_JSON_ARRAY && t < targets->count; ++t)
				SINEWI_TRY(use_attribute_map(e, &targets->children[t], "mesh/primitive", m, p));
			const sinewi_json *draco =
			    sinewi_json_get(sinewi_json_get(prim, "extensions"), "KHR_draco_mesh_compression");
			if (draco) SINEWI_TRY(use_view(e, sinewi_json_get(draco, "bufferView"), "draco mesh", m));
		}
	}
	for (uint32_t k = 0; k < s->skin_count; ++k) {
		const sinewi_json *ibm = sinewi_json_get(sinewi_json_at(s->skins, k), "inverseBindMatrices");
		if (ibm) SINEWI_TRY(use_accessor(e, ibm, "skin", k, 0));
	}
	for (uint32_t n = 0; n < s->node_count; ++n) {
		const sinewi_json *inst =
		    sinewi_json_get(sinewi_json_get(sinewi_json_at(s->nodes, n), "extensions"), "EXT_mesh_gpu_instancing");
		SINEWI_TRY(use_attribute_map(e, sinewi_json_get(inst, "attributes"), "node instancing", n, 0));
	}
	for (uint32_t a = 0; a < s->accessor_count; ++a) {
		if (s->accessor_map[a] == NONE) continue;
		const sinewi_json *acc = sinewi_json_at(s->accessors, a);
		const sinewi_json *view = sinewi_json_get(acc, "bufferView");
		if (view) SINEWI_TRY(use_view(e, view, "accessor", a));
		const sinewi_json *sparse = sinewi_json_get(acc, "sparse");
		if (sparse) {
			SINEWI_TRY(
			    use_view(e, sinewi_json_get(sinewi_json_get(sparse, "indices"), "bufferView"), "sparse accessor", a));
			SINEWI_TRY(
			    use_view(e, sinewi_json_get(sinewi_json_get(sparse, "values"), "bufferView"), "sparse accessor", a));
		}
	}
	for (uint32_t i = 0; i < s->image_count; ++i) {
		const sinewi_json *view = sinewi_json_get(sinewi_json_at(s->images, i), "bufferView");
		if (view) SINEWI_TRY(use_view(e, view, "image", i));
	}
	if (is_mode(e, SINEWI_EXPORT_UNPACK)) SINEWI_TRY(drop_blob_view(e));
	for (uint32_t a = 0; a < s->accessor_count; ++a)
		if (s->accessor_map[a] != NONE) s->accessor_map[a] = e->accessor_count++;
	return SINEW_RESULT_OK;
}

// Copies every kept bufferView's bytes into the output buffer. A view moves to an offset with the
// same remainder modulo 4, so every accessor keeps its alignment.
static sinew_result copy_views(exporter *e) {
	source_doc *s = e->src;
	for (uint32_t v = 0; v < s->view_count; ++v) {
		if (s->view_map[v] == NONE) continue;
		const sinewi_json *view = sinewi_json_at(s->views, v);
		uint32_t buffer, offset = 0, length;
		SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(view, "buffer"), &buffer) && buffer < s->buffer_count, e->error,
		             SINEW_RESULT_CORRUPT, "%s: bufferView %u: buffer reference out of range", s->path, v);
		const sinewi_json *off = sinewi_json_get(view, "byteOffset");
		SINEWI_CHECK(!off || sinewi_json_uint(off, &offset), e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u: invalid byteOffset", s->path, v);
		SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(view, "byteLength"), &length), e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u: missing or invalid byteLength", s->path, v);
		SINEWI_TRY(load_buffer(e, buffer));
		const src_buffer *b = &s->buffer[buffer];
		SINEWI_CHECK((uint64_t)offset + length <= b->byte_length, e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u: bytes %u..%llu exceed buffer %u (%u bytes)", s->path, v, offset,
		             (unsigned long long)offset + length, buffer, b->byte_length);
		pad(&e->bin, 4, 0);
		for (uint32_t k = 0; k < offset % 4; ++k) sinewi_json_write_raw(&e->bin, "", 1);
		s->view_offset[v] = e->bin.size;
		if (length) sinewi_json_write_raw(&e->bin, (const char *)b->data + offset, length);
		s->view_map[v] = e->view_count++;
	}
	return e->bin.failed ? out_of_memory(e) : SINEW_RESULT_OK;
}

static const char *mime_from_bytes(const unsigned char *d, size_t n, const char *uri) {
	if (n >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) return "image/png";
	if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff) return "image/jpeg";
	if (n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) return "image/webp";
	if (n >= 12 && memcmp(d, "\xabKTX 20\xbb\r\n\x1a\n", 12) == 0) return "image/ktx2";
	if (ends_with_ci(uri, ".png")) return "image/png";
	if (ends_with_ci(uri, ".jpg") || ends_with_ci(uri, ".jpeg")) return "image/jpeg";
	if (ends_with_ci(uri, ".webp")) return "image/webp";
	if (ends_with_ci(uri, ".ktx2")) return "image/ktx2";
	return NULL;
}

// Images given by URI are embedded as bufferViews so the output needs no companion files. An image that
// cannot be embedded (missing or empty file, remote or absolute URI, unknown format) keeps its URI: the
// animation does not need it, and the output then refers to it exactly as the source did.
static sinew_result embed_images(exporter *e) {
	source_doc *s = e->src;
	for (uint32_t i = 0; i < s->image_count; ++i) {
		const sinewi_json *image = sinewi_json_at(s->images, i);
		const char *uri = sinewi_json_string(sinewi_json_get(image, "uri"));
		if (!uri || sinewi_json_get(image, "bufferView")) continue;
		char what[64];
		snprintf(what, sizeof what, "image %u", i);
		unsigned char *data = NULL;
		size_t size = 0, alloc_size = 0;
		sinew_error *outer = e->error, ignored = {0};
		e->error = &ignored; // a failure here is not the caller's error
		sinew_result r = load_uri(e, uri, what, &data, &size, &alloc_size);
		e->error = outer;
		if (r == SINEW_RESULT_OUT_OF_MEMORY) return out_of_memory(e);
		if (r != SINEW_RESULT_OK) continue;
		const char *mime = sinewi_json_string(sinewi_json_get(image, "mimeType"));
		s->image_mime[i] = mime ? NULL : mime_from_bytes(data, size, uri);
		if (size == 0 || (!mime && !s->image_mime[i])) {
			sinewi_free(&e->al, data, alloc_size);
			continue;
		}
		pad(&e->bin, 4, 0);
		size_t start = e->bin.size;
		if (size) sinewi_json_write_raw(&e->bin, (const char *)data, size);
		sinewi_free(&e->al, data, alloc_size);
		if (e->new_views++) raw(&e->views, ",");
		raw(&e->views, "{\"buffer\":0,\"byteOffset\":");
		num(&e->views, (double)start);
		raw(&e->views, ",\"byteLength\":");
		num(&e->views, (double)size);
		raw(&e->views, "}");
		s->image_view[i] = e->view_count++;
	}
	return e->bin.failed || e->views.failed ? out_of_memory(e) : SINEW_RESULT_OK;
}

/* ---- source document: nodes ---- */

static sinew_result read_floats(exporter *e, const sinewi_json *node, const char *name, uint32_t n, float *out,
                                uint32_t index) {
	const sinewi_json *v = sinewi_json_get(node, name);
	if (!v) return SINEW_RESULT_OK;
	SINEWI_CHECK(v->type == SINEWI_JSON_ARRAY && v->count == n, e->error, SINEW_RESULT_CORRUPT,
	             "%s: node %u: '%s' must be an array of %u numbers", e->src->path, index, name, n);
	for (uint32_t i = 0; i < n; ++i) {
		double d;
		SINEWI_CHECK(sinewi_json_number(&v->children[i], &d), e->error, SINEW_RESULT_CORRUPT,
		             "%s: node %u: '%s' must be an array of %u numbers", e->src->path, index, name, n);
		out[i] = to_float(d);
	}
	return SINEW_RESULT_OK;
}

static sinew_result read_source_nodes(exporter *e) {
	source_doc *s = e->src;
	for (uint32_t n = 0; n < s->node_count; ++n) {
		const sinewi_json *node = sinewi_json_at(s->nodes, n);
		SINEWI_CHECK(node->type == SINEWI_JSON_OBJECT, e->error, SINEW_RESULT_CORRUPT, "%s: node %u is not an object",
		             s->path, n);
		rest_identity(&e->rest[n]);
		SINEWI_TRY(read_floats(e, node, "translation", 3, e->rest[n].t, n));
		SINEWI_TRY(read_floats(e, node, "rotation", 4, e->rest[n].r, n));
		SINEWI_TRY(read_floats(e, node, "scale", 3, e->rest[n].s, n));
	}
	return SINEW_RESULT_OK;
}

// Number of morph targets of a node's mesh (0 when it has none).
static uint32_t node_target_count(const source_doc *s, uint32_t node, const sinewi_json **mesh_out) {
	uint32_t mesh;
	*mesh_out = NULL;
	if (!sinewi_json_uint(sinewi_json_get(sinewi_json_at(s->nodes, node), "mesh"), &mesh) || mesh >= s->mesh_count)
		return 0;
	const sinewi_json *m = sinewi_json_at(s->meshes, mesh);
	*mesh_out = m;
	const sinewi_json *targets = sinewi_json_get(sinewi_json_at(sinewi_json_get(m, "primitives"), 0), "targets");
	return targets && targets->type == SINEWI_JSON_ARRAY ? targets->count : 0;
}

/* ---- animations ---- */

static uint32_t add_accessor(exporter *e, size_t offset, uint32_t count, const char *type, const float *min,
                             const float *max) {
	sinewi_json_writer *w = &e->accessors;
	if (e->new_accessors++) raw(w, ",");
	raw(w, "{\"bufferView\":");
	num(w, e->anim_view);
	if (offset != e->anim_start) raw(w, ",\"byteOffset\":"), num(w, (double)(offset - e->anim_start));
	raw(w, ",\"componentType\":5126,\"count\":");
	num(w, count);
	raw(w, ",\"type\":\"");
	raw(w, type);
	raw(w, "\"");
	if (min) raw(w, ",\"min\":"), floats(w, min, 1), raw(w, ",\"max\":"), floats(w, max, 1);
	raw(w, "}");
	return e->accessor_count++;
}

typedef struct anim_builder {
	sinewi_json_writer samplers, channels;
	uint32_t count;
	uint32_t time_accessor;
} anim_builder;

static void add_sampler(anim_builder *a, uint32_t output, bool step) {
	if (a->count) raw(&a->samplers, ","), raw(&a->channels, ",");
	raw(&a->samplers, "{\"input\":");
	num(&a->samplers, a->time_accessor);
	raw(&a->samplers, ",\"output\":");
	num(&a->samplers, output);
	if (step) raw(&a->samplers, ",\"interpolation\":\"STEP\"");
	raw(&a->samplers, "}");
	raw(&a->channels, "{\"sampler\":");
	num(&a->channels, a->count);
}

static void add_channel(anim_builder *a, uint32_t output, uint32_t node, const char *path, bool step) {
	add_sampler(a, output, step);
	raw(&a->channels, ",\"target\":{\"node\":");
	num(&a->channels, node);
	raw(&a->channels, ",\"path\":\"");
	raw(&a->channels, path);
	raw(&a->channels, "\"}}");
	a->count++;
}

static void add_pointer_channel(anim_builder *a, uint32_t output, const char *pointer, bool step) {
	add_sampler(a, output, step);
	raw(&a->channels, ",\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{\"pointer\":");
	sinewi_json_write_string(&a->channels, pointer);
	raw(&a->channels, "}}}}");
	a->count++;
}

static void sub_value(const sinew_clip *clip, uint32_t joint, uint32_t k, int path, float out[4]) {
	const sinew_qvv *x = &clip->transforms[(size_t)k * clip->joint_count + joint];
	if (path == PATH_T)
		for (int i = 0; i < 3; ++i) out[i] = to_float((double)x->translation[i] / clip->unit_scale);
	else if (path == PATH_R)
		unit_quat(x->rotation, out);
	else
		memcpy(out, x->scale, 3 * sizeof(float));
}

// Key k's time, f32(k / rate) (or of its time through the clip's time marks), is up to half a float32 ulp
// off the sample time k / rate: 5e-7 s near 10 s,
// in which a node moving 40 m/s (a flying camera) covers 0.002 cm, a fifth of the default threshold. So a
// key holds the value sampling plays at the key's own time: interpolating samples are blended (lerp, nlerp
// on the shortest arc, as the decoder does); floor, ceil and nearest hold sample k, exact at k / rate.
static void key_positions(const sinew_clip *clip, key_pos *out) {
	uint32_t n = clip->sample_count;
	for (uint32_t k = 0; k < n; ++k) {
		double x = sinewi_clip_key(clip, (double)to_float(sinew_clip_sample_time(clip, (double)k)));
		key_pos p = {k, x - (double)k};
		if (p.u < 0.0) {
			if (k == 0) p.u = 0.0;
			else p.k0 = k - 1, p.u += 1.0;
		}
		if (p.k0 + 1 >= n || !(p.u > 0.0 && p.u < 1.0)) p.k0 = k, p.u = 0.0;
		out[k] = p;
	}
}

static void key_value(const sinew_clip *clip, const key_pos *keys, uint32_t joint, uint32_t k, int path,
                      float out[4]) {
	key_pos p = keys[k];
	if (p.u == 0.0 || effective_rounding(clip->joints[joint].rounding, clip) != SINEW_ROUNDING_NONE) {
		sub_value(clip, joint, k, path, out);
		return;
	}
	const sinew_qvv *a = &clip->transforms[(size_t)p.k0 * clip->joint_count + joint];
	const sinew_qvv *b = a + clip->joint_count;
	double v[4];
	if (path == PATH_R) {
		double dot = 0.0;
		for (int i = 0; i < 4; ++i) dot += (double)a->rotation[i] * b->rotation[i];
		double wb = dot < 0.0 ? -p.u : p.u, n2 = 0.0;
		for (int i = 0; i < 4; ++i) v[i] = (1.0 - p.u) * a->rotation[i] + wb * b->rotation[i], n2 += v[i] * v[i];
		double inv = n2 > 0.0 ? 1.0 / sqrt(n2) : 0.0;
		for (int i = 0; i < 4; ++i) out[i] = (float)(v[i] * inv);
		if (!(n2 > 0.0)) out[0] = out[1] = out[2] = 0.0f, out[3] = 1.0f;
		return;
	}
	const float *fa = path == PATH_T ? a->translation : a->scale, *fb = path == PATH_T ? b->translation : b->scale;
	double scale = path == PATH_T ? clip->unit_scale : 1.0;
	for (int i = 0; i < 3; ++i) out[i] = to_float(((1.0 - p.u) * fa[i] + p.u * fb[i]) / scale);
}

// Float c of scalar track t at key k, as key_value blends it.
static float key_scalar(const sinew_clip *clip, const key_pos *keys, const sinew_scalar_track *t, uint32_t k,
                        uint32_t c) {
	key_pos p = keys[k];
	if (p.u == 0.0 || effective_rounding(t->rounding, clip) != SINEW_ROUNDING_NONE)
		return t->values[(size_t)k * t->components + c];
	const float *a = &t->values[(size_t)p.k0 * t->components + c];
	return to_float((1.0 - p.u) * a[0] + p.u * a[t->components]);
}

static bool sub_is_rest(const sinew_clip *clip, uint32_t joint, int path, const rest_trs *rest) {
	const float *r = path == PATH_T ? rest->t : path == PATH_R ? rest->r : rest->s;
	int n = path == PATH_R ? 4 : 3;
	for (uint32_t k = 0; k < clip->sample_count; ++k) {
		float v[4];
		sub_value(clip, joint, k, path, v);
		for (int i = 0; i < n; ++i)
			if (v[i] != r[i]) return false;
	}
	return true;
}

static void write_sub(exporter *e, anim_builder *a, const sinew_clip *clip, uint32_t joint, uint32_t node, int path) {
	static const char *const names[] = {"translation", "rotation", "scale"};
	int n = path == PATH_R ? 4 : 3;
	pad(&e->bin, 4, 0);
	size_t offset = e->bin.size;
	for (uint32_t k = 0; k < clip->sample_count; ++k) {
		float v[4];
		key_value(clip, e->keys, joint, k, path, v);
		sinewi_json_write_raw(&e->bin, (const char *)v, (size_t)n * sizeof(float));
	}
	uint32_t acc = add_accessor(e, offset, clip->sample_count, n == 4 ? "VEC4" : "VEC3", NULL, NULL);
	bool step = effective_rounding(clip->joints[joint].rounding, clip) == SINEW_ROUNDING_FLOOR;
	add_channel(a, acc, node, names[path], step);
}

// One `weights` channel per node: every morph target of the node's mesh, per key, in target order.
static sinew_result write_weights(exporter *e, anim_builder *a, uint32_t ci, const sinew_clip *clip) {
	source_doc *s = e->src;
	uint8_t *done = (uint8_t *)arena_array(e, clip->scalar_track_count, 1);
	if (!done) return out_of_memory(e);
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *first = &clip->scalar_tracks[i];
		if (done[i] || first->source_node < 0 || first->source_target < 0) continue;
		uint32_t node = (uint32_t)first->source_node;
		SINEWI_CHECK(node < s->node_count, e->error, SINEW_RESULT_OUT_OF_RANGE,
		             "export: clip %u ('%s') scalar track %u: source_node %u is not a node of %s", ci, clip_label(clip),
		             i, node, s->path);
		const sinewi_json *mesh = NULL;
		uint32_t targets = node_target_count(s, node, &mesh);
		SINEWI_CHECK(targets > 0, e->error, SINEW_RESULT_OUT_OF_RANGE,
		             "export: clip %u ('%s') scalar track %u: node %u of %s has no morph targets", ci, clip_label(clip),
		             i, node, s->path);
		const sinew_scalar_track **by_target = (const sinew_scalar_track **)arena_array(e, targets, sizeof(void *));
		uint32_t *component = (uint32_t *)arena_array(e, targets, sizeof(uint32_t));
		float *rest = (float *)arena_array(e, targets, sizeof(float));
		if (!by_target || !component || !rest) return out_of_memory(e);
		// Targets without a track keep their default weight: node.weights, else mesh.weights, else 0 (glTF 3.7.2.2).
		const sinewi_json *weights = sinewi_json_get(sinewi_json_at(s->nodes, node), "weights");
		if (!weights || weights->type != SINEWI_JSON_ARRAY || weights->count != targets)
			weights = sinewi_json_get(mesh, "weights");
		if (weights && (weights->type != SINEWI_JSON_ARRAY || weights->count != targets)) weights = NULL;
		for (uint32_t t = 0; t < targets; ++t) {
			double d = 0.0;
			if (sinewi_json_number(sinewi_json_at(weights, t), &d)) rest[t] = to_float(d);
		}
		bool step = true;
		for (uint32_t j = i; j < clip->scalar_track_count; ++j) {
			const sinew_scalar_track *track = &clip->scalar_tracks[j];
			if (track->source_node != first->source_node || track->source_target < 0) continue;
			done[j] = 1;
			// A track of C components drives targets source_target .. source_target + C - 1.
			SINEWI_CHECK(
			    (uint64_t)track->source_target + track->components <= targets, e->error, SINEW_RESULT_OUT_OF_RANGE,
			    "export: clip %u ('%s') scalar track %u: morph target %d..%u is beyond the %u targets of node %u", ci,
			    clip_label(clip), j, track->source_target, (unsigned)track->source_target + track->components - 1,
			    targets, node);
			for (uint32_t c = 0; c < track->components; ++c) {
				uint32_t t = (uint32_t)track->source_target + c;
				SINEWI_CHECK(!by_target[t], e->error, SINEW_RESULT_INVALID_ARGUMENT,
				             "export: clip %u ('%s'): scalar tracks %u and %u both drive morph target %u of node %u",
				             ci, clip_label(clip), (unsigned)(by_target[t] - clip->scalar_tracks), j, t, node);
				by_target[t] = track;
				component[t] = c;
			}
			step = step && effective_rounding(track->rounding, clip) == SINEW_ROUNDING_FLOOR;
		}
		pad(&e->bin, 4, 0);
		size_t offset = e->bin.size;
		for (uint32_t k = 0; k < clip->sample_count; ++k) {
			for (uint32_t t = 0; t < targets; ++t) {
				const sinew_scalar_track *track = by_target[t];
				float v = track ? key_scalar(clip, e->keys, track, k, component[t]) : rest[t];
				sinewi_json_write_raw(&e->bin, (const char *)&v, sizeof v);
			}
		}
		uint64_t count = (uint64_t)clip->sample_count * targets;
		SINEWI_CHECK(count <= UINT32_MAX, e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: clip %u ('%s'): too many morph weights for one accessor", ci, clip_label(clip));
		uint32_t acc = add_accessor(e, offset, (uint32_t)count, "SCALAR", NULL, NULL);
		add_channel(a, acc, node, "weights", step);
	}
	return SINEW_RESULT_OK;
}

// One KHR_animation_pointer channel per pointer: its tracks (source_node SINEW_SOURCE_POINTER, named by the
// pointer) must cover floats 0 .. n-1 of its value once each. A value of 2-4 floats is written as VECn, one
// float or a `weights` array as SCALAR (n per key), as the extension asks.
static sinew_result write_pointers(exporter *e, anim_builder *a, uint32_t ci, const sinew_clip *clip) {
	uint8_t *done = (uint8_t *)arena_array(e, clip->scalar_track_count, 1);
	if (!done) return out_of_memory(e);
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *first = &clip->scalar_tracks[i];
		if (done[i] || first->source_node != SINEW_SOURCE_POINTER) continue;
		const char *pointer = first->name;
		SINEWI_CHECK(pointer && pointer[0] == '/', e->error, SINEW_RESULT_INVALID_ARGUMENT,
		             "export: clip %u ('%s') scalar track %u drives a KHR_animation_pointer but its name \"%.80s\" is "
		             "not a JSON pointer", ci, clip_label(clip), i, pointer ? pointer : "(none)");
		uint32_t n = 0, covered = 0;
		bool step = true;
		for (uint32_t j = i; j < clip->scalar_track_count; ++j) {
			const sinew_scalar_track *t = &clip->scalar_tracks[j];
			if (t->source_node != SINEW_SOURCE_POINTER || !t->name || strcmp(t->name, pointer) != 0) continue;
			SINEWI_CHECK(t->source_target >= 0 && t->source_target <= 4096, e->error, SINEW_RESULT_OUT_OF_RANGE,
			             "export: clip %u ('%s') scalar track %u: float index %d of pointer \"%.80s\"", ci,
			             clip_label(clip), j, t->source_target, pointer);
			uint32_t end = (uint32_t)t->source_target + t->components;
			if (end > n) n = end;
			covered += t->components;
			step = step && effective_rounding(t->rounding, clip) == SINEW_ROUNDING_FLOOR;
		}
		const sinew_scalar_track **by_float = (const sinew_scalar_track **)arena_array(e, n, sizeof(void *));
		if (!by_float) return out_of_memory(e);
		for (uint32_t j = i; j < clip->scalar_track_count; ++j) {
			const sinew_scalar_track *t = &clip->scalar_tracks[j];
			if (t->source_node != SINEW_SOURCE_POINTER || !t->name || strcmp(t->name, pointer) != 0) continue;
			done[j] = 1;
			for (uint32_t c = 0; c < t->components; ++c) {
				SINEWI_CHECK(!by_float[(uint32_t)t->source_target + c], e->error, SINEW_RESULT_INVALID_ARGUMENT,
				             "export: clip %u ('%s'): two scalar tracks drive float %u of pointer \"%.80s\"", ci,
				             clip_label(clip), (uint32_t)t->source_target + c, pointer);
				by_float[(uint32_t)t->source_target + c] = t;
			}
		}
		SINEWI_CHECK(covered == n, e->error, SINEW_RESULT_INVALID_ARGUMENT,
		             "export: clip %u ('%s'): the tracks of pointer \"%.80s\" leave floats of its %u undriven", ci,
		             clip_label(clip), pointer, n);
		size_t len = strlen(pointer);
		bool array = n > 4 || (len >= 8 && strcmp(pointer + len - 8, "/weights") == 0);
		static const char *const types[] = {"SCALAR", "VEC2", "VEC3", "VEC4"};
		uint64_t count = (uint64_t)clip->sample_count * (array ? n : 1);
		SINEWI_CHECK(count <= UINT32_MAX, e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: clip %u ('%s'): too many values for one accessor", ci, clip_label(clip));
		pad(&e->bin, 4, 0);
		size_t offset = e->bin.size;
		for (uint32_t k = 0; k < clip->sample_count; ++k)
			for (uint32_t c = 0; c < n; ++c) {
				const sinew_scalar_track *t = by_float[c];
				float v = key_scalar(clip, e->keys, t, k, c - (uint32_t)t->source_target);
				sinewi_json_write_raw(&e->bin, (const char *)&v, sizeof v);
			}
		uint32_t acc = add_accessor(e, offset, (uint32_t)count, array ? "SCALAR" : types[n - 1], NULL, NULL);
		add_pointer_channel(a, acc, pointer, step);
		e->pointer_channels = !is_mode(e, SINEWI_EXPORT_PACK); // a packed file's animations are the blob
	}
	return SINEW_RESULT_OK;
}

// Decides which sub-tracks are written. A sub-track whose every sample equals the node's rest value in the
// output is left out (the node already says it), but a joint with a track keeps at least one channel
// somewhere in the set: importers build skeletons from animated nodes, so a joint without any channel
// would vanish from (or lose its track in) a re-import.
static sinew_result analyse_clips(exporter *e) {
	source_doc *s = e->src;
	const sinew_clip_set *set = e->set;
	e->written = (uint8_t **)arena_array(e, set->clip_count, sizeof(uint8_t *));
	uint8_t *animated = (uint8_t *)arena_array(e, e->node_count, 1);
	uint32_t *first_clip = (uint32_t *)arena_array(e, e->node_count, sizeof(uint32_t));
	uint32_t *first_joint = (uint32_t *)arena_array(e, e->node_count, sizeof(uint32_t));
	if (!e->written || !animated || !first_clip || !first_joint) return out_of_memory(e);
	for (uint32_t n = 0; n < e->node_count; ++n) first_clip[n] = NONE, e->node_stamp[n] = 0;
	for (uint32_t ci = 0; ci < set->clip_count; ++ci) {
		const sinew_clip *clip = set->clips[ci];
		uint8_t *mask = (uint8_t *)arena_array(e, clip->joint_count, 1);
		if (!mask) return out_of_memory(e);
		e->written[ci] = mask;
		for (uint32_t j = 0; j < clip->joint_count; ++j) {
			const sinew_joint *joint = &clip->joints[j];
			if (!joint->has_track) continue;
			uint32_t node = j;
			if (s) {
				SINEWI_CHECK(joint->source_index >= 0 && (uint32_t)joint->source_index < s->node_count, e->error,
				             SINEW_RESULT_OUT_OF_RANGE,
				             "export: clip %u ('%s') joint %u ('%s'): source_index %d is not a node of %s", ci,
				             clip_label(clip), j, joint_label(joint), joint->source_index, s->path);
				node = (uint32_t)joint->source_index;
				SINEWI_CHECK(e->node_stamp[node] != ci + 1, e->error, SINEW_RESULT_INVALID_ARGUMENT,
				             "export: clip %u ('%s'): joint %u ('%s') maps to node %u like an earlier joint", ci,
				             clip_label(clip), j, joint_label(joint), node);
				e->node_stamp[node] = ci + 1;
			}
			for (int path = PATH_T; path <= PATH_S; ++path)
				if (!sub_is_rest(clip, j, path, &e->rest[node])) mask[j] |= (uint8_t)(1u << path);
			if (mask[j]) animated[node] = 1;
			if (first_clip[node] == NONE) first_clip[node] = ci, first_joint[node] = j;
		}
	}
	for (uint32_t n = 0; n < e->node_count; ++n)
		if (first_clip[n] != NONE && !animated[n]) e->written[first_clip[n]][first_joint[n]] |= FORCE_ROTATION;
	return SINEW_RESULT_OK;
}

static sinew_result write_clip(exporter *e, uint32_t ci) {
	const sinew_clip *clip = e->set->clips[ci];
	source_doc *s = e->src;
	// Key times k / rate (or the clip's time marks) as float32; they must increase strictly (glTF animation
	// sampler rule).
	pad(&e->bin, 4, 0);
	size_t time_offset = e->bin.size;
	float previous = -1.0f, start = 0.0f, last = 0.0f;
	for (uint32_t k = 0; k < clip->sample_count; ++k) {
		float t = to_float(sinew_clip_sample_time(clip, (double)k));
		SINEWI_CHECK(t > previous && isfinite(t), e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: clip %u ('%s'): sample %u time is not representable as a distinct float32 key time", ci,
		             clip_label(clip), k);
		sinewi_json_write_raw(&e->bin, (const char *)&t, sizeof t);
		if (k == 0) start = t; // 0, or a time map's first mark (keys from 1/24 s)
		previous = last = t;
	}
	anim_builder a;
	memset(&a, 0, sizeof a);
	sinewi_json_writer_init(&a.samplers, e->allocator);
	sinewi_json_writer_init(&a.channels, e->allocator);
	a.time_accessor = add_accessor(e, time_offset, clip->sample_count, "SCALAR", &start, &last);
	key_pos *keys = (key_pos *)arena_array(e, clip->sample_count, sizeof(key_pos));
	if (!keys) return out_of_memory(e);
	key_positions(clip, keys);
	e->keys = keys;

	sinew_result r = SINEW_RESULT_OK;
	uint32_t first_tracked = NONE;
	for (uint32_t j = 0; j < clip->joint_count; ++j) {
		const sinew_joint *joint = &clip->joints[j];
		if (!joint->has_track) continue;
		uint32_t node = s ? (uint32_t)joint->source_index : j; // validated by analyse_clips
		if (first_tracked == NONE) first_tracked = j;
		uint8_t mask = e->written[ci][j];
		for (int path = PATH_T; path <= PATH_S; ++path)
			if (mask & (1u << path) || (path == PATH_R && mask & FORCE_ROTATION)) write_sub(e, &a, clip, j, node, path);
	}
	uint32_t skipped_scalars = 0;
	if (r == SINEW_RESULT_OK && s) r = write_weights(e, &a, ci, clip);
	if (r == SINEW_RESULT_OK && s) r = write_pointers(e, &a, ci, clip);
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *track = &clip->scalar_tracks[i];
		bool pointer = track->source_node == SINEW_SOURCE_POINTER;
		if (!s || (!pointer && (track->source_node < 0 || track->source_target < 0))) skipped_scalars++;
	}
	if (r == SINEW_RESULT_OK && a.count == 0) {
		// An animation needs a channel; the first animated joint's rotation keeps the clip's duration.
		if (first_tracked == NONE)
			r = sinewi_fail(e->error, SINEW_RESULT_UNSUPPORTED,
			                "export: clip %u ('%s') has nothing glTF can animate (no joint with a track%s)", ci,
			                clip_label(clip), s ? " and no morph track" : "; scalar tracks need source_path");
		else
			write_sub(e, &a, clip, first_tracked,
			          s ? (uint32_t)clip->joints[first_tracked].source_index : first_tracked, PATH_R);
	}
	if (r == SINEW_RESULT_OK) {
		sinewi_json_writer *w = &e->anims;
		if (ci) raw(w, ",");
		raw(w, "{");
		bool first = true;
		if (clip->name) key(w, &first, "name"), sinewi_json_write_string(w, clip->name);
		key(w, &first, "channels");
		raw(w, "[");
		if (a.channels.size) append(w, a.channels.data, a.channels.size);
		raw(w, "]");
		key(w, &first, "samplers");
		raw(w, "[");
		if (a.samplers.size) append(w, a.samplers.data, a.samplers.size);
		raw(w, "]");
		// glTF has no place for these; extras keep them for tools that read them back.
		key(w, &first, "extras");
		raw(w, "{\"sinew\":{\"sample_rate\":");
		num(w, clip->sample_rate);
		raw(w, ",\"sample_count\":");
		num(w, clip->sample_count);
		raw(w, clip->looping ? ",\"looping\":true" : ",\"looping\":false");
		raw(w, ",\"rounding\":\"");
		raw(w, rounding_name(clip->rounding));
		raw(w, "\",\"unit_scale\":");
		num(w, clip->unit_scale);
		raw(w, ",\"resample_error_m\":");
		num(w, clip->resample_error / clip->unit_scale);
		if (skipped_scalars) raw(w, ",\"skipped_scalar_tracks\":"), num(w, skipped_scalars);
		raw(w, "}}}");
		if (a.samplers.failed || a.channels.failed) r = out_of_memory(e);
	}
	sinewi_json_writer_free(&a.samplers);
	sinewi_json_writer_free(&a.channels);
	return r;
}

/* ---- document without a source ---- */

static sinew_result check_skeletons(exporter *e) {
	const sinew_clip *c0 = e->set->clips[0];
	for (uint32_t i = 1; i < e->set->clip_count; ++i) {
		const sinew_clip *c = e->set->clips[i];
		SINEWI_CHECK(c->joint_count == c0->joint_count, e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: clip %u ('%s') has %u joints, clip 0 has %u: clips without source_path must share one "
		             "skeleton (export them separately)",
		             i, clip_label(c), c->joint_count, c0->joint_count);
		for (uint32_t j = 0; j < c->joint_count; ++j) {
			const sinew_joint *a = &c0->joints[j], *b = &c->joints[j];
			bool same_name = a->name == b->name || (a->name && b->name && strcmp(a->name, b->name) == 0);
			SINEWI_CHECK(a->parent == b->parent && same_name, e->error, SINEW_RESULT_UNSUPPORTED,
			             "export: clip %u ('%s') has a different skeleton than clip 0 (joint %u '%s'): clips without "
			             "source_path must share one skeleton (export them separately)",
			             i, clip_label(c), j, joint_label(b));
		}
	}
	return SINEW_RESULT_OK;
}

static void write_plain_document(exporter *e) {
	const sinew_clip *c0 = e->set->clips[0];
	sinewi_json_writer *w = &e->json;
	raw(w, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"sinew " SINEW_VERSION_STRING
	       "\"},\"scene\":0,\"scenes\":[{\"nodes\":[");
	bool first = true;
	for (uint32_t j = 0; j < c0->joint_count; ++j) {
		if (c0->joints[j].parent >= 0) continue;
		if (!first) raw(w, ",");
		first = false;
		num(w, j);
	}
	raw(w, "]}],\"nodes\":[");
	// Children lists without quadratic scans: parents come before children.
	uint32_t *first_child = e->node_stamp, *next = (uint32_t *)arena_array(e, c0->joint_count, sizeof(uint32_t));
	if (!next) {
		w->failed = true;
		return;
	}
	for (uint32_t j = 0; j < c0->joint_count; ++j) first_child[j] = next[j] = NONE;
	for (uint32_t j = c0->joint_count; j-- > 0;) {
		int32_t p = c0->joints[j].parent;
		if (p < 0) continue;
		next[j] = first_child[p];
		first_child[p] = j;
	}
	for (uint32_t j = 0; j < c0->joint_count; ++j) {
		if (j) raw(w, ",");
		raw(w, "{");
		bool f = true;
		if (c0->joints[j].name) key(w, &f, "name"), sinewi_json_write_string(w, c0->joints[j].name);
		if (first_child[j] != NONE) {
			key(w, &f, "children");
			raw(w, "[");
			for (uint32_t c = first_child[j]; c != NONE; c = next[c]) {
				if (c != first_child[j]) raw(w, ",");
				num(w, c);
			}
			raw(w, "]");
		}
		write_trs(w, &f, &e->rest[j]);
		raw(w, "}");
	}
	// One skin per root names the skeleton: it keeps unanimated joints (end sites, static leaves) part of the
	// skeleton for importers, which is the glTF way to say "these nodes are joints" without a mesh.
	uint32_t *stack = (uint32_t *)arena_array(e, c0->joint_count, sizeof(uint32_t));
	if (!stack) {
		w->failed = true;
		return;
	}
	raw(w, "],\"skins\":[");
	first = true;
	for (uint32_t root = 0; root < c0->joint_count; ++root) {
		if (c0->joints[root].parent >= 0) continue;
		if (!first) raw(w, ",");
		first = false;
		raw(w, "{");
		bool f = true;
		if (c0->joints[root].name) key(w, &f, "name"), sinewi_json_write_string(w, c0->joints[root].name);
		key(w, &f, "skeleton"), num(w, root);
		key(w, &f, "joints"), raw(w, "[");
		uint32_t top = 0, written = 0;
		stack[top++] = root;
		while (top) {
			uint32_t j = stack[--top];
			if (written++) raw(w, ",");
			num(w, j);
			uint32_t count = 0; // push children reversed so the first child comes out first
			for (uint32_t c = first_child[j]; c != NONE; c = next[c]) ++count;
			for (uint32_t c = first_child[j], i = 0; c != NONE; c = next[c], ++i) stack[top + count - 1 - i] = c;
			top += count;
		}
		raw(w, "]}");
	}
	raw(w, "]");
}

/* ---- document with a source: re-serialization with rewritten references ---- */

typedef enum member_action { MEMBER_COPY, MEMBER_DROP, MEMBER_CUSTOM } member_action;
// Decides what happens to one member; when `w` is not NULL, writes the member's value (MEMBER_CUSTOM).
typedef member_action (*member_hook)(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                     uint32_t index);

// True when member i of `object` is repeated later: lookups use the last one, so the output keeps only that.
// Objects with very many members (no glTF object has them) skip the quadratic check.
static bool repeated_later(const sinewi_json *object, uint32_t i) {
	if (object->count > 256) return false;
	for (uint32_t j = i + 1; j < object->count; ++j)
		if (strcmp(object->keys[i], object->keys[j]) == 0) return true;
	return false;
}

// Writes the members of `object` (without braces), hooks deciding what to copy, drop or rewrite.
static void emit_members(exporter *e, sinewi_json_writer *w, bool *first, const sinewi_json *object, member_hook hook,
                         uint32_t index) {
	if (!object || object->type != SINEWI_JSON_OBJECT) return;
	for (uint32_t i = 0; i < object->count; ++i) {
		if (repeated_later(object, i)) continue;
		member_action action = hook ? hook(e, NULL, object->keys[i], &object->children[i], index) : MEMBER_COPY;
		if (action == MEMBER_DROP) continue;
		key(w, first, object->keys[i]);
		if (action == MEMBER_COPY)
			sinewi_json_write_value(w, &object->children[i]);
		else
			hook(e, w, object->keys[i], &object->children[i], index);
	}
}

static void emit_object(exporter *e, sinewi_json_writer *w, const sinewi_json *object, member_hook hook,
                        uint32_t index) {
	bool first = true;
	raw(w, "{");
	emit_members(e, w, &first, object, hook, index);
	raw(w, "}");
}

static void emit_mapped(sinewi_json_writer *w, const sinewi_json *ref, const uint32_t *map, uint32_t count) {
	uint32_t i;
	if (sinewi_json_uint(ref, &i) && i < count && map[i] != NONE)
		num(w, map[i]);
	else
		sinewi_json_write_value(w, ref); // validated earlier; cannot happen for kept objects
}

static member_action hook_accessor_map(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                       uint32_t index) {
	(void)name, (void)index;
	if (w) emit_mapped(w, value, e->src->accessor_map, e->src->accessor_count);
	return MEMBER_CUSTOM;
}

static member_action hook_draco(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                uint32_t index) {
	(void)index;
	if (strcmp(name, "bufferView") != 0) return MEMBER_COPY;
	if (w) emit_mapped(w, value, e->src->view_map, e->src->view_count);
	return MEMBER_CUSTOM;
}

static member_action hook_prim_extensions(exporter *e, sinewi_json_writer *w, const char *name,
                                          const sinewi_json *value, uint32_t index) {
	if (strcmp(name, "KHR_draco_mesh_compression") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_draco, index);
	return MEMBER_CUSTOM;
}

static member_action hook_primitive(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                    uint32_t index) {
	if (strcmp(name, "attributes") == 0) {
		if (w) emit_object(e, w, value, hook_accessor_map, index);
	} else if (strcmp(name, "indices") == 0) {
		if (w) emit_mapped(w, value, e->src->accessor_map, e->src->accessor_count);
	} else if (strcmp(name, "targets") == 0 && value->type == SINEWI_JSON_ARRAY) {
		if (w) {
			raw(w, "[");
			for (uint32_t t = 0; t < value->count; ++t) {
				if (t) raw(w, ",");
				emit_object(e, w, &value->children[t], hook_accessor_map, index);
			}
			raw(w, "]");
		}
	} else if (strcmp(name, "extensions") == 0) {
		if (w) emit_object(e, w, value, hook_prim_extensions, index);
	} else {
		return MEMBER_COPY;
	}
	return MEMBER_CUSTOM;
}

static member_action hook_mesh(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                               uint32_t index) {
	if (strcmp(name, "primitives") != 0 || value->type != SINEWI_JSON_ARRAY) return MEMBER_COPY;
	if (w) {
		raw(w, "[");
		for (uint32_t p = 0; p < value->count; ++p) {
			if (p) raw(w, ",");
			emit_object(e, w, &value->children[p], hook_primitive, index);
		}
		raw(w, "]");
	}
	return MEMBER_CUSTOM;
}

static member_action hook_skin(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                               uint32_t index) {
	if (strcmp(name, "inverseBindMatrices") != 0) return MEMBER_COPY;
	return hook_accessor_map(e, w, name, value, index);
}

static member_action hook_instancing(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                     uint32_t index) {
	if (strcmp(name, "attributes") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_accessor_map, index);
	return MEMBER_CUSTOM;
}

static member_action hook_node_extensions(exporter *e, sinewi_json_writer *w, const char *name,
                                          const sinewi_json *value, uint32_t index) {
	if (strcmp(name, "EXT_mesh_gpu_instancing") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_instancing, index);
	return MEMBER_CUSTOM;
}

static member_action hook_node(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                               uint32_t index) {
	if (e->node_rewrite[index] && (strcmp(name, "matrix") == 0 || strcmp(name, "translation") == 0 ||
	                               strcmp(name, "rotation") == 0 || strcmp(name, "scale") == 0))
		return MEMBER_DROP;
	if (strcmp(name, "extensions") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_node_extensions, index);
	return MEMBER_CUSTOM;
}

static member_action hook_image(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                uint32_t index) {
	if (strcmp(name, "uri") == 0 && e->src->image_view[index] != NONE) return MEMBER_DROP;
	if (strcmp(name, "bufferView") != 0) return MEMBER_COPY;
	if (w) emit_mapped(w, value, e->src->view_map, e->src->view_count);
	return MEMBER_CUSTOM;
}

static member_action hook_sparse_part(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                      uint32_t index) {
	return hook_draco(e, w, name, value, index); // the same rewrite: its bufferView
}

static member_action hook_sparse(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                 uint32_t index) {
	if (strcmp(name, "indices") != 0 && strcmp(name, "values") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_sparse_part, index);
	return MEMBER_CUSTOM;
}

static member_action hook_accessor(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                   uint32_t index) {
	if (strcmp(name, "bufferView") == 0) {
		if (w) emit_mapped(w, value, e->src->view_map, e->src->view_count);
		return MEMBER_CUSTOM;
	}
	if (strcmp(name, "sparse") != 0) return MEMBER_COPY;
	if (w) emit_object(e, w, value, hook_sparse, index);
	return MEMBER_CUSTOM;
}

static member_action hook_view(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                               uint32_t index) {
	(void)e, (void)w, (void)value, (void)index;
	return strcmp(name, "buffer") == 0 || strcmp(name, "byteOffset") == 0 ? MEMBER_DROP : MEMBER_COPY;
}

static member_action hook_asset(exporter *e, sinewi_json_writer *w, const char *name, const sinewi_json *value,
                                uint32_t index) {
	(void)e, (void)w, (void)value, (void)index;
	return strcmp(name, "generator") == 0 ? MEMBER_DROP : MEMBER_COPY;
}

static void emit_array(exporter *e, sinewi_json_writer *w, const sinewi_json *array, member_hook hook,
                       const uint32_t *keep) {
	raw(w, "[");
	bool first = true;
	for (uint32_t i = 0; array && i < array->count; ++i) {
		if (keep && keep[i] == NONE) continue;
		if (!first) raw(w, ",");
		first = false;
		const sinewi_json *item = &array->children[i];
		if (item->type != SINEWI_JSON_OBJECT) {
			sinewi_json_write_value(w, item);
			continue;
		}
		raw(w, "{");
		bool f = true;
		emit_members(e, w, &f, item, hook, i);
		if (hook == hook_view) {
			key(w, &f, "buffer"), raw(w, "0");
			key(w, &f, "byteOffset"), num(w, (double)e->src->view_offset[i]);
		} else if (hook == hook_node && e->node_rewrite[i]) {
			write_trs(w, &f, &e->rest[i]);
		} else if (hook == hook_image && e->src->image_view[i] != NONE) {
			key(w, &f, "bufferView"), num(w, e->src->image_view[i]);
			if (e->src->image_mime[i]) key(w, &f, "mimeType"), sinewi_json_write_string(w, e->src->image_mime[i]);
		}
		raw(w, "}");
	}
	if (hook == hook_view && e->new_views) {
		if (!first) raw(w, ",");
		first = false;
		append(w, e->views.data, e->views.size);
	}
	if (hook == hook_accessor && e->new_accessors) {
		if (!first) raw(w, ",");
		append(w, e->accessors.data, e->accessors.size);
	}
	raw(w, "]");
}

static bool dropped_extension(const char *ext, bool keep_pointer) {
	return ext && ((!keep_pointer && strcmp(ext, "KHR_animation_pointer") == 0) || strcmp(ext, SINEWI_PACK_EXTENSION) == 0);
}

static bool lists_extension(const sinewi_json *list, const char *ext) {
	for (uint32_t i = 0; list && i < list->count; ++i) {
		const char *name = sinewi_json_string(&list->children[i]);
		if (name && strcmp(name, ext) == 0) return true;
	}
	return false;
}

// extensionsUsed/Required without the pack extension (re-added by pack as `add`), and without
// KHR_animation_pointer unless a pointer channel was written (node pointers become plain channels, and a
// packed file's animations are the blob); omitted when empty. `list` may be NULL. `add` is appended when
// the list lacks it.
static void emit_extension_list(sinewi_json_writer *w, bool *first, const char *name, const sinewi_json *list,
                                bool keep_pointer, const char *add) {
	if (add && lists_extension(list, add) && !dropped_extension(add, keep_pointer)) add = NULL;
	uint32_t kept = add ? 1 : 0;
	for (uint32_t i = 0; list && i < list->count; ++i)
		if (!dropped_extension(sinewi_json_string(&list->children[i]), keep_pointer)) kept++;
	if (!kept) return;
	key(w, first, name);
	raw(w, "[");
	kept = 0;
	for (uint32_t i = 0; list && i < list->count; ++i) {
		if (dropped_extension(sinewi_json_string(&list->children[i]), keep_pointer)) continue;
		if (kept++) raw(w, ",");
		sinewi_json_write_value(w, &list->children[i]);
	}
	if (add) {
		if (kept) raw(w, ",");
		sinewi_json_write_string(w, add);
	}
	raw(w, "]");
}

// The root extension object of a packed file (docs/gltf_extension.md). Clip names and durations are there
// so tools can list the animations without decoding; the blob is authoritative.
static void write_pack_extension(exporter *e, sinewi_json_writer *w) {
	const unsigned char *blob = (const unsigned char *)e->hook->blob;
	size_t size = e->hook->blob_size;
	raw(w, "{\"bufferView\":");
	num(w, e->blob_view);
	raw(w, ",\"version\":");
	num(w, (double)((unsigned)blob[4] | (unsigned)blob[5] << 8));
	raw(w, ",\"clips\":[");
	uint32_t count = sinew_blob_clip_count(blob, size);
	for (uint32_t i = 0; i < count; ++i) {
		sinew_clip_info info;
		memset(&info, 0, sizeof info);
		sinew_blob_clip_info(blob, size, i, &info, NULL); // the blob was validated: it cannot fail
		if (i) raw(w, ",");
		raw(w, "{");
		if (info.name) raw(w, "\"name\":"), sinewi_json_write_string(w, info.name), raw(w, ",");
		raw(w, "\"duration\":");
		num(w, info.duration);
		raw(w, "}");
	}
	raw(w, "]}");
}

// The root `extensions` object: the pack extension added (pack) or removed (unpack); omitted when empty.
static void emit_root_extensions(exporter *e, bool *first, const sinewi_json *value) {
	sinewi_json_writer *w = &e->json;
	bool pack = is_mode(e, SINEWI_EXPORT_PACK);
	uint32_t kept = pack ? 1 : 0;
	for (uint32_t i = 0; value && value->type == SINEWI_JSON_OBJECT && i < value->count; ++i)
		if (strcmp(value->keys[i], SINEWI_PACK_EXTENSION) != 0) kept++;
	if (value && value->type != SINEWI_JSON_OBJECT) {
		key(w, first, "extensions"), sinewi_json_write_value(w, value); // not ours to repair
		return;
	}
	if (!kept) return;
	key(w, first, "extensions");
	raw(w, "{");
	bool f = true;
	for (uint32_t i = 0; value && i < value->count; ++i) {
		if (strcmp(value->keys[i], SINEWI_PACK_EXTENSION) == 0 || repeated_later(value, i)) continue;
		key(w, &f, value->keys[i]);
		sinewi_json_write_value(w, &value->children[i]);
	}
	if (pack) key(w, &f, SINEWI_PACK_EXTENSION), write_pack_extension(e, w);
	raw(w, "}");
}

static void write_buffers_member(exporter *e, bool *first, bool binary) {
	sinewi_json_writer *w = &e->json;
	key(w, first, "buffers");
	raw(w, "[{\"byteLength\":");
	num(w, (double)e->bin.size);
	if (!binary) {
		raw(w, ",\"uri\":\"data:application/octet-stream;base64,");
		base64_encode(w, (const unsigned char *)e->bin.data, e->bin.size);
		raw(w, "\"");
	}
	raw(w, "}]");
}

static void write_source_document(exporter *e, bool binary) {
	source_doc *s = e->src;
	sinewi_json_writer *w = &e->json;
	const sinewi_json *root = s->root;
	bool first = true, wrote_anims = false, wrote_acc = false, wrote_views = false, wrote_buffers = false;
	bool pack = is_mode(e, SINEWI_EXPORT_PACK), wrote_ext = false, wrote_used = false;
	raw(w, "{");
	for (uint32_t i = 0; i < root->count; ++i) {
		const char *name = root->keys[i];
		const sinewi_json *value = &root->children[i];
		if (repeated_later(root, i)) continue;
		if (strcmp(name, "animations") == 0) {
			wrote_anims = true;
			if (pack) continue; // the blob replaces them
			key(w, &first, "animations");
			raw(w, "["), append(w, e->anims.data, e->anims.size), raw(w, "]");
			wrote_anims = true;
		} else if (strcmp(name, "buffers") == 0) {
			write_buffers_member(e, &first, binary);
			wrote_buffers = true;
		} else if (strcmp(name, "bufferViews") == 0) {
			key(w, &first, name);
			emit_array(e, w, s->views, hook_view, s->view_map);
			wrote_views = true;
		} else if (strcmp(name, "accessors") == 0) {
			key(w, &first, name);
			emit_array(e, w, s->accessors, hook_accessor, s->accessor_map);
			wrote_acc = true;
		} else if (strcmp(name, "asset") == 0) {
			key(w, &first, name);
			raw(w, "{");
			bool f = true;
			emit_members(e, w, &f, value, hook_asset, 0);
			key(w, &f, "generator"), raw(w, "\"sinew " SINEW_VERSION_STRING "\"");
			raw(w, "}");
		} else if (strcmp(name, "meshes") == 0 && value->type == SINEWI_JSON_ARRAY) {
			key(w, &first, name), emit_array(e, w, value, hook_mesh, NULL);
		} else if (strcmp(name, "skins") == 0 && value->type == SINEWI_JSON_ARRAY) {
			key(w, &first, name), emit_array(e, w, value, hook_skin, NULL);
		} else if (strcmp(name, "nodes") == 0 && value->type == SINEWI_JSON_ARRAY) {
			key(w, &first, name), emit_array(e, w, value, hook_node, NULL);
		} else if (strcmp(name, "images") == 0 && value->type == SINEWI_JSON_ARRAY) {
			key(w, &first, name), emit_array(e, w, value, hook_image, NULL);
		} else if ((strcmp(name, "extensionsUsed") == 0 || strcmp(name, "extensionsRequired") == 0) &&
		           value->type == SINEWI_JSON_ARRAY) {
			bool used = strcmp(name, "extensionsUsed") == 0;
			wrote_used = wrote_used || used;
			// extensionsUsed only: a viewer without the extension shows the static model (valid glTF).
			const char *add = pack && used ? SINEWI_PACK_EXTENSION
			                  : e->pointer_channels && used ? "KHR_animation_pointer" : NULL;
			emit_extension_list(w, &first, name, value, e->pointer_channels, add);
		} else if (strcmp(name, "extensions") == 0 && e->hook) {
			emit_root_extensions(e, &first, value);
			wrote_ext = true;
		} else {
			key(w, &first, name);
			sinewi_json_write_value(w, value);
		}
	}
	if (!wrote_anims && !pack)
		key(w, &first, "animations"), raw(w, "["), append(w, e->anims.data, e->anims.size), raw(w, "]");
	if (pack && !wrote_ext) emit_root_extensions(e, &first, NULL);
	if (pack && !wrote_used) emit_extension_list(w, &first, "extensionsUsed", NULL, false, SINEWI_PACK_EXTENSION);
	if (!pack && !wrote_used && e->pointer_channels)
		emit_extension_list(w, &first, "extensionsUsed", NULL, true, "KHR_animation_pointer");
	if (!wrote_acc) key(w, &first, "accessors"), emit_array(e, w, NULL, hook_accessor, NULL);
	if (!wrote_views) key(w, &first, "bufferViews"), emit_array(e, w, NULL, hook_view, NULL);
	if (!wrote_buffers) write_buffers_member(e, &first, binary);
	raw(w, "}");
}

/* ---- output file ---- */

static sinew_result write_file(exporter *e, const char *path, bool binary) {
	if (e->json.failed || e->bin.failed) return out_of_memory(e);
	unsigned char header[28];
	size_t json_padded = 0, bin_padded = 0;
	if (binary) {
		json_padded = (e->json.size + 3) & ~(size_t)3;
		// Pack: more trailing spaces put the BIN chunk's data (file offset 28 + JSON) on a 16-byte boundary,
		// so the blob is 16-byte aligned in the file too (a loader can map the file and use it in place).
		if (is_mode(e, SINEWI_EXPORT_PACK)) json_padded = ((json_padded + 28 + 15) & ~(size_t)15) - 28;
		bin_padded = (e->bin.size + 3) & ~(size_t)3;
		uint64_t total = 12 + 8 + (uint64_t)json_padded + (e->bin.size ? 8 + (uint64_t)bin_padded : 0);
		SINEWI_CHECK(total <= UINT32_MAX, e->error, SINEW_RESULT_UNSUPPORTED,
		             "export: %s: %llu bytes exceed the 4 GiB limit of a .glb", path, (unsigned long long)total);
		put_u32(header, GLB_MAGIC), put_u32(header + 4, 2), put_u32(header + 8, (uint32_t)total);
		put_u32(header + 12, (uint32_t)json_padded), put_u32(header + 16, GLB_JSON);
	}
	sinewi_export_file out;
	SINEWI_TRY(sinewi_export_open(path, &out, e->error));
	FILE *f = out.f;
	bool ok;
	if (binary) {
		static const char spaces[16] = "               ", zeros[4] = {0, 0, 0, 0};
		ok = fwrite(header, 1, 20, f) == 20 && fwrite(e->json.data, 1, e->json.size, f) == e->json.size &&
		     fwrite(spaces, 1, json_padded - e->json.size, f) == json_padded - e->json.size;
		if (ok && e->bin.size) {
			put_u32(header + 20, (uint32_t)bin_padded), put_u32(header + 24, GLB_BIN);
			ok = fwrite(header + 20, 1, 8, f) == 8 && fwrite(e->bin.data, 1, e->bin.size, f) == e->bin.size &&
			     fwrite(zeros, 1, bin_padded - e->bin.size, f) == bin_padded - e->bin.size;
		}
	} else {
		ok = fwrite(e->json.data, 1, e->json.size, f) == e->json.size;
	}
	return sinewi_export_close(&out, ok, e->error);
}

/* ---- entry points ---- */

static void free_source(exporter *e) {
	if (!e->src) return;
	for (uint32_t i = 0; i < e->src->buffer_count && e->src->buffer; ++i)
		if (e->src->buffer[i].owned) sinewi_free(&e->al, e->src->buffer[i].owned, e->src->buffer[i].owned_size);
	if (e->src->file) sinewi_free(&e->al, e->src->file, e->src->file_size + 1);
}

static sinew_result check_clips(exporter *e) {
	const sinew_clip_set *set = e->set;
	for (uint32_t i = 0; i < set->clip_count; ++i) {
		const sinew_clip *clip = set->clips[i];
		SINEWI_CHECK(clip, e->error, SINEW_RESULT_INVALID_ARGUMENT, "export: clip %u is NULL", i);
		sinew_error inner = {0};
		sinew_result r = sinew_clip_validate(clip, &inner);
		if (r != SINEW_RESULT_OK)
			return sinewi_fail(e->error, r, "export: clip %u ('%s'): %s", i, clip_label(clip), inner.message);
		SINEWI_CHECK(isfinite(clip->unit_scale) && clip->unit_scale > 0.0, e->error, SINEW_RESULT_INVALID_ARGUMENT,
		             "export: clip %u ('%s'): unit_scale %g is not a positive finite number", i, clip_label(clip),
		             clip->unit_scale);
		// Translations in metres must stay finite float32 (a tiny unit_scale could overflow them).
		double largest = 0.0;
		for (size_t k = 0; k < (size_t)clip->sample_count * clip->joint_count; ++k)
			for (int c = 0; c < 3; ++c) largest = fmax(largest, fabs((double)clip->transforms[k].translation[c]));
		for (uint32_t j = 0; j < clip->joint_count; ++j)
			for (int c = 0; c < 3; ++c)
				largest = fmax(largest, fabs((double)clip->joints[j].default_pose.translation[c]));
		SINEWI_CHECK(isfinite(to_float(largest / clip->unit_scale)), e->error, SINEW_RESULT_NOT_FINITE,
		             "export: clip %u ('%s'): translation %g / unit_scale %g overflows float in metres", i,
		             clip_label(clip), largest, clip->unit_scale);
	}
	return SINEW_RESULT_OK;
}

static sinew_result export_run(exporter *e, const char *path, const sinew_export_options *options, bool binary) {
	SINEWI_TRY(check_clips(e));
	const char *source_path = options ? options->source_path : NULL;
	if (source_path) {
		e->src = (source_doc *)sinewi_arena_alloc(&e->arena, sizeof(source_doc));
		if (!e->src) return out_of_memory(e);
		SINEWI_TRY(parse_source(e, source_path));
		e->node_count = e->src->node_count;
	} else {
		SINEWI_TRY(check_skeletons(e));
		e->node_count = e->set->clips[0]->joint_count;
	}
	e->rest = (rest_trs *)arena_array(e, e->node_count, sizeof(rest_trs));
	e->node_rewrite = (uint8_t *)arena_array(e, e->node_count, 1);
	e->node_stamp = (uint32_t *)arena_array(e, e->node_count, sizeof(uint32_t));
	if (!e->rest || !e->node_rewrite || !e->node_stamp) return out_of_memory(e);
	if (is_mode(e, SINEWI_EXPORT_PACK)) {
		// No animation is written: nodes stay as they are; the blob follows the kept data, 16-byte aligned
		// (docs/format.md: zero-copy contexts need an aligned blob; glTF alone guarantees 4).
		SINEWI_TRY(mark_used(e));
		SINEWI_TRY(copy_views(e));
		SINEWI_TRY(embed_images(e));
		pad(&e->bin, 16, 0);
		e->blob_view = e->view_count++;
		size_t start = e->bin.size;
		append(&e->bin, e->hook->blob, e->hook->blob_size);
		if (e->new_views++) raw(&e->views, ",");
		raw(&e->views, "{\"buffer\":0,\"byteOffset\":");
		num(&e->views, (double)start);
		raw(&e->views, ",\"byteLength\":");
		num(&e->views, (double)e->hook->blob_size);
		raw(&e->views, "}");
		if (e->views.failed || e->bin.failed) return out_of_memory(e);
		write_source_document(e, binary);
		return write_file(e, path, binary);
	}
	if (e->src) {
		SINEWI_TRY(read_source_nodes(e));
		// glTF forbids animating a node given by a matrix: such nodes become TRS from the joint's default pose.
		for (uint32_t c = 0; c < e->set->clip_count; ++c) {
			const sinew_clip *clip = e->set->clips[c];
			for (uint32_t j = 0; j < clip->joint_count; ++j) {
				const sinew_joint *joint = &clip->joints[j];
				if (!joint->has_track || joint->source_index < 0 || (uint32_t)joint->source_index >= e->node_count)
					continue;
				uint32_t n = (uint32_t)joint->source_index;
				if (e->node_rewrite[n] || !sinewi_json_get(sinewi_json_at(e->src->nodes, n), "matrix")) continue;
				e->node_rewrite[n] = 1;
				qvv_to_rest(&joint->default_pose, clip->unit_scale, &e->rest[n]);
			}
		}
		SINEWI_TRY(mark_used(e));
		SINEWI_TRY(copy_views(e));
		SINEWI_TRY(embed_images(e));
	} else {
		const sinew_clip *c0 = e->set->clips[0];
		for (uint32_t j = 0; j < c0->joint_count; ++j)
			qvv_to_rest(&c0->joints[j].default_pose, c0->unit_scale, &e->rest[j]);
	}
	pad(&e->bin, 4, 0);
	e->anim_view = e->view_count++;
	e->anim_start = e->bin.size;
	SINEWI_TRY(analyse_clips(e));
	for (uint32_t c = 0; c < e->set->clip_count; ++c) SINEWI_TRY(write_clip(e, c));
	if (e->new_views++) raw(&e->views, ",");
	raw(&e->views, "{\"buffer\":0");
	if (e->anim_start) raw(&e->views, ",\"byteOffset\":"), num(&e->views, (double)e->anim_start);
	raw(&e->views, ",\"byteLength\":");
	num(&e->views, (double)(e->bin.size - e->anim_start));
	raw(&e->views, "}");
	if (e->views.failed || e->accessors.failed || e->anims.failed || e->bin.failed) return out_of_memory(e);
	if (e->src) {
		write_source_document(e, binary);
	} else {
		write_plain_document(e);
		sinewi_json_writer *w = &e->json;
		bool first = false;
		key(w, &first, "animations"), raw(w, "["), append(w, e->anims.data, e->anims.size), raw(w, "]");
		key(w, &first, "accessors"), raw(w, "["), append(w, e->accessors.data, e->accessors.size), raw(w, "]");
		key(w, &first, "bufferViews"), raw(w, "["), append(w, e->views.data, e->views.size), raw(w, "]");
		write_buffers_member(e, &first, binary);
		raw(w, "}");
	}
	return write_file(e, path, binary);
}

sinew_result sinewi_export_gltf_hooked(const sinew_clip_set *set, const char *path, const sinew_export_options *options,
                                       const sinewi_export_hook *hook, const sinew_allocator *allocator,
                                       sinew_error *error) {
	SINEWI_CHECK(set && path && *path, error, SINEW_RESULT_INVALID_ARGUMENT, "export: NULL clip set or path");
	SINEWI_CHECK(set->clip_count > 0 && set->clips, error, SINEW_RESULT_INVALID_ARGUMENT,
	             "export: the clip set is empty");
	int binary_option = options ? options->binary : -1;
	SINEWI_CHECK(binary_option >= -1 && binary_option <= 1, error, SINEW_RESULT_INVALID_ARGUMENT,
	             "export: options.binary must be -1, 0 or 1 (got %d)", binary_option);
	bool binary = binary_option == 1 || (binary_option == -1 && ends_with_ci(path, ".glb"));
	exporter e;
	memset(&e, 0, sizeof e);
	e.set = set;
	e.hook = hook;
	e.error = error;
	e.allocator = allocator;
	e.al = sinewi_alloc_from(allocator);
	sinewi_arena_init(&e.arena, allocator);
	sinewi_json_writer_init(&e.bin, allocator);
	sinewi_json_writer_init(&e.views, allocator);
	sinewi_json_writer_init(&e.accessors, allocator);
	sinewi_json_writer_init(&e.anims, allocator);
	sinewi_json_writer_init(&e.json, allocator);
	sinew_result r = SINEW_RESULT_INVALID_ARGUMENT;
	if (hook && (!options || !options->source_path))
		sinewi_fail(error, r, "export: pack/unpack need a source document");
	else
		r = export_run(&e, path, options, binary);
	free_source(&e);
	sinewi_json_writer_free(&e.bin);
	sinewi_json_writer_free(&e.views);
	sinewi_json_writer_free(&e.accessors);
	sinewi_json_writer_free(&e.anims);
	sinewi_json_writer_free(&e.json);
	sinewi_arena_free(&e.arena);
	return r;
}

sinew_result sinew_export_gltf(const sinew_clip_set *set, const char *path, const sinew_export_options *options,
                               const sinew_allocator *allocator, sinew_error *error) {
	return sinewi_export_gltf_hooked(set, path, options, NULL, allocator, error);
}

/* ---- reading a packed file's blob ---- */

static sinew_result read_packed(exporter *e, const char *path, void **out_blob, size_t *out_size, uint32_t *out_view) {
	e->src = (source_doc *)sinewi_arena_alloc(&e->arena, sizeof(source_doc));
	if (!e->src) return out_of_memory(e);
	source_doc *s = e->src;
	SINEWI_TRY(parse_source(e, path));
	const sinewi_json *ext = sinewi_json_get(sinewi_json_get(s->root, "extensions"), SINEWI_PACK_EXTENSION);
	SINEWI_CHECK(ext, e->error, SINEW_RESULT_UNSUPPORTED, "%s: no %s extension (not a packed file)", path,
	             SINEWI_PACK_EXTENSION);
	SINEWI_CHECK(ext->type == SINEWI_JSON_OBJECT, e->error, SINEW_RESULT_CORRUPT, "%s: %s is not an object", path,
	             SINEWI_PACK_EXTENSION);
	uint32_t v, version, buffer, offset = 0, length;
	SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(ext, "version"), &version), e->error, SINEW_RESULT_CORRUPT,
	             "%s: %s: missing or invalid version", path, SINEWI_PACK_EXTENSION);
	SINEWI_CHECK(version >= SINEW_FMT_VERSION_FIRST && version <= SINEW_FMT_VERSION_LATEST, e->error,
	             SINEW_RESULT_BAD_VERSION, "%s: %s: format version %u (this library reads %u..%u)", path,
	             SINEWI_PACK_EXTENSION, version, SINEW_FMT_VERSION_FIRST, SINEW_FMT_VERSION_LATEST);
	SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(ext, "bufferView"), &v) && v < s->view_count, e->error,
	             SINEW_RESULT_CORRUPT, "%s: %s: bufferView reference out of range (%u bufferViews)", path,
	             SINEWI_PACK_EXTENSION, s->view_count);
	const sinewi_json *clips = sinewi_json_get(ext, "clips");
	SINEWI_CHECK(clips && clips->type == SINEWI_JSON_ARRAY, e->error, SINEW_RESULT_CORRUPT,
	             "%s: %s: missing or invalid clips", path, SINEWI_PACK_EXTENSION);
	const sinewi_json *view = sinewi_json_at(s->views, v);
	SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(view, "buffer"), &buffer) && buffer < s->buffer_count, e->error,
	             SINEW_RESULT_CORRUPT, "%s: bufferView %u: buffer reference out of range", path, v);
	const sinewi_json *off = sinewi_json_get(view, "byteOffset");
	SINEWI_CHECK(!off || sinewi_json_uint(off, &offset), e->error, SINEW_RESULT_CORRUPT,
	             "%s: bufferView %u: invalid byteOffset", path, v);
	SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(view, "byteLength"), &length), e->error, SINEW_RESULT_CORRUPT,
	             "%s: bufferView %u: missing or invalid byteLength", path, v);
	SINEWI_TRY(load_buffer(e, buffer));
	const src_buffer *b = &s->buffer[buffer];
	SINEWI_CHECK((uint64_t)offset + length <= b->byte_length, e->error, SINEW_RESULT_CORRUPT,
	             "%s: bufferView %u: bytes %u..%llu exceed buffer %u (%u bytes)", path, v, offset,
	             (unsigned long long)offset + length, buffer, b->byte_length);
	SINEWI_CHECK(length > 0, e->error, SINEW_RESULT_TRUNCATED, "%s: bufferView %u is empty", path, v);
	// A copy: the blob must be 16-byte aligned and stay valid after the file is freed.
	void *blob = sinewi_malloc(&e->al, length);
	if (!blob) return out_of_memory(e);
	memcpy(blob, b->data + offset, length);
	sinew_error inner = {0};
	sinew_result r = sinew_validate(blob, length, &inner);
	if (r == SINEW_RESULT_OK && sinew_blob_clip_count(blob, length) != clips->count)
		r = sinewi_fail(&inner, SINEW_RESULT_CORRUPT, "the extension lists %u clips, the blob holds %u", clips->count,
		                sinew_blob_clip_count(blob, length));
	if (r != SINEW_RESULT_OK) {
		sinewi_free(&e->al, blob, length);
		return sinewi_fail(e->error, r, "%s: bufferView %u (compressed animation): %s", path, v, inner.message);
	}
	*out_blob = blob;
	*out_size = length;
	*out_view = v;
	return SINEW_RESULT_OK;
}

sinew_result sinewi_read_packed_blob(const char *path, const sinew_allocator *allocator, void **out_blob,
                                     size_t *out_size, uint32_t *out_view, sinew_error *error) {
	exporter e;
	memset(&e, 0, sizeof e);
	e.error = error;
	e.allocator = allocator;
	e.al = sinewi_alloc_from(allocator);
	sinewi_arena_init(&e.arena, allocator);
	*out_blob = NULL;
	*out_size = 0;
	sinew_result r = read_packed(&e, path, out_blob, out_size, out_view);
	free_source(&e);
	sinewi_arena_free(&e.arena);
	return r;
}

/* ---- size report ---- */

static uint64_t accessor_bytes(const sinewi_json *acc) {
	uint32_t count, type_size;
	if (!sinewi_json_uint(sinewi_json_get(acc, "count"), &count) ||
	    !sinewi_json_uint(sinewi_json_get(acc, "componentType"), &type_size))
		return 0;
	type_size = type_size == 5120 || type_size == 5121 ? 1 : type_size == 5122 || type_size == 5123 ? 2 : 4;
	const char *type = sinewi_json_string(sinewi_json_get(acc, "type"));
	static const char *const names[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"};
	static const uint32_t components[] = {1, 2, 3, 4, 4, 9, 16};
	for (size_t i = 0; type && i < sizeof names / sizeof names[0]; ++i)
		if (strcmp(type, names[i]) == 0) return (uint64_t)count * components[i] * type_size;
	return 0;
}

static sinew_result gltf_sizes(exporter *e, const char *path, sinew_gltf_sizes *out) {
	e->src = (source_doc *)sinewi_arena_alloc(&e->arena, sizeof(source_doc));
	if (!e->src) return out_of_memory(e);
	source_doc *s = e->src;
	SINEWI_TRY(parse_source(e, path));
	out->file_bytes = s->file_size;
	// Each accessor once, however many samplers share it (the common time accessor).
	uint8_t *seen = (uint8_t *)arena_array(e, s->accessor_count, 1);
	if (!seen) return out_of_memory(e);
	const sinewi_json *anims = sinewi_json_get(s->root, "animations");
	for (uint32_t a = 0; anims && anims->type == SINEWI_JSON_ARRAY && a < anims->count; ++a) {
		const sinewi_json *samplers = sinewi_json_get(&anims->children[a], "samplers");
		for (uint32_t k = 0; samplers && samplers->type == SINEWI_JSON_ARRAY && k < samplers->count; ++k) {
			for (int io = 0; io < 2; ++io) {
				uint32_t acc;
				if (!sinewi_json_uint(sinewi_json_get(&samplers->children[k], io ? "output" : "input"), &acc) ||
				    acc >= s->accessor_count || seen[acc])
					continue;
				seen[acc] = 1;
				out->keyframe_bytes += accessor_bytes(sinewi_json_at(s->accessors, acc));
			}
		}
	}
	uint32_t v, length;
	const sinewi_json *ext = sinewi_json_get(sinewi_json_get(s->root, "extensions"), SINEWI_PACK_EXTENSION);
	if (sinewi_json_uint(sinewi_json_get(ext, "bufferView"), &v) &&
	    sinewi_json_uint(sinewi_json_get(sinewi_json_at(s->views, v), "byteLength"), &length))
		out->compressed_bytes = length;
	return SINEW_RESULT_OK;
}

sinew_result sinew_gltf_sizes_of(const char *path, const sinew_allocator *allocator, sinew_gltf_sizes *out,
                                 sinew_error *error) {
	SINEWI_CHECK(path && out, error, SINEW_RESULT_INVALID_ARGUMENT, "gltf sizes: NULL argument");
	memset(out, 0, sizeof *out);
	exporter e;
	memset(&e, 0, sizeof e);
	e.error = error;
	e.allocator = allocator;
	e.al = sinewi_alloc_from(allocator);
	sinewi_arena_init(&e.arena, allocator);
	sinew_result r = gltf_sizes(&e, path, out);
	free_source(&e);
	sinewi_arena_free(&e.arena);
	return r;
}

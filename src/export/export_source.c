// sinew — see include/sinew.h for version and licence
// The source document of an export (the .gltf/.glb the clips were imported from), read: the file and its GLB
// chunks, the JSON and its top-level arrays, buffers (GLB BIN chunk, external .bin files, base64 data: URIs),
// the nodes' rest TRS. Only relative paths without ".." are read.
#include "../import/import_internal.h"
#include "export_gltf.h"

#include <stdio.h>
#include <string.h>

static uint32_t read_u32(const unsigned char *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void rest_identity(sinewi_rest_trs *r) {
	memset(r, 0, sizeof *r);
	r->r[3] = 1.0f;
	r->s[0] = r->s[1] = r->s[2] = 1.0f;
}

static int hex_value(char c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

sinew_result sinewi_source_load_uri(sinewi_exporter *e, const char *uri, const char *what, unsigned char **out,
                                    size_t *out_size, size_t *out_alloc) {
	sinewi_source_doc *s = e->src;
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
		if (!data) return sinewi_export_oom(e);
		size_t n = 0;
		if (!sinewi_base64_decode(text, length, data, &n)) {
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

sinew_result sinewi_source_load_buffer(sinewi_exporter *e, uint32_t index) {
	sinewi_source_doc *s = e->src;
	sinewi_source_buffer *b = &s->buffer[index];
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
	SINEWI_TRY(sinewi_source_load_uri(e, uri, what, &b->owned, &b->size, &b->owned_size));
	b->data = b->owned;
	SINEWI_CHECK(b->byte_length <= b->size, e->error, SINEW_RESULT_TRUNCATED,
	             "%s: buffer %u: byteLength %u but only %zu bytes available", s->path, index, b->byte_length, b->size);
	return SINEW_RESULT_OK;
}

static const sinewi_json *array_member(sinewi_exporter *e, const char *name, uint32_t *count, sinew_result *r) {
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

sinew_result sinewi_source_parse(sinewi_exporter *e, const char *path) {
	sinewi_source_doc *s = e->src;
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
	if (s->file_size >= 4 && read_u32(s->file) == SINEWI_GLB_MAGIC) {
		SINEWI_CHECK(s->file_size >= 20, e->error, SINEW_RESULT_TRUNCATED, "%s: GLB header truncated", path);
		uint32_t version = read_u32(s->file + 4), length = read_u32(s->file + 8);
		SINEWI_CHECK(version == 2, e->error, SINEW_RESULT_UNSUPPORTED, "%s: GLB version %u (only glTF 2.0 is supported)", path,
		             version);
		SINEWI_CHECK(length <= s->file_size && length >= 20, e->error, SINEW_RESULT_TRUNCATED,
		             "%s: GLB length %u but the file has %zu bytes", path, length, s->file_size);
		uint32_t json_length = read_u32(s->file + 12);
		SINEWI_CHECK(read_u32(s->file + 16) == SINEWI_GLB_JSON, e->error, SINEW_RESULT_CORRUPT,
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
			if (type == SINEWI_GLB_BIN && !s->has_glb_bin) {
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
	// glTF 1.0 (a number, or "1.0") is named as the importer names it ('skins' is not an array, said
	// decompress --source of assimp's CesiumMilkTruck.gltf)
	const sinewi_json *version = sinewi_json_get(sinewi_json_get(root, "asset"), "version");
	double number = 0.0;
	if (version && version->type == SINEWI_JSON_NUMBER && sinewi_json_number(version, &number))
		return sinewi_fail(e->error, SINEW_RESULT_UNSUPPORTED, "%s: glTF version %g (only 2.x is supported)", path, number);
	const char *text_version = sinewi_json_string(version);
	if (text_version && (text_version[0] != '2' || text_version[1] != '.'))
		return sinewi_fail(e->error, SINEW_RESULT_UNSUPPORTED, "%s: glTF version \"%.16s\" (only 2.x is supported)", path,
		                   text_version);
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
		SINEWI_CHECK(!sinewi_export_is_mode(e, SINEWI_EXPORT_PACK) || strcmp(name, SINEWI_PACK_EXTENSION) != 0,
		             e->error, SINEW_RESULT_UNSUPPORTED, "%s: already uses %s (unpack it first)", path, name);
	}
	s->buffer = (sinewi_source_buffer *)sinewi_export_array(e, s->buffer_count, sizeof(sinewi_source_buffer));
	s->view_map = (uint32_t *)sinewi_export_array(e, s->view_count, sizeof(uint32_t));
	s->view_offset = (size_t *)sinewi_export_array(e, s->view_count, sizeof(size_t));
	s->accessor_map = (uint32_t *)sinewi_export_array(e, s->accessor_count, sizeof(uint32_t));
	s->image_view = (uint32_t *)sinewi_export_array(e, s->image_count, sizeof(uint32_t));
	s->image_mime = (const char **)sinewi_export_array(e, s->image_count, sizeof(const char *));
	if (!s->buffer || !s->view_map || !s->view_offset || !s->accessor_map || !s->image_view || !s->image_mime)
		return sinewi_export_oom(e);
	for (uint32_t i = 0; i < s->buffer_count; ++i) {
		const sinewi_json *b = sinewi_json_at(s->buffers, i);
		SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(b, "byteLength"), &s->buffer[i].byte_length), e->error,
		             SINEW_RESULT_CORRUPT, "%s: buffer %u: missing or invalid byteLength", path, i);
	}
	for (uint32_t i = 0; i < s->view_count; ++i) s->view_map[i] = SINEWI_EXPORT_NONE;
	for (uint32_t i = 0; i < s->accessor_count; ++i) s->accessor_map[i] = SINEWI_EXPORT_NONE;
	for (uint32_t i = 0; i < s->image_count; ++i) s->image_view[i] = SINEWI_EXPORT_NONE;
	return SINEW_RESULT_OK;
}

static sinew_result read_floats(sinewi_exporter *e, const sinewi_json *node, const char *name, uint32_t n, float *out,
                                uint32_t index) {
	const sinewi_json *v = sinewi_json_get(node, name);
	if (!v) return SINEW_RESULT_OK;
	SINEWI_CHECK(v->type == SINEWI_JSON_ARRAY && v->count == n, e->error, SINEW_RESULT_CORRUPT,
	             "%s: node %u: '%s' must be an array of %u numbers", e->src->path, index, name, n);
	for (uint32_t i = 0; i < n; ++i) {
		double d;
		SINEWI_CHECK(sinewi_json_number(&v->children[i], &d), e->error, SINEW_RESULT_CORRUPT,
		             "%s: node %u: '%s' must be an array of %u numbers", e->src->path, index, name, n);
		out[i] = sinewi_export_to_float(d);
	}
	return SINEW_RESULT_OK;
}

sinew_result sinewi_source_read_nodes(sinewi_exporter *e) {
	sinewi_source_doc *s = e->src;
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

uint32_t sinewi_source_target_count(const sinewi_source_doc *s, uint32_t node, const sinewi_json **mesh_out) {
	uint32_t mesh;
	*mesh_out = NULL;
	if (!sinewi_json_uint(sinewi_json_get(sinewi_json_at(s->nodes, node), "mesh"), &mesh) || mesh >= s->mesh_count)
		return 0;
	const sinewi_json *m = sinewi_json_at(s->meshes, mesh);
	*mesh_out = m;
	const sinewi_json *targets = sinewi_json_get(sinewi_json_at(sinewi_json_get(m, "primitives"), 0), "targets");
	return targets && targets->type == SINEWI_JSON_ARRAY ? targets->count : 0;
}

void sinewi_source_free(sinewi_exporter *e) {
	if (!e->src) return;
	for (uint32_t i = 0; i < e->src->buffer_count && e->src->buffer; ++i)
		if (e->src->buffer[i].owned) sinewi_free(&e->al, e->src->buffer[i].owned, e->src->buffer[i].owned_size);
	if (e->src->file) sinewi_free(&e->al, e->src->file, e->src->file_size + 1);
}

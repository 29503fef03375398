// sinew — see include/sinew.h for version and licence
// The source document's binary data in the output, all in ONE buffer: the accessors and bufferViews the kept
// document uses are marked and copied (only those when every extension of the document is one whose references
// are rewritten, export_document.c; otherwise all of them), and images given by URI are embedded so the output
// stands alone.
#include "export_gltf.h"

#include <stdio.h>
#include <string.h>

static sinew_result use_accessor(sinewi_exporter *e, const sinewi_json *ref, const char *where, uint32_t a,
                                 uint32_t b) {
	sinewi_source_doc *s = e->src;
	uint32_t index;
	SINEWI_CHECK(sinewi_json_uint(ref, &index) && index < s->accessor_count, e->error, SINEW_RESULT_CORRUPT,
	             "%s: %s %u/%u: accessor reference out of range", s->path, where, a, b);
	s->accessor_map[index] = 0; // marked; numbered later
	return SINEW_RESULT_OK;
}

static sinew_result use_view(sinewi_exporter *e, const sinewi_json *ref, const char *where, uint32_t a) {
	sinewi_source_doc *s = e->src;
	uint32_t index;
	SINEWI_CHECK(sinewi_json_uint(ref, &index) && index < s->view_count, e->error, SINEW_RESULT_CORRUPT,
	             "%s: %s %u: bufferView reference out of range", s->path, where, a);
	s->view_map[index] = 0;
	return SINEW_RESULT_OK;
}

static sinew_result use_attribute_map(sinewi_exporter *e, const sinewi_json *map, const char *where, uint32_t a,
                                      uint32_t b) {
	if (!map) return SINEW_RESULT_OK;
	SINEWI_CHECK(map->type == SINEWI_JSON_OBJECT, e->error, SINEW_RESULT_CORRUPT,
	             "%s: %s %u/%u: attributes are not an object", e->src->path, where, a, b);
	for (uint32_t i = 0; i < map->count; ++i) SINEWI_TRY(use_accessor(e, &map->children[i], where, a, b));
	return SINEW_RESULT_OK;
}

// Unpack: the blob's bufferView leaves the document. Nothing kept may point at it (a hostile file could
// make an accessor or image read the blob; dropping the view would leave that reference dangling).
static sinew_result drop_blob_view(sinewi_exporter *e) {
	sinewi_source_doc *s = e->src;
	uint32_t v = e->hook->blob_view, ref;
	SINEWI_CHECK(v < s->view_count, e->error, SINEW_RESULT_CORRUPT, "%s: bufferView %u does not exist", s->path, v);
	for (uint32_t a = 0; a < s->accessor_count; ++a) {
		if (s->accessor_map[a] == SINEWI_EXPORT_NONE) continue;
		const sinewi_json *acc = sinewi_json_at(s->accessors, a), *sparse = sinewi_json_get(acc, "sparse");
		bool hit = sinewi_json_uint(sinewi_json_get(acc, "bufferView"), &ref) && ref == v;
		hit = hit ||
		      (sinewi_json_uint(sinewi_json_get(sinewi_json_get(sparse, "indices"), "bufferView"), &ref) && ref == v);
		hit = hit ||
		      (sinewi_json_uint(sinewi_json_get(sinewi_json_get(sparse, "values"), "bufferView"), &ref) && ref == v);
		SINEWI_CHECK(!hit, e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u holds the compressed animation but accessor %u also uses it", s->path, v, a);
	}
	for (uint32_t i = 0; i < s->image_count; ++i)
		SINEWI_CHECK(!(sinewi_json_uint(sinewi_json_get(sinewi_json_at(s->images, i), "bufferView"), &ref) && ref == v),
		             e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u holds the compressed animation but image %u also uses it", s->path, v, i);
	SINEWI_CHECK(!s->compact || s->view_map[v] == SINEWI_EXPORT_NONE, e->error, SINEW_RESULT_CORRUPT,
	             "%s: bufferView %u holds the compressed animation but a mesh also uses it", s->path, v);
	s->view_map[v] = SINEWI_EXPORT_NONE;
	return SINEW_RESULT_OK;
}

sinew_result sinewi_source_mark_used(sinewi_exporter *e) {
	sinewi_source_doc *s = e->src;
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
		if (s->accessor_map[a] == SINEWI_EXPORT_NONE) continue;
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
	if (sinewi_export_is_mode(e, SINEWI_EXPORT_UNPACK)) SINEWI_TRY(drop_blob_view(e));
	for (uint32_t a = 0; a < s->accessor_count; ++a)
		if (s->accessor_map[a] != SINEWI_EXPORT_NONE) s->accessor_map[a] = e->accessor_count++;
	return SINEW_RESULT_OK;
}

// Copies every kept bufferView's bytes into the output buffer. A view moves to an offset with the
// same remainder modulo 4, so every accessor keeps its alignment.
sinew_result sinewi_source_copy_views(sinewi_exporter *e) {
	sinewi_source_doc *s = e->src;
	for (uint32_t v = 0; v < s->view_count; ++v) {
		if (s->view_map[v] == SINEWI_EXPORT_NONE) continue;
		const sinewi_json *view = sinewi_json_at(s->views, v);
		uint32_t buffer, offset = 0, length;
		SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(view, "buffer"), &buffer) && buffer < s->buffer_count, e->error,
		             SINEW_RESULT_CORRUPT, "%s: bufferView %u: buffer reference out of range", s->path, v);
		const sinewi_json *off = sinewi_json_get(view, "byteOffset");
		SINEWI_CHECK(!off || sinewi_json_uint(off, &offset), e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u: invalid byteOffset", s->path, v);
		SINEWI_CHECK(sinewi_json_uint(sinewi_json_get(view, "byteLength"), &length), e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u: missing or invalid byteLength", s->path, v);
		SINEWI_TRY(sinewi_source_load_buffer(e, buffer));
		const sinewi_source_buffer *b = &s->buffer[buffer];
		SINEWI_CHECK((uint64_t)offset + length <= b->byte_length, e->error, SINEW_RESULT_CORRUPT,
		             "%s: bufferView %u: bytes %u..%llu exceed buffer %u (%u bytes)", s->path, v, offset,
		             (unsigned long long)offset + length, buffer, b->byte_length);
		sinewi_jw_pad(&e->bin, 4, 0);
		for (uint32_t k = 0; k < offset % 4; ++k) sinewi_json_write_raw(&e->bin, "", 1);
		s->view_offset[v] = e->bin.size;
		if (length) sinewi_json_write_raw(&e->bin, (const char *)b->data + offset, length);
		s->view_map[v] = e->view_count++;
	}
	return e->bin.failed ? sinewi_export_oom(e) : SINEW_RESULT_OK;
}

static const char *mime_from_bytes(const unsigned char *d, size_t n, const char *uri) {
	if (n >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) return "image/png";
	if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff) return "image/jpeg";
	if (n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) return "image/webp";
	if (n >= 12 && memcmp(d, "\xabKTX 20\xbb\r\n\x1a\n", 12) == 0) return "image/ktx2";
	if (sinewi_ends_with_ci(uri, ".png")) return "image/png";
	if (sinewi_ends_with_ci(uri, ".jpg") || sinewi_ends_with_ci(uri, ".jpeg")) return "image/jpeg";
	if (sinewi_ends_with_ci(uri, ".webp")) return "image/webp";
	if (sinewi_ends_with_ci(uri, ".ktx2")) return "image/ktx2";
	return NULL;
}

// Images given by URI are embedded as bufferViews so the output needs no companion files. An image that
// cannot be embedded (missing or empty file, remote or absolute URI, unknown format) keeps its URI: the
// animation does not need it, and the output then refers to it exactly as the source did.
sinew_result sinewi_source_embed_images(sinewi_exporter *e) {
	sinewi_source_doc *s = e->src;
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
		sinew_result r = sinewi_source_load_uri(e, uri, what, &data, &size, &alloc_size);
		e->error = outer;
		if (r == SINEW_RESULT_OUT_OF_MEMORY) return sinewi_export_oom(e);
		if (r != SINEW_RESULT_OK) continue;
		const char *mime = sinewi_json_string(sinewi_json_get(image, "mimeType"));
		s->image_mime[i] = mime ? NULL : mime_from_bytes(data, size, uri);
		if (size == 0 || (!mime && !s->image_mime[i])) {
			sinewi_free(&e->al, data, alloc_size);
			continue;
		}
		sinewi_jw_pad(&e->bin, 4, 0);
		size_t start = e->bin.size;
		if (size) sinewi_json_write_raw(&e->bin, (const char *)data, size);
		sinewi_free(&e->al, data, alloc_size);
		if (e->new_views++) sinewi_jw_raw(&e->views, ",");
		sinewi_jw_raw(&e->views, "{\"buffer\":0,\"byteOffset\":");
		sinewi_jw_num(&e->views, (double)start);
		sinewi_jw_raw(&e->views, ",\"byteLength\":");
		sinewi_jw_num(&e->views, (double)size);
		sinewi_jw_raw(&e->views, "}");
		s->image_view[i] = e->view_count++;
	}
	return e->bin.failed || e->views.failed ? sinewi_export_oom(e) : SINEW_RESULT_OK;
}

// sinew — see include/sinew.h for version and licence
// A glTF read back for pack/unpack: the blob of a packed file's SINEW_compressed_animation bufferView
// (bounds-checked, copied, validated: sinewi_read_packed_blob, for unpack) and the sizes report of any glTF
// (sinew_gltf_sizes_of: keyframe accessors, the blob's bufferView).
#include "../core/format_layout.h"
#include "export_gltf.h"

#include <string.h>

static sinew_result read_packed(sinewi_exporter *e, const char *path, void **out_blob, size_t *out_size,
                                uint32_t *out_view, sinewi_packed_pointers *pointers) {
	e->src = (sinewi_source_doc *)sinewi_arena_alloc(&e->arena, sizeof(sinewi_source_doc));
	if (!e->src) return sinewi_export_oom(e);
	sinewi_source_doc *s = e->src;
	SINEWI_TRY(sinewi_source_parse(e, path));
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
	SINEWI_TRY(sinewi_source_load_buffer(e, buffer));
	const sinewi_source_buffer *b = &s->buffer[buffer];
	SINEWI_CHECK((uint64_t)offset + length <= b->byte_length, e->error, SINEW_RESULT_CORRUPT,
	             "%s: bufferView %u: bytes %u..%llu exceed buffer %u (%u bytes)", path, v, offset,
	             (unsigned long long)offset + length, buffer, b->byte_length);
	SINEWI_CHECK(length > 0, e->error, SINEW_RESULT_TRUNCATED, "%s: bufferView %u is empty", path, v);
	// A copy: the blob must be 16-byte aligned and stay valid after the file is freed.
	void *blob = sinewi_malloc(&e->al, length);
	if (!blob) return sinewi_export_oom(e);
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
	// the clips' names and the pointer tracks' JSON pointers (docs/gltf_extension.md), NUL-separated in one block
	const sinewi_json *list = sinewi_json_get(ext, "pointers");
	size_t bytes = 0;
	bool strings = !list || list->type == SINEWI_JSON_ARRAY;
	for (uint32_t i = 0; strings && list && i < list->count; ++i) {
		const sinewi_json *p = &list->children[i];
		strings = p->type == SINEWI_JSON_STRING && p->string[0] == '/';
		if (strings) bytes += strlen(p->string) + 1;
	}
	for (uint32_t i = 0; strings && i < clips->count; ++i) {
		const sinewi_json *name = sinewi_json_get(&clips->children[i], "name");
		strings = !name || name->type == SINEWI_JSON_STRING;
		bytes += (name && strings ? strlen(name->string) : 0) + 1;
	}
	if (!strings) {
		sinewi_free(&e->al, blob, length);
		return sinewi_fail(e->error, SINEW_RESULT_CORRUPT, "%s: %s: clip names must be strings and pointers JSON pointers", path,
		                   SINEWI_PACK_EXTENSION);
	}
	pointers->clip_count = clips->count, pointers->count = list ? list->count : 0, pointers->bytes = bytes;
	pointers->text = (char *)sinewi_malloc(&e->al, bytes);
	if (!pointers->text) {
		sinewi_free(&e->al, blob, length);
		return sinewi_export_oom(e);
	}
	size_t at = 0;
	for (uint32_t i = 0; i < clips->count; ++i) {
		const sinewi_json *name = sinewi_json_get(&clips->children[i], "name");
		const char *text = name ? name->string : "";
		memcpy(pointers->text + at, text, strlen(text) + 1);
		at += strlen(text) + 1;
	}
	for (uint32_t i = 0; list && i < list->count; ++i) {
		size_t n = strlen(list->children[i].string) + 1;
		memcpy(pointers->text + at, list->children[i].string, n);
		at += n;
	}
	*out_blob = blob;
	*out_size = length;
	*out_view = v;
	return SINEW_RESULT_OK;
}

sinew_result sinewi_read_packed_blob(const char *path, const sinew_allocator *allocator, void **out_blob,
                                     size_t *out_size, uint32_t *out_view, sinewi_packed_pointers *pointers,
                                     sinew_error *error) {
	sinewi_exporter e;
	memset(&e, 0, sizeof e);
	e.error = error;
	e.allocator = allocator;
	e.al = sinewi_alloc_from(allocator);
	sinewi_arena_init(&e.arena, allocator);
	*out_blob = NULL;
	*out_size = 0;
	sinewi_packed_pointers none;
	sinew_result r = read_packed(&e, path, out_blob, out_size, out_view, pointers ? pointers : &none);
	if (!pointers && r == SINEW_RESULT_OK) sinewi_free(&e.al, none.text, none.bytes);
	sinewi_source_free(&e);
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

static sinew_result gltf_sizes(sinewi_exporter *e, const char *path, sinew_gltf_sizes *out) {
	e->src = (sinewi_source_doc *)sinewi_arena_alloc(&e->arena, sizeof(sinewi_source_doc));
	if (!e->src) return sinewi_export_oom(e);
	sinewi_source_doc *s = e->src;
	SINEWI_TRY(sinewi_source_parse(e, path));
	out->file_bytes = s->file_size;
	// Each accessor once, however many samplers share it (the common time accessor).
	uint8_t *seen = (uint8_t *)sinewi_export_array(e, s->accessor_count, 1);
	if (!seen) return sinewi_export_oom(e);
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
	sinewi_exporter e;
	memset(&e, 0, sizeof e);
	e.error = error;
	e.allocator = allocator;
	e.al = sinewi_alloc_from(allocator);
	sinewi_arena_init(&e.arena, allocator);
	sinew_result r = gltf_sizes(&e, path, out);
	sinewi_source_free(&e);
	sinewi_arena_free(&e.arena);
	return r;
}

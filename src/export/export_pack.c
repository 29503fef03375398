// sinew — see include/sinew.h for version and licence
// sinew_pack_gltf / sinew_unpack_gltf: a glTF whose animations live in one compressed blob inside the file
// (the SINEW_compressed_animation extension, docs/gltf_extension.md), and back.
//
// Pack imports the source, compresses every clip into one blob WITH metadata (the joints' source_index and
// the scalar tracks' source_node/source_target are what map the blob back to the document's nodes), and
// re-serializes the source through the glTF writer: `animations` dropped (with the accessors and bufferViews
// only they used), the blob appended as a 16-byte aligned bufferView, the extension declared in
// extensionsUsed only. Unpack reads the blob (bounds-checked, validated), decompresses it and writes the
// clips back as plain animations through the same writer, removing the extension and its bufferView.
#include "../core/base.h"
#include "export_internal.h"
#include "../import/import_internal.h"

#include <string.h>

sinew_result sinew_pack_gltf(const char *source_path, const char *out_path, const sinew_compress_options *options,
                             const sinew_allocator *allocator, sinew_error *error) {
	SINEWI_CHECK(source_path && *source_path && out_path && *out_path, error, SINEW_RESULT_INVALID_ARGUMENT,
	             "pack: NULL or empty path");
	sinew_import_options import = {0};
	import.kind = SINEW_FILE_GLTF;
	if (options) import.error_cm = options->error_cm, import.shell_cm = options->shell_cm; // resampling's share
	sinew_clip_set *set = NULL;
	sinew_error inner = {0};
	sinew_result r = sinew_import_file(source_path, &import, allocator, &set, &inner);
	if (r != SINEW_RESULT_OK) return sinewi_fail(error, r, "pack: %s", inner.message);
	sinew_compress_options co = {0};
	if (options) co = *options;
	// the rig maps the blob to the document's nodes; the document has their names, hierarchy and rest pose
	co.strip_metadata = SINEW_STRIP_TO_SOURCES;
	void *blob = NULL;
	size_t size = 0;
	r = sinew_compress(set, &co, allocator, &blob, &size, &inner);
	if (r != SINEW_RESULT_OK) {
		sinew_clip_set_free(set);
		return sinewi_fail(error, r, "pack: %s: %s", source_path, inner.message);
	}
	sinewi_export_hook hook = {SINEWI_EXPORT_PACK, blob, size, 0};
	sinew_export_options eo = {-1, source_path};
	r = sinewi_export_gltf_hooked(set, out_path, &eo, &hook, allocator, error);
	sinew_blob_free(blob, size, allocator);
	sinew_clip_set_free(set);
	return r;
}

// The rest pose a packed blob plays (docs/gltf_extension.md): its rig maps each node and morph track to the
// document, whose nodes hold their rest TRS and default weights; NULL arrays when the rig stores them itself.
static sinew_result document_rest(const char *path, const void *blob, size_t size, const sinew_allocator *allocator,
                                  sinew_qvv **rest, size_t *rest_bytes, float **scalars, size_t *scalar_bytes,
                                  sinew_error *error) {
	sinew_rig_info rig;
	SINEWI_TRY(sinew_blob_rig(blob, size, &rig, error));
	if (!rig.rest_defaults || (rig.has_rest && rig.has_scalar_rest)) return SINEW_RESULT_OK;
	sinewi_alloc al = sinewi_alloc_from(allocator);
	sinewi_gltf_nodes doc;
	SINEWI_TRY(sinewi_gltf_read_nodes(path, rig.unit_scale, allocator, &doc, error));
	const size_t nb = (size_t)(rig.node_count + rig.scalar_count + 1) * (sizeof(sinew_rig_node) + sizeof(sinew_rig_scalar));
	sinew_rig_node *nodes = (sinew_rig_node *)sinewi_malloc(&al, nb);
	*rest_bytes = (size_t)(rig.node_count ? rig.node_count : 1) * sizeof(sinew_qvv);
	*scalar_bytes = (size_t)(rig.scalar_components + 1) * sizeof(float);
	*rest = (sinew_qvv *)sinewi_malloc(&al, *rest_bytes);
	*scalars = (float *)sinewi_malloc(&al, *scalar_bytes);
	sinew_result r = nodes && *rest && *scalars ? SINEW_RESULT_OK : sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	sinew_rig_scalar *tracks = nodes ? (sinew_rig_scalar *)(void *)(nodes + rig.node_count + 1) : NULL;
	if (r == SINEW_RESULT_OK) r = sinew_blob_rig_nodes(blob, size, nodes, tracks, error);
	for (uint32_t j = 0; r == SINEW_RESULT_OK && j < rig.node_count; ++j) {
		const int32_t src = nodes[j].source_index;
		if (src < 0 || (uint32_t)src >= doc.count)
			r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "%s: the blob's node %u refers to node %d of %u", path, j, src, doc.count);
		else (*rest)[j] = doc.rest[src];
	}
	for (uint32_t i = 0, o = 0; r == SINEW_RESULT_OK && i < rig.scalar_count; o += tracks[i++].components) {
		const sinew_rig_scalar *t = &tracks[i];
		memcpy(*scalars + o, t->rest, t->components * sizeof(float)); // (pointer tracks: the rig's Scalar_rest)
		if (t->source_node < 0) continue;
		if ((uint32_t)t->source_node >= doc.count || t->source_target < 0 ||
		    (uint64_t)t->source_target + t->components > doc.weight_first[t->source_node + 1] - doc.weight_first[t->source_node]) {
			r = sinewi_fail(error, SINEW_RESULT_CORRUPT, "%s: the blob's scalar track %u refers to weights %d of node %d", path, i,
			                t->source_target, t->source_node);
			break;
		}
		memcpy(*scalars + o, doc.weights + doc.weight_first[t->source_node] + t->source_target, t->components * sizeof(float));
	}
	sinewi_free(&al, nodes, nb);
	sinewi_gltf_nodes_free(&doc);
	return r;
}

sinew_result sinew_unpack_gltf(const char *packed_path, const char *out_path, const sinew_allocator *allocator,
                               sinew_error *error) {
	SINEWI_CHECK(packed_path && *packed_path && out_path && *out_path, error, SINEW_RESULT_INVALID_ARGUMENT,
	             "unpack: NULL or empty path");
	void *blob = NULL;
	size_t size = 0;
	uint32_t view = 0;
	sinewi_packed_pointers pointers = {0, 0, NULL, 0};
	SINEWI_TRY(sinewi_read_packed_blob(packed_path, allocator, &blob, &size, &view, &pointers, error));
	sinew_clip_set *set = NULL;
	sinew_error inner = {0};
	sinew_qvv *rest = NULL;
	float *rest_scalars = NULL;
	size_t rest_bytes = 0, scalar_bytes = 0;
	sinew_result r = document_rest(packed_path, blob, size, allocator, &rest, &rest_bytes, &rest_scalars, &scalar_bytes, &inner);
	if (r == SINEW_RESULT_OK) {
		sinew_decompress_options o = {0, rest, rest_scalars};
		r = sinew_decompress_clips_with(blob, size, &o, allocator, &set, &inner);
	}
	sinewi_alloc al = sinewi_alloc_from(allocator);
	// the names the extension holds: the clips', then the pointer tracks' (its pointers, in order)
	const char *after_clips = pointers.text;
	for (uint32_t c = 0; r == SINEW_RESULT_OK && c < set->clip_count && c < pointers.clip_count; ++c) {
		if (*after_clips && !set->clips[c]->name && !(set->clips[c]->name = sinew_clip_set_strdup(set, after_clips)))
			r = sinewi_fail(&inner, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		after_clips += strlen(after_clips) + 1;
	}
	for (uint32_t c = 0; r == SINEW_RESULT_OK && c < set->clip_count; ++c) {
		const char *next = after_clips;
		uint32_t used = 0;
		for (uint32_t i = 0; r == SINEW_RESULT_OK && i < set->clips[c]->scalar_track_count; ++i) {
			sinew_scalar_track *t = &set->clips[c]->scalar_tracks[i];
			if (t->source_node != SINEW_SOURCE_POINTER || t->name) continue;
			if (used++ >= pointers.count) {
				r = sinewi_fail(&inner, SINEW_RESULT_CORRUPT, "the blob has more pointer tracks than the extension's %u pointers",
				                pointers.count);
				break;
			}
			t->name = sinew_clip_set_strdup(set, next);
			next += strlen(next) + 1;
			if (!t->name) r = sinewi_fail(&inner, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		}
	}
	sinewi_free(&al, pointers.text, pointers.bytes);
	sinewi_free(&al, rest, rest_bytes);
	sinewi_free(&al, rest_scalars, scalar_bytes);
	sinew_blob_free(blob, size, allocator);
	if (r != SINEW_RESULT_OK) return sinewi_fail(error, r, "unpack: %s: %s", packed_path, inner.message);
	for (uint32_t c = 0; r == SINEW_RESULT_OK && c < set->clip_count; ++c) {
		const sinew_clip *clip = set->clips[c];
		// Without metadata the clips cannot be mapped to nodes; the writer would report every joint.
		for (uint32_t j = 0; r == SINEW_RESULT_OK && j < clip->joint_count; ++j)
			if (clip->joints[j].source_index < 0)
				r = sinewi_fail(error, SINEW_RESULT_CORRUPT,
				                "unpack: %s: clip %u joint %u has no source node (blob without metadata?)", packed_path,
				                c, j);
	}
	if (r == SINEW_RESULT_OK) {
		sinewi_export_hook hook = {SINEWI_EXPORT_UNPACK, NULL, 0, view};
		sinew_export_options eo = {-1, packed_path};
		r = sinewi_export_gltf_hooked(set, out_path, &eo, &hook, allocator, error);
	}
	sinew_clip_set_free(set);
	return r;
}

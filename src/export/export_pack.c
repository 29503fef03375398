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
	co.strip_metadata = 0; // the metadata maps the blob's tracks to the document's nodes
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

sinew_result sinew_unpack_gltf(const char *packed_path, const char *out_path, const sinew_allocator *allocator,
                               sinew_error *error) {
	SINEWI_CHECK(packed_path && *packed_path && out_path && *out_path, error, SINEW_RESULT_INVALID_ARGUMENT,
	             "unpack: NULL or empty path");
	void *blob = NULL;
	size_t size = 0;
	uint32_t view = 0;
	SINEWI_TRY(sinewi_read_packed_blob(packed_path, allocator, &blob, &size, &view, error));
	sinew_clip_set *set = NULL;
	sinew_error inner = {0};
	sinew_result r = sinew_decompress_clips(blob, size, allocator, &set, &inner);
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

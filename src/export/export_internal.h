// sinew — see include/sinew.h for version and licence
// Hooks between the glTF writer (export_gltf.c; its files share export_gltf.h) and pack/unpack (export_pack.c):
// the writer re-serializes a source document; pack swaps its animations for the SINEW_compressed_animation
// extension, unpack the reverse.
#ifndef SINEW_EXPORT_INTERNAL_H
#define SINEW_EXPORT_INTERNAL_H
#include "../core/base.h"

#include <stdio.h>

#define SINEWI_PACK_EXTENSION "SINEW_compressed_animation"

typedef enum sinewi_export_mode {
	SINEWI_EXPORT_PACK = 1,  // drop `animations`, append `blob` as a 16-byte aligned bufferView, add the extension
	SINEWI_EXPORT_UNPACK = 2 // write the clips as animations, drop the extension and its bufferView
} sinewi_export_mode;

typedef struct sinewi_export_hook {
	sinewi_export_mode mode;
	const void *blob; // PACK: a validated blob with metadata
	size_t blob_size;
	uint32_t blob_view; // UNPACK: the source's bufferView that holds the blob
} sinewi_export_hook;

// sinew_export_gltf with a hook (options->source_path is required).
sinew_result sinewi_export_gltf_hooked(const sinew_clip_set *set, const char *path, const sinew_export_options *options,
                                       const sinewi_export_hook *hook, const sinew_allocator *allocator,
                                       sinew_error *error);

// Reads the blob of a packed glTF (export_packed_read.c): the extension's bufferView, bounds-checked against its
// buffer, copied into `*out_blob` (sinewi_malloc'd from `allocator`, 16-byte aligned, free with sinew_blob_free)
// and checked with sinew_validate, and the extension's `clips` list must have one entry per clip of the blob;
// `*out_view` receives the bufferView index. Errors: CORRUPT/TRUNCATED (and the blob's own validate errors) with
// the bufferView or offset in the message.
// `pointers` (may be NULL) receives what the extension names (the blob carries no names): its clips' names
// ("" for none), then the JSON pointers of the pointer tracks in the blob's scalar track order, NUL-terminated
// strings one after another in `text` (sinewi_malloc'd, `bytes` long).
typedef struct sinewi_packed_pointers {
	uint32_t clip_count, count;
	char *text;
	size_t bytes;
} sinewi_packed_pointers;
sinew_result sinewi_read_packed_blob(const char *path, const sinew_allocator *allocator, void **out_blob,
                                     size_t *out_size, uint32_t *out_view, sinewi_packed_pointers *pointers,
                                     sinew_error *error);

// An output file written through "<path>.tmp.<pid>" (export_file.c): open, write to `f`, then
// close with whether every write succeeded; close renames it over `path` or removes it.
typedef struct sinewi_export_file {
	FILE *f;
	const char *path;
	char tmp[4096];
} sinewi_export_file;
sinew_result sinewi_export_open(const char *path, sinewi_export_file *out, sinew_error *error);
sinew_result sinewi_export_close(sinewi_export_file *file, bool ok, sinew_error *error);

#endif

// sinew — see include/sinew.h for version and licence
// Contract between the import dispatcher (import.c) and the per-format readers.
#ifndef SINEW_IMPORT_INTERNAL_H
#define SINEW_IMPORT_INTERNAL_H

#include "../core/base.h"

// Each reader parses `data[0..size)` (not NUL-terminated; may contain anything) and adds clips
// to `set`. `path` is the file's path for messages and sibling lookups (.bin, .asf); may be NULL.
// Readers never crash on hostile input and return a specific result with a message.
typedef struct sinewi_import_ctx {
	const sinew_import_options *options; // never NULL (defaults zeroed)
	const sinew_allocator *allocator;
	const char *path;     // may be NULL for memory imports
	const char *base_dir; // folder for sibling files, or NULL (then external references are an error)
} sinewi_import_ctx;

sinew_result sinewi_import_gltf(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size, sinew_clip_set *set,
                                sinew_error *error);
sinew_result sinewi_import_bvh(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size, sinew_clip_set *set,
                               sinew_error *error);
sinew_result sinewi_import_amc(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size, sinew_clip_set *set,
                               sinew_error *error);
sinew_result sinewi_import_acl(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size, sinew_clip_set *set,
                               sinew_error *error);
// FBX, COLLADA, ... through assimp (import_assimp.c); UNSUPPORTED when built without it.
sinew_result sinewi_import_assimp(const sinewi_import_ctx *ctx, const unsigned char *data, size_t size,
                                  sinew_clip_set *set, sinew_error *error);
// "5.2.4" of the assimp linked in, or NULL without it.
const char *sinewi_assimp_version(void);

// The nodes of a glTF document (.gltf or .glb at `path`): every node's rest pose (its TRS, or its decomposed
// matrix; translations in clip units at `unit_scale` per metre) and default morph weights (node.weights, else
// mesh.weights, else 0), as the importer reads them: the rest pose a packed glTF's blob takes from its document.
typedef struct sinewi_gltf_nodes {
	uint32_t count;
	sinew_qvv *rest;        // [count]
	uint32_t *weight_first; // [count + 1]: node n's weights are weights[weight_first[n] .. weight_first[n + 1])
	float *weights;
	uint32_t weight_count;
	sinewi_alloc al;
} sinewi_gltf_nodes;
sinew_result sinewi_gltf_read_nodes(const char *path, double unit_scale, const sinew_allocator *allocator,
                                    sinewi_gltf_nodes *out, sinew_error *error);
void sinewi_gltf_nodes_free(sinewi_gltf_nodes *nodes);

// Reads a whole file with a size limit (1 GiB). *out is allocated with `al`; free with sinewi_free(al, p, size).
sinew_result sinewi_read_file(const char *path, const sinewi_alloc *al, unsigned char **out, size_t *out_size,
                              sinew_error *error);
// What a file looks like, for messages ("a BVH motion capture file", "an empty file"); `buffer` holds the
// description of unknown content.
const char *sinewi_describe_content(const unsigned char *data, size_t size, char *buffer, size_t buffer_size);
// OK when data is glTF (a GLB, or JSON); else PARSE with a message naming what the file is instead (a .glb
// path without the GLB header says that header is missing). `path` may be NULL.
sinew_result sinewi_expect_gltf(const char *path, const unsigned char *data, size_t size, sinew_error *error);
// True when `path` names a directory (a folder given where a file is read or written).
bool sinewi_is_directory(const char *path);
// Joins dir and name into buffer; returns false when it does not fit.
bool sinewi_join_path(char *buffer, size_t size, const char *dir, const char *name);

// Reports a non-fatal note through options->warning.
void sinewi_import_warn(const sinewi_import_ctx *ctx, const char *fmt, ...) SINEWI_PRINTF(2, 3);

#endif

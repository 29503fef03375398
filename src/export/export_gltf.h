// sinew — see include/sinew.h for version and licence
// The glTF writer's shared state, between the files that make a document (export_gltf.c describes the output):
//   export_json.c         JSON writing helpers (sinewi_jw_*), base64
//   export_source.c       reading the source document: file, GLB chunks, buffers behind URIs, nodes
//   export_source_data.c  which accessors, bufferViews and images stay, copied into the one output buffer
//   export_animations.c   clips -> animations: time and value accessors, samplers, channels (weights, pointers)
//   export_skeleton.c     the document without a source: nodes, scene and skins from the clips' skeleton
//   export_document.c     the source document re-serialized with rewritten references, extensions, pack extension
//   export_gltf.c         the container (.gltf / .glb) and the entry points
//   export_packed_read.c  a packed file read back: its blob (unpack) and the sizes report
#ifndef SINEW_EXPORT_GLTF_H
#define SINEW_EXPORT_GLTF_H
#include "../core/base.h"
#include "../import/json.h"
#include "export_internal.h"

#include <math.h>
#include <string.h>

#define SINEWI_EXPORT_NONE UINT32_MAX // an index map's "not kept", a list's end
#define SINEWI_GLB_MAGIC 0x46546C67u
#define SINEWI_GLB_JSON 0x4E4F534Au
#define SINEWI_GLB_BIN 0x004E4942u

typedef struct sinewi_source_buffer {
	const unsigned char *data; // NULL until loaded
	size_t size;               // bytes available at data
	uint32_t byte_length;      // declared
	unsigned char *owned;      // data we allocated (file contents or decoded data: URI)
	size_t owned_size;
} sinewi_source_buffer;

typedef struct sinewi_rest_trs {
	float t[3], r[4], s[3];
} sinewi_rest_trs;

typedef struct sinewi_source_doc {
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
	sinewi_source_buffer *buffer;
	uint32_t *view_map;      // [view_count] new index or SINEWI_EXPORT_NONE
	size_t *view_offset;     // [view_count] byte offset in the output buffer
	uint32_t *accessor_map;  // [accessor_count]
	uint32_t *image_view;    // [image_count] new bufferView of an embedded image, or SINEWI_EXPORT_NONE
	const char **image_mime; // [image_count] mime type to add, or NULL
	bool compact;
} sinewi_source_doc;

struct sinewi_key_pos; // export_animations.c

typedef struct sinewi_exporter {
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
	sinewi_source_doc *src;
	uint32_t node_count;
	sinewi_rest_trs *rest; // [node_count] rest TRS as the output document states it
	uint8_t *node_rewrite; // [node_count] source only: matrix node rewritten as TRS from `rest`
	uint32_t *node_stamp;  // [node_count] duplicate-mapping check
	uint8_t **written;     // [clip][joint] bit per path (T, R, S) written; FORCE_ROTATION: keep the joint animated
	uint32_t anim_view;
	size_t anim_start;
	const sinewi_export_hook *hook;    // pack/unpack (export_pack.c), NULL for a plain export
	uint32_t blob_view;                // pack: the new bufferView of the blob
	bool pointer_channels;             // a KHR_animation_pointer channel was written (the extension stays used)
	const struct sinewi_key_pos *keys; // [sample_count] of the clip being written (sinewi_export_write_clip)
} sinewi_exporter;

static inline bool sinewi_export_is_mode(const sinewi_exporter *e, sinewi_export_mode mode) {
	return e->hook && e->hook->mode == mode;
}

static inline void *sinewi_export_array(sinewi_exporter *e, size_t count, size_t size) {
	return sinewi_arena_array(&e->arena, count ? count : 1, size);
}

static inline const char *sinewi_export_clip_label(const sinew_clip *clip) {
	return clip->name ? clip->name : "";
}

static inline const char *sinewi_export_joint_label(const sinew_joint *joint) {
	return joint->name ? joint->name : "";
}

// Double to float without undefined behaviour for values beyond the float range (they saturate).
static inline float sinewi_export_to_float(double v) {
	if (v > 3.4028234663852886e38) return INFINITY;
	if (v < -3.4028234663852886e38) return -INFINITY;
	return (float)v;
}

// Fails with OUT_OF_MEMORY ("export: out of memory"; export_gltf.c); out of line, one call per failure site.
sinew_result sinewi_export_oom(sinewi_exporter *e);
// True when `s` ends with `suffix` (lower case), ASCII letters compared case-insensitively (export_gltf.c).
bool sinewi_ends_with_ci(const char *s, const char *suffix);

/* ---- JSON writing (export_json.c) ---- */

static inline void sinewi_jw_raw(sinewi_json_writer *w, const char *text) {
	sinewi_json_write_raw(w, text, strlen(text));
}

// Appends bytes; skips empty appends (the source pointer may then be NULL).
static inline void sinewi_jw_append(sinewi_json_writer *w, const void *data, size_t size) {
	if (size) sinewi_json_write_raw(w, (const char *)data, size);
}

static inline void sinewi_jw_num(sinewi_json_writer *w, double value) {
	sinewi_json_write_number(w, value);
}

// `"name":`, after a comma unless it is the object's first member (*first, then cleared).
void sinewi_jw_key(sinewi_json_writer *w, bool *first, const char *name);
// A JSON array of n numbers.
void sinewi_jw_floats(sinewi_json_writer *w, const float *v, uint32_t n);
// Appends `fill` until the size is a multiple of `align`.
void sinewi_jw_pad(sinewi_json_writer *w, size_t align, char fill);
// Writes the non-identity TRS members of a node.
void sinewi_jw_trs(sinewi_json_writer *w, bool *first, const sinewi_rest_trs *r);
// `size` bytes as base64 text (with padding).
void sinewi_jw_base64(sinewi_json_writer *w, const unsigned char *data, size_t size);
// Decodes base64 text (padding optional; base64url too) into out (length / 4 * 3 + 3 bytes suffice). Returns
// false on an invalid character.
bool sinewi_base64_decode(const char *text, size_t length, unsigned char *out, size_t *out_size);

/* ---- the source document (export_source.c, export_source_data.c) ---- */

// Reads and parses the document at `path` into e->src (allocated by the caller): GLB chunks, the top-level
// arrays, buffer byteLengths, maps cleared to SINEWI_EXPORT_NONE; decides e->src->compact from extensionsUsed.
sinew_result sinewi_source_parse(sinewi_exporter *e, const char *path);
// Resolves a glTF URI (base64 data: URI or path relative to the source's folder) to bytes allocated
// with e->al (free `*out_alloc` bytes). `what` names the object for messages.
sinew_result sinewi_source_load_uri(sinewi_exporter *e, const char *uri, const char *what, unsigned char **out,
                                    size_t *out_size, size_t *out_alloc);
// Loads buffer `index` (GLB BIN chunk, file or data: URI) once; checks its byteLength against the bytes.
sinew_result sinewi_source_load_buffer(sinewi_exporter *e, uint32_t index);
// The rest TRS of every node (e->rest) as the source states it.
sinew_result sinewi_source_read_nodes(sinewi_exporter *e);
// Number of morph targets of a node's mesh (0 when it has none); *mesh_out receives the mesh.
uint32_t sinewi_source_target_count(const sinewi_source_doc *s, uint32_t node, const sinewi_json **mesh_out);
// Frees what the source document owns (file, loaded buffers); e->src may be NULL.
void sinewi_source_free(sinewi_exporter *e);
// Marks the accessors and bufferViews the kept document uses (all of them unless compact) and numbers the
// kept accessors; unpack drops the blob's bufferView.
sinew_result sinewi_source_mark_used(sinewi_exporter *e);
// Copies every kept bufferView's bytes into e->bin and numbers the kept views.
sinew_result sinewi_source_copy_views(sinewi_exporter *e);
// Embeds images given by URI as new bufferViews where it can.
sinew_result sinewi_source_embed_images(sinewi_exporter *e);

/* ---- the documents (export_animations.c, export_skeleton.c, export_document.c, export_gltf.c) ---- */

// Rotations must be unit length in glTF (the validator checks); clips allow 1e-3 of slack.
void sinewi_export_unit_quat(const float q[4], float out[4]);
// Decides which sub-tracks are written (e->written); checks the joints' node mapping.
sinew_result sinewi_export_analyse_clips(sinewi_exporter *e);
// Clip ci as one animation: its keys into e->bin, accessors into e->accessors, the animation into e->anims.
sinew_result sinewi_export_write_clip(sinewi_exporter *e, uint32_t ci);
// Without a source: every clip must share clip 0's skeleton.
sinew_result sinewi_export_check_skeletons(sinewi_exporter *e);
// Without a source: the document up to its nodes and skins into e->json (open: the caller adds the rest and
// closes it). Sets e->json.failed when out of memory.
void sinewi_export_write_skeleton(sinewi_exporter *e);
// With a source: the whole document into e->json.
void sinewi_export_write_source_document(sinewi_exporter *e, bool binary);
// The `buffers` member: the one buffer, embedded as base64 unless `binary` (the GLB BIN chunk).
void sinewi_export_write_buffers(sinewi_exporter *e, bool *first, bool binary);

#endif

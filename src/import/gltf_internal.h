// sinew — see include/sinew.h for version and licence
// Shared between the glTF document reader (import_gltf.c) and the resampler (gltf_resample.c).
#ifndef SINEW_IMPORT_GLTF_INTERNAL_H
#define SINEW_IMPORT_GLTF_INTERNAL_H

#include "import_internal.h"
#include "json.h"
#include "../core/quat.h"

#include <math.h>

typedef enum sinewi_gltf_path {
	SINEWI_GLTF_TRANSLATION = 0,
	SINEWI_GLTF_ROTATION = 1,
	SINEWI_GLTF_SCALE = 2,
	SINEWI_GLTF_WEIGHTS = 3
} sinewi_gltf_path;

typedef enum sinewi_gltf_interpolation {
	SINEWI_GLTF_STEP = 0,
	SINEWI_GLTF_LINEAR = 1,
	SINEWI_GLTF_CUBICSPLINE = 2
} sinewi_gltf_interpolation;

// One animation channel with its decoded sampler: `key_count` times (finite, >= 0, non-decreasing) and
// `components` values per key (3 for translation/scale, 4 for rotation, the morph target count for weights);
// CUBICSPLINE stores in-tangent, value, out-tangent per key (3 * components floats per key).
// Rotation values (not tangents) are unit quaternions.
typedef struct sinewi_gltf_curve {
	uint8_t path;          // sinewi_gltf_path
	uint8_t interpolation; // sinewi_gltf_interpolation
	uint32_t components;
	uint32_t key_count; // >= 1
	const float *times;
	const float *values;
} sinewi_gltf_curve;

// Where a curve's samples go in a clip. WEIGHTS curves are the scalar curves: morph weights and
// KHR_animation_pointer values; component c goes to track first_track + c / track_width, component
// c % track_width of it.
typedef struct sinewi_gltf_binding {
	const sinewi_gltf_curve *curve;
	uint32_t joint;       // TRS: joint index
	uint32_t first_track; // weights: index of the scalar track of morph target 0
	uint32_t track_width; // weights: components per track (1 for morph weights, 4 for pointers)
} sinewi_gltf_binding;

// What the vertex bound of one node's morph weights needs (DESIGN §4, gltf_morph_units.c): its mesh's target
// displacements and how the mesh reaches the scene.
typedef struct sinewi_gltf_morph {
	uint32_t first_track, target_count; // the node's weight tracks (track first_track + k drives target k)
	uint32_t joint;                     // the node's joint (its world transform moves the mesh)
	uint32_t skin_count;                // skinned: the skin's joints and a bound of the norm of each one's inverse
	const uint32_t *skin_joints;        // bind matrix (linear part): a vertex reaches the scene through them
	const double *skin_norm;
	const double *reach;                // [target_count]: the largest vertex displacement of target k, clip units in
	                                    // the mesh's own space; 0: it moves no position (its weight keeps the value rule)
	uint32_t prim_count;
	const uint32_t *prim_vertices;      // [prim_count]
	const float *const *ratio;          // [prim_count]: per vertex and target |d_k(v)| / reach_k (vertex-major), or
	                                    // NULL when too large to keep (overlap_all stands for every set of targets)
	double overlap_all;                 // max over vertices of the sum over targets of |d_k(v)| / reach_k
} sinewi_gltf_morph;

// Everything the resampler needs to turn one animation into a clip.
typedef struct sinewi_gltf_clip_input {
	const char *name;
	const sinewi_gltf_binding *bindings; // at most one binding per (joint, path) / weights node
	uint32_t binding_count;
	const sinew_joint *joints; // the shared skeleton; default poses already in clip units
	uint32_t joint_count;
	const sinew_scalar_track *tracks; // template tracks (name, source, default value); values unused
	uint32_t track_count;
	double unit_scale; // clip units per metre
	const sinewi_gltf_morph *morphs; // nodes whose morph weights are bounded in vertex units (none: the value rule)
	uint32_t morph_count;
} sinewi_gltf_clip_input;

// Chooses where the samples go (the source's key times, runs of evenly spaced ones as one run, key
// intervals cut where the curves need it; or options->sample_rate), samples every curve and adds the clip
// to `set`. Uses `scratch` for temporaries.
sinew_result sinewi_gltf_build_clip(const sinewi_import_ctx *ctx, sinewi_arena *scratch,
                                    const sinewi_gltf_clip_input *in, sinew_clip_set *set, sinew_error *error);

// Evaluates a curve at time t (seconds) into out[components] following the glTF 2.0 sampler rules: before the
// first key the first value, after the last key the last value, STEP holds, LINEAR lerps (rotations: shortest-
// arc slerp), CUBICSPLINE is the Hermite spline with tangents scaled by the key interval (rotations normalized).
// A key within `snap` seconds of t is returned exactly; with equal key times the later key wins.
// `cursor` (may be NULL) speeds up calls with non-decreasing t; start it at 0.
void sinewi_gltf_curve_eval(const sinewi_gltf_curve *curve, double t, double snap, uint32_t *cursor, double *out);

/* ---- the guarantee against the source (gltf_checks.c) ---- */

// Check times x (curves + joints) evaluated per candidate rate, at most (bounds hostile files).
#define SINEWI_GLTF_MAX_CHECK_VALUES ((size_t)1 << 27)

typedef struct sinewi_gltf_checker {
	const sinewi_gltf_clip_input *in;
	double *times;  // check times: key times, key-interval midpoints, merged-key midpoints; sorted, distinct
	uint32_t count;
	double shell, threshold; // clip units
	double *shell_off;       // [joint_count * 3] shell offsets of the candidate being checked (sinewi_shell_offsets)
	sinewi_alloc alloc;
	sinew_qvv *src, *play;   // [joint_count] scratch poses
	sinewi_affine_d *src_obj, *play_obj;
	uint8_t *animated;  // [joint_count] 1 when a TRS curve drives the joint
	uint32_t *cursors;  // [binding_count]
} sinewi_gltf_checker;

// `merged` holds the clip's distinct key times, sorted (for the midpoints between them).
sinew_result sinewi_gltf_checker_init(sinewi_gltf_checker *c, const sinewi_gltf_clip_input *in, const float *merged,
                                      size_t merged_count, double threshold, double shell_cm, sinewi_arena *scratch,
                                      sinew_error *error);
// The source's pose at time t: every TRS curve evaluated exactly by the glTF rules, in clip units.
// Uses c->cursors (reset them to 0 before a run of increasing times).
void sinewi_gltf_source_pose(sinewi_gltf_checker *c, double t, sinew_qvv *out);
// Where a clip's samples are: `count` samples, at k / rate (no marks) or at the times of a time map
// (docs/format.md §time map; `rate` is then the average).
typedef struct sinewi_gltf_timing {
	uint32_t count;
	double rate;
	uint32_t mark_count; // 0: uniform
	const sinew_time_mark *marks;
} sinewi_gltf_timing;

// The pose the decoder plays at time t from exact samples `poses` ([count * joint_count], `timing`).
void sinewi_gltf_play_pose(const sinewi_gltf_clip_input *in, const uint8_t *animated, const uint8_t *joint_floor,
                           const sinew_qvv *poses, const sinewi_gltf_timing *timing, double t, sinew_qvv *out);
// The times a candidate is checked at: c->times merged with the midpoint of every sample interval
// (the time of key k + 0.5, k < count - 1), sorted, distinct; `out` holds c->count + count. Returns the number.
uint32_t sinewi_gltf_candidate_times(const sinewi_gltf_checker *c, const sinewi_gltf_timing *timing, double *out);
// Largest object-space error (DESIGN §4 metric: shells fixed at rest, 3 cm or the joint's) of playing `poses`
// instead of the source at `times` (increasing); stops once it exceeds `stop`. errors[k] receives the error at
// times[k] when not NULL.
double sinewi_gltf_check_candidate(sinewi_gltf_checker *c, const double *times, uint32_t time_count,
                                   const sinew_qvv *poses, const sinewi_gltf_timing *timing, const uint8_t *joint_floor,
                                   double stop, float *errors);
// The first sample s (s + 1 < count) after which a rotation turns by more than 90 degrees to the next, or
// `count` when there is none; `from` is where to start looking.
uint32_t sinewi_gltf_turn_over_90(const sinewi_gltf_clip_input *in, const sinew_qvv *poses, uint32_t count,
                                  const uint8_t *joint_floor, uint32_t from);

/* ---- shells from skinned meshes (gltf_skin_shells.c) ---- */

struct sinewi_gltf_doc;
// Sets joints[j].shell_distance (clip units) to the scene distance, at the rest pose, of the farthest
// vertex joint j moves in any skinned mesh, when that is beyond the default shell (options->shell_cm).
// Unusable meshes are skipped with a warning.
sinew_result sinewi_gltf_skin_shells(struct sinewi_gltf_doc *d, sinew_joint *joints, uint32_t joint_count,
                                     const int32_t *node_to_joint, double unit_scale);

/* ---- morph weights in vertex units (gltf_morph_units.c) ---- */

// The displacements of the morph targets of every node with weight tracks (node_first_track[n] >= 0, its
// target count the tracks' that name it) whose mesh this reader can use, into *out (arena memory). A mesh it
// cannot use is skipped with a warning: its weights keep the value rule (sinew_scalar_track.precision).
sinew_result sinewi_gltf_morph_units(struct sinewi_gltf_doc *d, const int32_t *node_first_track,
                                     const int32_t *node_to_joint, const sinew_scalar_track *tracks, uint32_t track_count,
                                     double unit_scale, sinewi_gltf_morph **out, uint32_t *out_count);
// Per joint of `in`, a bound of its world transform's linear norm over the clip as the source plays it (the
// product of its and its ancestors' largest scale magnitudes): chain[joint_count].
void sinewi_gltf_chain_scales(const sinewi_gltf_clip_input *in, double *chain);
// The bound of the norm of the map that carries morph m's displacements into the scene.
double sinewi_gltf_morph_scale(const sinewi_gltf_morph *m, const double *chain);
// The largest sum over the targets in `active` (target_count flags) of |d_k(v)| / reach_k at any vertex; *work
// counts vertex-target terms and stops the sums at `budget` (then overlap_all, which bounds them all).
double sinewi_gltf_morph_overlap(const sinewi_gltf_morph *m, const uint8_t *active, uint64_t *work, uint64_t budget);

/* ---- document reader state, shared by import_gltf.c (animations, nodes) and gltf_accessor.c (containers,
   buffers, accessors) ---- */

typedef struct sinewi_gltf_buffer {
	bool loaded;
	const unsigned char *data; // byteLength bytes
	size_t size;
	unsigned char *owned; // file data read from disk (freed at the end)
	size_t owned_size;
} sinewi_gltf_buffer;

// An accessor decoded to floats once (any component type, normalized integers mapped to [-1, 1] / [0, 1]).
typedef struct sinewi_gltf_accessor {
	bool decoded;
	bool times_checked;
	bool values_checked;
	uint32_t count, components;
	uint32_t component_type;
	bool normalized;
	bool matrix; // MAT2/MAT3/MAT4
	float *data; // count * components
} sinewi_gltf_accessor;

typedef struct sinewi_gltf_doc {
	const sinewi_import_ctx *ctx;
	sinewi_arena *arena;
	sinewi_alloc al;
	sinew_error *error;
	const char *label; // the path as given (messages)
	const char *text; // JSON text, for line numbers in messages
	size_t text_size;
	const sinewi_json *root;
	const sinewi_json *nodes, *accessors, *views, *buffers, *meshes, *skins, *animations;
	uint32_t node_count, accessor_count, view_count, buffer_count, mesh_count;
	const unsigned char *bin;
	size_t bin_size;
	bool has_bin;
	sinewi_gltf_buffer *buffer_cache;
	sinewi_gltf_accessor *accessor_cache;
	int32_t *parent;                      // [node_count], -1 for roots
	uint32_t *node_targets;               // [node_count], morph target count + 1, 0 = not looked up yet
	struct sinewi_gltf_channel *channels; // defined in import_gltf.c
	uint32_t channel_count, channel_capacity;
	struct sinewi_gltf_pointer *pointers; // KHR_animation_pointer targets that are not node TRS/weights
	uint32_t pointer_count, pointer_capacity;
	uint32_t skipped_channels;
} sinewi_gltf_doc;

// Fills d->error with "<file>: <message>" and returns `code`.
sinew_result sinewi_gltf_fail(sinewi_gltf_doc *d, sinew_result code, const char *fmt, ...) SINEWI_PRINTF(3, 4);
sinew_result sinewi_gltf_oom(sinewi_gltf_doc *d);
// Line of a parsed value in the JSON text (0 when unknown), for messages.
uint32_t sinewi_gltf_line(const sinewi_gltf_doc *d, const sinewi_json *v);

// Typed property access: an absent property is fine unless `required`; a wrong type is CORRUPT with the JSON path.
sinew_result sinewi_gltf_prop_array(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, const char *where,
                                    const sinewi_json **out);
sinew_result sinewi_gltf_prop_object(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, bool required,
                                     const char *where, const sinewi_json **out);
// Unsigned integer; with `limit_what` it is an index that must be < limit.
sinew_result sinewi_gltf_prop_uint(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, bool required,
                                   uint32_t limit, const char *limit_what, const char *where, bool *present,
                                   uint32_t *out);
sinew_result sinewi_gltf_prop_string(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, bool required,
                                     const char *where, const char **out);
// Fixed-length array of numbers (node translation/rotation/scale/matrix).
sinew_result sinewi_gltf_prop_numbers(sinewi_gltf_doc *d, const sinewi_json *obj, const char *key, uint32_t count,
                                      const char *where, bool *present, double *out);
// array[index] must be an object.
sinew_result sinewi_gltf_element(sinewi_gltf_doc *d, const sinewi_json *array, uint32_t index, const char *what,
                                 const sinewi_json **out);

// GLB container -> JSON chunk and d->bin.
sinew_result sinewi_gltf_parse_glb(sinewi_gltf_doc *d, const unsigned char *data, size_t size, const char **json,
                                   size_t *json_size);
// Decodes accessor `index` (loading its buffers on first use); the result is cached in d->accessor_cache.
// What an accessor holds in bytes (count x components x component size, as the file stores it; 0 when its
// fields are missing): the source's animation bytes for reports.
uint64_t sinewi_gltf_accessor_bytes(const sinewi_json *accessor);
sinew_result sinewi_gltf_decode_accessor(sinewi_gltf_doc *d, uint32_t index, sinewi_gltf_accessor **out);
// Animation input: SCALAR float, finite, >= 0, non-decreasing.
sinew_result sinewi_gltf_check_times(sinewi_gltf_doc *d, uint32_t index, sinewi_gltf_accessor *a);
// Animation output for `path`: element type, component type (float or the allowed normalized integers), finite.
sinew_result sinewi_gltf_check_output(sinewi_gltf_doc *d, uint32_t index, sinewi_gltf_accessor *a,
                                      sinewi_gltf_path path);
const char *sinewi_gltf_path_name(sinewi_gltf_path path);

// double -> float without the undefined behaviour of out-of-range conversions: they become infinities, which
// sinew_clip_validate reports as NOT_FINITE.
static inline float sinewi_gltf_to_float(double v) {
	if (v > 3.4028234663852886e38) return INFINITY;
	if (v < -3.4028234663852886e38) return -INFINITY;
	return (float)v;
}

#endif

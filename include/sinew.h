/* sinew.h — animation compression and playback. C11, no dependencies but libc.
 *
 * Pipeline (one folder per stage under src/): import -> clip -> compress -> format -> decompress -> export.
 * The compressed stream is specified byte for byte in docs/format.md.
 *
 * Conventions used by every function below:
 *   - Functions that can fail return a sinew_result; SINEW_RESULT_OK (0) is success.
 *     An optional `sinew_error *error` out-parameter receives a one-line message naming the
 *     problem (joint, track, sample, byte offset, line number) for people and logs.
 *   - Memory comes from the caller's sinew_allocator (NULL or all-zero = malloc/free).
 *   - There is no global state; distinct objects may be used from distinct threads.
 *   - Readers of files and blobs treat their input as hostile: they validate every size,
 *     count and offset and report an error instead of crashing.
 */
#ifndef SINEW_H
#define SINEW_H

#include <stddef.h>
#include <stdint.h>

#define SINEW_VERSION_MAJOR 0 /* breaking API change */
#define SINEW_VERSION_MINOR 1 /* new, compatible API */
#define SINEW_VERSION_PATCH 0 /* fixes */
#define SINEW_VERSION_NUMBER (SINEW_VERSION_MAJOR * 10000 + SINEW_VERSION_MINOR * 100 + SINEW_VERSION_PATCH)
#define SINEW_VERSION_STRING "0.1.0"
/* Blob format versions (docs/format.md): the encoder writes SINEW_FORMAT_VERSION, the decoder reads
   SINEW_FORMAT_VERSION_FIRST .. SINEW_FORMAT_VERSION (the web runtime's wasm modules: SINEW_FORMAT_VERSION only). */
#define SINEW_FORMAT_VERSION 3
#define SINEW_FORMAT_VERSION_FIRST 1

#ifndef SINEW_API
#if defined(_WIN32) && defined(SINEW_SHARED_BUILD)
#define SINEW_API __declspec(dllexport)
#elif defined(__GNUC__) && defined(SINEW_SHARED_BUILD)
#define SINEW_API __attribute__((visibility("default")))
#else
#define SINEW_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Version                                                                                     */

/* Returns SINEW_VERSION_NUMBER of the library that is linked; compare it with the header's
 * macro to catch a header/library mismatch. */
SINEW_API unsigned sinew_version_number(void);
/* Returns SINEW_VERSION_STRING of the linked library ("0.1.0"). */
SINEW_API const char *sinew_version(void);

/* ------------------------------------------------------------------------------------------ */
/* Results and errors                                                                          */

/* Stable numbers, never reused. Families: 1x input/IO, 2x corrupt data, 3x clip content,
 * 4x parameters, 6x memory, 7x output. */
#define SINEW_RESULT_LIST(X)                                                                          \
	X(OK, 0, "ok")                                                                                    \
	X(IO, 10, "cannot read or write a file")                                                          \
	X(TRUNCATED, 11, "input ends before its declared size")                                           \
	X(UNSUPPORTED, 12, "input uses a feature this version does not support")                          \
	X(PARSE, 13, "input text is malformed")                                                           \
	X(BAD_MAGIC, 20, "input is not a sinew stream (bad magic)")                                       \
	X(BAD_VERSION, 21, "unknown format version")                                                      \
	X(CORRUPT, 22, "input is inconsistent (size, count or offset out of range)")                      \
	X(CHECKSUM, 23, "checksum mismatch")                                                              \
	X(PAGE_MISSING, 24, "the page holding this time is not loaded")                                   \
	X(NOT_FINITE, 30, "a value is NaN or infinite")                                                   \
	X(NOT_UNIT_QUATERNION, 31, "a rotation is not a unit quaternion")                                 \
	X(BAD_PARENT, 32, "a joint's parent does not come before it")                                     \
	X(NO_SAMPLES, 33, "the clip has no samples")                                                      \
	X(BAD_COUNT, 34, "counts do not match")                                                           \
	X(BAD_SAMPLE_RATE, 35, "the sample rate is not a positive finite number")                         \
	X(BAD_PRECISION, 36, "a shell distance or precision is not a positive finite number")             \
	X(BAD_TRACK, 37, "a scalar track is malformed")                                                   \
	X(OVER_BOUND, 38, "the clip cannot be played within its error threshold")                         \
	X(INVALID_ARGUMENT, 40, "invalid argument")                                                       \
	X(OUT_OF_RANGE, 41, "index out of range")                                                         \
	X(OUT_OF_MEMORY, 60, "out of memory")                                                             \
	X(BUFFER_TOO_SMALL, 70, "output buffer too small")

typedef enum sinew_result {
#define SINEW_X_ENUM(name, value, text) SINEW_RESULT_##name = value,
	SINEW_RESULT_LIST(SINEW_X_ENUM)
#undef SINEW_X_ENUM
	SINEW_RESULT_MAX_ENUM = 0x7fffffff
} sinew_result;

/* Returns a static description of a result code ("unknown result" for numbers not in the list). */
SINEW_API const char *sinew_error_string(sinew_result result);
/* Returns the stable identifier of a result code ("TRUNCATED"), for JSON and tests. */
SINEW_API const char *sinew_result_name(sinew_result result);

/* Details of a failure, filled by functions that take a `sinew_error *` (may be NULL). */
typedef struct sinew_error {
	sinew_result code;
	char message[256]; /* one line, no trailing newline, names the offending joint/track/sample/offset */
} sinew_error;

/* ------------------------------------------------------------------------------------------ */
/* Memory                                                                                      */

/* Caller allocator. Both functions or neither must be set; all-zero means malloc/free.
 * `alloc` returns memory aligned to at least `align` (a power of two <= 64) or NULL.
 * `free` receives the size that was requested. */
typedef struct sinew_allocator {
	void *(*alloc)(void *user, size_t size, size_t align);
	void (*free)(void *user, void *ptr, size_t size);
	void *user;
} sinew_allocator;

/* ------------------------------------------------------------------------------------------ */
/* Raw clip model (src/clip/)                                                                  */

/* A local transform: p' = rotation * (scale * p) + translation. 40 bytes. */
typedef struct sinew_qvv {
	float rotation[4];    /* unit quaternion x, y, z, w */
	float translation[3]; /* clip units */
	float scale[3];       /* non-uniform, may be negative or zero */
} sinew_qvv;

/* How sample(t) turns a fractional key index into a value (DESIGN §4). */
typedef enum sinew_rounding {
	SINEW_ROUNDING_NONE = 0,    /* interpolate between the two surrounding samples */
	SINEW_ROUNDING_FLOOR = 1,   /* value of the sample at or before t (glTF STEP) */
	SINEW_ROUNDING_CEIL = 2,    /* value of the sample at or after t */
	SINEW_ROUNDING_NEAREST = 3, /* value of the nearest sample */
	SINEW_ROUNDING_CLIP = 255   /* per-track only: use the clip's rounding */
} sinew_rounding;

/* Default values of the error metric, in centimetres (DESIGN §4). */
#define SINEW_DEFAULT_ERROR_CM 0.01
#define SINEW_DEFAULT_SHELL_CM 3.0

typedef struct sinew_joint {
	const char *name;         /* may be NULL; names need not be unique */
	int32_t parent;           /* index of the parent joint (< own index) or -1 for a root */
	sinew_qvv default_pose;   /* bind/rest transform; sub-tracks equal to it cost one bit */
	float shell_distance;     /* virtual vertex distance in clip units; 0 = from compress options */
	float precision;          /* error threshold in clip units; 0 = from compress options */
	uint8_t rounding;         /* sinew_rounding; SINEW_ROUNDING_CLIP (default) follows the clip */
	uint8_t has_track;        /* 0 = joint exists for the hierarchy/error metric only (e.g. BVH end site) */
	uint8_t reserved[2];
	int32_t source_index;     /* node index in the source file (glTF node, BVH joint) or -1 */
} sinew_joint;

/* source_node of a track that drives a glTF KHR_animation_pointer target other than a node's TRS or
 * weights (a material factor, KHR_texture_transform, a camera or light property): `name` is the JSON
 * pointer (RFC 6901), and the track holds floats source_target .. source_target + components - 1 of its value. */
#define SINEW_SOURCE_POINTER (-2)

/* A curve of 1..4 floats per sample (morph weights, KHR_animation_pointer values, blend values, IK targets). */
typedef struct sinew_scalar_track {
	const char *name;          /* may be NULL */
	uint32_t components;       /* 1..4 */
	float precision;           /* largest acceptable absolute error per component; 0 = default 1e-4. The glTF importer
	                              sets a morph weight's in vertex units where the mesh is known: the threshold over the
	                              largest scene distance a unit of the weight moves a vertex (DESIGN §4) */
	float default_value[4];    /* value of the track when it is absent (morph: mesh.weights) */
	uint8_t rounding;          /* sinew_rounding; SINEW_ROUNDING_CLIP follows the clip */
	uint8_t has_track;         /* 1 (sinew_clip_set_add_clip's default): the clip animates the track; 0: it plays its
	                              default_value only (exporters write no channel for it) */
	uint8_t reserved[2];
	int32_t source_node;       /* glTF node whose weights this drives, -1, or SINEW_SOURCE_POINTER */
	int32_t source_target;     /* morph target index within that node's mesh (pointer: first float's index), or -1 */
	float *values;             /* [sample_count * components], sample-major */
} sinew_scalar_track;

/* Samples off a uniform grid (docs/format.md §time map): mark m puts sample `sample` at time `time`;
 * between two marks the samples are evenly spaced in time. float32 times, as glTF stores its keys. */
typedef struct sinew_time_mark {
	float time;      /* seconds, >= 0, increasing from mark to mark */
	uint32_t sample; /* 0 for the first mark, sample_count - 1 for the last, increasing */
} sinew_time_mark;

/* Keyed sources (glTF): the source curve of one animated sub-track or scalar track, kept beside the samples so
 * the compressor may store the curve itself (its keys with quantized values and tangents, docs/format.md §curves)
 * where that meets the bound and is smaller than the samples. Evaluated as glTF 2.0 evaluates a sampler: before
 * the first key the first value, after the last key the last value; STEP holds a key's value until the next key;
 * LINEAR interpolates linearly (rotations: slerp on the shortest arc); CUBICSPLINE is the Hermite spline whose
 * tangents are scaled by the key interval (rotations normalized after). Owned by the set. */
typedef enum sinew_curve_interpolation {
	SINEW_CURVE_STEP = 0,
	SINEW_CURVE_LINEAR = 1,
	SINEW_CURVE_CUBICSPLINE = 2
} sinew_curve_interpolation;
typedef struct sinew_curve {
	uint8_t target;        /* 0 rotation, 1 translation, 2 scale (of joint `index`), 3 scalar track `index` */
	uint8_t interpolation; /* sinew_curve_interpolation */
	uint8_t reserved[2];
	uint32_t index;        /* the joint, or the scalar track */
	uint32_t key_count;    /* >= 1 */
	const float *times;    /* [key_count] seconds: finite, >= 0, non-decreasing (equal times: the later key wins) */
	const float *values;   /* [key_count * components] in clip units (4 for rotations, x y z w; 3 for translations and
	                          scales; the scalar track's components), or with CUBICSPLINE [key_count * 3 * components]:
	                          in-tangent, value, out-tangent per key, as glTF stores them */
} sinew_curve;

/* One animation clip over one skeleton. Transforms are stored sample-major:
 * transforms[sample * joint_count + joint] (a pose is contiguous). All arrays belong to the
 * sinew_clip_set that created the clip. */
typedef struct sinew_clip {
	const char *name;
	double sample_rate;         /* samples per second; may be fractional (29.97) */
	uint32_t sample_count;      /* >= 1; duration = (sample_count - 1) / sample_rate */
	uint32_t joint_count;
	sinew_joint *joints;        /* [joint_count], parents before children */
	sinew_qvv *transforms;      /* [sample_count * joint_count] */
	uint32_t scalar_track_count;
	sinew_scalar_track *scalar_tracks; /* [scalar_track_count] */
	double unit_scale;          /* clip units per metre: 1 for glTF (m), 100 for cm */
	uint8_t looping;            /* 1: the clip loops; sampling wraps from the last sample to the first */
	uint8_t rounding;           /* sinew_rounding for the whole clip (NONE by default) */
	uint8_t check_midpoints;    /* 1: the guarantee also holds at the midpoint of every sample interval, against the
	                               source samples interpolated as DESIGN §4 says (keyed sources: glTF) */
	uint8_t reserved[5];
	double resample_error;      /* importer: largest object-space error of playing the samples instead of the
	                               source curves, at check_times (clip units; DESIGN §4 metric), 0 if none */
	/* Keyed sources (glTF): the source evaluated exactly, with its own interpolation, at the times where
	 * playing the samples back would not reproduce it (key times, key-interval midpoints, CUBICSPLINE
	 * quarter points and sample-interval midpoints off the samples and beyond float noise), so the
	 * guarantee holds against the source file between samples too. sinew_compress verifies these poses;
	 * sinew_measure_blob_error measures them. 0 / NULL for sampled sources (BVH, AMC, ACL), whose samples
	 * are the source. Owned by the set. */
	uint32_t check_count;
	double *check_times;          /* [check_count] seconds, increasing, within [0, duration] */
	sinew_qvv *check_transforms;  /* [check_count * joint_count] local transforms, pose-major like transforms */
	/* Sample times: 0 / NULL for a uniform clip (sample k at k / sample_rate); else at least 2 marks
	 * (sinew_time_mark; not for looping clips), sample_rate then being informative (average). The glTF
	 * importer keys a clip this way when its key times are not on one uniform grid. Owned by the set. */
	uint32_t time_mark_count;
	sinew_time_mark *time_marks;
	/* Keyed sources (glTF): what storing the samples as float32 costs against the source curves evaluated in
	 * double, object space, DESIGN §4 metric (clip units; the importer measures it at every sample). The
	 * compressor keeps twice it out of each joint's threshold, so the bound holds against the source itself
	 * and not only against its float32 samples (4e-4 cm on a 25 m model, negligible at human scale). 0 for
	 * sampled sources. */
	double float_error;
	/* Keyed sources: where resample_error is largest, the joint and the time in seconds (0 when it is 0), so a
	 * clip the compressor refuses before any work names the node and the time. */
	uint32_t resample_joint;
	double resample_time;
	/* Importer: the bytes the source file spends on this clip's motion, for reports beside the dense raw figure
	 * (sinew_clip_raw_size): glTF the accessors its samplers read (each once), BVH the MOTION section, AMC the
	 * .amc file, ACL the `tracks` section, assimp formats their keys as float32 with float32 times; 0 unknown. */
	uint64_t source_bytes;
	/* Keyed sources (glTF): the source curves of the clip's sub-tracks and scalar tracks (sinew_curve; one per sub-track
	 * or scalar track: a second one is ignored), or 0 / NULL. The samples stay the clip's reference; the compressor stores curves
	 * instead when every animated track has one, they play within the bound at every sample, sample midpoint and
	 * check point, and they are smaller. Owned by the set. */
	uint32_t curve_count;
	sinew_curve *curves;
} sinew_clip;

/* A set of clips with the memory that holds them (an importer's result, a compressor input). */
typedef struct sinew_clip_set {
	uint32_t clip_count;
	sinew_clip **clips;
	void *internal; /* allocator and arena; do not touch */
} sinew_clip_set;

/* Describes the arrays sinew_clip_set_add_clip allocates. */
typedef struct sinew_clip_desc {
	const char *name;            /* copied */
	double sample_rate;
	uint32_t sample_count;
	uint32_t joint_count;
	uint32_t scalar_track_count;
	const uint32_t *scalar_components; /* [scalar_track_count] 1..4; NULL = all 1 */
} sinew_clip_desc;

/* Creates an empty clip set. Allocates through `allocator` (NULL = malloc). */
SINEW_API sinew_result sinew_clip_set_create(sinew_clip_set **out, const sinew_allocator *allocator);
/* Frees a clip set and every clip, name and array in it. NULL is a no-op. */
SINEW_API void sinew_clip_set_free(sinew_clip_set *set);
/* Adds a clip with zeroed arrays sized by `desc`: identity transforms and default poses,
 * parent -1, rounding SINEW_ROUNDING_CLIP on joints and tracks, has_track = 1, unit_scale 1.
 * The clip stays owned by the set. */
SINEW_API sinew_result sinew_clip_set_add_clip(sinew_clip_set *set, const sinew_clip_desc *desc, sinew_clip **out_clip);
/* Copies a string into the set's memory (for joint and track names). Returns NULL on OOM. */
SINEW_API const char *sinew_clip_set_strdup(sinew_clip_set *set, const char *text);
/* Allocates zeroed memory owned by the set (16-byte aligned). Returns NULL on OOM. */
SINEW_API void *sinew_clip_set_alloc(sinew_clip_set *set, size_t size);

/* Checks a clip: sample rate, counts, parent order, finite values, unit quaternions
 * (|1 - |q|| <= 1e-3), scale and precision fields, scalar tracks, time marks. Does not allocate.
 * Errors: NO_SAMPLES, BAD_SAMPLE_RATE (also for bad time marks), BAD_COUNT, BAD_PARENT, NOT_FINITE, NOT_UNIT_QUATERNION,
 * BAD_PRECISION, BAD_TRACK; the message names the joint/track and the sample. */
SINEW_API sinew_result sinew_clip_validate(const sinew_clip *clip, sinew_error *error);

/* Raw size in bytes by ACL's convention: joints x samples x 10 floats x 4 bytes, plus
 * 4 bytes per scalar component per sample. */
SINEW_API uint64_t sinew_clip_raw_size(const sinew_clip *clip);

/* Duration in seconds: (sample_count - 1) / sample_rate, or the last time mark's time; 0 for a single sample. */
SINEW_API double sinew_clip_duration(const sinew_clip *clip);
/* Time in seconds of (fractional) sample index `sample` in [0, sample_count - 1]: sample / sample_rate,
 * or through the clip's time marks. */
SINEW_API double sinew_clip_sample_time(const sinew_clip *clip, double sample);

/* ------------------------------------------------------------------------------------------ */
/* Error metric (DESIGN §4), shared by the compressor, the CLI and the tests                   */

/* Per-joint error settings for the metric, in clip units. */
typedef struct sinew_metric_options {
	double shell_distance; /* used for joints whose shell_distance is 0; 0 = 3 cm in clip units */
	double threshold;      /* samples with error above it are counted; 0 = 0.01 cm in clip units */
	uint32_t tiers;        /* sinew_measure_blob_error: quality tiers the decoder uses (0 = all) */
} sinew_metric_options;

/* Errors are in the clip's own units (sinew_clip.unit_scale per metre): metres for glTF, so 0.00009 is 0.009 cm;
 * centimetres for BVH by default. max_error_cm and p99_error_cm give the same figures in centimetres, the unit of
 * the threshold (error_cm). */
typedef struct sinew_error_stats {
	double max_error;            /* clip units, over every joint and sample */
	double p99_error;            /* 99th percentile of the per (sample, joint) errors, clip units */
	double mean_error;           /* clip units */
	uint64_t samples_over_threshold; /* (sample, joint) pairs whose error exceeds their threshold */
	uint64_t measured;           /* number of (sample, joint) pairs measured */
	uint32_t worst_joint;
	uint32_t worst_sample;       /* the sample at or before worst_time */
	double worst_time;           /* seconds: the time of the largest error (a sample, midpoint or check time) */
	double max_scalar_error;     /* largest absolute scalar error divided by that track's precision */
	uint64_t scalar_over_precision; /* scalar (sample, component) pairs above their precision */
	double max_error_cm;         /* max_error in centimetres (clip units * 100 / unit_scale) */
	double p99_error_cm;         /* p99_error in centimetres */
} sinew_error_stats;

/* Object-space error of `test` against `reference` on the same skeleton and sample count:
 * for every sample and joint, both poses are composed from the root as affine transforms
 * (T = T_parent * T_local, p' = R(S p) + t, in double precision); the joint's origin and its six
 * shell points are placed in each pose: the shell is fixed at the rest pose (the joints' default
 * poses), at local offsets +-d / sigma_k along local axis k, sigma_k the length of axis k of the rest
 * object-space map, so d is a scene distance at rest whatever scale the ancestors carry, and every
 * animated scale moves the points (a rest axis under 1e-3 of the longest the reference clip gives
 * it takes that length instead; docs/format.md Appendix B); the joint's error is the largest
 * distance between a point's two images. Scalar tracks are compared per component. Allocates temporary memory through
 * `allocator`. Errors: BAD_COUNT when the clips do not match, OUT_OF_MEMORY. */
SINEW_API sinew_result sinew_measure_error(const sinew_clip *reference, const sinew_clip *test,
                                           const sinew_metric_options *options, const sinew_allocator *allocator,
                                           sinew_error_stats *out_stats, sinew_error *error);

/* The guarantee as a user sees it (DESIGN §4): the error of clip `clip` of a validated blob against
 * `source`, the clip it was compressed from, sampled through a sampling context (the real decoder) at
 * every source sample time, at the midpoint of every sample interval when source->check_midpoints (against
 * the source samples interpolated), and at every source check time (against source->check_transforms:
 * the source file's own evaluation, resampling included). Same metric as sinew_measure_error; `measured`
 * counts (time, joint) pairs; scalar tracks are compared at samples and midpoints. worst_time names the
 * time. Allocates the context and temporaries through `allocator`. Errors: BAD_COUNT when the blob's clip
 * does not match `source` (joints, samples, scalar components), OUT_OF_RANGE, OUT_OF_MEMORY, and
 * sinew_context_init's. */
SINEW_API sinew_result sinew_measure_blob_error(const sinew_clip *source, const void *blob, size_t size, uint32_t clip,
                                                const sinew_metric_options *options, const sinew_allocator *allocator,
                                                sinew_error_stats *out_stats, sinew_error *error);

/* Error of one pose: `out_errors[joint]` receives the object-space shell error of each joint
 * (clip units), shells fixed at the joints' default poses as in sinew_measure_error (the degenerate
 * rest rule sees the reference pose only). `shell_distances` is [joint_count] (NULL: every joint uses
 * `default_shell`).
 * `scratch` must hold sinew_pose_error_scratch_size(joint_count) bytes (8-byte aligned).
 * Does not allocate. */
SINEW_API size_t sinew_pose_error_scratch_size(uint32_t joint_count);
SINEW_API void sinew_pose_error(const sinew_joint *joints, uint32_t joint_count, const sinew_qvv *reference,
                                const sinew_qvv *test, const float *shell_distances, double default_shell,
                                void *scratch, double *out_errors);

/* ------------------------------------------------------------------------------------------ */
/* Import (src/import/): glTF 2.0 (.gltf/.glb), BVH, CMU ASF/AMC, ACL clips (.acl.sjson)        */

typedef enum sinew_file_kind {
	SINEW_FILE_AUTO = 0, /* from the extension, then the content */
	SINEW_FILE_GLTF = 1, /* .gltf (JSON) or .glb (binary); detected by content */
	SINEW_FILE_BVH = 2,
	SINEW_FILE_AMC = 3,  /* CMU .amc motion; the skeleton comes from an .asf (see asf_path) */
	SINEW_FILE_ACL = 4,  /* ACL's .acl.sjson raw clip or track list */
	SINEW_FILE_ASSIMP = 5 /* FBX, COLLADA and the other formats of assimp, when sinew was built with it
	                         (sinew_import_assimp_version). For trusted pipeline input only: assimp is not
	                         hardened against hostile files (the built-in readers are) */
} sinew_file_kind;

/* The reader sinew_import_file picks for `path` by its extension alone (any case): GLTF for .gltf/.glb, BVH,
 * AMC, ACL for .sjson, ASSIMP for every other extension assimp 5.2 reads (.fbx, .dae, .x, .3ds, .mdl, .csm,
 * ..., whether or not sinew was built with it), AUTO for the rest (the content then decides). */
SINEW_API sinew_file_kind sinew_file_kind_from_path(const char *path);

typedef struct sinew_import_options {
	sinew_file_kind kind;
	double unit_cm;          /* length of one source unit in cm; 0 = format default (BVH 1 cm, AMC from the
	                            ASF `length` (2.54 / length cm), glTF 100 cm, ACL 1 cm) */
	double sample_rate;      /* glTF: resample uniformly at this rate (Hz); 0 = a sample at every source key time
	                            (runs of evenly spaced keys as one run, time marks where the spacing changes, key
	                            intervals cut where the curves need it: docs/format.md Appendix B) */
	double error_cm;         /* glTF: the threshold the automatic rate is chosen for (resampling may use half
	                            of it, object space, at key times and midpoints), and the one morph weights' precision
	                            is set for (the vertices their targets move, in scene units); 0 = 0.01 cm. Compress
	                            with the same threshold (the CLI passes --error-cm to both) */
	int bvh_skip_end_sites;  /* BVH: 1 = drop End Site joints (default keeps them as leaves without tracks) */
	const char *asf_path;    /* AMC: skeleton file; NULL = asf_data, else the only .asf in the .amc's folder */
	const char *base_path;   /* memory imports: folder for external glTF buffers; NULL = none allowed */
	void (*warning)(void *user, const char *message); /* skipped channels and other non-fatal notes */
	void *warning_user;
	const void *asf_data;    /* AMC: the skeleton's bytes (memory imports; asf_path takes precedence) */
	size_t asf_size;
	double shell_cm;         /* glTF: shell distance of the resampling check (scene units, cm); 0 = 3 cm */
	int skin_shells;         /* glTF: 1 = each skin joint's shell_distance is the scene distance, at the rest pose, of
	                            the farthest vertex it moves (weight > 0.05) when that exceeds shell_cm (at most
	                            1 m): the bound then covers the skinned vertices. Trusted meshes only widen shells;
	                            unusable ones are skipped with a warning */
} sinew_import_options;

/* The version of the assimp importer built in ("5.2.4"), or NULL when sinew was built without it. */
SINEW_API const char *sinew_import_assimp_version(void);

/* Reads an animation file into a new clip set (one clip per glTF animation / BVH / AMC / ACL file).
 * `options` may be NULL. On failure *out is NULL and `error` names the problem (with a line number
 * for text formats, an accessor or byte offset for glTF). Safe on untrusted input. */
SINEW_API sinew_result sinew_import_file(const char *path, const sinew_import_options *options,
                                         const sinew_allocator *allocator, sinew_clip_set **out, sinew_error *error);
/* Same from memory; `kind` must not be AUTO unless the content identifies itself (glb magic). */
SINEW_API sinew_result sinew_import_memory(const void *data, size_t size, const sinew_import_options *options,
                                           const sinew_allocator *allocator, sinew_clip_set **out, sinew_error *error);

/* ------------------------------------------------------------------------------------------ */
/* Compress (src/compress/, serialized by src/format/)                                         */

typedef enum sinew_level {
	SINEW_LEVEL_FAST = 1,    /* no decimation search, no refinement pass: about 3x faster, larger */
	SINEW_LEVEL_DEFAULT = 2, /* decimation search and the object-space refinement pass; clips of at most
	                            65 samples are compressed as SINEW_LEVEL_HIGH does (they cost little) */
	SINEW_LEVEL_HIGH = 3,    /* + tries 2 segment lengths per clip (about 2x the time) */
	SINEW_LEVEL_HIGHEST = 4  /* + tries 4 segment lengths per clip (about 4x the time) */
} sinew_level;

/* A job system the compressor hands independent tasks to (sinew_compress_options.jobs): run() must
 * call task(arg, i) exactly once for every i in [0, count), in any order, on any threads, and return
 * when all have returned. Tasks never call run() themselves. The blob is the same bytes whatever runs
 * them and however many at once. With jobs, the allocator given to sinew_compress is called from the
 * tasks' threads (the default, malloc, is thread-safe). sinew's CLI brings a small thread pool (-j). */
typedef struct sinew_jobs {
	void (*run)(void *user, void (*task)(void *arg, uint32_t index), void *arg, uint32_t count);
	void *user;
} sinew_jobs;

typedef struct sinew_compress_options {
	double error_cm;         /* object-space error threshold in cm; 0 = 0.01 (joint.precision overrides) */
	double shell_cm;         /* virtual vertex distance in cm; 0 = 3 (joint.shell_distance overrides) */
	int level;               /* sinew_level; 0 = SINEW_LEVEL_DEFAULT */
	uint32_t segment_length; /* sample intervals per segment; 0 = 40 (32 with plain knots, midpoint_knots -1) */
	int strip_metadata;      /* SINEW_STRIP_NONE (0): the blob's rig holds names, hierarchy, rest pose, and defaults play
	                            the rest pose (free); SINEW_STRIP_ALL (1): none of them, identity defaults (as ACL's);
	                            SINEW_STRIP_TO_SOURCES (2): source node indices only, defaults play a rest pose the
	                            sampler is given (a glTF document's: sinew_pack_gltf) */
	uint32_t page_bytes;     /* > 0: write a paged blob whose pages hold whole segments and stay under this many
	                            bytes where a segment allows (docs/format.md §pages); 0 = not paged */
	uint32_t tier_count;     /* 2..SINEW_MAX_TIERS: quality tiers (paged; page_bytes 0 = 65536): tier k is a set of
	                            pages encoding every segment within tier_error_cm[k]; the last bound must equal
	                            error_cm (0 there = the last bound). 0 or 1 = no tiers */
	double tier_error_cm[8]; /* decreasing bounds in cm, coarsest (the base tier) first */
	int midpoint_knots;      /* 0 (default) or 1 = store odd knots as residuals from their neighbours' midpoint where
	                            that makes a clip smaller (docs/format.md §midpoint knots): about 10 % less on 120 Hz
	                            mocap and 5 % on 24-30 Hz clips; -1 = plain knots only: whole-pose sampling about 20 %
	                            faster */
	int allow_over_bound;    /* 0 (default): a clip whose bound cannot be met, not even at full precision (the source
	                            resampled beyond it), fails with SINEW_RESULT_OVER_BOUND naming the clip, the node, the
	                            time and the error (before any work when the clip's samples are already further
	                            from the source than the threshold: resample_error at resample_joint, resample_time);
	                            1: its best encoding is written anyway and marked Over_bound
	                            (sinew_clip_info.over_bound) */
	const sinew_jobs *jobs;  /* NULL (default): everything on the calling thread; else a set of several clips
	                            compresses a clip per task, a lone clip a segment (and a group of whole root
	                            subtrees of a large scene) per task; a lone clip of at most 65 samples stays on
	                            the calling thread (its few searches cost less than handing them out) */
	uint64_t (*now_ns)(void *user); /* optional monotonic clock in ns (the library reads none itself): with it, */
	void *now_user;                 /* clip_ns[i] (set->clip_count entries, the caller's) receives the time    */
	uint64_t *clip_ns;              /* spent encoding clip i, its serialization into the blob not included      */
} sinew_compress_options;
#define SINEW_MAX_TIERS 8
#define SINEW_STRIP_NONE 0
#define SINEW_STRIP_ALL 1
#define SINEW_STRIP_TO_SOURCES 2

/* Compresses every clip of `set` into one blob (docs/format.md). The guarantee: for every sample
 * of every source clip and every joint, the object-space shell error of the decompressed pose is
 * <= the threshold (DESIGN §4), and every scalar component is within its track's precision; for
 * keyed sources also at every sample midpoint and at the clip's check points. A clip that cannot
 * meet it fails with SINEW_RESULT_OVER_BOUND (unless options->allow_over_bound): no blob is ever
 * written over its bound at defaults. Clips are validated first (errors as sinew_clip_validate). *out_blob is allocated with
 * `allocator` (16-byte aligned); release it with sinew_blob_free. */
SINEW_API sinew_result sinew_compress(const sinew_clip_set *set, const sinew_compress_options *options,
                                      const sinew_allocator *allocator, void **out_blob, size_t *out_size,
                                      sinew_error *error);
SINEW_API void sinew_blob_free(void *blob, size_t size, const sinew_allocator *allocator);

/* ------------------------------------------------------------------------------------------ */
/* Decompress (src/decompress/)                                                                */

/* Checks a blob completely: magic, version, sizes, every offset and count, bit widths, checksum.
 * Safe on any bytes. After it succeeds, sampling never reads outside [blob, blob + size).
 * Errors: TRUNCATED, BAD_MAGIC, BAD_VERSION, CORRUPT, CHECKSUM. Does not allocate. */
SINEW_API sinew_result sinew_validate(const void *blob, size_t size, sinew_error *error);

typedef struct sinew_clip_info {
	const char *name;       /* points into the blob; NULL without metadata */
	double sample_rate;
	uint32_t sample_count;  /* samples of the source (a looping source that ended on its first pose included) */
	uint32_t joint_count;
	uint32_t scalar_track_count;
	uint32_t segment_count;
	double duration;        /* seconds; looping clips include the wrap interval */
	double unit_scale;
	int looping;
	int has_metadata;       /* names or hierarchy (format 3: the blob's rig; 1 and 2: the clip's metadata) */
	uint32_t size;          /* bytes of this clip inside the blob (the resident part for a paged clip) */
	uint32_t format_version;
	uint32_t page_count;    /* paged clips: pages (0 otherwise) */
	uint32_t page_bytes;    /* paged clips: bytes of all the clip's pages */
	uint32_t page_bytes_max; /* paged clips: the largest page */
	uint32_t tier_count;    /* quality tiers: 1, or 2..SINEW_MAX_TIERS (docs/format.md §tiers) */
	uint32_t tier_bytes[SINEW_MAX_TIERS];    /* bytes of each tier's pages */
	double tier_bound_cm[SINEW_MAX_TIERS];   /* each tier's bound, as compressed (cm in the scene) */
	double tier_error_cm[SINEW_MAX_TIERS];   /* the largest error the encoder measured for each tier (cm) */
	uint32_t time_mark_count; /* samples off a uniform grid: the marks of the clip's time map (docs/format.md
	                             §time map; sinew_blob_time_marks), 0 for a uniform clip */
	int over_bound;           /* 1: the encoder could not meet the clip's bound and wrote it on request
	                             (sinew_compress_options.allow_over_bound) */
	uint32_t listed_joints;   /* joints the clip stores anything for (format 3: the others play their default, the
	                             rest pose with sinew_rig_info.rest_defaults); joint_count in formats 1 and 2 */
	uint32_t listed_scalars;  /* the same for scalar tracks */
	int curves;               /* 1: the clip stores its animated tracks as the source's curves (docs/format.md §curves):
	                             no segments; sample_count and sample_rate are the importer's grid (decompress samples
	                             there) */
} sinew_clip_info;

/* The rig every clip of a blob shares (docs/format.md §rig): format 3 stores it once per blob; for formats 1
 * and 2 it describes clip 0. */
typedef struct sinew_rig_info {
	uint32_t node_count;        /* the joint_count of every clip */
	uint32_t scalar_count;      /* scalar tracks of every clip */
	uint32_t scalar_components; /* floats of out_scalars */
	double unit_scale;          /* clip units per metre */
	int rest_defaults;          /* 1: default sub-tracks, and joints and scalar tracks a clip does not list, play the rest
	                               pose (the rig's, or sinew_context_options.rest_pose when the rig has none) */
	int has_rest;               /* the rig stores the rest pose (scalar rest values: has_scalar_rest) */
	int has_scalar_rest;
	int has_names, has_hierarchy, has_sources; /* names; parents; source node indices (glTF) */
} sinew_rig_info;
/* Reads the rig of a blob (any version; safe on any bytes: checked as sinew_validate does, checksum not
 * needed). Does not allocate. */
SINEW_API sinew_result sinew_blob_rig(const void *blob, size_t size, sinew_rig_info *out, sinew_error *error);
/* One node and one scalar track of the rig (a packed glTF's blob maps them to its document by source index). */
typedef struct sinew_rig_node {
	const char *name;       /* points into the blob; NULL without names */
	int32_t parent;         /* -1 for a root, or when the rig has no hierarchy */
	int32_t source_index;   /* the node in the source file (glTF), -1 when unknown */
	sinew_qvv rest;         /* identity when the rig does not store the rest pose (sinew_rig_info.has_rest) */
	float shell_distance;   /* as sinew_joint (0 = the compressor's default) */
	float precision;
} sinew_rig_node;
typedef struct sinew_rig_scalar {
	const char *name;       /* a pointer track's JSON pointer, a morph track's name; NULL when the rig has none */
	uint32_t components;    /* 1..4 */
	int32_t source_node;    /* as sinew_scalar_track: glTF node of the morph weights, -1, or SINEW_SOURCE_POINTER */
	int32_t source_target;  /* first morph target (a pointer track: its first float), or -1 */
	float rest[4];          /* the rest (default) value; zeros when the rig does not store it (has_scalar_rest) */
	float precision;
} sinew_rig_scalar;
/* Fills nodes[node_count] and scalars[scalar_count] (either may be NULL) from the blob's rig (formats 1 and 2:
 * clip 0's metadata). Safe on any bytes, as sinew_blob_rig. Does not allocate. */
SINEW_API sinew_result sinew_blob_rig_nodes(const void *blob, size_t size, sinew_rig_node *nodes, sinew_rig_scalar *scalars,
                                            sinew_error *error);

/* Number of clips in a validated blob (0 if `blob` is not a validated blob's first bytes). */
SINEW_API uint32_t sinew_blob_clip_count(const void *blob, size_t size);
SINEW_API sinew_result sinew_blob_clip_info(const void *blob, size_t size, uint32_t clip, sinew_clip_info *out,
                                            sinew_error *error);

typedef struct sinew_context sinew_context;

typedef enum sinew_kernel {
	SINEW_KERNEL_AUTO = 0,   /* best the CPU supports */
	SINEW_KERNEL_SCALAR = 1  /* the reference kernel */
} sinew_kernel;

typedef struct sinew_context_options {
	int kernel;          /* sinew_kernel; 0 = AUTO (the environment variable SINEW_KERNEL=scalar forces scalar) */
	int skip_defaults;   /* 1 = sample_pose leaves identity/default sub-tracks untouched (caller pre-fills the bind pose) */
	int random_access;   /* 1 = precompute every segment's parameters at init: the same cost in any playback order,
	                        for more memory (see sinew_context_size_with); 0 = the current segment's parameters
	                        plus the next one in the playback direction, prepared during the calls before
	                        sampling reaches it (cheapest for forward/backward playback; a jump fills at once) */
	uint32_t tiers;      /* quality tiers (docs/format.md §tiers) sampling may use, from the base tier up; 0 = all.
	                        Each segment plays from the finest of those tiers whose page is present */
	const sinew_qvv *rest_pose;  /* [node_count] the rest pose of a blob whose defaults play it (rest_defaults) but whose
	                                rig does not store it: a packed glTF's blob, whose document holds it (its nodes'
	                                translation, rotation and scale at their source indices). Ignored when the rig has
	                                it. Without either, context_init fails unless skip_defaults */
	const float *rest_scalars;   /* [scalar components] the same for scalar tracks (morph weights: node.weights, else
	                                mesh.weights, else 0) */
} sinew_context_options;

/* Bytes of caller memory a sampling context for `clip` needs (0 if the blob/clip is invalid). */
SINEW_API size_t sinew_context_size(const void *blob, size_t size, uint32_t clip);
/* Same for the given options (random_access needs memory per segment of the clip). */
SINEW_API size_t sinew_context_size_with(const void *blob, size_t size, uint32_t clip, const sinew_context_options *options);
/* Creates a context in `memory` (16-byte aligned, sinew_context_size_with bytes) for a blob that
 * passed sinew_validate and stays alive and unchanged while the context is used. No allocation.
 * Contexts are independent: one per thread. */
SINEW_API sinew_result sinew_context_init(void *memory, size_t memory_size, const void *blob, size_t size, uint32_t clip,
                                          const sinew_context_options *options, sinew_context **out,
                                          sinew_error *error);
/* Samples the whole pose at time t (seconds; clamped to [0, duration]) into out_pose[joint_count]
 * and out_scalars[sum of scalar components] (either may be NULL). `remap` (may be NULL) sends
 * joint j to out_pose[remap[j]]; entries of 0xFFFFFFFF are skipped. No allocation, no locks.
 * Returns OK, or PAGE_MISSING for a paged clip whose page holding t is not loaded: nothing is
 * written and sinew_context_missing_page names the page (the sampling functions below too). */
SINEW_API sinew_result sinew_sample_pose(sinew_context *context, double t, sinew_qvv *out_pose, const uint32_t *remap,
                                 float *out_scalars);
/* Like sinew_sample_pose, but writes only the animated sub-tracks and scalar tracks: for outputs
 * that already hold this clip's constant and default values from an earlier sinew_sample_pose with
 * the same remap (they never change). Saves copying the constant pose every frame (large scenes). */
SINEW_API sinew_result sinew_sample_pose_animated(sinew_context *context, double t, sinew_qvv *out_pose, const uint32_t *remap,
                                          float *out_scalars);
/* Samples one joint without decoding the others. */
SINEW_API sinew_result sinew_sample_joint(sinew_context *context, double t, uint32_t joint, sinew_qvv *out);
/* Samples one scalar track (components floats). */
SINEW_API sinew_result sinew_sample_scalar(sinew_context *context, double t, uint32_t track, float *out);
/* Name of the kernel a context uses ("scalar", "sse2", "avx2", ...). */
SINEW_API const char *sinew_context_kernel(const sinew_context *context);

/* Paged clips (formats 2 and 3, docs/format.md §pages; `sinew compress --page-bytes`). A paged blob is a
 * resident part (headers, descriptors, constants, clip ranges, page tables, the rig) followed by
 * pages of whole segments. A context can be created over the whole blob (every page present) or
 * over the resident part alone (sinew_blob_resident_size bytes; sinew_validate accepts it): pages
 * are then handed in as they arrive and dropped when the caller wants.
 *
 * Threading: a context is used by one thread at a time. sinew_context_add_page and
 * sinew_context_drop_page change the context, so they are serialized with its sampling calls by
 * the caller (for example: a loader thread fetches bytes, the sampling thread installs them
 * between frames). sinew_page_check is pure: any thread may verify a page's bytes in advance.
 * Page bytes stay alive and unchanged until the page is dropped (or the context is discarded);
 * after sinew_context_drop_page the context never reads them again. None of these allocate. */
typedef struct sinew_page_info {
	uint32_t first_segment, segment_count;
	uint32_t offset, size;     /* byte range of the page in the blob file */
	double start_time, end_time; /* seconds the page can sample on its own (ends included) */
	int present;               /* 1 while the page is loaded in this context */
	uint32_t tier;             /* quality tier of the page (0 = the base tier; 0 for a clip without tiers) */
} sinew_page_info;

/* Bytes to fetch first: the resident part of a paged blob, the whole blob otherwise (0 if the
 * header is invalid). Needs only the first 32 bytes. */
SINEW_API uint32_t sinew_blob_resident_size(const void *blob, size_t size);
/* Pages of the context's clip (0 for a clip that is not paged). */
SINEW_API uint32_t sinew_context_page_count(const sinew_context *context);
SINEW_API sinew_result sinew_context_page_info(const sinew_context *context, uint32_t page, sinew_page_info *out);
/* Checks `size` bytes as page `page` of clip `clip` against the resident part `blob` (size,
 * checksum, structure). Errors: OUT_OF_RANGE, TRUNCATED, CORRUPT, CHECKSUM. */
SINEW_API sinew_result sinew_page_check(const void *blob, size_t blob_size, uint32_t clip, uint32_t page, const void *bytes,
                                        size_t size, sinew_error *error);
/* Checks the bytes as sinew_page_check does and makes the page present. A page that fails is
 * rejected with its error and the context is left exactly as it was. Adding a present page
 * replaces its bytes. */
SINEW_API sinew_result sinew_context_add_page(sinew_context *context, uint32_t page, const void *bytes, size_t size,
                                              sinew_error *error);
/* Makes the page absent (no-op when it is). */
SINEW_API void sinew_context_drop_page(sinew_context *context, uint32_t page);
/* The page the last sampling call that returned PAGE_MISSING lacked (0xFFFFFFFF if none). */
SINEW_API uint32_t sinew_context_missing_page(const sinew_context *context);
/* The pages sampling needs for times between t and t + horizon (a negative horizon looks
 * backward; looping clips wrap around), in playback order: up to `capacity` indices go to
 * `pages`; returns how many there are. For prefetching and seeking: any time needs at most the
 * pages this returns for a horizon of 0. With quality tiers, the base tier's pages come first,
 * then each finer tier's (up to the context's `tiers`): sampling needs only the base tier's; a
 * player loads in this order as its budget allows and drops finer tiers first. */
SINEW_API uint32_t sinew_context_pages_needed(const sinew_context *context, double t, double horizon, uint32_t *pages,
                                              uint32_t capacity);

/* Where the bytes of a blob go, by the parts of docs/format.md (sinew info --sizes). Byte counts
 * (bits_* and bit_padding are bits) that add up: total = blob_header +
 * clip_headers + descriptors + constants + clip_ranges + time_map + segment_table + segment_descriptors +
 * segment_ranges + group_offsets + (bits_rotation + bits_translation + bits_scale + bits_scalar +
 * bit_padding) / 8 + metadata + rig + padding + curve_times + curve_tracks. */
typedef struct sinew_size_breakdown {
	uint64_t total;               /* bytes described: one clip, or the whole blob */
	uint64_t blob_header;         /* whole blob only: the header (20 bytes, 24 paged; 32 in formats 1 and 2) + clip
	                                 offset table */
	uint64_t clip_headers;        /* 20 bytes per clip (24 with an f64 rate; 36 in format 2, 64 in format 1) */
	uint64_t descriptors;         /* 1 byte per listed joint and scalar track, + 1 more with per-track rounding
	                                 (format 1: 2 bytes), the node and scalar maps, + alignment */
	uint64_t constants;           /* values of constant and default sub-tracks */
	uint64_t clip_ranges;         /* per animated track: minima and extents over the clip */
	uint64_t time_map;            /* clips sampled off a uniform grid: 4 bytes + 4 per time mark, + 2 per inner mark
	                                 unless every sample is a mark (format 2: 4 + 8 per mark) */
	uint64_t segment_table;       /* 4 bytes per segment + 4 (none for a lone segment); paged clips: the page table (4 + 20 per page) and
	                                 each page's segment offsets (4 per segment + 4) */
	uint64_t segment_descriptors; /* 3 bytes per animated track per segment (widths, decimation); 5 with
	                                 midpoint knots (+ a 4-bit residual shift per component) */
	uint64_t segment_ranges;      /* 2 bytes per stored component per segment (none for a lone segment) */
	uint64_t group_offsets;       /* formats 1 and 2: 4 bytes per 8 animated tracks per segment */
	uint64_t bits_rotation, bits_translation, bits_scale, bits_scalar; /* knot bits by sub-track kind
	                                 (plain knots and midpoint residuals) */
	uint64_t bit_padding;         /* bits rounding each segment's stream up to a byte */
	uint64_t metadata;            /* format 1 and 2: the clip's names, hierarchy, default poses, shells */
	uint64_t rig;                 /* format 3, whole blob only: the rig (names, hierarchy, rest pose, sources) */
	uint64_t padding;             /* alignment: before the metadata, between clips, the 8-byte tails (blob, pages) */
	uint32_t segments, animated_tracks, knots;
	uint32_t predicted_knots;     /* of `knots`, those stored as residuals from their neighbours' midpoint */
	uint64_t curve_times;         /* curve clips (docs/format.md §curves): the key time sets (2 bytes, + 2 per set, + 4 per
	                                 key time); their keys' bits count in bits_* (and in `knots`), padding in bit_padding */
	uint64_t curve_tracks;        /* curve clips: 2 bytes per curve, + per component 2 bytes of widths and its value and
	                                 tangent ranges */
} sinew_size_breakdown;
#define SINEW_ALL_CLIPS 0xFFFFFFFFu
/* Fills `out` for clip `clip` of a blob (a paged clip's pages included: the whole blob is needed,
 * else PAGE_MISSING), or for the whole blob with SINEW_ALL_CLIPS. Safe on any bytes
 * (structure checked as sinew_validate does, checksum not needed). Errors: those of sinew_validate,
 * OUT_OF_RANGE for a clip index past the last. Does not allocate. */
SINEW_API sinew_result sinew_blob_sizes(const void *blob, size_t size, uint32_t clip, sinew_size_breakdown *out,
                                        sinew_error *error);

/* Decompresses every clip of a validated blob at its sample times into a new clip set (names,
 * hierarchy and default poses come from the metadata when present); a curve clip's clip also holds
 * its curves as the blob stores them (sinew_clip.curves: key times, dequantized values and tangents).
 * For export and measurement. */
SINEW_API sinew_result sinew_decompress_clips(const void *blob, size_t size, const sinew_allocator *allocator,
                                              sinew_clip_set **out, sinew_error *error);
/* The same with only the first `tiers` quality tiers (0 = all): the clips as they play with those. */
SINEW_API sinew_result sinew_decompress_clips_tiers(const void *blob, size_t size, uint32_t tiers,
                                                    const sinew_allocator *allocator, sinew_clip_set **out,
                                                    sinew_error *error);
/* Options of sinew_decompress_clips_with. */
typedef struct sinew_decompress_options {
	uint32_t tiers;              /* quality tiers (0 = all) */
	const sinew_qvv *rest_pose;  /* as sinew_context_options.rest_pose (a packed glTF's blob): also becomes the joints'
	                                default_pose */
	const float *rest_scalars;   /* as sinew_context_options.rest_scalars */
} sinew_decompress_options;
SINEW_API sinew_result sinew_decompress_clips_with(const void *blob, size_t size, const sinew_decompress_options *options,
                                                   const sinew_allocator *allocator, sinew_clip_set **out,
                                                   sinew_error *error);

/* ------------------------------------------------------------------------------------------ */
/* Export (src/export/): clips back to glTF 2.0 (and to ACL raw clips)                          */

typedef struct sinew_export_options {
	int binary;              /* 1 = .glb; 0 = .gltf with an embedded base64 buffer; -1 = from the path's extension */
	const char *source_path; /* glTF the clips were imported from: keep its document, replace its animations */
} sinew_export_options;

/* Writes every clip of `set` as one glTF 2.0 file: a node per joint (rest TRS = default pose),
 * one animation per clip sampled at the clip rate (LINEAR, STEP for floor-rounded tracks), but a
 * joint sub-track the clip has a curve for (sinew_clip.curves, strictly increasing key times),
 * written as that curve with its own interpolation, and `weights` channels for morph scalar tracks. With `source_path`, the source document is kept
 * (meshes, skins, materials, extensions) and only its animations are replaced. Writes to a
 * temporary file and renames it, so a failure never leaves a partial output. */
SINEW_API sinew_result sinew_export_gltf(const sinew_clip_set *set, const char *path, const sinew_export_options *options,
                                         const sinew_allocator *allocator, sinew_error *error);

/* Writes one clip as an ACL raw clip file (.acl.sjson, version 5, binary-exact values), so ACL's own tools
 * (acl_compressor) can compress anything sinew imports: a bone per joint (unique names, parents first), every
 * sample of every joint, translations and vertex distances in centimetres (ACL's unit; 3 cm where
 * shell_distance is 0), no settings block (ACL's defaults apply). Scalar tracks are not written. Writes
 * through a temporary file. Errors: the clip's validation errors, UNSUPPORTED without joints, IO. */
SINEW_API sinew_result sinew_export_acl(const sinew_clip *clip, const char *path, sinew_error *error);

/* A glTF with its animations compressed inside (the SINEW_compressed_animation extension, docs/gltf_extension.md).
 * Imports `source_path` (.gltf/.glb), compresses every animation into one blob with metadata (its joints'
 * source_index and tracks' source_node/source_target map it to the document's nodes; `strip_metadata` is
 * ignored), and writes the source document with `animations` removed (with the accessors and bufferViews only
 * they used), the blob appended as a bufferView 16-byte aligned in the buffer, and the extension declared in
 * extensionsUsed only: a viewer without it shows the static model. `.glb` or `.gltf` (embedded base64) by
 * `out_path`'s extension. `options` may be NULL (0.01 cm / 3 cm). Writes through a temporary file. Errors: those
 * of sinew_import_file, sinew_compress and sinew_export_gltf; UNSUPPORTED for a source already packed. */
SINEW_API sinew_result sinew_pack_gltf(const char *source_path, const char *out_path,
                                       const sinew_compress_options *options, const sinew_allocator *allocator,
                                       sinew_error *error);
/* The reverse: reads the extension's bufferView (bounds-checked against its buffer), validates the blob
 * (sinew_validate), decompresses it and writes the clips as plain glTF animations into the document, without
 * the extension and its bufferView. Safe on untrusted input; nothing is written on failure. Errors:
 * UNSUPPORTED (no extension), CORRUPT (bad reference, range outside the buffer, clip count mismatch, a
 * bufferView shared with the blob), BAD_VERSION, and sinew_validate's TRUNCATED/BAD_MAGIC/CORRUPT/CHECKSUM. */
SINEW_API sinew_result sinew_unpack_gltf(const char *packed_path, const char *out_path,
                                         const sinew_allocator *allocator, sinew_error *error);

/* Sizes of a glTF file's animation data, for reports (sinew pack/unpack). */
typedef struct sinew_gltf_sizes {
	uint64_t file_bytes;       /* the whole .gltf/.glb file (external buffers not included) */
	uint64_t keyframe_bytes;   /* accessors read by animation samplers (inputs and outputs, each counted once) */
	uint64_t compressed_bytes; /* byteLength of the SINEW_compressed_animation bufferView; 0 without it */
} sinew_gltf_sizes;
SINEW_API sinew_result sinew_gltf_sizes_of(const char *path, const sinew_allocator *allocator, sinew_gltf_sizes *out,
                                           sinew_error *error);

#ifdef __cplusplus
}
#endif

#endif /* SINEW_H */

// sinew — see include/sinew.h for version and licence
// Shared between the glTF document reader (import_gltf.c) and the resampler (gltf_resample.c).
#ifndef SINEW_IMPORT_GLTF_INTERNAL_H
#define SINEW_IMPORT_GLTF_INTERNAL_H

#include "import_internal.h"

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

// Where a curve's samples go in a clip.
typedef struct sinewi_gltf_binding {
	const sinewi_gltf_curve *curve;
	uint32_t joint;       // TRS: joint index
	uint32_t first_track; // weights: index of the scalar track of morph target 0
} sinewi_gltf_binding;

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
} sinewi_gltf_clip_input;

// Chooses the sample rate (exact key grid, options->sample_rate, or the lowest of 30/60/120 Hz within the
// error threshold), samples every curve and adds the clip to `set`. Uses `scratch` for temporaries.
sinew_result sinewi_gltf_build_clip(const sinewi_import_ctx *ctx, sinewi_arena *scratch, const sinewi_gltf_clip_input *in,
                                    sinew_clip_set *set, sinew_error *error);

// Evaluates a curve at time t (seconds) into out[components] following the glTF 2.0 sampler rules: before the
// first key the first value, after the last key the last value, STEP holds, LINEAR lerps (rotations: shortest-
// arc slerp), CUBICSPLINE is the Hermite spline with tangents scaled by the key interval (rotations normalized).
// A key within `snap` seconds of t is returned exactly; with equal key times the later key wins.
// `cursor` (may be NULL) speeds up calls with non-decreasing t; start it at 0.
void sinewi_gltf_curve_eval(const sinewi_gltf_curve *curve, double t, double snap, uint32_t *cursor, double *out);

#endif

// sinew — see include/sinew.h for version and licence
// Helpers on the raw clip model for the stages after it.
#ifndef SINEW_CLIP_INTERNAL_H
#define SINEW_CLIP_INTERNAL_H

#include "sinew.h"

#include <stdbool.h>

// Key (fractional sample index) of time t among `count` samples, clamped to [0, count - 1], not snapped:
// t * rate, or through time marks (docs/format.md §time map, the decoder's arithmetic; marks NULL or
// mark_count < 2: uniform). And the time of a (fractional) key.
double sinewi_time_key(double rate, uint32_t count, const sinew_time_mark *marks, uint32_t mark_count, double t);
double sinewi_key_time(double rate, const sinew_time_mark *marks, uint32_t mark_count, double key);

// The same for a clip's samples.
double sinewi_clip_key(const sinew_clip *clip, double t);

// Source curves (sinew_curve). Components of a curve's values: 4 for a rotation, 3 for a translation or scale,
// the scalar track's; floats per key (3 times that for CUBICSPLINE: in-tangent, value, out-tangent).
static inline uint32_t sinewi_curve_components(const sinew_clip *clip, const sinew_curve *c) {
	return c->target == 0 ? 4u : c->target < 3 ? 3u : clip->scalar_tracks[c->index].components;
}
static inline uint32_t sinewi_curve_key_floats(const sinew_clip *clip, const sinew_curve *c) {
	return sinewi_curve_components(clip, c) * (c->interpolation == SINEW_CURVE_CUBICSPLINE ? 3u : 1u);
}

// A sampler of `n` components evaluated as glTF 2.0 does, in double (the source's own value, for the importer
// and for the guarantee): before the first key the first value, after the last the last; STEP holds (a key
// within `snap` seconds ahead of t counts as reached, the later of equal times wins), LINEAR lerps (`rotation`:
// slerp on the shortest arc), CUBICSPLINE is the Hermite spline with tangents scaled by the key interval
// (`rotation`: normalized). `values` as sinew_curve lays them out. `cursor` (may be NULL) speeds up calls with
// non-decreasing t; start it at 0.
void sinewi_sampler_eval(bool rotation, uint32_t interpolation, uint32_t n, uint32_t key_count, const float *times,
                         const float *values, double t, double snap, uint32_t *cursor, double *out);

// The curve of a clip that drives sub-track `target` (0 rotation, 1 translation, 2 scale) of joint `index`, or
// scalar track `index` (target 3); NULL for none.
const sinew_curve *sinewi_clip_curve(const sinew_clip *clip, uint32_t target, uint32_t index);
// The source between samples a and b (b = a: sample a) as sampling plays it (DESIGN §4): the halfway pose (lerp,
// nlerp on the shortest arc, in double; a joint rounded floor holds a, ceil/nearest take b) into `pose` [joint_count],
// and the scalar tracks' values into `scalars` (their components one after another); either may be NULL.
void sinewi_clip_halfway(const sinew_clip *clip, uint32_t a, uint32_t b, sinew_qvv *pose, float *scalars);
// Overwrites, in `pose` [joint_count] and `scalars` (the tracks' components one after another; either may be NULL),
// every sub-track and scalar track that has a curve with its value at time t (rounded to float). The samples of a
// clip are these curves at their times; between samples (midpoints) this is the source.
void sinewi_clip_curves_at(const sinew_clip *clip, double t, sinew_qvv *pose, float *scalars);

#endif

// sinew — see include/sinew.h for version and licence
// The guarantee against the source file (DESIGN §4) for resampled glTF clips:
// - the check times of a clip: every key time of every curve, the midpoint and quarter points of every key
//   interval of every curve and of the clip's merged key times;
// - the object-space error of playing a candidate's samples (as the decoder interpolates them)
//   instead of the curves at those times, on every joint's origin and six shell points;
// - the rule that no rotation turns by more than 90 degrees between consecutive samples, so the
//   shortest arc the decoder takes is the source's even after quantization.
#include "gltf_internal.h"

#include "../core/codec_math.h"
#include "../core/metric.h"
#include "../clip/clip_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// -0 before +0: equal values are then equal bits, so the order (and which of them the dedup keeps) does not
// depend on the C library's qsort
static int compare_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y ? 1 : (int)(signbit(y) != 0) - (int)(signbit(x) != 0);
}

// Adds the key times, key-interval midpoints and quarter points of `times[0..n)` to out[*count] (DESIGN §4: the
// guarantee's times; between samples a Hermite segment leaves the chord, and nlerp differs from slerp most near
// the quarter points).
static void add_times(const float *times, uint32_t n, double *out, size_t *count) {
	for (uint32_t k = 0; k < n; ++k) {
		out[(*count)++] = times[k];
		if (k + 1 < n && times[k + 1] > times[k]) {
			double t0 = times[k], t1 = times[k + 1];
			out[(*count)++] = t0 + 0.25 * (t1 - t0);
			out[(*count)++] = 0.5 * (t0 + t1);
			out[(*count)++] = t0 + 0.75 * (t1 - t0);
		}
	}
}

// One key-time array of the clip (channels sharing an input accessor share it).
typedef struct time_source {
	const float *times;
	uint32_t count;
} time_source;

static int compare_source(const void *a, const void *b) {
	uintptr_t x = (uintptr_t)((const time_source *)a)->times, y = (uintptr_t)((const time_source *)b)->times;
	return x < y ? -1 : x > y ? 1 : 0;
}

// The clip's distinct time arrays, sorted by address; returns how many (O(n log n) for 30k channels).
static uint32_t time_sources(const sinewi_gltf_clip_input *in, time_source *out) {
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_curve *c = in->bindings[b].curve;
		out[b] = (time_source){c->times, c->key_count};
	}
	qsort(out, in->binding_count, sizeof *out, compare_source);
	uint32_t n = 0;
	for (uint32_t b = 0; b < in->binding_count; ++b)
		if (n == 0 || out[n - 1].times != out[b].times) out[n++] = out[b];
	return n;
}

sinew_result sinewi_gltf_checker_init(sinewi_gltf_checker *c, const sinewi_gltf_clip_input *in, const float *merged,
                                      size_t merged_count, double threshold, double shell_cm, sinewi_arena *scratch,
                                      sinew_error *error) {
	memset(c, 0, sizeof *c);
	c->in = in;
	c->threshold = threshold;
	c->shell = sinewi_cm_to_units(shell_cm > 0.0 ? shell_cm : SINEW_DEFAULT_SHELL_CM, in->unit_scale);
	time_source *sources = (time_source *)sinewi_arena_array(scratch, in->binding_count ? in->binding_count : 1,
	                                                         sizeof(time_source));
	SINEWI_CHECK(sources, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	uint32_t source_count = time_sources(in, sources);
	size_t total = 4 * merged_count;
	for (uint32_t i = 0; i < source_count; ++i) total += 4u * (size_t)sources[i].count;
	// Bounds the work of hostile files: every check time evaluates every curve and composes every joint.
	size_t per_time = (size_t)in->joint_count + in->binding_count;
	SINEWI_CHECK(total <= SINEWI_GLTF_MAX_CHECK_VALUES / (per_time ? per_time : 1), error, SINEW_RESULT_UNSUPPORTED,
	             "animation '%s': %zu key times x %zu curves and joints is more than this importer checks",
	             in->name ? in->name : "", total / 4, per_time);
	double *times = (double *)sinewi_arena_array(scratch, total ? total : 1, sizeof(double));
	SINEWI_CHECK(times, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	size_t n = 0;
	for (uint32_t i = 0; i < source_count; ++i) add_times(sources[i].times, sources[i].count, times, &n);
	if (merged_count <= UINT32_MAX) add_times(merged, (uint32_t)merged_count, times, &n); // the intervals between any keys
	qsort(times, n, sizeof(double), compare_double);
	size_t unique = 0;
	for (size_t i = 0; i < n; ++i)
		if (unique == 0 || times[i] != times[unique - 1]) times[unique++] = times[i];
	c->times = times;
	c->count = (uint32_t)unique;
	const uint32_t nj = in->joint_count ? in->joint_count : 1;
	c->src = (sinew_qvv *)sinewi_arena_array(scratch, nj, sizeof(sinew_qvv));
	c->play = (sinew_qvv *)sinewi_arena_array(scratch, nj, sizeof(sinew_qvv));
	c->src_obj = (sinewi_affine_d *)sinewi_arena_array(scratch, nj, sizeof(sinewi_affine_d));
	c->play_obj = (sinewi_affine_d *)sinewi_arena_array(scratch, nj, sizeof(sinewi_affine_d));
	c->animated = (uint8_t *)sinewi_arena_alloc(scratch, nj);
	c->shell_off = (double *)sinewi_arena_array(scratch, (size_t)nj * 3, sizeof(double));
	c->alloc = scratch->alloc;
	c->cursors = (uint32_t *)sinewi_arena_array(scratch, in->binding_count ? in->binding_count : 1, sizeof(uint32_t));
	SINEWI_CHECK(c->src && c->play && c->src_obj && c->play_obj && c->animated && c->cursors && c->shell_off, error,
	             SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	for (uint32_t b = 0; b < in->binding_count; ++b)
		if (in->bindings[b].curve->path != SINEWI_GLTF_WEIGHTS) c->animated[in->bindings[b].joint] = 1;
	return SINEW_RESULT_OK;
}

void sinewi_gltf_source_pose(sinewi_gltf_checker *c, double t, sinew_qvv *out) {
	const sinewi_gltf_clip_input *in = c->in;
	for (uint32_t j = 0; j < in->joint_count; ++j) out[j] = in->joints[j].default_pose;
	double v[4];
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		const sinewi_gltf_curve *curve = bind->curve;
		if (curve->path == SINEWI_GLTF_WEIGHTS) continue;
		sinewi_gltf_curve_eval(curve, t, 0.0, &c->cursors[b], v);
		sinew_qvv *x = &out[bind->joint];
		switch (curve->path) {
		case SINEWI_GLTF_TRANSLATION:
			for (int k = 0; k < 3; ++k) x->translation[k] = sinewi_gltf_to_float(v[k] * in->unit_scale);
			break;
		case SINEWI_GLTF_ROTATION:
			for (int k = 0; k < 4; ++k) x->rotation[k] = (float)v[k];
			break;
		default:
			for (int k = 0; k < 3; ++k) x->scale[k] = sinewi_gltf_to_float(v[k]);
			break;
		}
	}
}

// The decoder's key for time t (docs/format.md §sampling): t * rate or through the time map, clamped to the
// samples, snapped onto a sample within `tolerance` (SINEWI_SNAP_INTERPOLATED, or SINEWI_SNAP_ROUNDED for floor
// joints).
static double playback_key(const sinewi_gltf_timing *g, double t, double tolerance) {
	return sinewi_snap_key(sinewi_time_key(g->rate, g->count, g->marks, g->mark_count, t), tolerance);
}

void sinewi_gltf_play_pose(const sinewi_gltf_clip_input *in, const uint8_t *animated, const uint8_t *joint_floor,
                           const sinew_qvv *poses, const sinewi_gltf_timing *timing, double t, sinew_qvv *out) {
	const uint32_t nj = in->joint_count, count = timing->count;
	double key = playback_key(timing, t, SINEWI_SNAP_INTERPOLATED);
	uint32_t i = (uint32_t)key;
	if (i >= count - 1) i = count > 1 ? count - 2 : 0;
	double f = count > 1 ? key - i : 0.0;
	const sinew_qvv *a = poses + (size_t)i * nj, *b = count > 1 ? a + nj : a;
	const sinew_qvv *held = poses + (size_t)playback_key(timing, t, SINEWI_SNAP_ROUNDED) * nj; // floor
	for (uint32_t j = 0; j < nj; ++j) {
		if (joint_floor[j] && animated[j]) { // floor rounding holds its sample
			out[j] = held[j];
			continue;
		}
		if (f >= 1.0) { // the last sample
			out[j] = b[j];
			continue;
		}
		if (!animated[j] || f <= 0.0) {
			out[j] = a[j];
			continue;
		}
		// lerp, and nlerp on the shortest arc at the slerp-fitted parameter for rotations (docs/format.md §sampling
		// semantics, Slerp_fit: the encoder's clips)
		double q[4], dot = 0.0;
		for (int k = 0; k < 4; ++k) dot += (double)a[j].rotation[k] * b[j].rotation[k];
		const double fr = sinewi_fit_alpha_d(f, fabs(dot)), s = dot < 0.0 ? -fr : fr;
		for (int k = 0; k < 4; ++k) q[k] = a[j].rotation[k] * (1.0 - fr) + b[j].rotation[k] * s;
		sinewi_quat_normalize_d(q);
		for (int k = 0; k < 4; ++k) out[j].rotation[k] = (float)q[k];
		for (int k = 0; k < 3; ++k) {
			out[j].translation[k] = (float)(a[j].translation[k] + ((double)b[j].translation[k] - a[j].translation[k]) * f);
			out[j].scale[k] = (float)(a[j].scale[k] + ((double)b[j].scale[k] - a[j].scale[k]) * f);
		}
	}
}

uint32_t sinewi_gltf_candidate_times(const sinewi_gltf_checker *c, const sinewi_gltf_timing *g, double *out) {
	uint32_t n = 0, a = 0, k = 0, mids = g->count > 1 ? g->count - 1 : 0;
	// A snapped rate can end the clip a hair (under GRID_TOL of an interval) before the last key: keys
	// past the end are checked at the end, where playback holds (check times stay within the clip).
	const double end = g->count > 1 ? sinewi_key_time(g->rate, g->marks, g->mark_count, (double)(g->count - 1)) : INFINITY;
	while (a < c->count || k < mids) {
		double ta = a < c->count ? sinewi_fmin(c->times[a], end) : INFINITY;
		double tk = k < mids ? sinewi_key_time(g->rate, g->marks, g->mark_count, (double)k + 0.5) : INFINITY;
		if (ta <= tk) {
			if (!n || ta > out[n - 1]) out[n++] = ta;
			++a, k += ta == tk;
		} else out[n++] = tk, ++k;
	}
	return n;
}

double sinewi_gltf_check_candidate(sinewi_gltf_checker *c, const double *times, uint32_t time_count,
                                   const sinew_qvv *poses, const sinewi_gltf_timing *timing, const uint8_t *joint_floor,
                                   double stop, float *errors) {
	const uint32_t count = timing->count;
	const sinewi_gltf_clip_input *in = c->in;
	const uint32_t nj = in->joint_count;
	double worst = 0.0;
	memset(c->cursors, 0, (size_t)in->binding_count * sizeof(uint32_t));
	// the degenerate-rest rule of the shell looks at the candidate's samples
	if (!sinewi_shell_offsets(in->joints, nj, c->shell, poses, count, NULL, 0, &c->alloc, c->shell_off)) return NAN;
	for (uint32_t k = 0; k < time_count; ++k) {
		double t = times[k];
		sinewi_gltf_source_pose(c, t, c->src);
		sinewi_gltf_play_pose(in, c->animated, joint_floor, poses, timing, t, c->play);
		sinewi_compose_pose_d(in->joints, nj, c->src, c->src_obj);
		sinewi_compose_pose_d(in->joints, nj, c->play, c->play_obj);
		double e = 0.0;
		for (uint32_t j = 0; j < nj; ++j) {
			double ej = sinewi_shell_error_d(&c->src_obj[j], &c->play_obj[j], c->shell_off + 3 * (size_t)j);
			if (!(ej <= e)) e = ej; // NaN counts as worst
		}
		if (errors) errors[k] = (float)e;
		if (!(e <= worst)) worst = e;
		if (!(worst <= stop)) break;
	}
	return worst;
}

uint32_t sinewi_gltf_turn_over_90(const sinewi_gltf_clip_input *in, const sinew_qvv *poses, uint32_t count,
                                  const uint8_t *joint_floor, uint32_t from) {
	const uint32_t nj = in->joint_count;
	// |dot| of unit quaternions >= cos(45 degrees): at most 90 degrees between consecutive samples
	const double limit = 0.70710678118654752;
	uint32_t first = count;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		if (bind->curve->path != SINEWI_GLTF_ROTATION || joint_floor[bind->joint]) continue;
		for (uint32_t s = from; s + 1 < first; ++s) {
			const float *qa = poses[(size_t)s * nj + bind->joint].rotation, *qb = poses[(size_t)(s + 1) * nj + bind->joint].rotation;
			double dot = (double)qa[0] * qb[0] + (double)qa[1] * qb[1] + (double)qa[2] * qb[2] + (double)qa[3] * qb[3];
			if (fabs(dot) < limit) {
				first = s;
				break;
			}
		}
	}
	return first;
}

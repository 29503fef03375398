// sinew — see include/sinew.h for version and licence
// glTF curves -> sampled clips: where the samples go, and their values.
//
// Time range: a clip covers the source's key times; before a channel's first key its first value holds
// (glTF sampler rule), and before the clip's first key sampling holds the first sample, so clips whose keys
// start at t > 0 keep their absolute timing.
//
// Where the samples go (DESIGN §4 "keys anywhere"; docs/format.md §time map):
// 1. options->sample_rate > 0: exactly that rate, uniformly from 0 to the first grid time >= the last key
//    (the tail holds the last value); at most MAX_CLIP_SAMPLES samples.
// 2. otherwise at the source's own key times (the distinct times of every channel; or, when cheaper by the
//    estimate of rs.sample_bytes, the keys of the channel with the most keys, the others resampled onto them:
//    channels keyed at different rates): key interval i is cut into
//    sub[i] evenly spaced sample intervals (1 to start with), and a run of keys whose samples are evenly spaced
//    in time within float noise of the key times (KEY_TOL: two float32 ulps of the clip's last time) takes two
//    time marks however long it is (a swinging-door fit of key time against sample index). One run from t = 0
//    is a uniform clip (its rate snapped to an integer, NTSC or small-fraction rate within the same tolerance);
//    sparse grids, offset grids, channels keyed at different rates and jittered key times become time maps with
//    marks where the spacing changes. So the samples grow with the keys, not with the duration.
// The placement is accepted when the pose played from its samples (as the decoder plays them: lerp, nlerp on
// the shortest arc, floor for STEP joints) is within RESAMPLE_SHARE (half) of the threshold of the source's
// pose in object space (DESIGN §4 metric: every joint's origin and six shell points, fixed at rest) at every
// check time (gltf_checks.c: every key time, key-interval midpoint, CUBICSPLINE quarter point, and the midpoint
// of every interval between the candidate's own samples), when no rotation turns more than 90 degrees between
// consecutive samples (so quantization cannot flip the arc the decoder takes), and when scalar curves stay
// within SCALAR_SHARE of their precision at key times (and CUBICSPLINE midpoints and quarter points). A key
// interval that fails is cut finer (about sqrt(error / budget) times, up to MAX_SUB sample intervals), and a key
// of a run whose sample sits beside it
// (float noise beside a STEP key, a curve that bends there) becomes a mark of its own, until it passes. A key
// where the source moves so fast that two float32 ulps of its time move the pose by a quarter of the budget is
// a mark from the start (mark_steep_keys: its sample at its exact float32 time, for the blob and for every
// float32 copy of the clip such as sinew decompress's glTF). Samples
// are the curves evaluated at each sample's own time (STEP: a key within KEY_TOL of a sample counts as on it).
// clip->resample_error reports the object-space error at the check times (clip units); the check times where
// it is above float noise become the clip's check points (the source's exact pose there), which the
// compressor verifies along with every sample and sample midpoint.
//
// STEP: a joint whose animated sub-tracks are all STEP gets SINEW_ROUNDING_FLOOR, so playback holds each value
// until the next sample exactly as the source does; same for all-STEP morph weight tracks.
#include "gltf_internal.h"

#include "../core/elementary.h"
#include "../core/quat.h"
#include "../core/codec_math.h"
#include "../core/metric.h"
#include "../clip/clip_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Largest clip: 2^20 samples (2.4 h at 120 Hz) and 2^23 samples x (joints + scalar tracks) (335 MB of
// transforms). Bounds memory and time on hostile key times (one key at t = 1e6 s); beyond: UNSUPPORTED.
#define MAX_CLIP_SAMPLES ((size_t)1 << 20)
#define MAX_CLIP_VALUES ((size_t)1 << 23)
#define DEFAULT_RATE 30.0
#define SHELL_M 0.03          // DESIGN §4 default shell distance, in metres
#define WEIGHT_PRECISION 1e-4 // default scalar track precision
#define TIME_EPS 2.4e-7       // relative precision of float key times (about 4 ulp)
// Keys within this fraction of their run's sample interval of their evenly spaced sample time stay in the run
// (exporters accumulate float steps: AnimatedMorphSphere drifts 1.6e-4 frames over 216 keys); the samples are
// the curves at their own times, so what the offset costs is measured at the key times like any other error.
#define GRID_TOL 1e-3
// Most sample intervals a key interval is cut into (CUBICSPLINE curves, slerp over large angles).
#define MAX_SUB 4096u
// Refinement rounds of the placement (each checks the whole clip). A key interval that fails is cut into
// about cbrt(error / budget) times as many sample intervals, at least the next step of next_sub: nlerp between
// samples strays from the source's slerp by h^3 times the turn rate cubed, lerp from a CUBICSPLINE curve by h^2
// times its bend (which a few more rounds then settle).
#define MAX_ROUNDS 24
// Share of the error threshold that resampling may use (object space, at the check times); the rest
// is the compressor's.
#define RESAMPLE_SHARE 0.5
// Share of a scalar curve's precision resampling may use. Its compressed track then gets what is left (at
// least a quarter: two more bits per knot on that track alone), which costs less than samples added for every
// curve of the clip; the object-space share stays half because errors add up along a chain.
#define SCALAR_SHARE 0.75
// Check times whose resampling error is below this share of the threshold are float noise: the
// samples already play the source back there, and the compressor's check of sample midpoints covers them.
#define CHECK_NOISE 1e-3
// A key interval whose object-space error is within this many times what float32 numbers alone cost at the
// source's check times (float_floor) is not cut finer: both the source and the samples round to float32, and
// no cut brings them closer (anims_with_full_rotations_between_keys.DAE, a node 119 m out at the end of 64
// spinning nodes, was cut into 16385 samples for nothing: 12 s and 270 MB before failing).
#define FLOAT_NOISE 3.0

static float to_float(double v) {
	if (v > 3.4028234663852886e38) return INFINITY;
	if (v < -3.4028234663852886e38) return -INFINITY;
	return (float)v;
}

void sinewi_gltf_curve_eval(const sinewi_gltf_curve *curve, double t, double snap, uint32_t *cursor, double *out) {
	_Static_assert((int)SINEWI_GLTF_STEP == (int)SINEW_CURVE_STEP && (int)SINEWI_GLTF_LINEAR == (int)SINEW_CURVE_LINEAR &&
	                   (int)SINEWI_GLTF_CUBICSPLINE == (int)SINEW_CURVE_CUBICSPLINE,
	               "glTF interpolations are sinew_curve's");
	sinewi_sampler_eval(curve->path == SINEWI_GLTF_ROTATION, curve->interpolation, curve->components, curve->key_count,
	                    curve->times, curve->values, t, snap, cursor, out);
}

/* ---- key times ---- */

// -0 before +0: equal values are then equal bits, so the order (and which of them the dedup keeps) does not
// depend on the C library's qsort
static int compare_float(const void *a, const void *b) {
	float x = *(const float *)a, y = *(const float *)b;
	return x < y ? -1 : x > y ? 1 : (int)(signbit(y) != 0) - (int)(signbit(x) != 0);
}

typedef struct time_array {
	const float *times;
	uint32_t count;
} time_array;

static int compare_array(const void *a, const void *b) {
	uintptr_t x = (uintptr_t)((const time_array *)a)->times, y = (uintptr_t)((const time_array *)b)->times;
	return x < y ? -1 : x > y ? 1 : 0;
}

// Distinct key times of all curves of the clip, sorted. Channels sharing an input accessor share its array.
static sinew_result gather_times(const sinewi_gltf_clip_input *in, sinewi_arena *scratch, float **out,
                                 size_t *out_count, sinew_error *error) {
	time_array *arrays = (time_array *)sinewi_arena_array(scratch, in->binding_count, sizeof *arrays);
	SINEWI_CHECK(arrays, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		arrays[b].times = in->bindings[b].curve->times;
		arrays[b].count = in->bindings[b].curve->key_count;
	}
	qsort(arrays, in->binding_count, sizeof *arrays, compare_array);
	size_t total = 0;
	for (uint32_t b = 0; b < in->binding_count; ++b)
		if (b == 0 || arrays[b].times != arrays[b - 1].times) total += arrays[b].count;
	float *times = (float *)sinewi_arena_array(scratch, total ? total : 1, sizeof(float));
	SINEWI_CHECK(times, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	size_t n = 0;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		if (b > 0 && arrays[b].times == arrays[b - 1].times) continue;
		memcpy(times + n, arrays[b].times, arrays[b].count * sizeof(float));
		n += arrays[b].count;
	}
	qsort(times, n, sizeof(float), compare_float);
	size_t unique = 0;
	for (size_t i = 0; i < n; ++i)
		if (unique == 0 || times[i] != times[unique - 1]) times[unique++] = times[i];
	*out = times;
	*out_count = unique;
	return SINEW_RESULT_OK;
}

/* ---- where the samples go ---- */

// A placement of the samples: the timing and each sample's time.
typedef struct candidate {
	sinewi_gltf_timing g;
	double *times; // [g.count] seconds
	double snap;   // STEP: a key this close to a sample time counts as on it
} candidate;

// Sample intervals per key interval: the refinement steps.
static uint32_t next_sub(uint32_t n, double ratio) {
	double want = ratio > 1.0 ? ceil(n * sinewi_cbrt(ratio) * 1.1) : 0.0;
	uint32_t step = n < 4 ? n + 1 : n + n / 2;
	if (want > (double)step) step = want < (double)MAX_SUB ? (uint32_t)want : MAX_SUB;
	return step < MAX_SUB ? step : MAX_SUB;
}

// The key structure: keys[0..nu) distinct and increasing; key interval i cut into sub[i] sample intervals;
// exact[i] makes key i a mark; first[i] is the sample index of key i.
typedef struct key_plan {
	const float *keys;
	uint32_t nu;
	uint16_t *sub;     // [nu - 1]
	uint8_t *exact;    // [nu]
	uint32_t *first;   // [nu]
	double tol;        // seconds
} key_plan;

// An integer, NTSC or small-fraction rate within `tol` seconds over `span` of `rate`, else `rate`.
static double nice_rate(double rate, double span, double tol) {
	double variants[18];
	int n = 0;
	variants[n++] = floor(rate + 0.5);
	variants[n++] = floor(rate * 1.001 + 0.5) / 1.001;
	for (int q = 2; q <= 16; ++q) variants[n++] = floor(rate * q + 0.5) / q;
	for (int v = 0; v < n; ++v)
		if (variants[v] > 0.0 && fabs(span * rate / variants[v] - span) <= tol) return variants[v];
	return rate;
}

// Marks from the plan: a swinging-door fit of key time against sample index. A run [a, e] is one pair of
// marks when every key inside it lies within plan->tol of the evenly spaced sample times from key a to
// key e; a key with `exact` set ends a run. Fills cand (marks in `marks`, at most nu of them).
static void place_samples(const key_plan *p, sinew_time_mark *marks, candidate *cand) {
	const uint32_t nu = p->nu;
	p->first[0] = 0;
	for (uint32_t i = 0; i + 1 < nu; ++i) p->first[i + 1] = p->first[i] + p->sub[i];
	uint32_t m = 0, a = 0;
	double lo = -INFINITY, hi = INFINITY; // slopes (seconds per sample) the keys inside the run allow
	// a run's tolerance: float noise, or GRID_TOL of its first sample interval (exporters accumulate float steps)
	double tol = nu > 1 ? sinewi_fmax(p->tol, GRID_TOL * ((double)p->keys[1] - p->keys[0]) / p->sub[0]) : p->tol;
	marks[m++] = (sinew_time_mark){p->keys[0], 0};
	for (uint32_t e = 1; e < nu; ++e) {
		double dk = (double)(p->first[e] - p->first[a]), slope = ((double)p->keys[e] - p->keys[a]) / dk;
		if (e > a + 1 && (p->exact[e - 1] || slope < lo || slope > hi)) { // key e - 1 ends the run
			a = e - 1;
			marks[m++] = (sinew_time_mark){p->keys[a], p->first[a]};
			lo = -INFINITY, hi = INFINITY;
			dk = (double)(p->first[e] - p->first[a]);
			tol = sinewi_fmax(p->tol, GRID_TOL * ((double)p->keys[e] - p->keys[a]) / p->sub[a]);
		}
		// key e inside a longer run from a: the slopes that keep it within tol of its sample time
		lo = sinewi_fmax(lo, ((double)p->keys[e] - tol - p->keys[a]) / dk);
		hi = sinewi_fmin(hi, ((double)p->keys[e] + tol - p->keys[a]) / dk);
	}
	if (nu > 1) marks[m++] = (sinew_time_mark){p->keys[nu - 1], p->first[nu - 1]};
	cand->g.count = p->first[nu - 1] + 1;
	cand->snap = p->tol;
	const double span = (double)p->keys[nu - 1] - p->keys[0];
	if (m == 2 && p->keys[0] == 0.0f) { // one run from 0: a uniform clip
		cand->g.mark_count = 0;
		cand->g.marks = NULL;
		cand->g.rate = nice_rate((double)(cand->g.count - 1) / span, span, sinewi_fmax(p->tol, GRID_TOL * span / (cand->g.count - 1)));
	} else {
		cand->g.mark_count = nu > 1 ? m : 0;
		cand->g.marks = nu > 1 ? marks : NULL;
		cand->g.rate = nu > 1 ? (double)(cand->g.count - 1) / span : DEFAULT_RATE;
	}
	for (uint32_t k = 0; k < cand->g.count; ++k)
		cand->times[k] = sinewi_key_time(cand->g.rate, cand->g.marks, cand->g.mark_count, (double)k);
	// one distinct key time: the lone sample is the curves there (later keys of equal times win), which sampling
	// plays at every time of the clip
	if (nu == 1) cand->times[0] = p->keys[0];
}

// Key interval holding time t (the last one for t at or after the last key).
static uint32_t interval_of(const key_plan *p, double t) {
	uint32_t lo = 0, hi = p->nu - 1; // keys[lo] <= t < keys[hi], or the ends
	if (!(t > p->keys[0])) return 0;
	if (t >= p->keys[hi]) return p->nu >= 2 ? p->nu - 2 : 0;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (p->keys[mid] <= t) lo = mid;
		else hi = mid;
	}
	return lo;
}

// Key interval holding sample k.
static uint32_t interval_of_sample(const key_plan *p, uint32_t k) {
	uint32_t lo = 0, hi = p->nu - 1; // first[lo] <= k < first[hi]
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (p->first[mid] <= k) lo = mid;
		else hi = mid;
	}
	return lo;
}

static void sample_curve(const sinewi_gltf_curve *curve, const candidate *cand, double *tmp, float *out) {
	uint32_t cursor = 0, comps = curve->components;
	// interpolating curves at each sample's own time (a float32 key beside it is the curve there too); a STEP
	// key within the snap of a sample counts as on it
	const double snap = curve->interpolation == SINEWI_GLTF_STEP ? cand->snap : 0.0;
	for (uint32_t k = 0; k < cand->g.count; ++k) {
		sinewi_gltf_curve_eval(curve, cand->times[k], snap, &cursor, tmp);
		for (uint32_t c = 0; c < comps; ++c) out[(size_t)k * comps + c] = to_float(tmp[c]);
	}
}

// Value the sampled curve plays back at time t (DESIGN §4 sampling semantics).
static void playback(const sinewi_gltf_curve *curve, const candidate *cand, const float *samples, bool floor_mode,
                     double t, double *out) {
	uint32_t comps = curve->components;
	const sinewi_gltf_timing *g = &cand->g;
	double x = sinewi_snap_key(sinewi_time_key(g->rate, g->count, g->marks, g->mark_count, t),
	                           floor_mode ? SINEWI_SNAP_ROUNDED : SINEWI_SNAP_INTERPOLATED);
	double fi = floor(x);
	uint32_t last = g->count - 1;
	uint32_t i = fi <= 0.0 ? 0 : fi >= last ? last : (uint32_t)fi;
	const float *a = samples + (size_t)i * comps;
	double f = x - i;
	if (floor_mode || i == last || f <= 0.0) {
		for (uint32_t c = 0; c < comps; ++c) out[c] = a[c];
		return;
	}
	const float *b = a + comps;
	if (curve->path == SINEWI_GLTF_ROTATION) { // nlerp at the slerp-fitted parameter (Slerp_fit)
		double dot = 0.0;
		for (int c = 0; c < 4; ++c) dot += (double)a[c] * b[c];
		const double fr = sinewi_fit_alpha_d(f, fabs(dot)), s = dot < 0.0 ? -fr : fr;
		for (int c = 0; c < 4; ++c) out[c] = a[c] * (1.0 - fr) + b[c] * s;
		sinewi_quat_normalize_d(out);
	} else {
		for (uint32_t c = 0; c < comps; ++c) out[c] = a[c] + (b[c] - (double)a[c]) * f;
	}
}

// Scalar curves: the largest difference of a component, each times inv[c] (its inverse precision; NULL: 1);
// per_comp[c] (when not NULL) keeps each component's largest absolute difference.
static double value_error(const sinewi_gltf_curve *curve, const double *x, const double *y, const double *inv,
                          double *per_comp) {
	double worst = 0.0;
	for (uint32_t c = 0; c < curve->components; ++c) {
		double d = fabs(x[c] - y[c]);
		if (per_comp && !(d <= per_comp[c])) per_comp[c] = d;
		worst = sinewi_fmax(worst, inv ? d * inv[c] : d);
	}
	return worst;
}

// Largest difference between the glTF curve and its playback from `samples` at key times and, for CUBICSPLINE
// curves, interval midpoints and quarter points (in units of each component's precision with `inv`); with
// `plan`, key intervals where it exceeds `limit` get bad[i] |= 2; with per_comp, each component's largest
// absolute difference. (A LINEAR curve is a polyline, and so is its playback from samples on it: they differ most
// at the curve's corners, its keys.)
static double curve_error(const sinewi_gltf_curve *curve, const candidate *cand, const float *samples, bool floor_mode,
                          double *src, double *rec, const double *inv, double *per_comp, const key_plan *plan, double limit,
                          uint8_t *bad) {
	double worst = 0.0;
	uint32_t cursor = 0;
	const bool cubic = curve->interpolation == SINEWI_GLTF_CUBICSPLINE;
	for (uint32_t k = 0; k < curve->key_count; ++k) {
		double t0 = curve->times[k];
		double points[4] = {t0, 0, 0, 0};
		int count = 1;
		if (cubic && k + 1 < curve->key_count && curve->times[k + 1] > t0) {
			double t1 = curve->times[k + 1];
			points[count++] = t0 + (t1 - t0) * 0.25;
			points[count++] = t0 + (t1 - t0) * 0.5;
			points[count++] = t0 + (t1 - t0) * 0.75;
		}
		for (int p = 0; p < count; ++p) {
			sinewi_gltf_curve_eval(curve, points[p], 0.0, &cursor, src);
			playback(curve, cand, samples, floor_mode, points[p], rec);
			double e = value_error(curve, src, rec, inv, per_comp);
			if (!(e <= worst)) worst = e; // NaN propagates as "worst"
			if (plan && !(e <= limit)) bad[interval_of(plan, points[p])] |= 2; // (not float noise: cut it)
		}
	}
	return worst;
}

static bool joint_all_step(const sinewi_gltf_clip_input *in, uint32_t joint) {
	bool any = false;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		if (bind->curve->path == SINEWI_GLTF_WEIGHTS || bind->joint != joint) continue;
		if (bind->curve->interpolation != SINEWI_GLTF_STEP) return false;
		any = true;
	}
	return any;
}

// Inverse precision of each component of a WEIGHTS binding (component c is in track first_track + c / width).
static void binding_inverse(const sinewi_gltf_binding *bind, const double *prec, double *inv) {
	const uint32_t width = bind->track_width ? bind->track_width : 1;
	for (uint32_t c = 0; c < bind->curve->components; ++c) inv[c] = 1.0 / prec[bind->first_track + c / width];
}

// Samples every TRS curve of the clip at `cand`'s times into poses[count * joint_count].
static void sample_poses(const sinewi_gltf_clip_input *in, const candidate *cand, float *samples, double *tmp,
                         sinew_qvv *poses) {
	const uint32_t nj = in->joint_count;
	for (uint32_t s = 0; s < cand->g.count; ++s)
		for (uint32_t j = 0; j < nj; ++j) poses[(size_t)s * nj + j] = in->joints[j].default_pose;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		const sinewi_gltf_curve *curve = bind->curve;
		if (curve->path == SINEWI_GLTF_WEIGHTS) continue;
		sample_curve(curve, cand, tmp, samples);
		for (uint32_t s = 0; s < cand->g.count; ++s) {
			sinew_qvv *x = &poses[(size_t)s * nj + bind->joint];
			const float *v = samples + (size_t)s * curve->components;
			switch (curve->path) {
			case SINEWI_GLTF_TRANSLATION:
				for (int c = 0; c < 3; ++c) x->translation[c] = to_float(v[c] * in->unit_scale);
				break;
			case SINEWI_GLTF_ROTATION: memcpy(x->rotation, v, sizeof x->rotation); break;
			default: memcpy(x->scale, v, sizeof x->scale); break;
			}
		}
	}
}

// The placement's buffers, grown as key intervals are cut finer.
typedef struct placement {
	sinewi_alloc al;
	candidate cand;
	size_t times_bytes, sample_bytes, pose_bytes, error_bytes, check_bytes;
	float *samples;     // one curve's samples: [count * components]
	sinew_qvv *poses;   // [count * joint_count]
	float *errors;      // [check times]
	double *check_times;
} placement;

static bool grow(const sinewi_alloc *al, void **p, size_t *bytes, size_t need) {
	if (need == 0) need = 1;
	if (*p && *bytes >= need) return true;
	sinewi_free(al, *p, *bytes);
	*p = sinewi_malloc(al, need);
	*bytes = *p ? need : 0;
	return *p != NULL;
}

static void placement_free(placement *pl) {
	sinewi_free(&pl->al, pl->cand.times, pl->times_bytes);
	sinewi_free(&pl->al, pl->samples, pl->sample_bytes);
	sinewi_free(&pl->al, pl->poses, pl->pose_bytes);
	sinewi_free(&pl->al, pl->errors, pl->error_bytes);
	sinewi_free(&pl->al, pl->check_times, pl->check_bytes);
}

// Buffers for a placement of `count` samples checked at `times` check times.
static bool placement_reserve(placement *pl, uint32_t count, size_t times, uint32_t joints, uint32_t max_components) {
	return grow(&pl->al, (void **)&pl->cand.times, &pl->times_bytes, (size_t)count * sizeof(double)) &&
	       grow(&pl->al, (void **)&pl->samples, &pl->sample_bytes, (size_t)count * max_components * sizeof(float)) &&
	       grow(&pl->al, (void **)&pl->poses, &pl->pose_bytes, (size_t)count * joints * sizeof(sinew_qvv)) &&
	       grow(&pl->al, (void **)&pl->errors, &pl->error_bytes, times * sizeof(float)) &&
	       grow(&pl->al, (void **)&pl->check_times, &pl->check_bytes, times * sizeof(double));
}

// Affine transform of a local TRS given in double (a curve's exact value): p' = R(S p) + t.
static void affine_from_trs_d(const double q[4], const double t[3], const double sc[3], sinewi_affine_d *a) {
	double r[3][3];
	sinewi_quat_to_matrix_d(q, r);
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) a->m[i][j] = r[i][j] * sc[j];
		a->t[i] = t[i];
	}
}

// What storing the samples as float32 costs (DESIGN §4 metric, clip units): the largest shell error, at `times`
// (increasing), between the pose the curves give in double and the float32 poses `poses` (every key and interval
// value of a curve is float32 already; what rounds is the interpolated value and its composition far from the
// origin: 4e-4 cm on the 25 m Khronos Fox, 1e-7 cm on a 2 m character). The compressor keeps it in reserve.
static double float_error(const sinewi_gltf_clip_input *in, const candidate *cand, const sinew_qvv *poses,
                          const double *times, uint32_t count, const double *off, const sinewi_alloc *al) {
	const uint32_t nj = in->joint_count;
	if (nj == 0) return 0.0;
	size_t bytes = (size_t)nj * (2 * sizeof(sinewi_affine_d) + 10 * sizeof(double)) + (size_t)in->binding_count * sizeof(uint32_t);
	unsigned char *mem = (unsigned char *)sinewi_malloc(al, bytes);
	if (!mem) return INFINITY; // the clip is then refused by the compressor's margin, not silently wrong
	sinewi_affine_d *exact = (sinewi_affine_d *)(void *)mem, *stored = exact + nj;
	double *trs = (double *)(void *)(stored + nj); // per joint: rotation 4, translation 3, scale 3
	uint32_t *cursors = (uint32_t *)(void *)(trs + 10 * (size_t)nj);
	memset(cursors, 0, (size_t)in->binding_count * sizeof(uint32_t));
	double worst = 0.0, v[4];
	for (uint32_t k = 0; k < count; ++k) {
		for (uint32_t j = 0; j < nj; ++j) {
			const sinew_qvv *d = &in->joints[j].default_pose;
			for (int c = 0; c < 4; ++c) trs[10 * j + c] = d->rotation[c];
			for (int c = 0; c < 3; ++c) trs[10 * j + 4 + c] = d->translation[c], trs[10 * j + 7 + c] = d->scale[c];
		}
		for (uint32_t b = 0; b < in->binding_count; ++b) {
			const sinewi_gltf_binding *bind = &in->bindings[b];
			const sinewi_gltf_curve *curve = bind->curve;
			if (curve->path == SINEWI_GLTF_WEIGHTS) continue;
			const double snap = curve->interpolation == SINEWI_GLTF_STEP ? cand->snap : 0.0;
			sinewi_gltf_curve_eval(curve, times[k], snap, &cursors[b], v);
			double *x = trs + 10 * (size_t)bind->joint;
			if (curve->path == SINEWI_GLTF_ROTATION) memcpy(x, v, 4 * sizeof(double));
			else if (curve->path == SINEWI_GLTF_TRANSLATION)
				for (int c = 0; c < 3; ++c) x[4 + c] = v[c] * in->unit_scale;
			else memcpy(x + 7, v, 3 * sizeof(double));
		}
		for (uint32_t j = 0; j < nj; ++j) {
			sinewi_affine_d local;
			affine_from_trs_d(trs + 10 * j, trs + 10 * j + 4, trs + 10 * j + 7, &local);
			int32_t p = in->joints[j].parent;
			if (p >= 0 && (uint32_t)p < j) sinewi_affine_mul_d(&exact[p], &local, &exact[j]);
			else exact[j] = local;
		}
		sinewi_compose_pose_d(in->joints, nj, poses + (size_t)k * nj, stored);
		for (uint32_t j = 0; j < nj; ++j) {
			double e = sinewi_shell_error_d(&exact[j], &stored[j], off + 3 * (size_t)j);
			if (!(e <= worst)) worst = e;
		}
	}
	sinewi_free(al, mem, bytes);
	return worst;
}

// What a placement of the samples needs: the clip, its checks and buffers.
typedef struct resampler {
	const sinewi_import_ctx *ctx;
	const sinewi_gltf_clip_input *in;
	sinewi_gltf_checker checker;
	uint8_t *joint_floor;
	double *src, *rec;  // [max_components] each
	double budget;      // object-space share of the threshold resampling may use (clip units)
	size_t max_samples;
	uint32_t max_components;
	double sample_bytes; // estimated compressed bytes of one sample of every animated curve (choosing a placement)
	placement pl;
	uint8_t *bad;        // [nu] scratch per key interval: 1 object space over the budget, 2 a turn or a scalar
	float *worst;        // [nu]
	double floor;        // float_floor, measured when first needed (-1 before)
	double *prec;        // [track_count] each scalar track's precision while placing (morph weights: vertex units)
	double *inv;         // [max_components] scratch: a curve's inverse precisions
	double threshold;    // clip units
	int32_t *binding_morph; // [binding_count] the morph (in->morphs) whose weights a binding animates, or -1
	double *morph_scale;    // [morph_count] the bound of each morph's map into the scene over the clip
	uint8_t *morph_scratch; // [3 x the most targets of a morph]
} resampler;

// Morph weights in vertex units (gltf_morph_units.c): precision E / (reach_k * overlap * S) for a target that
// moves vertex positions, at most MORPH_MAX_PRECISION (a weight that can move nothing visible stays a plain
// number), at least MORPH_MIN_PRECISION (never 0, which means the default).
#define MORPH_MAX_PRECISION 1e6
#define MORPH_MIN_PRECISION 1e-30
static void morph_precision(const sinewi_gltf_morph *m, double threshold, double overlap, double scale, double *prec) {
	for (uint32_t k = 0; k < m->target_count; ++k) {
		if (!(m->reach[k] > 0.0)) continue;
		double p = threshold / (m->reach[k] * overlap * scale);
		prec[m->first_track + k] = p >= MORPH_MAX_PRECISION ? MORPH_MAX_PRECISION : p >= MORPH_MIN_PRECISION ? p : MORPH_MIN_PRECISION;
	}
}

// The overlap of morph m's targets over a clip sampled at `times` (`samples`: count x target_count, sample-major):
// per sample interval the targets that play a part there, and the largest overlap of any interval's targets. A
// target is idle on an interval when both its samples are exactly zero, the compressor keeps them zero (the track
// has no negative sample: docs/format.md, a non-negative track's zeros decode as zero) and the source curve is
// zero over the interval (every key bracketing it zero, tangents too). scratch: 3 x target_count bytes.
#define MORPH_OVERLAP_WORK ((uint64_t)1 << 24)
static double sampled_overlap(const sinewi_gltf_morph *m, const sinewi_gltf_curve *curve, const float *samples,
                              const double *times, uint32_t count, uint8_t *scratch) {
	const uint32_t nt = m->target_count;
	uint8_t *active = scratch, *prev = scratch + nt, *nonneg = scratch + 2 * (size_t)nt;
	const bool cubic = curve->interpolation == SINEWI_GLTF_CUBICSPLINE;
	const size_t stride = cubic ? 3u * nt : nt;
	memset(nonneg, 1, nt);
	for (uint32_t s = 0; s < count; ++s)
		for (uint32_t k = 0; k < nt; ++k)
			if (samples[(size_t)s * nt + k] < 0.0f) nonneg[k] = 0;
	double best = 0.0;
	uint64_t work = 0;
	uint32_t lo = 0; // last key at or before the interval's start (0 before the first)
	for (uint32_t s = 0; s + 1 < count || (s == 0 && count == 1); ++s) {
		const uint32_t s1 = count > 1 ? s + 1 : s;
		const double t0 = times[s], t1 = times[s1];
		while (lo + 1 < curve->key_count && curve->times[lo + 1] <= t0) ++lo;
		uint32_t hi = lo; // first key at or after the interval's end (the last before it)
		while (hi + 1 < curve->key_count && curve->times[hi] < t1) ++hi;
		const uint32_t first = count == 1 ? 0 : lo, last = count == 1 ? curve->key_count - 1 : hi;
		for (uint32_t k = 0; k < nt; ++k) {
			bool idle = nonneg[k] && samples[(size_t)s * nt + k] == 0.0f && samples[(size_t)s1 * nt + k] == 0.0f;
			for (uint32_t key = first; idle && key <= last; ++key) {
				const float *x = curve->values + key * stride + k;
				idle = cubic ? x[0] == 0.0f && x[nt] == 0.0f && x[2 * (size_t)nt] == 0.0f : x[0] == 0.0f;
			}
			active[k] = !idle;
		}
		if (s > 0 && memcmp(active, prev, nt) == 0) continue;
		memcpy(prev, active, nt);
		double c = sinewi_gltf_morph_overlap(m, active, &work, MORPH_OVERLAP_WORK);
		if (!(c <= best)) best = c;
	}
	return best;
}

// Largest error of the scalar curves (morph weights, pointer values: they do not move nodes) when played
// back from `cand`'s samples, as a fraction of each track's precision (rs->prec; a morph node's weights in vertex
// units for the targets these samples play together); with `plan`, marks the key intervals above SCALAR_SHARE in
// bad[].
static double weights_error(resampler *rs, const candidate *cand, float *samples, const key_plan *plan, uint8_t *bad) {
	const sinewi_gltf_clip_input *in = rs->in;
	double worst = 0.0;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		if (bind->curve->path != SINEWI_GLTF_WEIGHTS) continue;
		sample_curve(bind->curve, cand, rs->src, samples);
		const int32_t mi = rs->binding_morph[b];
		if (mi >= 0) {
			const sinewi_gltf_morph *m = &in->morphs[mi];
			double overlap = sampled_overlap(m, bind->curve, samples, cand->times, cand->g.count, rs->morph_scratch);
			morph_precision(m, rs->threshold, overlap, rs->morph_scale[mi], rs->prec);
		}
		binding_inverse(bind, rs->prec, rs->inv);
		double e = curve_error(bind->curve, cand, samples, bind->curve->interpolation == SINEWI_GLTF_STEP, rs->src, rs->rec,
		                       rs->inv, NULL, plan, SCALAR_SHARE, bad);
		if (!(e <= worst)) worst = e;
	}
	return worst;
}


typedef struct plan_result {
	bool accepted;
	double error; // object-space resampling error at the check times (clip units)
	uint32_t count, mark_count, time_count; // time_count: check times of the placement (pl.check_times)
	double cost;  // estimated bytes: samples and time marks
} plan_result;

// Samples the clip at `rs->pl.cand` (its times set) and checks it: the object-space error at every check time
// (errors in pl.errors). With `plan`, marks in rs->bad the key intervals that fail (a check time over the
// budget, a rotation turning past 90 degrees between two samples, a scalar curve over half its precision),
// with their error ratio in rs->worst; returns whether any fails.
static bool check_placement(resampler *rs, const key_plan *plan, double *error, uint32_t *time_count) {
	placement *pl = &rs->pl;
	const sinewi_gltf_clip_input *in = rs->in;
	candidate *cand = &pl->cand;
	const uint32_t count = cand->g.count;
	sample_poses(in, cand, pl->samples, rs->src, pl->poses);
	*time_count = sinewi_gltf_candidate_times(&rs->checker, &cand->g, pl->check_times);
	*error = sinewi_gltf_check_candidate(&rs->checker, pl->check_times, *time_count, pl->poses, &cand->g, rs->joint_floor,
	                                     INFINITY, pl->errors);
	if (!plan) return false;
	memset(rs->bad, 0, plan->nu);
	memset(rs->worst, 0, (size_t)plan->nu * sizeof(float));
	bool any = false;
	for (uint32_t k = 0; k < *time_count; ++k)
		if (!(pl->errors[k] <= rs->budget)) {
			uint32_t i = interval_of(plan, pl->check_times[k]);
			rs->bad[i] = 1, any = true;
			rs->worst[i] = sinewi_fmaxf(rs->worst[i], isfinite(pl->errors[k]) ? (float)(pl->errors[k] / rs->budget) : 1e30f);
		}
	for (uint32_t s = sinewi_gltf_turn_over_90(in, pl->poses, count, rs->joint_floor, 0); s + 1 < count;
	     s = sinewi_gltf_turn_over_90(in, pl->poses, count, rs->joint_floor, s + 1))
		rs->bad[interval_of_sample(plan, s)] |= 2, any = true;
	if (!(weights_error(rs, cand, pl->samples, plan, rs->bad) <= SCALAR_SHARE)) any = true;
	return any;
}

// What float32 numbers alone cost at the clip's check times (the source's key times, key-interval midpoints and
// quarter points): the largest shell error between the curves' pose in double and that pose as the checks
// round it (sinewi_gltf_source_pose), clip units. The shell offsets are the last checked candidate's.
static double float_floor(resampler *rs) {
	const sinewi_gltf_clip_input *in = rs->in;
	sinewi_gltf_checker *c = &rs->checker;
	const uint32_t nj = in->joint_count;
	if (nj == 0) return 0.0;
	const size_t bytes = (size_t)nj * (sizeof(sinewi_affine_d) + 10 * sizeof(double));
	unsigned char *mem = (unsigned char *)sinewi_malloc(&rs->pl.al, bytes);
	if (!mem) return 0.0; // (every failing interval is then cut, as without this measure)
	sinewi_affine_d *exact = (sinewi_affine_d *)(void *)mem;
	double *trs = (double *)(void *)(exact + nj); // per joint: rotation 4, translation 3, scale 3
	memset(c->cursors, 0, (size_t)in->binding_count * sizeof(uint32_t));
	double worst = 0.0, v[4];
	for (uint32_t k = 0; k < c->count; ++k) {
		const double t = c->times[k];
		for (uint32_t j = 0; j < nj; ++j) {
			const sinew_qvv *d = &in->joints[j].default_pose;
			c->src[j] = *d;
			for (int q = 0; q < 4; ++q) trs[10 * j + q] = d->rotation[q];
			for (int q = 0; q < 3; ++q) trs[10 * j + 4 + q] = d->translation[q], trs[10 * j + 7 + q] = d->scale[q];
		}
		for (uint32_t b = 0; b < in->binding_count; ++b) {
			const sinewi_gltf_binding *bind = &in->bindings[b];
			const sinewi_gltf_curve *curve = bind->curve;
			if (curve->path == SINEWI_GLTF_WEIGHTS) continue;
			sinewi_gltf_curve_eval(curve, t, 0.0, &c->cursors[b], v);
			double *x = trs + 10 * (size_t)bind->joint;
			sinew_qvv *r = &c->src[bind->joint];
			if (curve->path == SINEWI_GLTF_ROTATION) {
				for (int q = 0; q < 4; ++q) x[q] = v[q], r->rotation[q] = (float)v[q];
			} else if (curve->path == SINEWI_GLTF_TRANSLATION) {
				for (int q = 0; q < 3; ++q) x[4 + q] = v[q] * in->unit_scale, r->translation[q] = sinewi_gltf_to_float(v[q] * in->unit_scale);
			} else {
				for (int q = 0; q < 3; ++q) x[7 + q] = v[q], r->scale[q] = sinewi_gltf_to_float(v[q]);
			}
		}
		for (uint32_t j = 0; j < nj; ++j) {
			sinewi_affine_d local;
			affine_from_trs_d(trs + 10 * j, trs + 10 * j + 4, trs + 10 * j + 7, &local);
			int32_t p = in->joints[j].parent;
			if (p >= 0 && (uint32_t)p < j) sinewi_affine_mul_d(&exact[p], &local, &exact[j]);
			else exact[j] = local;
		}
		sinewi_compose_pose_d(in->joints, nj, c->src, c->src_obj);
		for (uint32_t j = 0; j < nj; ++j) {
			double e = sinewi_shell_error_d(&exact[j], &c->src_obj[j], c->shell_off + 3 * (size_t)j);
			if (!(e <= worst)) worst = e;
		}
	}
	sinewi_free(&rs->pl.al, mem, bytes);
	return isfinite(worst) ? worst : 0.0;
}

// Places the samples by `plan` (keys, cuts, forced marks), cutting key intervals finer and turning keys into
// marks until the placement passes or nothing is left to change. pl holds the last placement.
static sinew_result run_plan(resampler *rs, key_plan *plan, sinew_time_mark *marks, plan_result *out, sinew_error *error) {
	placement *pl = &rs->pl;
	candidate *cand = &pl->cand;
	memset(out, 0, sizeof *out);
	uint32_t time_count = 0;
	for (int round = 0; round < MAX_ROUNDS; ++round) {
		uint64_t count = 1;
		for (uint32_t i = 0; i + 1 < plan->nu; ++i) count += plan->sub[i];
		SINEWI_CHECK(count <= rs->max_samples, error, SINEW_RESULT_UNSUPPORTED, "animation '%s': more than %zu samples",
		             rs->in->name ? rs->in->name : "", rs->max_samples);
		SINEWI_CHECK(placement_reserve(pl, (uint32_t)count, (size_t)rs->checker.count + count, rs->in->joint_count,
		                               rs->max_components),
		             error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory (%u samples)", (uint32_t)count);
		place_samples(plan, marks, cand);
		bool fails = check_placement(rs, plan, &out->error, &time_count);
		out->count = cand->g.count, out->mark_count = cand->g.mark_count, out->time_count = time_count;
		out->cost = cand->g.count * rs->sample_bytes + (cand->g.mark_count ? 4.0 + 8.0 * cand->g.mark_count : 0.0);
		if (!fails) {
			out->accepted = true;
			break;
		}
		// A failing interval whose keys sit beside their samples (inside a run) gets its keys as marks first;
		// one whose keys are marks is cut finer.
		bool changed = false;
		for (uint32_t i = 0; i + 1 < plan->nu; ++i) {
			if (!rs->bad[i]) continue;
			if (rs->bad[i] == 1) { // over the budget in object space only: float32 noise is not cut finer
				if (rs->floor < 0.0) rs->floor = float_floor(rs);
				if ((double)rs->worst[i] * rs->budget <= FLOAT_NOISE * rs->floor) continue;
			}
			bool beside = false;
			for (uint32_t e = i; e <= i + 1; ++e)
				beside |= !plan->exact[e] && cand->times[plan->first[e]] != (double)plan->keys[e];
			if (beside) plan->exact[i] = plan->exact[i + 1] = 1, changed = true;
			else if (plan->sub[i] < MAX_SUB) plan->sub[i] = (uint16_t)next_sub(plan->sub[i], rs->worst[i]), changed = true;
		}
		if (!changed) break;
	}
	return SINEW_RESULT_OK;
}

// Keys where the source moves so fast that float32 time precision shows: over two ulps of the key's time
// (the source's own resolution) its pose moves more than STEEP_SHARE of the resampling budget. Such a key
// becomes a mark, so its sample sits at its exact float32 time: a sample half an ulp beside it, in a run of
// evenly spaced keys, plays another pose at the key, and so does every float32 copy of the clip (the web
// stress scene: a 180-degree turn between two 30 Hz keys on a rig scaled 2.3 moved 0.004 cm per ulp at 10 s).
// The displacement of a key interval is each joint's origin plus the shell times the change of its
// object-space linear map, the largest over the joints.
#define STEEP_SHARE 0.25

static void mark_steep_keys(resampler *rs, key_plan *plan) {
	sinewi_gltf_checker *c = &rs->checker;
	const sinewi_gltf_clip_input *in = rs->in;
	const uint32_t nj = in->joint_count;
	if (nj == 0 || plan->nu < 2) return;
	memset(c->cursors, 0, (size_t)in->binding_count * sizeof(uint32_t));
	sinewi_affine_d *prev = c->play_obj, *cur = c->src_obj;
	sinewi_gltf_source_pose(c, plan->keys[0], c->src);
	sinewi_compose_pose_d(in->joints, nj, c->src, prev);
	for (uint32_t i = 0; i + 1 < plan->nu; ++i) {
		sinewi_gltf_source_pose(c, plan->keys[i + 1], c->src);
		sinewi_compose_pose_d(in->joints, nj, c->src, cur);
		double moved = 0.0;
		for (uint32_t j = 0; j < nj; ++j) {
			double dt = 0.0, dm = 0.0;
			for (int r = 0; r < 3; ++r) {
				dt += (cur[j].t[r] - prev[j].t[r]) * (cur[j].t[r] - prev[j].t[r]);
				for (int k = 0; k < 3; ++k) dm += (cur[j].m[r][k] - prev[j].m[r][k]) * (cur[j].m[r][k] - prev[j].m[r][k]);
			}
			moved = sinewi_fmax(moved, sqrt(dt) + c->shell * sqrt(dm));
		}
		const float t1 = plan->keys[i + 1];
		const double ulp2 = 2.0 * ((double)sinewi_next_up(t1) - (double)t1);
		const double span = (double)plan->keys[i + 1] - (double)plan->keys[i];
		if (moved * ulp2 > STEEP_SHARE * rs->budget * span) plan->exact[i] = plan->exact[i + 1] = 1;
		sinewi_affine_d *swap = prev;
		prev = cur, cur = swap;
	}
}

// A plan over `keys` (distinct, increasing): no cuts, no forced marks.
static bool plan_init(key_plan *plan, const float *keys, uint32_t n, double tol, sinewi_arena *scratch) {
	plan->keys = keys, plan->nu = n, plan->tol = tol;
	plan->sub = (uint16_t *)sinewi_arena_array(scratch, n, sizeof(uint16_t));
	plan->exact = (uint8_t *)sinewi_arena_alloc(scratch, n);
	plan->first = (uint32_t *)sinewi_arena_array(scratch, n, sizeof(uint32_t));
	if (!plan->sub || !plan->exact || !plan->first) return false;
	for (uint32_t i = 0; i < n; ++i) plan->sub[i] = 1;
	return true;
}

// The key times of the curve with the most keys, distinct, with the clip's first and last key time added when
// it does not reach them: a grid the other curves may be resampled onto (channels keyed at different rates, where
// a sample at every distinct key time of every curve costs more than resampling the sparser ones).
static uint32_t densest_keys(const sinewi_gltf_clip_input *in, const float *merged, uint32_t nu, float *out) {
	const sinewi_gltf_curve *best = NULL;
	for (uint32_t b = 0; b < in->binding_count; ++b)
		if (!best || in->bindings[b].curve->key_count > best->key_count) best = in->bindings[b].curve;
	uint32_t n = 0;
	if (!best || nu == 0) return 0;
	if (best->times[0] > merged[0]) out[n++] = merged[0];
	for (uint32_t k = 0; k < best->key_count; ++k)
		if (n == 0 || best->times[k] > out[n - 1]) out[n++] = best->times[k];
	if (out[n - 1] < merged[nu - 1]) out[n++] = merged[nu - 1];
	return n;
}

// The source curves beside the samples (sinew_clip.curves), in clip units: one per TRS binding, and one per scalar
// track a WEIGHTS binding drives (its components of every key; CUBICSPLINE: in-tangents, values, out-tangents).
static sinew_result keep_curves(const sinewi_gltf_clip_input *in, sinew_clip_set *set, sinew_clip *clip, sinew_error *error) {
	uint32_t count = 0;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		const uint32_t width = bind->track_width ? bind->track_width : 1;
		count += bind->curve->path == SINEWI_GLTF_WEIGHTS ? (bind->curve->components + width - 1) / width : 1u;
	}
	if (!count) return SINEW_RESULT_OK;
	clip->curves = (sinew_curve *)sinew_clip_set_alloc(set, (size_t)count * sizeof(sinew_curve));
	SINEWI_CHECK(clip->curves, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory (%u curves)", count);
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		const sinewi_gltf_curve *g = bind->curve;
		const uint32_t nk = g->key_count, comps = g->components, parts = g->interpolation == SINEWI_GLTF_CUBICSPLINE ? 3u : 1u;
		float *times = (float *)sinew_clip_set_alloc(set, (size_t)nk * sizeof(float));
		SINEWI_CHECK(times, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		memcpy(times, g->times, (size_t)nk * sizeof(float));
		const uint32_t width = g->path == SINEWI_GLTF_WEIGHTS ? (bind->track_width ? bind->track_width : 1) : comps;
		for (uint32_t c0 = 0; c0 < comps; c0 += width) {
			const uint32_t n = g->path == SINEWI_GLTF_WEIGHTS ? clip->scalar_tracks[bind->first_track + c0 / width].components : comps;
			SINEWI_CHECK(c0 + n <= comps, error, SINEW_RESULT_BAD_TRACK, "animation '%s': a weights channel does not fill its tracks",
			             in->name ? in->name : "");
			float *values = (float *)sinew_clip_set_alloc(set, (size_t)nk * parts * n * sizeof(float));
			SINEWI_CHECK(values, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
			const double scale = g->path == SINEWI_GLTF_TRANSLATION ? in->unit_scale : 1.0;
			for (uint32_t k = 0; k < nk; ++k)
				for (uint32_t p = 0; p < parts; ++p)
					for (uint32_t c = 0; c < n; ++c)
						values[((size_t)k * parts + p) * n + c] =
						    to_float(g->values[((size_t)k * parts + p) * comps + c0 + c] * scale);
			sinew_curve *out = &clip->curves[clip->curve_count++];
			out->target = g->path == SINEWI_GLTF_WEIGHTS ? 3u : g->path == SINEWI_GLTF_ROTATION ? 0u : g->path == SINEWI_GLTF_TRANSLATION ? 1u : 2u;
			out->interpolation = g->interpolation;
			out->index = g->path == SINEWI_GLTF_WEIGHTS ? bind->first_track + c0 / width : bind->joint;
			out->key_count = nk;
			out->times = times;
			out->values = values;
		}
	}
	return SINEW_RESULT_OK;
}

sinew_result sinewi_gltf_build_clip(const sinewi_import_ctx *ctx, sinewi_arena *scratch,
                                    const sinewi_gltf_clip_input *in, sinew_clip_set *set, sinew_error *error) {
	const sinew_import_options *opt = ctx->options;
	double t_end = 0.0;
	resampler rs;
	memset(&rs, 0, sizeof rs);
	rs.ctx = ctx, rs.in = in, rs.max_components = 4, rs.floor = -1.0;
	double curve_values = 0.0; // animated components per sample
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_curve *c = in->bindings[b].curve;
		t_end = sinewi_fmax(t_end, c->times[c->key_count - 1]);
		if (c->components > rs.max_components) rs.max_components = c->components;
		curve_values += c->path == SINEWI_GLTF_ROTATION ? 3 : c->components;
	}
	// about 5 bits per animated component and sample once compressed (the estimate only ranks placements)
	rs.sample_bytes = curve_values * 5.0 / 8.0;
	size_t per_sample = (size_t)in->joint_count + in->track_count;
	rs.max_samples = MAX_CLIP_VALUES / (per_sample ? per_sample : 1);
	if (rs.max_samples > MAX_CLIP_SAMPLES) rs.max_samples = MAX_CLIP_SAMPLES;
	double error_cm = opt->error_cm > 0.0 ? opt->error_cm : SINEW_DEFAULT_ERROR_CM;
	double threshold = sinewi_cm_to_units(error_cm, in->unit_scale);
	rs.budget = threshold * RESAMPLE_SHARE;

	float *merged = NULL; // the clip's distinct key times, sorted
	size_t merged_count = 0;
	SINEWI_TRY(gather_times(in, scratch, &merged, &merged_count, error));
	const uint32_t nu = (uint32_t)merged_count;
	SINEWI_CHECK(merged_count >= 1 && merged_count <= rs.max_samples, error, SINEW_RESULT_UNSUPPORTED,
	             "animation '%s': %zu distinct key times (at most %zu samples per clip)", in->name ? in->name : "",
	             merged_count, rs.max_samples);

	rs.joint_floor = (uint8_t *)sinewi_arena_alloc(scratch, in->joint_count ? in->joint_count : 1);
	SINEWI_CHECK(rs.joint_floor, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		if (bind->curve->path != SINEWI_GLTF_WEIGHTS) rs.joint_floor[bind->joint] = joint_all_step(in, bind->joint);
	}
	SINEWI_TRY(sinewi_gltf_checker_init(&rs.checker, in, merged, merged_count, threshold, opt->shell_cm, scratch, error));
	const size_t nj = in->joint_count;
	rs.src = (double *)sinewi_arena_array(scratch, (size_t)rs.max_components * 2, sizeof(double));
	rs.bad = (uint8_t *)sinewi_arena_alloc(scratch, nu + 2);
	rs.worst = (float *)sinewi_arena_array(scratch, nu + 2, sizeof(float));
	// marks of a placement (at most one per key) and the densest curve's keys (plus the clip's ends)
	sinew_time_mark *marks = (sinew_time_mark *)sinewi_arena_array(scratch, nu + 2, sizeof(sinew_time_mark));
	float *dense = (float *)sinewi_arena_array(scratch, nu + 2, sizeof(float));
	SINEWI_CHECK(rs.src && rs.bad && rs.worst && marks && dense, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	rs.rec = rs.src + rs.max_components;
	// scalar precisions: the tracks' own (0: the default); a morph node's weights in vertex units, over the targets
	// each placement's samples play together (weights_error), at first over all of them
	rs.threshold = threshold;
	rs.prec = (double *)sinewi_arena_array(scratch, (size_t)in->track_count + 1, sizeof(double));
	rs.inv = (double *)sinewi_arena_array(scratch, rs.max_components, sizeof(double));
	rs.binding_morph = (int32_t *)sinewi_arena_array(scratch, (size_t)in->binding_count + 1, sizeof(int32_t));
	rs.morph_scale = (double *)sinewi_arena_array(scratch, (size_t)in->morph_count + 1, sizeof(double));
	rs.morph_scratch = (uint8_t *)sinewi_arena_alloc(scratch, 3 * (size_t)in->track_count + 1);
	double *chain = (double *)sinewi_arena_array(scratch, nj + 1, sizeof(double));
	SINEWI_CHECK(rs.prec && rs.inv && rs.binding_morph && rs.morph_scale && rs.morph_scratch && chain, error,
	             SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	for (uint32_t t = 0; t < in->track_count; ++t) rs.prec[t] = in->tracks[t].precision > 0.0f ? in->tracks[t].precision : WEIGHT_PRECISION;
	if (in->morph_count) sinewi_gltf_chain_scales(in, chain);
	for (uint32_t i = 0; i < in->morph_count; ++i) {
		rs.morph_scale[i] = sinewi_gltf_morph_scale(&in->morphs[i], chain);
		morph_precision(&in->morphs[i], threshold, in->morphs[i].overlap_all, rs.morph_scale[i], rs.prec);
	}
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		rs.binding_morph[b] = -1;
		for (uint32_t i = 0; i < in->morph_count && bind->curve->path == SINEWI_GLTF_WEIGHTS && bind->track_width == 1; ++i)
			if (in->morphs[i].first_track == bind->first_track) rs.binding_morph[b] = (int32_t)i;
	}
	// float noise of the key times: two float32 ulps of the last one (an exporter's k / rate rounded to float32
	// is within half an ulp of it, and the evenly spaced times within half an ulp of the last key)
	const double tol = 2.0 * (sinewi_next_up((float)t_end) - (float)t_end);

	rs.pl.al = sinewi_alloc_from(ctx->allocator);
	placement *pl = &rs.pl;
	candidate *cand = &pl->cand;
	double resample_error = 0.0;
	uint32_t time_count = 0;
	sinew_result r = SINEW_RESULT_OK;
	bool accepted = true;
	if (opt->sample_rate > 0.0) { // a uniform rate asked for: from 0 to the first sample time at or after the last key
		double intervals = ceil(t_end * opt->sample_rate * (1.0 - TIME_EPS) - 1e-6); // float key times round up
		if (!isfinite(opt->sample_rate)) r = sinewi_fail(error, SINEW_RESULT_BAD_SAMPLE_RATE, "sample rate %g is not finite", opt->sample_rate);
		else if (!(intervals + 1.0 <= (double)rs.max_samples))
			r = sinewi_fail(error, SINEW_RESULT_UNSUPPORTED, "%.6g s at %g Hz needs more than %zu samples", t_end,
			                opt->sample_rate, rs.max_samples);
		else if (!placement_reserve(pl, (uint32_t)intervals + 1, (size_t)rs.checker.count + (size_t)intervals + 1,
		                            in->joint_count, rs.max_components))
			r = sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		if (r == SINEW_RESULT_OK) {
			cand->g = (sinewi_gltf_timing){(uint32_t)intervals + 1, opt->sample_rate, 0, NULL};
			cand->snap = 1e-9 + t_end * TIME_EPS;
			for (uint32_t k = 0; k < cand->g.count; ++k) cand->times[k] = k / opt->sample_rate;
			check_placement(&rs, NULL, &resample_error, &time_count);
		}
	} else {
		// A sample at every distinct key time (runs of evenly spaced ones as one run), or, when the curve with the
		// most keys holds fewer times, the other curves resampled onto its keys: the accepted one estimated
		// smaller (or the one closer to the budget).
		key_plan all, grid;
		uint32_t nd = densest_keys(in, merged, nu, dense);
		if (!plan_init(&all, merged, nu, tol, scratch) || (nd < nu && !plan_init(&grid, dense, nd, tol, scratch)))
			r = sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		if (r == SINEW_RESULT_OK) {
			mark_steep_keys(&rs, &all);
			if (nd < nu) mark_steep_keys(&rs, &grid);
		}
		plan_result ra = {0}, rg = {0};
		if (r == SINEW_RESULT_OK) r = run_plan(&rs, &all, marks, &ra, error);
		const plan_result *chosen = &ra;
		if (r == SINEW_RESULT_OK && nd < nu) {
			r = run_plan(&rs, &grid, marks, &rg, error);
			bool grid_wins = r == SINEW_RESULT_OK && (rg.accepted != ra.accepted ? rg.accepted
			                                          : rg.accepted              ? rg.cost < ra.cost
			                                                                     : rg.error < ra.error);
			if (grid_wins) chosen = &rg;
			else if (r == SINEW_RESULT_OK) r = run_plan(&rs, &all, marks, &ra, error); // its cuts stand: one round
		}
		resample_error = chosen->error, time_count = chosen->time_count, accepted = chosen->accepted;
	}
	if (r != SINEW_RESULT_OK) {
		placement_free(pl);
		return r;
	}
	// where the samples play the source worst: the check time, and the joint there
	uint32_t worst_joint = 0;
	double worst_time = 0.0;
	if (resample_error > 0.0 && in->joint_count) {
		uint32_t at = 0;
		for (uint32_t k = 1; k < time_count; ++k)
			if (!(pl->errors[k] <= pl->errors[at])) at = k;
		worst_time = pl->check_times[at];
		sinewi_gltf_checker *c = &rs.checker;
		memset(c->cursors, 0, (size_t)in->binding_count * sizeof(uint32_t));
		sinewi_gltf_source_pose(c, worst_time, c->src);
		sinewi_gltf_play_pose(in, c->animated, rs.joint_floor, pl->poses, &cand->g, worst_time, c->play);
		sinewi_compose_pose_d(in->joints, in->joint_count, c->src, c->src_obj);
		sinewi_compose_pose_d(in->joints, in->joint_count, c->play, c->play_obj);
		double most = -1.0;
		for (uint32_t j = 0; j < in->joint_count; ++j) {
			double e = sinewi_shell_error_d(&c->src_obj[j], &c->play_obj[j], c->shell_off + 3 * (size_t)j);
			if (!(e <= most)) most = e, worst_joint = j;
		}
	}
	const char *worst_name = in->joint_count && in->joints[worst_joint].name ? in->joints[worst_joint].name : "";
	const bool float_bound = rs.floor >= 0.0 && resample_error <= FLOAT_NOISE * rs.floor;
	if (!accepted && float_bound)
		sinewi_import_warn(ctx, "animation '%s': playing the samples instead of the source curves is off by %.4g cm at node "
		                        "'%.80s', t = %.6g s (more than %g%% of the %g cm threshold): float32 numbers alone hold "
		                        "the source to %.4g cm there",
		                   in->name ? in->name : "", resample_error / in->unit_scale * 100.0, worst_name, worst_time,
		                   RESAMPLE_SHARE * 100.0, error_cm, rs.floor / in->unit_scale * 100.0);
	else if (!accepted)
		sinewi_import_warn(ctx, "animation '%s': playing the samples instead of the source curves is off by %.4g cm at node "
		                        "'%.80s', t = %.6g s (more than %g%% of the %g cm threshold) even with key intervals cut "
		                        "%u times",
		                   in->name ? in->name : "", resample_error / in->unit_scale * 100.0, worst_name, worst_time,
		                   RESAMPLE_SHARE * 100.0, error_cm, MAX_SUB);
	else if (!(resample_error <= rs.budget))
		sinewi_import_warn(ctx, "animation '%s': playing %g Hz samples instead of the source curves is off by %.4g cm "
		                        "(more than %g%% of the %g cm threshold)",
		                   in->name ? in->name : "", cand->g.rate, resample_error / in->unit_scale * 100.0,
		                   RESAMPLE_SHARE * 100.0, error_cm);
	double *src = rs.src, *rec = rs.rec;
	sinewi_gltf_checker checker = rs.checker;
	float *samples = pl->samples;
	sinew_qvv *poses = pl->poses;
	float *check_errors = pl->errors;
	double *check_times = pl->check_times;

	uint32_t *track_components = (uint32_t *)sinewi_arena_array(scratch, in->track_count + 1, sizeof(uint32_t));
	if (!track_components) {
		placement_free(pl);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	for (uint32_t t = 0; t < in->track_count; ++t) track_components[t] = in->tracks[t].components;
	const uint32_t count = cand->g.count;
	sinew_clip_desc desc = {in->name, cand->g.rate, count, in->joint_count, in->track_count, track_components};
	sinew_clip *clip = NULL;
	r = sinew_clip_set_add_clip(set, &desc, &clip);
	if (r == SINEW_RESULT_OK && cand->g.mark_count) { // samples off a uniform grid: the time map
		clip->time_marks = (sinew_time_mark *)sinew_clip_set_alloc(set, (size_t)cand->g.mark_count * sizeof(sinew_time_mark));
		if (!clip->time_marks) r = SINEW_RESULT_OUT_OF_MEMORY;
		else memcpy(clip->time_marks, cand->g.marks, (size_t)cand->g.mark_count * sizeof(sinew_time_mark));
		clip->time_mark_count = clip->time_marks ? cand->g.mark_count : 0;
	}
	if (r != SINEW_RESULT_OK) {
		placement_free(pl);
		return sinewi_fail(error, r, "cannot allocate the clip (%u samples x %u joints)", count, in->joint_count);
	}
	clip->unit_scale = in->unit_scale;
	clip->resample_error = resample_error;
	clip->resample_joint = worst_joint;
	clip->resample_time = worst_time;

	clip->check_midpoints = 1;
	for (uint32_t j = 0; j < in->joint_count; ++j) {
		clip->joints[j] = in->joints[j];
		if (rs.joint_floor[j]) clip->joints[j].rounding = SINEW_ROUNDING_FLOOR;
	}
	if (nj) memcpy(clip->transforms, poses, (size_t)count * nj * sizeof(sinew_qvv));
	// the joints and scalar tracks this clip animates (a channel targets them): exporters write those
	for (uint32_t j = 0; j < in->joint_count; ++j) clip->joints[j].has_track = 0;
	for (uint32_t b = 0; b < in->binding_count; ++b)
		if (in->bindings[b].curve->path != SINEWI_GLTF_WEIGHTS) clip->joints[in->bindings[b].joint].has_track = 1;
	for (uint32_t t = 0; t < in->track_count; ++t) {
		sinew_scalar_track *track = &clip->scalar_tracks[t];
		float *values = track->values;
		*track = in->tracks[t];
		track->values = values;
		track->has_track = 0;
		for (uint32_t s = 0; s < count; ++s)
			for (uint32_t c = 0; c < track->components; ++c) values[(size_t)s * track->components + c] = track->default_value[c];
	}
	// per track: what playing the samples back costs against the source, and whether its precision is in vertex units
	double *resampled = (double *)sinewi_arena_array(scratch, (size_t)in->track_count + 1, sizeof(double));
	double *per_comp = (double *)sinewi_arena_array(scratch, rs.max_components, sizeof(double));
	uint8_t *vertex_units = (uint8_t *)sinewi_arena_alloc(scratch, (size_t)in->track_count + 1);
	if (!resampled || !per_comp || !vertex_units) {
		placement_free(pl);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	for (uint32_t i = 0; i < in->morph_count; ++i) // constant where the clip does not animate them: any overlap will do
		for (uint32_t k = 0; k < in->morphs[i].target_count; ++k) vertex_units[in->morphs[i].first_track + k] = in->morphs[i].reach[k] > 0.0;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		const sinewi_gltf_curve *curve = bind->curve;
		if (curve->path != SINEWI_GLTF_WEIGHTS) continue;
		sample_curve(curve, cand, src, samples);
		uint32_t width = bind->track_width ? bind->track_width : 1;
		bool floor_mode = curve->interpolation == SINEWI_GLTF_STEP;
		const int32_t mi = rs.binding_morph[b];
		if (mi >= 0) // the targets these samples play together
			morph_precision(&in->morphs[mi], threshold,
			                sampled_overlap(&in->morphs[mi], curve, samples, cand->times, count, rs.morph_scratch),
			                rs.morph_scale[mi], rs.prec);
		memset(per_comp, 0, curve->components * sizeof(double));
		curve_error(curve, cand, samples, floor_mode, src, rec, NULL, per_comp, NULL, 0.0, NULL);
		for (uint32_t c = 0; c < curve->components; ++c)
			if (!(per_comp[c] <= resampled[bind->first_track + c / width])) resampled[bind->first_track + c / width] = per_comp[c];
		for (uint32_t c = 0; c < curve->components; ++c) {
			sinew_scalar_track *track = &clip->scalar_tracks[bind->first_track + c / width];
			track->has_track = 1;
			uint32_t k = c % width, tc = track->components;
			if (curve->interpolation == SINEWI_GLTF_STEP) track->rounding = SINEW_ROUNDING_FLOOR;
			for (uint32_t s = 0; s < count; ++s)
				track->values[(size_t)s * tc + k] = samples[(size_t)s * curve->components + c];
		}
	}
	// The compressor bounds a scalar track against these samples; what playing them back already costs against
	// the source comes off the precision it gets, so the sum stays within the track's precision of the source.
	for (uint32_t t = 0; t < in->track_count; ++t) {
		const double p = rs.prec[t], e = resampled[t];
		if (e > p * 0.9)
			sinewi_import_warn(ctx, "animation '%s': scalar track '%.80s': playing the samples instead of the source "
			                        "curve is off by %.4g (%.0f%% of its precision %.3g); try --rate",
			                   in->name ? in->name : "", in->tracks[t].name ? in->tracks[t].name : "", e, e / p * 100.0, p);
		if (e > p * 1e-3) clip->scalar_tracks[t].precision = (float)sinewi_fmax(p - e, p * 0.1);
		else if (vertex_units[t]) clip->scalar_tracks[t].precision = (float)p;
	}
	// Check points: the check times where the samples do not already play the source back (beyond
	// float noise), with the source's pose there, for the compressor to verify. Elsewhere (keys on
	// samples, LINEAR midpoints) the samples or their interpolation are the source.
	const double noise = threshold * CHECK_NOISE;
	uint32_t kept = 0;
	for (uint32_t k = 0; k < time_count; ++k) kept += !(check_errors[k] <= noise);
	if (kept && nj) {
		clip->check_times = (double *)sinew_clip_set_alloc(set, (size_t)kept * sizeof(double));
		clip->check_transforms = (sinew_qvv *)sinew_clip_set_alloc(set, (size_t)kept * nj * sizeof(sinew_qvv));
		if (!clip->check_times || !clip->check_transforms) {
			placement_free(pl);
			return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory (%u check points)", kept);
		}
		memset(checker.cursors, 0, (size_t)in->binding_count * sizeof(uint32_t));
		for (uint32_t k = 0; k < time_count; ++k) {
			if (check_errors[k] <= noise) continue;
			clip->check_times[clip->check_count] = check_times[k];
			sinewi_gltf_source_pose(&checker, check_times[k], clip->check_transforms + (size_t)clip->check_count * nj);
			clip->check_count++;
		}
	}
	// float32 rounding of what the compressor compares with, at the samples and at the check points
	clip->float_error = float_error(in, cand, poses, cand->times, count, rs.checker.shell_off, &pl->al);
	if (clip->check_count)
		clip->float_error = sinewi_fmax(clip->float_error, float_error(in, cand, clip->check_transforms, clip->check_times,
		                                                        clip->check_count, rs.checker.shell_off, &pl->al));
	placement_free(pl);
	return keep_curves(in, set, clip, error);
}

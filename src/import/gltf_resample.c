// sinew — see include/sinew.h for version and licence
// glTF curves -> uniformly sampled clips.
//
// Time range: a clip covers [0, last key time] over its channels; before a channel's first key its first
// value holds (glTF sampler rule), so clips whose keys start at t > 0 keep their absolute timing.
//
// Sample rate, in this order:
// 1. options->sample_rate > 0: exactly that rate; samples run from 0 to the first grid time >= the last key
//    (the tail holds the last value).
// 2. every key time of the clip lies on one uniform grid k / r (within 1e-3 of a grid step plus float
//    rounding of the times): r is the coarsest such grid up to 1000 Hz, found from the smallest key spacing
//    d as n / d (n = 1, 2, ...), snapped to integer, NTSC (x / 1.001) or small-denominator rates. Failing
//    that, a grid with jittered keys (within 5% of a step, any rate: 37.5, 29.97 Hz, float32-accumulated
//    times), fitted by least squares. Samples on the grid take the keys' values. Multiples of r reaching
//    30, 60, ... 960 Hz are the fallbacks when r itself does not reproduce the curves between keys
//    (CUBICSPLINE, slerp over large angles).
// 3. otherwise the lowest of 30, 60, ... 960 Hz, each nudged up so that a whole number of intervals ends
//    exactly on the last key (the duration is kept; the rate may be fractional).
// A candidate is accepted when the pose played from its samples (as the decoder plays them: lerp, nlerp on
// the shortest arc, floor for STEP joints) is within RESAMPLE_SHARE (half) of the threshold of the source's
// pose in object space (DESIGN §4 metric: every joint's origin and six shell points at 3 cm, scene units)
// at every check time (gltf_checks.c: every key time, key-interval midpoint, CUBICSPLINE quarter point, and
// the midpoint of every interval between the candidate's own samples), when no rotation turns more than 90
// degrees between consecutive samples (so quantization cannot flip the arc the decoder takes), and when
// morph weights stay within half their 1e-4 precision at key times and midpoints. Else the candidate that
// came closest is used, with a warning. clip->resample_error reports the chosen rate's object-space error
// at the check times (clip units); the check times where it is above float noise become the clip's check
// points (the source's exact pose there), which the compressor verifies along with every sample and sample
// midpoint.
//
// STEP: sample k takes the key at or before k / rate (a key within the grid tolerance counts as on it), and
// a joint whose animated sub-tracks are all STEP gets SINEW_ROUNDING_FLOOR, so playback holds each value
// until the next sample exactly as the source does; same for all-STEP morph weight tracks.
#include "gltf_internal.h"

#include "../core/quat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Largest clip: 2^20 samples (2.4 h at 120 Hz) and 2^23 samples x (joints + scalar tracks) (335 MB of
// transforms). Bounds memory and time on hostile key times (one key at t = 1e6 s); beyond: UNSUPPORTED.
#define MAX_CLIP_SAMPLES ((size_t)1 << 20)
#define MAX_CLIP_VALUES ((size_t)1 << 23)
#define MAX_GRID_RATE 1000.0
#define MAX_GRID_DIVISOR 256u
#define DEFAULT_RATE 30.0
#define SHELL_M 0.03          // DESIGN §4 default shell distance, in metres
#define WEIGHT_PRECISION 1e-4 // default scalar track precision
#define TIME_EPS 2.4e-7       // relative precision of float key times (about 4 ulp)
// Key times within this fraction of a grid step are on it (exporters accumulate float steps:
// AnimatedMorphSphere drifts 1.6e-4 frames over 216 keys).
#define GRID_TOL 1e-3
// Jittered grids: keys within this fraction of a step of their grid point.
#define JITTER_TOL 0.05
// Share of the error threshold that resampling may use (object space, at the check times); the rest
// is the compressor's.
#define RESAMPLE_SHARE 0.5
// Check times whose resampling error is below this share of the threshold are float noise: the
// samples already play the source back there, and the compressor's check of sample midpoints covers them.
#define CHECK_NOISE 1e-3

static float to_float(double v) {
	if (v > 3.4028234663852886e38) return INFINITY;
	if (v < -3.4028234663852886e38) return -INFINITY;
	return (float)v;
}

static void slerp(const float *a, const float *b, double s, double *out) {
	double dot = 0.0;
	for (int i = 0; i < 4; ++i) dot += (double)a[i] * b[i];
	double sign = 1.0;
	if (dot < 0.0) dot = -dot, sign = -1.0; // shortest arc, as the glTF spec's reference slerp
	double wa, wb;
	if (dot > 0.9999) {
		wa = 1.0 - s, wb = s; // nearly parallel: lerp then normalize avoids dividing by sin(~0)
	} else {
		double theta = acos(dot), sin_theta = sin(theta);
		wa = sin((1.0 - s) * theta) / sin_theta;
		wb = sin(s * theta) / sin_theta;
	}
	for (int i = 0; i < 4; ++i) out[i] = wa * a[i] + sign * wb * b[i];
	sinewi_quat_normalize_d(out);
}

void sinewi_gltf_curve_eval(const sinewi_gltf_curve *curve, double t, double snap, uint32_t *cursor, double *out) {
	uint32_t n = curve->key_count, comps = curve->components;
	bool cubic = curve->interpolation == SINEWI_GLTF_CUBICSPLINE;
	size_t stride = cubic ? 3u * comps : comps, value_offset = cubic ? comps : 0;
	const float *times = curve->times;
	double limit = t + snap;
	// i = last key with times[i] <= t + snap (or 0)
	uint32_t i = cursor ? *cursor : 0;
	if (i >= n || times[i] > limit) {
		uint32_t lo = 0, hi = n; // first index with times > limit
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (times[mid] <= limit)
				lo = mid + 1;
			else
				hi = mid;
		}
		i = lo ? lo - 1 : 0;
	} else {
		while (i + 1 < n && times[i + 1] <= limit) ++i;
	}
	if (cursor) *cursor = i;
	const float *vi = curve->values + (size_t)i * stride + value_offset;
	if (i + 1 >= n || times[i] > limit || t - times[i] <= snap || curve->interpolation == SINEWI_GLTF_STEP) {
		for (uint32_t c = 0; c < comps; ++c) out[c] = vi[c];
		return;
	}
	const float *vj = curve->values + (size_t)(i + 1) * stride + value_offset;
	double td = (double)times[i + 1] - times[i], s = (t - times[i]) / td;
	if (!cubic) {
		if (curve->path == SINEWI_GLTF_ROTATION) {
			slerp(vi, vj, s, out);
		} else {
			for (uint32_t c = 0; c < comps; ++c) out[c] = vi[c] + (vj[c] - (double)vi[c]) * s;
		}
		return;
	}
	// glTF 2.0 Appendix C: p(s) = (2s^3 - 3s^2 + 1) v_k + td (s^3 - 2s^2 + s) b_k + (-2s^3 + 3s^2) v_k+1
	//                              + td (s^3 - s^2) a_k+1, with b_k the out-tangent of k, a_k+1 the in-tangent of k+1.
	const float *out_tangent = vi + comps, *in_tangent = vj - comps;
	double s2 = s * s, s3 = s2 * s;
	double h00 = 2 * s3 - 3 * s2 + 1, h10 = td * (s3 - 2 * s2 + s), h01 = -2 * s3 + 3 * s2, h11 = td * (s3 - s2);
	for (uint32_t c = 0; c < comps; ++c)
		out[c] = h00 * vi[c] + h10 * out_tangent[c] + h01 * vj[c] + h11 * in_tangent[c];
	if (curve->path == SINEWI_GLTF_ROTATION) sinewi_quat_normalize_d(out);
}

/* ---- rate selection ---- */

static int compare_float(const void *a, const void *b) {
	float x = *(const float *)a, y = *(const float *)b;
	return x < y ? -1 : x > y ? 1 : 0;
}

typedef struct time_array {
	const float *times;
	uint32_t count;
} time_array;

static int compare_array(const void *a, const void *b) {
	uintptr_t x = (uintptr_t)((const time_array *)a)->times, y = (uintptr_t)((const time_array *)b)->times;
	return x < y ? -1 : x > y ? 1 : 0;
}

static bool on_grid(const float *times, size_t n, double rate) {
	for (size_t i = 0; i < n; ++i) {
		double k = times[i] * rate;
		if (fabs(k - floor(k + 0.5)) > GRID_TOL + k * TIME_EPS) return false;
	}
	return true;
}

// Coarsest grid rate (<= max_rate) holding every distinct key time, 0 when there is none. With
// max_rate <= max_samples / t_end the work is bounded by about 17 x max_samples time checks.
static double detect_grid(const float *times, size_t n, double max_rate) {
	double d_min = 0.0;
	double prev = 0.0;
	for (size_t i = 0; i < n; ++i) {
		double gap = times[i] - prev;
		if (gap > 1e-9 + times[i] * TIME_EPS && (d_min == 0.0 || gap < d_min)) d_min = gap;
		prev = times[i];
	}
	if (!(d_min > 0.0)) return 0.0;
	double base = 1.0 / d_min;
	for (uint32_t div = 1; div <= MAX_GRID_DIVISOR && base * div <= max_rate * 1.001; ++div) {
		double r = base * div;
		double variants[20];
		int count = 0;
		double nearest = floor(r + 0.5);
		if (nearest >= 1.0 && fabs(r - nearest) <= 1e-3 * r) variants[count++] = nearest;
		double ntsc = floor(r * 1.001 + 0.5);
		if (ntsc >= 1.0 && fabs(r * 1.001 - ntsc) <= 1e-3 * r) variants[count++] = ntsc / 1.001;
		for (int q = 2; q <= 16; ++q) {
			double p = floor(r * q + 0.5);
			if (p >= 1.0 && fabs(r * q - p) <= 1e-3 * r * q) variants[count++] = p / q;
		}
		variants[count++] = r;
		for (int v = 0; v < count; ++v)
			if (variants[v] <= max_rate * 1.001 && on_grid(times, n, variants[v])) return variants[v];
	}
	return 0.0;
}

static int compare_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y ? 1 : 0;
}

// Key times on a uniform grid k / r with jitter beyond GRID_TOL (times accumulated in float32,
// exporters rounding to milliseconds, rates such as 37.5 or 29.97 Hz): the step is the median key
// spacing, refined by least squares through the origin, then snapped to a nearby integer, NTSC or
// small-fraction rate when one fits as well. Accepted when every key lies within JITTER_TOL of a
// step from its own grid point; *snap receives the largest offset (seconds), so sampling on the
// grid takes each key's value. The object-space check of the candidate then measures the timing
// difference at the exact key times. 0 when there is no such grid.
static double detect_jittered_grid(const float *times, size_t n, double max_rate, sinewi_arena *scratch, double *snap) {
	if (n < 3) return 0.0;
	double *gaps = (double *)sinewi_arena_array(scratch, n - 1, sizeof(double));
	if (!gaps) return 0.0; // no grid: the plain rates follow
	for (size_t i = 0; i + 1 < n; ++i) gaps[i] = (double)times[i + 1] - times[i];
	qsort(gaps, n - 1, sizeof(double), compare_double);
	double h = gaps[(n - 1) / 2];
	if (!(h > 0.0) || !(1.0 / h <= max_rate * 1.001)) return 0.0;
	for (int pass = 0; pass < 2; ++pass) { // least squares: h = sum(k t) / sum(k^2)
		double kt = 0.0, kk = 0.0;
		for (size_t i = 0; i < n; ++i) {
			double k = floor(times[i] / h + 0.5);
			kt += k * times[i], kk += k * k;
		}
		if (!(kk > 0.0)) return 0.0;
		h = kt / kk;
	}
	double r = 1.0 / h, variants[20];
	int count = 0;
	double nearest = floor(r + 0.5);
	if (nearest >= 1.0) variants[count++] = nearest;
	double ntsc = floor(r * 1.001 + 0.5);
	if (ntsc >= 1.0) variants[count++] = ntsc / 1.001;
	for (int q = 2; q <= 16; ++q) variants[count++] = floor(r * q + 0.5) / q;
	variants[count++] = r;
	for (int v = 0; v < count; ++v) {
		double rate = variants[v];
		if (!(rate > 0.0) || fabs(rate - r) > 2e-3 * r || rate > max_rate * 1.001) continue;
		double worst = 0.0, prev = -1.0;
		bool ok = true;
		for (size_t i = 0; i < n && ok; ++i) {
			double k = floor(times[i] * rate + 0.5), off = fabs(times[i] * rate - k);
			ok = off <= JITTER_TOL && k > prev; // one key per grid point
			prev = k;
			if (off > worst) worst = off;
		}
		if (ok) {
			*snap = (worst + GRID_TOL) / rate;
			return rate;
		}
	}
	return 0.0;
}

typedef struct candidate {
	double rate;
	uint32_t count;
	double snap; // seconds: keys this close to a sample time count as on it
} candidate;

static void sample_curve(const sinewi_gltf_curve *curve, const candidate *cand, double *tmp, float *out) {
	uint32_t cursor = 0, comps = curve->components;
	for (uint32_t k = 0; k < cand->count; ++k) {
		sinewi_gltf_curve_eval(curve, k / cand->rate, cand->snap, &cursor, tmp);
		for (uint32_t c = 0; c < comps; ++c) out[(size_t)k * comps + c] = to_float(tmp[c]);
	}
}

// Value the sampled curve plays back at time t (DESIGN §4 sampling semantics).
static void playback(const sinewi_gltf_curve *curve, const candidate *cand, const float *samples, bool floor_mode,
                     double t, double *out) {
	uint32_t comps = curve->components;
	double x = t * cand->rate;
	double snap_k = cand->snap * cand->rate;
	double fi = floor(x + (floor_mode ? snap_k : 0.0));
	uint32_t last = cand->count - 1;
	uint32_t i = fi <= 0.0 ? 0 : fi >= last ? last : (uint32_t)fi;
	const float *a = samples + (size_t)i * comps;
	double f = x - i;
	if (floor_mode || i == last || f <= 0.0) {
		for (uint32_t c = 0; c < comps; ++c) out[c] = a[c];
		return;
	}
	const float *b = a + comps;
	if (curve->path == SINEWI_GLTF_ROTATION) {
		double dot = 0.0;
		for (int c = 0; c < 4; ++c) dot += (double)a[c] * b[c];
		double s = dot < 0.0 ? -f : f;
		for (int c = 0; c < 4; ++c) out[c] = a[c] * (1.0 - f) + b[c] * s;
		sinewi_quat_normalize_d(out);
	} else {
		for (uint32_t c = 0; c < comps; ++c) out[c] = a[c] + (b[c] - (double)a[c]) * f;
	}
}

// Morph weights: the largest absolute difference of a component.
static double value_error(const sinewi_gltf_curve *curve, const double *x, const double *y) {
	double worst = 0.0;
	for (uint32_t c = 0; c < curve->components; ++c) worst = fmax(worst, fabs(x[c] - y[c]));
	return worst;
}

// Largest difference between the glTF curve and its playback from `samples` at key times, interval
// midpoints and (CUBICSPLINE) quarter points.
static double curve_error(const sinewi_gltf_curve *curve, const candidate *cand, const float *samples, bool floor_mode,
                          double *src, double *rec) {
	double worst = 0.0;
	uint32_t cursor = 0;
	bool cubic = curve->interpolation == SINEWI_GLTF_CUBICSPLINE;
	// A LINEAR translation/scale/weight curve is a polyline: playback from any grid holding its
	// keys reproduces it between keys, so only rotations (slerp vs nlerp) and cubic curves need
	// checks between keys (which would otherwise only measure rounding at huge magnitudes).
	bool between = cubic || (curve->path == SINEWI_GLTF_ROTATION && curve->interpolation == SINEWI_GLTF_LINEAR);
	for (uint32_t k = 0; k < curve->key_count; ++k) {
		double t0 = curve->times[k];
		double points[4] = {t0, 0, 0, 0};
		int count = 1;
		if (between && k + 1 < curve->key_count && curve->times[k + 1] > t0) {
			double t1 = curve->times[k + 1];
			if (cubic) {
				points[count++] = t0 + (t1 - t0) * 0.25;
				points[count++] = t0 + (t1 - t0) * 0.5;
				points[count++] = t0 + (t1 - t0) * 0.75;
			} else {
				points[count++] = t0 + (t1 - t0) * 0.5;
			}
		}
		for (int p = 0; p < count; ++p) {
			sinewi_gltf_curve_eval(curve, points[p], 0.0, &cursor, src);
			playback(curve, cand, samples, floor_mode, points[p], rec);
			double e = value_error(curve, src, rec);
			if (!(e <= worst)) worst = e; // NaN propagates as "worst"
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

// Precision of the scalar tracks a WEIGHTS binding writes (its tracks share it).
static double binding_precision(const sinewi_gltf_clip_input *in, const sinewi_gltf_binding *bind) {
	float p = in->tracks[bind->first_track].precision;
	return p > 0.0f ? p : WEIGHT_PRECISION;
}

// Largest error of the scalar curves (morph weights, pointer values: they do not move nodes) when played
// back from `cand`'s samples, as a fraction of each curve's precision; stops above `stop`.
static double weights_error(const sinewi_gltf_clip_input *in, const candidate *cand, float *samples, double *src,
                            double *rec, double stop) {
	double worst = 0.0;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		if (bind->curve->path != SINEWI_GLTF_WEIGHTS) continue;
		sample_curve(bind->curve, cand, src, samples);
		double e = curve_error(bind->curve, cand, samples, bind->curve->interpolation == SINEWI_GLTF_STEP, src, rec) /
		           binding_precision(in, bind);
		if (!(e <= worst)) worst = e;
		if (!(worst <= stop)) break;
	}
	return worst;
}

// Makes *poses hold at least `count` poses (contents not kept).
static bool grow_poses(const sinewi_alloc *al, sinew_qvv **poses, size_t *bytes, size_t count) {
	size_t need = (count ? count : 1) * sizeof(sinew_qvv);
	if (*poses && *bytes >= need) return true;
	sinewi_free(al, *poses, *bytes);
	*poses = (sinew_qvv *)sinewi_malloc(al, need);
	*bytes = *poses ? need : 0;
	return *poses != NULL;
}

// Samples every TRS curve of the clip at `cand`'s times into poses[count * joint_count].
static void sample_poses(const sinewi_gltf_clip_input *in, const candidate *cand, float *samples, double *tmp,
                         sinew_qvv *poses) {
	const uint32_t nj = in->joint_count;
	for (uint32_t s = 0; s < cand->count; ++s)
		for (uint32_t j = 0; j < nj; ++j) poses[(size_t)s * nj + j] = in->joints[j].default_pose;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		const sinewi_gltf_curve *curve = bind->curve;
		if (curve->path == SINEWI_GLTF_WEIGHTS) continue;
		sample_curve(curve, cand, tmp, samples);
		for (uint32_t s = 0; s < cand->count; ++s) {
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

static void add_candidate(candidate *list, int *count, double rate, uint32_t samples, double snap) {
	for (int i = 0; i < *count; ++i)
		if (fabs(list[i].rate - rate) <= 1e-9 * rate) return;
	list[*count].rate = rate;
	list[*count].count = samples;
	list[*count].snap = snap;
	++*count;
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

sinew_result sinewi_gltf_build_clip(const sinewi_import_ctx *ctx, sinewi_arena *scratch,
                                    const sinewi_gltf_clip_input *in, sinew_clip_set *set, sinew_error *error) {
	const sinew_import_options *opt = ctx->options;
	double t_end = 0.0;
	uint32_t max_components = 4;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_curve *c = in->bindings[b].curve;
		t_end = fmax(t_end, c->times[c->key_count - 1]);
		if (c->components > max_components) max_components = c->components;
	}
	size_t per_sample = (size_t)in->joint_count + in->track_count;
	size_t max_samples = MAX_CLIP_VALUES / (per_sample ? per_sample : 1);
	if (max_samples > MAX_CLIP_SAMPLES) max_samples = MAX_CLIP_SAMPLES;
	double error_cm = opt->error_cm > 0.0 ? opt->error_cm : SINEW_DEFAULT_ERROR_CM;
	double threshold = sinewi_cm_to_units(error_cm, in->unit_scale);

	float *merged = NULL; // the clip's distinct key times, sorted
	size_t merged_count = 0;
	SINEWI_TRY(gather_times(in, scratch, &merged, &merged_count, error));
	candidate cands[12];
	int cand_count = 0;
	// multiples of a key grid (or plain rates) up to 960 Hz: CUBICSPLINE and slerp over large angles
	// may need several samples per key interval to stay within the resampling share
	const double targets[] = {0.0, 30.0, 60.0, 120.0, 240.0, 480.0, 960.0};
	const int target_count = (int)(sizeof targets / sizeof targets[0]);
	if (opt->sample_rate > 0.0) {
		SINEWI_CHECK(isfinite(opt->sample_rate), error, SINEW_RESULT_BAD_SAMPLE_RATE, "sample rate %g is not finite",
		             opt->sample_rate);
		double intervals = ceil(t_end * opt->sample_rate * (1.0 - TIME_EPS) - 1e-6); // float key times round up
		SINEWI_CHECK(intervals + 1.0 <= (double)max_samples, error, SINEW_RESULT_UNSUPPORTED,
		             "%.6g s at %g Hz needs more than %zu samples", t_end, opt->sample_rate, max_samples);
		add_candidate(cands, &cand_count, opt->sample_rate, (uint32_t)intervals + 1, 1e-9 + t_end * TIME_EPS);
	} else if (t_end == 0.0) {
		add_candidate(cands, &cand_count, DEFAULT_RATE, 1, 0.0);
	} else {
		double max_rate = fmin(MAX_GRID_RATE, (double)(max_samples - 1) / t_end);
		double grid = detect_grid(merged, merged_count, max_rate);
		double snap = (GRID_TOL + t_end * grid * TIME_EPS) / (grid > 0.0 ? grid : 1.0);
		if (!(grid > 0.0)) grid = detect_jittered_grid(merged, merged_count, max_rate, scratch, &snap);
		if (grid > 0.0) {
			for (int i = 0; i < target_count; ++i) {
				double multiple = targets[i] > grid ? ceil(targets[i] / grid - 1e-9) : 1.0;
				double rate = grid * multiple;
				double intervals = floor(t_end * rate + 0.5);
				if (intervals + 1.0 > (double)max_samples) break;
				add_candidate(cands, &cand_count, rate, (uint32_t)intervals + 1, snap);
			}
		} else {
			for (int i = 1; i < target_count; ++i) {
				double intervals = fmax(1.0, ceil(t_end * targets[i] - 1e-6));
				if (intervals + 1.0 > (double)max_samples) break;
				add_candidate(cands, &cand_count, intervals / t_end, (uint32_t)intervals + 1, 1e-9 + t_end * TIME_EPS);
			}
		}
		SINEWI_CHECK(cand_count > 0, error, SINEW_RESULT_UNSUPPORTED, "%.6g s of animation needs more than %zu samples",
		             t_end, max_samples);
	}

	uint8_t *joint_floor = (uint8_t *)sinewi_arena_alloc(scratch, in->joint_count ? in->joint_count : 1);
	SINEWI_CHECK(joint_floor, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		if (bind->curve->path != SINEWI_GLTF_WEIGHTS) joint_floor[bind->joint] = joint_all_step(in, bind->joint);
	}

	uint32_t max_count = 0;
	for (int i = 0; i < cand_count; ++i) max_count = cands[i].count > max_count ? cands[i].count : max_count;
	sinewi_gltf_checker checker;
	SINEWI_TRY(sinewi_gltf_checker_init(&checker, in, merged, merged_count, threshold, opt->shell_cm, scratch, error));
	sinewi_alloc al = sinewi_alloc_from(ctx->allocator);
	const size_t nj = in->joint_count;
	size_t sample_bytes = (size_t)max_count * max_components * sizeof(float); // < 2^24 * components * 4
	size_t pose_bytes = 0; // grown with the candidates tried (most clips stop at the first)
	float *samples = (float *)sinewi_malloc(&al, sample_bytes);
	sinew_qvv *poses = NULL;
	// check times of a candidate: the source's (keys, midpoints) and the samples' midpoints
	const size_t max_times = (size_t)checker.count + max_count;
	float *check_errors = (float *)sinewi_arena_array(scratch, max_times, sizeof(float));
	double *check_times = (double *)sinewi_arena_array(scratch, max_times, sizeof(double));
	double *src = (double *)sinewi_arena_array(scratch, (size_t)max_components * 2, sizeof(double));
	if (!samples || !src || !check_errors || !check_times) {
		sinewi_free(&al, samples, sample_bytes);
		sinewi_free(&al, poses, pose_bytes);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	double *rec = src + max_components;
	// The first candidate whose samples play back within the resampling share of the threshold (in
	// object space, at every check time), turn no rotation past 90 degrees between samples and keep
	// the morph weights within their precision; else the one that came closest.
	const double budget = threshold * RESAMPLE_SHARE;
	int chosen = -1, fallback = cand_count - 1;
	double fallback_error = INFINITY, chosen_error = 0.0;
	uint32_t time_count = 0;
	for (int i = 0; i < cand_count && chosen < 0; ++i) {
		if (!grow_poses(&al, &poses, &pose_bytes, (size_t)cands[i].count * nj)) {
			sinewi_free(&al, samples, sample_bytes);
			return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		}
		sample_poses(in, &cands[i], samples, src, poses);
		bool turns = sinewi_gltf_turns_under_90(in, poses, cands[i].count, joint_floor);
		time_count = sinewi_gltf_candidate_times(&checker, cands[i].count, cands[i].rate, check_times);
		double e = sinewi_gltf_check_candidate(&checker, check_times, time_count, poses, cands[i].count, cands[i].rate,
		                                       joint_floor, turns ? budget : INFINITY, check_errors);
		double we = weights_error(in, &cands[i], samples, src, rec, INFINITY);
		// the fallback: the candidate whose worse part (poses, scalars) takes the least of its share
		double part = fmax(e / budget, we / RESAMPLE_SHARE);
		if (turns && e <= budget && we <= RESAMPLE_SHARE) chosen = i, chosen_error = e;
		else if (turns && part < fallback_error) fallback = i, fallback_error = part;
	}
	// An accepted candidate was checked at every time (no early stop): its poses and errors are in hand.
	// A fallback is sampled and checked again, completely.
	const bool reuse = chosen >= 0;
	if (!reuse) chosen = fallback;
	const candidate *cand = &cands[chosen];
	double resample_error = chosen_error;
	if (!reuse) {
		if (!grow_poses(&al, &poses, &pose_bytes, (size_t)cand->count * nj)) {
			sinewi_free(&al, samples, sample_bytes);
			return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		}
		sample_poses(in, cand, samples, src, poses);
		time_count = sinewi_gltf_candidate_times(&checker, cand->count, cand->rate, check_times);
		resample_error = sinewi_gltf_check_candidate(&checker, check_times, time_count, poses, cand->count, cand->rate,
		                                             joint_floor, INFINITY, check_errors);
	}
	if (!(resample_error <= budget))
		sinewi_import_warn(ctx, "animation '%s': playing %g Hz samples instead of the source curves is off by %.4g cm "
		                        "(more than %g%% of the %g cm threshold); try --rate",
		                   in->name ? in->name : "", cand->rate, resample_error / in->unit_scale * 100.0,
		                   RESAMPLE_SHARE * 100.0, error_cm);

	uint32_t *track_components = (uint32_t *)sinewi_arena_array(scratch, in->track_count + 1, sizeof(uint32_t));
	if (!track_components) {
		sinewi_free(&al, samples, sample_bytes);
		sinewi_free(&al, poses, pose_bytes);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	for (uint32_t t = 0; t < in->track_count; ++t) track_components[t] = in->tracks[t].components;
	sinew_clip_desc desc = {in->name, cand->rate, cand->count, in->joint_count, in->track_count, track_components};
	sinew_clip *clip = NULL;
	sinew_result r = sinew_clip_set_add_clip(set, &desc, &clip);
	if (r != SINEW_RESULT_OK) {
		sinewi_free(&al, samples, sample_bytes);
		sinewi_free(&al, poses, pose_bytes);
		return sinewi_fail(error, r, "cannot allocate the clip (%u samples x %u joints)", cand->count, in->joint_count);
	}
	clip->unit_scale = in->unit_scale;
	clip->resample_error = resample_error;
	clip->check_midpoints = 1;
	for (uint32_t j = 0; j < in->joint_count; ++j) {
		clip->joints[j] = in->joints[j];
		if (joint_floor[j]) clip->joints[j].rounding = SINEW_ROUNDING_FLOOR;
	}
	if (nj) memcpy(clip->transforms, poses, (size_t)cand->count * nj * sizeof(sinew_qvv));
	sinewi_free(&al, poses, pose_bytes);
	for (uint32_t t = 0; t < in->track_count; ++t) {
		sinew_scalar_track *track = &clip->scalar_tracks[t];
		float *values = track->values;
		*track = in->tracks[t];
		track->values = values;
		for (uint32_t s = 0; s < cand->count; ++s)
			for (uint32_t c = 0; c < track->components; ++c) values[(size_t)s * track->components + c] = track->default_value[c];
	}
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		const sinewi_gltf_curve *curve = bind->curve;
		if (curve->path != SINEWI_GLTF_WEIGHTS) continue;
		sample_curve(curve, cand, src, samples);
		uint32_t width = bind->track_width ? bind->track_width : 1;
		// The compressor bounds a scalar track against these samples; what playing them back already
		// costs against the source (keys off the grid) comes off the precision it gets, so the sum
		// stays within the track's precision of the source.
		bool floor_mode = curve->interpolation == SINEWI_GLTF_STEP;
		double p = binding_precision(in, bind);
		double resampled = curve_error(curve, cand, samples, floor_mode, src, rec);
		if (resampled > p * 0.9)
			sinewi_import_warn(ctx, "animation '%s': scalar track '%.80s': playing %g Hz samples instead of the source "
			                        "curve is off by %.4g (%.0f%% of its precision %.3g); try --rate",
			                   in->name ? in->name : "", in->tracks[bind->first_track].name ? in->tracks[bind->first_track].name : "",
			                   cand->rate, resampled, resampled / p * 100.0, p);
		if (resampled > p * 1e-3)
			for (uint32_t c = 0; c < curve->components; c += width)
				clip->scalar_tracks[bind->first_track + c / width].precision = (float)fmax(p - resampled, p * 0.1);
		for (uint32_t c = 0; c < curve->components; ++c) {
			sinew_scalar_track *track = &clip->scalar_tracks[bind->first_track + c / width];
			uint32_t k = c % width, tc = track->components;
			if (curve->interpolation == SINEWI_GLTF_STEP) track->rounding = SINEW_ROUNDING_FLOOR;
			for (uint32_t s = 0; s < cand->count; ++s)
				track->values[(size_t)s * tc + k] = samples[(size_t)s * curve->components + c];
		}
	}
	sinewi_free(&al, samples, sample_bytes);
	// Check points: the check times where the samples do not already play the source back (beyond
	// float noise), with the source's pose there, for the compressor to verify. Elsewhere (keys on
	// samples, LINEAR midpoints) the samples or their interpolation are the source.
	const double noise = threshold * CHECK_NOISE;
	uint32_t kept = 0;
	for (uint32_t k = 0; k < time_count; ++k) kept += !(check_errors[k] <= noise);
	if (kept && nj) {
		clip->check_times = (double *)sinew_clip_set_alloc(set, (size_t)kept * sizeof(double));
		clip->check_transforms = (sinew_qvv *)sinew_clip_set_alloc(set, (size_t)kept * nj * sizeof(sinew_qvv));
		if (!clip->check_times || !clip->check_transforms)
			return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory (%u check points)", kept);
		memset(checker.cursors, 0, (size_t)in->binding_count * sizeof(uint32_t));
		for (uint32_t k = 0; k < time_count; ++k) {
			if (check_errors[k] <= noise) continue;
			clip->check_times[clip->check_count] = check_times[k];
			sinewi_gltf_source_pose(&checker, check_times[k], clip->check_transforms + (size_t)clip->check_count * nj);
			clip->check_count++;
		}
	}
	return SINEW_RESULT_OK;
}

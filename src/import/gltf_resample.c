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
//    d as n / d (n = 1, 2, ...), snapped to integer, NTSC (x / 1.001) or small-denominator rates. Samples on
//    the grid hit the keys exactly. Multiples of r reaching 30, 60 and 120 Hz are the fallbacks when r
//    itself does not reproduce the curves between keys (CUBICSPLINE, slerp over large angles).
// 3. otherwise the lowest of 30, 60 and 120 Hz, each nudged up so that a whole number of intervals ends
//    exactly on the last key (the duration is kept; the rate may be fractional).
// A candidate is accepted when the curves rebuilt from its samples (lerp; nlerp for rotations, as sinew
// plays them back; floor for STEP joints) match the glTF curves at every key time and every interval
// midpoint (also the quarter points of CUBICSPLINE intervals) within the threshold: translation distance,
// scale difference times the 3 cm shell, rotation as the displacement of a point on the 3 cm shell
// (2 d sin(angle / 2)), all against options->error_cm (0.01 cm) in clip units; morph weights against 1e-4.
// The last candidate is used when none is accepted; clip->resample_error reports the largest transform
// error of the chosen rate (clip units).
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

typedef struct candidate {
	double rate;
	uint32_t count;
	double snap; // seconds: keys this close to a sample time count as on it
} candidate;

typedef struct clip_errors {
	double transform; // clip units
	double weight;
} clip_errors;

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

static double value_error(const sinewi_gltf_curve *curve, const double *x, const double *y, double unit_scale) {
	double shell = SHELL_M * unit_scale;
	switch (curve->path) {
	case SINEWI_GLTF_ROTATION: {
		// Half the rotation angle between x and y is the 4D angle phi = 2 atan2(|a - b|, |a + b|) of the unit
		// quaternions (stable for tiny angles, unlike acos of the dot product); a shell point moves 2 d sin(phi).
		double a[4] = {x[0], x[1], x[2], x[3]}, b[4] = {y[0], y[1], y[2], y[3]};
		sinewi_quat_normalize_d(a);
		sinewi_quat_normalize_d(b);
		double sign = sinewi_quat_dot_d(a, b) < 0.0 ? -1.0 : 1.0, diff = 0.0, sum = 0.0;
		for (int i = 0; i < 4; ++i) {
			double dm = a[i] - sign * b[i], dp = a[i] + sign * b[i];
			diff += dm * dm, sum += dp * dp;
		}
		double phi = 2.0 * atan2(sqrt(diff), sqrt(sum));
		return 2.0 * shell * sin(phi);
	}
	case SINEWI_GLTF_TRANSLATION:
	case SINEWI_GLTF_SCALE: {
		double dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];
		double dist = sqrt(dx * dx + dy * dy + dz * dz);
		return curve->path == SINEWI_GLTF_TRANSLATION ? dist * unit_scale : dist * shell;
	}
	default: {
		double worst = 0.0;
		for (uint32_t c = 0; c < curve->components; ++c) worst = fmax(worst, fabs(x[c] - y[c]));
		return worst;
	}
	}
}

// Largest difference between the glTF curve and its playback from `samples` at key times, interval
// midpoints and (CUBICSPLINE) quarter points.
static double curve_error(const sinewi_gltf_curve *curve, const candidate *cand, const float *samples, bool floor_mode,
                          double unit_scale, double *src, double *rec) {
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
			double e = value_error(curve, src, rec, unit_scale);
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

static bool binding_floor(const sinewi_gltf_clip_input *in, const sinewi_gltf_binding *b, const uint8_t *joint_floor) {
	if (b->curve->path == SINEWI_GLTF_WEIGHTS) return b->curve->interpolation == SINEWI_GLTF_STEP;
	(void)in;
	return joint_floor[b->joint] != 0;
}

static void evaluate_candidate(const sinewi_gltf_clip_input *in, const candidate *cand, const uint8_t *joint_floor,
                               double threshold, bool stop_early, float *samples, double *src, double *rec,
                               clip_errors *out) {
	out->transform = out->weight = 0.0;
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		sample_curve(bind->curve, cand, src, samples);
		double e =
		    curve_error(bind->curve, cand, samples, binding_floor(in, bind, joint_floor), in->unit_scale, src, rec);
		if (bind->curve->path == SINEWI_GLTF_WEIGHTS) {
			if (!(e <= out->weight)) out->weight = e;
		} else {
			if (!(e <= out->transform)) out->transform = e;
		}
		if (stop_early && !(out->transform <= threshold && out->weight <= WEIGHT_PRECISION)) break;
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

	candidate cands[8];
	int cand_count = 0;
	if (opt->sample_rate > 0.0) {
		SINEWI_CHECK(isfinite(opt->sample_rate), error, SINEW_RESULT_BAD_SAMPLE_RATE, "sample rate %g is not finite",
		             opt->sample_rate);
		double intervals = ceil(t_end * opt->sample_rate - 1e-6);
		SINEWI_CHECK(intervals + 1.0 <= (double)max_samples, error, SINEW_RESULT_UNSUPPORTED,
		             "%.6g s at %g Hz needs more than %zu samples", t_end, opt->sample_rate, max_samples);
		add_candidate(cands, &cand_count, opt->sample_rate, (uint32_t)intervals + 1, 1e-9 + t_end * TIME_EPS);
	} else if (t_end == 0.0) {
		add_candidate(cands, &cand_count, DEFAULT_RATE, 1, 0.0);
	} else {
		float *times = NULL;
		size_t time_count = 0;
		SINEWI_TRY(gather_times(in, scratch, &times, &time_count, error));
		double grid = detect_grid(times, time_count, fmin(MAX_GRID_RATE, (double)(max_samples - 1) / t_end));
		if (grid > 0.0) {
			double snap = (GRID_TOL + t_end * grid * TIME_EPS) / grid;
			const double targets[] = {0.0, 30.0, 60.0, 120.0};
			for (int i = 0; i < 4; ++i) {
				double multiple = targets[i] > grid ? ceil(targets[i] / grid - 1e-9) : 1.0;
				double rate = grid * multiple;
				double intervals = floor(t_end * rate + 0.5);
				if (intervals + 1.0 > (double)max_samples) break;
				add_candidate(cands, &cand_count, rate, (uint32_t)intervals + 1, snap);
			}
		} else {
			const double nominal[] = {30.0, 60.0, 120.0};
			for (int i = 0; i < 3; ++i) {
				double intervals = fmax(1.0, ceil(t_end * nominal[i] - 1e-6));
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
	sinewi_alloc al = sinewi_alloc_from(ctx->allocator);
	size_t sample_bytes = (size_t)max_count * max_components * sizeof(float); // < 2^24 * components * 4
	float *samples = (float *)sinewi_malloc(&al, sample_bytes);
	double *src = (double *)sinewi_arena_array(scratch, (size_t)max_components * 2, sizeof(double));
	if (!samples || !src) {
		sinewi_free(&al, samples, sample_bytes);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	double *rec = src + max_components;
	int chosen = cand_count - 1;
	clip_errors errors = {0, 0};
	for (int i = 0; i < cand_count; ++i) {
		bool last = i == cand_count - 1;
		evaluate_candidate(in, &cands[i], joint_floor, threshold, !last, samples, src, rec, &errors);
		if (last || (errors.transform <= threshold && errors.weight <= WEIGHT_PRECISION)) {
			chosen = i;
			break;
		}
	}
	const candidate *cand = &cands[chosen];

	sinew_clip_desc desc = {in->name, cand->rate, cand->count, in->joint_count, in->track_count, NULL};
	sinew_clip *clip = NULL;
	sinew_result r = sinew_clip_set_add_clip(set, &desc, &clip);
	if (r != SINEW_RESULT_OK) {
		sinewi_free(&al, samples, sample_bytes);
		return sinewi_fail(error, r, "cannot allocate the clip (%u samples x %u joints)", cand->count, in->joint_count);
	}
	clip->unit_scale = in->unit_scale;
	clip->resample_error = errors.transform;
	for (uint32_t j = 0; j < in->joint_count; ++j) {
		clip->joints[j] = in->joints[j];
		if (joint_floor[j]) clip->joints[j].rounding = SINEW_ROUNDING_FLOOR;
	}
	for (uint32_t s = 0; s < cand->count; ++s) {
		sinew_qvv *pose = clip->transforms + (size_t)s * in->joint_count;
		for (uint32_t j = 0; j < in->joint_count; ++j) pose[j] = in->joints[j].default_pose;
	}
	for (uint32_t t = 0; t < in->track_count; ++t) {
		sinew_scalar_track *track = &clip->scalar_tracks[t];
		float *values = track->values;
		*track = in->tracks[t];
		track->values = values;
		for (uint32_t s = 0; s < cand->count; ++s) values[s] = track->default_value[0];
	}
	for (uint32_t b = 0; b < in->binding_count; ++b) {
		const sinewi_gltf_binding *bind = &in->bindings[b];
		const sinewi_gltf_curve *curve = bind->curve;
		sample_curve(curve, cand, src, samples);
		if (curve->path == SINEWI_GLTF_WEIGHTS) {
			for (uint32_t c = 0; c < curve->components; ++c) {
				sinew_scalar_track *track = &clip->scalar_tracks[bind->first_track + c];
				if (curve->interpolation == SINEWI_GLTF_STEP) track->rounding = SINEW_ROUNDING_FLOOR;
				for (uint32_t s = 0; s < cand->count; ++s)
					track->values[s] = samples[(size_t)s * curve->components + c];
			}
			continue;
		}
		for (uint32_t s = 0; s < cand->count; ++s) {
			sinew_qvv *x = &clip->transforms[(size_t)s * in->joint_count + bind->joint];
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
	sinewi_free(&al, samples, sample_bytes);
	return SINEW_RESULT_OK;
}

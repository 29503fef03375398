// sinew — see include/sinew.h for version and licence
// Source curves (sinew_curve) evaluated as glTF 2.0 evaluates its samplers, in double: the importer samples them,
// and the guarantee of a clip stored as curves is judged against them between samples.
#include "../core/base.h"
#include "../core/elementary.h"
#include "../core/metric.h"
#include "../core/quat.h"
#include "clip_internal.h"

#include <math.h>
#include <string.h>

// double -> float without the undefined behaviour of out-of-range conversions (infinities)
static float to_float(double v) {
	if (v > 3.4028234663852886e38) return INFINITY;
	if (v < -3.4028234663852886e38) return -INFINITY;
	return (float)v;
}

static void slerp(const float *a, const float *b, double s, double *out) {
	double dot = 0.0;
	for (int i = 0; i < 4; ++i) dot += (double)a[i] * b[i];
	const double sign = dot < 0.0 ? -1.0 : 1.0; // shortest arc, as the glTF spec's reference slerp
	// The angle between the two from their difference and sum (atan2 stays accurate as they meet, where acos of the
	// dot loses it): lerping below dot 0.9999 strayed 4e-7 rad from slerp, 1e-4 cm a metre away.
	double diff = 0.0, sum = 0.0;
	for (int i = 0; i < 4; ++i) {
		double d = (double)a[i] - sign * b[i], p = (double)a[i] + sign * b[i];
		diff += d * d, sum += p * p;
	}
	const double theta = 2.0 * sinewi_atan2(sqrt(diff), sqrt(sum));
	double wa = 1.0 - s, wb = s; // (equal keys: the lerp is exact)
	if (theta > 1e-9) {
		const double sin_theta = sinewi_sin(theta);
		wa = sinewi_sin((1.0 - s) * theta) / sin_theta;
		wb = sinewi_sin(s * theta) / sin_theta;
	}
	for (int i = 0; i < 4; ++i) out[i] = wa * a[i] + sign * wb * b[i];
	sinewi_quat_normalize_d(out);
}

void sinewi_sampler_eval(bool rotation, uint32_t interpolation, uint32_t comps, uint32_t n, const float *times,
                         const float *values, double t, double snap, uint32_t *cursor, double *out) {
	const bool cubic = interpolation == SINEW_CURVE_CUBICSPLINE;
	size_t stride = cubic ? 3u * comps : comps, value_offset = cubic ? comps : 0;
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
	const float *vi = values + (size_t)i * stride + value_offset;
	if (i + 1 >= n || times[i] > limit || t - times[i] <= snap || interpolation == SINEW_CURVE_STEP) {
		for (uint32_t c = 0; c < comps; ++c) out[c] = vi[c];
		return;
	}
	const float *vj = values + (size_t)(i + 1) * stride + value_offset;
	double td = (double)times[i + 1] - times[i], s = (t - times[i]) / td;
	if (!cubic) {
		if (rotation) {
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
	if (rotation) sinewi_quat_normalize_d(out);
}

const sinew_curve *sinewi_clip_curve(const sinew_clip *clip, uint32_t target, uint32_t index) {
	for (uint32_t k = 0; k < clip->curve_count; ++k)
		if (clip->curves[k].target == target && clip->curves[k].index == index) return &clip->curves[k];
	return NULL;
}

void sinewi_clip_curves_at(const sinew_clip *clip, double t, sinew_qvv *pose, float *scalars) {
	double v[4];
	for (uint32_t k = 0; k < clip->curve_count; ++k) {
		const sinew_curve *c = &clip->curves[k];
		const uint32_t n = sinewi_curve_components(clip, c);
		if (c->target < 3 && !pose) continue;
		if (c->target == 3 && !scalars) continue;
		sinewi_sampler_eval(c->target == 0, c->interpolation, n, c->key_count, c->times, c->values, t, 0.0, NULL, v);
		float *dst;
		if (c->target == 3) {
			size_t at = 0;
			for (uint32_t i = 0; i < c->index; ++i) at += clip->scalar_tracks[i].components;
			dst = scalars + at;
		} else {
			sinew_qvv *x = &pose[c->index];
			dst = c->target == 0 ? x->rotation : c->target == 1 ? x->translation : x->scale;
		}
		for (uint32_t i = 0; i < n; ++i) dst[i] = to_float(v[i]);
	}
}

static uint8_t effective_rounding(uint8_t own, uint8_t clip) {
	uint8_t r = own == SINEW_ROUNDING_CLIP ? clip : own;
	return r <= SINEW_ROUNDING_NEAREST ? r : SINEW_ROUNDING_NONE;
}

void sinewi_clip_halfway(const sinew_clip *c, uint32_t a, uint32_t b, sinew_qvv *pose, float *scalars) {
	const uint32_t nj = c->joint_count;
	const sinew_qvv *pa = &c->transforms[(size_t)a * nj], *pb = &c->transforms[(size_t)b * nj];
	for (uint32_t j = 0; pose && j < nj; ++j)
		sinewi_qvv_halfway(&pa[j], &pb[j], effective_rounding(c->joints[j].rounding, c->rounding), &pose[j]);
	for (uint32_t i = 0; scalars && i < c->scalar_track_count; ++i) {
		const sinew_scalar_track *t = &c->scalar_tracks[i];
		uint8_t mode = effective_rounding(t->rounding, c->rounding);
		const float *va = t->values + (size_t)a * t->components, *vb = t->values + (size_t)b * t->components;
		for (uint32_t k = 0; k < t->components; ++k)
			*scalars++ = a == b || mode == SINEW_ROUNDING_FLOOR ? va[k]
			             : mode != SINEW_ROUNDING_NONE          ? vb[k]
			                                                    : (float)(0.5 * ((double)va[k] + vb[k]));
	}
}

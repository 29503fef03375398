// sinew — see include/sinew.h for version and licence
// sinew_clip_validate: every way a clip can be unusable gets its own result and a message
// that names the joint/track and sample, so importer bugs and bad files are easy to find.
#include "../core/base.h"
#include "clip_internal.h"

#include <math.h>

#define QUAT_TOLERANCE 1e-3f

static const char *joint_label(const sinew_clip *clip, uint32_t j) {
	const char *name = clip->joints[j].name;
	return name ? name : "(unnamed)";
}

static bool finite3(const float v[3]) {
	return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static sinew_result check_qvv(const sinew_clip *clip, uint32_t j, const sinew_qvv *x, const char *where, uint32_t sample,
                              sinew_error *error) {
	const float *q = x->rotation;
	SINEWI_CHECK(isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) && isfinite(q[3]) && finite3(x->translation) &&
	                 finite3(x->scale),
	             error, SINEW_RESULT_NOT_FINITE, "joint %u '%s': %s at sample %u is not finite", j, joint_label(clip, j),
	             where, sample);
	float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	SINEWI_CHECK(fabsf(len - 1.0f) <= QUAT_TOLERANCE, error, SINEW_RESULT_NOT_UNIT_QUATERNION,
	             "joint %u '%s': %s rotation at sample %u has length %g", j, joint_label(clip, j), where, sample,
	             (double)len);
	return SINEW_RESULT_OK;
}

// Source curves (sinew_curve): a known target and interpolation, an index in range, keys at finite, non-negative,
// non-decreasing times, finite values. (A second curve of the same sub-track is ignored: the first one counts.)
static sinew_result check_curves(const sinew_clip *clip, sinew_error *error) {
	SINEWI_CHECK(clip->curve_count == 0 || clip->curves, error, SINEW_RESULT_BAD_COUNT, "clip has %u curves but no curve array",
	             clip->curve_count);
	for (uint32_t k = 0; k < clip->curve_count; ++k) {
		const sinew_curve *c = &clip->curves[k];
		SINEWI_CHECK(c->target <= 3 && c->interpolation <= SINEW_CURVE_CUBICSPLINE &&
		                 c->index < (c->target == 3 ? clip->scalar_track_count : clip->joint_count),
		             error, SINEW_RESULT_BAD_TRACK, "curve %u: target %u, interpolation %u, index %u out of range", k, c->target,
		             c->interpolation, c->index);
		SINEWI_CHECK(c->key_count >= 1 && c->times && c->values, error, SINEW_RESULT_BAD_TRACK, "curve %u has no keys", k);
		for (uint32_t i = 0; i < c->key_count; ++i)
			SINEWI_CHECK(isfinite(c->times[i]) && c->times[i] >= 0.0f && (i == 0 || c->times[i] >= c->times[i - 1]), error,
			             SINEW_RESULT_BAD_TRACK, "curve %u: key %u at %g s is out of order", k, i, (double)c->times[i]);
		const size_t n = (size_t)c->key_count * sinewi_curve_key_floats(clip, c);
		for (size_t i = 0; i < n; ++i)
			SINEWI_CHECK(isfinite(c->values[i]), error, SINEW_RESULT_NOT_FINITE, "curve %u: value %zu is not finite", k, i);
	}
	return SINEW_RESULT_OK;
}

sinew_result sinew_clip_validate(const sinew_clip *clip, sinew_error *error) {
	SINEWI_CHECK(clip, error, SINEW_RESULT_INVALID_ARGUMENT, "clip is NULL");
	SINEWI_CHECK(clip->sample_count > 0, error, SINEW_RESULT_NO_SAMPLES, "clip '%s' has no samples",
	             clip->name ? clip->name : "");
	SINEWI_CHECK(isfinite(clip->sample_rate) && clip->sample_rate > 0.0, error, SINEW_RESULT_BAD_SAMPLE_RATE,
	             "clip '%s': sample rate %g is not a positive finite number", clip->name ? clip->name : "",
	             clip->sample_rate);
	SINEWI_CHECK(isfinite(clip->unit_scale) && clip->unit_scale > 0.0, error, SINEW_RESULT_BAD_PRECISION,
	             "clip '%s': unit scale %g is not a positive finite number", clip->name ? clip->name : "",
	             clip->unit_scale);
	SINEWI_CHECK(clip->joint_count == 0 || (clip->joints && clip->transforms), error, SINEW_RESULT_BAD_COUNT,
	             "clip has %u joints but no joint or transform array", clip->joint_count);
	SINEWI_CHECK(clip->scalar_track_count == 0 || clip->scalar_tracks, error, SINEW_RESULT_BAD_COUNT,
	             "clip has %u scalar tracks but no track array", clip->scalar_track_count);
	SINEWI_CHECK(clip->joint_count > 0 || clip->scalar_track_count > 0, error, SINEW_RESULT_BAD_COUNT,
	             "clip has neither joints nor scalar tracks");
	SINEWI_CHECK(clip->rounding <= SINEW_ROUNDING_NEAREST, error, SINEW_RESULT_INVALID_ARGUMENT,
	             "clip rounding mode %u is unknown", clip->rounding);

	if (clip->time_mark_count || clip->time_marks) {
		const sinew_time_mark *m = clip->time_marks;
		const uint32_t n = clip->time_mark_count;
		SINEWI_CHECK(m && n >= 2 && n <= clip->sample_count && !clip->looping, error, SINEW_RESULT_BAD_SAMPLE_RATE,
		             "clip '%s': %u time marks for %u samples%s", clip->name ? clip->name : "", n, clip->sample_count,
		             clip->looping ? " (a looping clip has none)" : "");
		for (uint32_t i = 0; i < n; ++i)
			SINEWI_CHECK(isfinite(m[i].time) && m[i].time >= 0.0f &&
			                 (i == 0 ? m[i].sample == 0 : m[i].sample > m[i - 1].sample && m[i].time > m[i - 1].time) &&
			                 (i + 1 < n || m[i].sample == clip->sample_count - 1),
			             error, SINEW_RESULT_BAD_SAMPLE_RATE, "clip '%s': time mark %u (%g s, sample %u) out of order",
			             clip->name ? clip->name : "", i, (double)m[i].time, m[i].sample);
	}
	for (uint32_t j = 0; j < clip->joint_count; ++j) {
		const sinew_joint *joint = &clip->joints[j];
		SINEWI_CHECK(joint->parent >= -1 && joint->parent < (int32_t)j, error, SINEW_RESULT_BAD_PARENT,
		             "joint %u '%s': parent %d does not come before it", j, joint_label(clip, j), joint->parent);
		SINEWI_CHECK(isfinite(joint->shell_distance) && joint->shell_distance >= 0.0f, error, SINEW_RESULT_BAD_PRECISION,
		             "joint %u '%s': shell distance %g is not a positive finite number", j, joint_label(clip, j),
		             (double)joint->shell_distance);
		SINEWI_CHECK(isfinite(joint->precision) && joint->precision >= 0.0f, error, SINEW_RESULT_BAD_PRECISION,
		             "joint %u '%s': precision %g is not a positive finite number", j, joint_label(clip, j),
		             (double)joint->precision);
		SINEWI_CHECK(joint->rounding <= SINEW_ROUNDING_NEAREST || joint->rounding == SINEW_ROUNDING_CLIP, error,
		             SINEW_RESULT_INVALID_ARGUMENT, "joint %u '%s': rounding mode %u is unknown", j,
		             joint_label(clip, j), joint->rounding);
		SINEWI_TRY(check_qvv(clip, j, &joint->default_pose, "default pose", 0, error));
	}
	for (uint32_t s = 0; clip->joint_count > 0 && s < clip->sample_count; ++s) {
		const sinew_qvv *pose = clip->transforms + (size_t)s * clip->joint_count;
		for (uint32_t j = 0; j < clip->joint_count; ++j) SINEWI_TRY(check_qvv(clip, j, &pose[j], "transform", s, error));
	}
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *t = &clip->scalar_tracks[i];
		const char *name = t->name ? t->name : "(unnamed)";
		SINEWI_CHECK(t->components >= 1 && t->components <= 4, error, SINEW_RESULT_BAD_TRACK,
		             "scalar track %u '%s': %u components (must be 1..4)", i, name, t->components);
		SINEWI_CHECK(t->values, error, SINEW_RESULT_BAD_TRACK, "scalar track %u '%s' has no values", i, name);
		SINEWI_CHECK(isfinite(t->precision) && t->precision >= 0.0f, error, SINEW_RESULT_BAD_PRECISION,
		             "scalar track %u '%s': precision %g is not a positive finite number", i, name, (double)t->precision);
		SINEWI_CHECK(t->rounding <= SINEW_ROUNDING_NEAREST || t->rounding == SINEW_ROUNDING_CLIP, error,
		             SINEW_RESULT_INVALID_ARGUMENT, "scalar track %u '%s': rounding mode %u is unknown", i, name,
		             t->rounding);
		for (uint32_t c = 0; c < t->components; ++c)
			SINEWI_CHECK(isfinite(t->default_value[c]), error, SINEW_RESULT_NOT_FINITE,
			             "scalar track %u '%s': default value component %u is not finite", i, name, c);
		for (uint32_t s = 0; s < clip->sample_count; ++s)
			for (uint32_t c = 0; c < t->components; ++c)
				SINEWI_CHECK(isfinite(t->values[(size_t)s * t->components + c]), error, SINEW_RESULT_NOT_FINITE,
				             "scalar track %u '%s': component %u at sample %u is not finite", i, name, c, s);
	}
	return check_curves(clip, error);
}

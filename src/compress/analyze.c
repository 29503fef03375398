// sinew — see include/sinew.h for version and licence
// Clip analysis: prepares samples (continuous rotations, loop wrap), computes each joint's
// dominant shell and error budget, classifies sub-tracks as identity/default/constant/animated
// with the object-space error model, computes clip ranges, then runs the segment search.
#include "../core/bits.h"
#include "../core/codec_math.h"
#include "../core/elementary.h"
#include "../core/metric.h"
#include "compress_work.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sinewi_compress_settings_resolve(const sinew_compress_options *options, sinewi_compress_settings *out) {
	sinew_compress_options defaults = {0};
	if (!options) options = &defaults;
	out->error_cm = options->error_cm > 0.0 ? options->error_cm : SINEW_DEFAULT_ERROR_CM;
	out->shell_cm = options->shell_cm > 0.0 ? options->shell_cm : SINEW_DEFAULT_SHELL_CM;
	// Midpoint knots make a segment's fixed cost larger (5-byte track descriptors) and its knots cheaper
	// in a way that does not grow with the segment's range (residuals): longer segments pay then.
	// Measured on ACL's clips (24 Hz) and CMU mocap (120 Hz): 40 beats 32 and 48 with, 32 without.
	out->midpoint = options->midpoint_knots >= 0; // 0: the default, on
	out->segment_length = options->segment_length ? options->segment_length
	                      : out->midpoint       ? SINEWI_MIDPOINT_SEGMENT_LENGTH
	                                            : SINEWI_PLAIN_SEGMENT_LENGTH;
	if (out->segment_length > 1024) out->segment_length = 1024;
	out->level = options->level ? options->level : SINEW_LEVEL_DEFAULT;
	out->allow_over_bound = options->allow_over_bound != 0;
	out->rig = options->strip_metadata == SINEW_STRIP_ALL || options->strip_metadata == SINEW_STRIP_TO_SOURCES
	               ? options->strip_metadata
	               : SINEW_STRIP_NONE;
	out->rest_defaults = out->rig != SINEW_STRIP_ALL;
	out->loses_to = 0;
	out->replay = NULL;
	out->short_constants = false; // (encode_clip sets it per encoding)
	out->jobs = options->jobs && options->jobs->run ? options->jobs : NULL;
	out->scratch = NULL; // compress.c gives each clip one
	out->max_decimation = out->level == SINEW_LEVEL_FAST ? 0 : SINEWI_MAX_DECIMATION;
	out->tier_count = 1;
	out->tier_factor[0] = 1.0;
	if (options->tier_count >= 2 && options->tier_count <= SINEW_MAX_TIERS) {
		const double last = options->tier_error_cm[options->tier_count - 1];
		if (!(options->error_cm > 0.0) && last > 0.0) out->error_cm = last;
		out->tier_count = options->tier_count;
		for (uint32_t k = 0; k < out->tier_count; ++k) out->tier_factor[k] = options->tier_error_cm[k] / out->error_cm;
	}
}

// Rotation model: a rotation off by angle a moves a point at distance r by 2 r sin(a/2) (sinewi_rotation_chord).
static double vec_error(const float a[3], const float b[3]) {
	double x = (double)a[0] - b[0], y = (double)a[1] - b[1], z = (double)a[2] - b[2];
	return sqrt(x * x + y * y + z * z);
}

static double vec_max_abs_diff(const float a[3], const float b[3]) {
	double m = 0;
	for (int c = 0; c < 3; ++c) {
		double d = fabs((double)a[c] - b[c]);
		if (d > m) m = d;
	}
	return m;
}

// Error (object-space model) of replacing sub-track `kind` of joint j by value v over the clip; stops at
// the first sample over `budget` (the caller only needs to know that it does not fit) and returns that
// sample's error.
static double replace_error(const sinewi_work *w, uint32_t j, int sub, const sinew_qvv *v, double budget) {
	double worst = 0;
	const uint32_t nj = w->joint_count;
	// the chord is symmetric to the last bit: the candidate is normalized once
	double vn[4] = {v->rotation[0], v->rotation[1], v->rotation[2], v->rotation[3]};
	sinewi_quat_normalize_d(vn);
	for (uint32_t s = 0; s < w->stored; ++s) {
		const sinew_qvv *x = &w->poses[(size_t)s * nj + j];
		double e;
		if (sub == SINEWI_TRACK_ROTATION)
			e = sinewi_rotation_chord_n(vn, x->rotation) * (w->lever[j] * w->max_scale[j]);
		else if (sub == SINEWI_TRACK_TRANSLATION)
			e = vec_error(x->translation, v->translation);
		else
			e = vec_max_abs_diff(x->scale, v->scale) * w->lever[j];
		e *= w->parent_gain[j];
		if (e > budget) return e; // (a NaN is passed over, as the maximum below does)
		if (e > worst) worst = e;
	}
	return worst;
}

static bool equal_bits(const float *a, const float *b, size_t n) {
	return memcmp(a, b, n * sizeof(float)) == 0;
}

static void prepare_samples(sinewi_work *w, sinewi_clip_prep *prep) {
	const sinew_clip *clip = w->clip;
	const uint32_t nj = clip->joint_count, n = clip->sample_count;
	prep->looping = clip->looping != 0;
	prep->sample_count = n;
	prep->stored = n;
	if (clip->looping) {
		// A loop whose last sample repeats the first drops it: wrap sampling reproduces it.
		bool repeats = n > 1 && (nj == 0 || equal_bits(&clip->transforms[0].rotation[0], &clip->transforms[(size_t)(n - 1) * nj].rotation[0],
		                                   (size_t)nj * 10));
		for (uint32_t i = 0; repeats && i < clip->scalar_track_count; ++i) {
			const sinew_scalar_track *t = &clip->scalar_tracks[i];
			repeats = equal_bits(t->values, t->values + (size_t)(n - 1) * t->components, t->components);
		}
		if (repeats) prep->sample_count = n - 1;
		prep->stored = prep->sample_count + 1;
	}
	w->stored = prep->stored;
	for (uint32_t s = 0; nj > 0 && s < w->stored; ++s) {
		uint32_t src = s < n ? s : 0; // the wrap sample is a copy of sample 0
		if (s == prep->sample_count && prep->looping) src = 0;
		memcpy(&w->poses[(size_t)s * nj], &clip->transforms[(size_t)src * nj], nj * sizeof(sinew_qvv));
	}
	// Normalize and make every rotation track continuous (q and -q are the same rotation;
	// interpolation takes the shortest arc, so flipping changes nothing a user can see).
	for (uint32_t j = 0; j < nj; ++j) {
		for (uint32_t s = 0; s < w->stored; ++s) {
			float *q = w->poses[(size_t)s * nj + j].rotation;
			sinewi_quat_normalize(q);
			if (s > 0 && sinewi_quat_dot(q, w->poses[(size_t)(s - 1) * nj + j].rotation) < 0.0f)
				q[0] = -q[0], q[1] = -q[1], q[2] = -q[2], q[3] = -q[3];
		}
	}
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *t = &clip->scalar_tracks[i];
		for (uint32_t s = 0; s < w->stored; ++s) {
			uint32_t src = (s == prep->sample_count && prep->looping) ? 0 : s;
			memcpy(&w->scalars[i][(size_t)s * t->components], &t->values[(size_t)src * t->components],
			       t->components * sizeof(float));
		}
	}
}

// The per-track error model (the segment search verifies exactly afterwards). Shells are fixed at rest
// (DESIGN §4): joint j's shell points sit at local offsets shell_off along its axes (its shell distance
// over the rest length of each axis), in its own coordinates before its scale applies, and animation
// moves them. A local change maps to object space through the ancestors' scales: parent_gain bounds
// that map from above.
static bool compute_levers(sinewi_work *w) {
	const sinew_clip *clip = w->clip;
	const uint32_t nj = w->joint_count;
	const double unit = clip->unit_scale;
	const double default_threshold = sinewi_cm_to_units(w->settings->error_cm, unit);
	const double default_shell = sinewi_cm_to_units(w->settings->shell_cm, unit);
	double *max_translation = (double *)sinewi_arena_array(w->arena, nj ? nj : 1, sizeof(double));
	uint32_t *height = (uint32_t *)sinewi_arena_array(w->arena, nj ? nj : 1, sizeof(uint32_t));
	uint32_t *depth = (uint32_t *)sinewi_arena_array(w->arena, nj ? nj : 1, sizeof(uint32_t));
	if (!max_translation || !height || !depth) return false;
	const bool checks = clip->check_count && clip->check_times && clip->check_transforms;
	if (!sinewi_shell_offsets(clip->joints, nj, default_shell, clip->transforms, clip->sample_count,
	                          checks ? clip->check_transforms : NULL, checks ? clip->check_count : 0, &w->arena->alloc,
	                          w->shell_off))
		return false;
	for (uint32_t j = 0; j < nj; ++j) {
		const sinew_joint *joint = &clip->joints[j];
		w->threshold[j] = joint->precision > 0.0f ? joint->precision : default_threshold;
		// the float32 representation of the samples against the source curves (clip->float_error), once for the
		// reference and once for what the decoder's float32 pose adds on top, out of the budget (at most half)
		if (clip->float_error > 0.0) w->threshold[j] = sinewi_fmax(w->threshold[j] - 2.0 * clip->float_error, 0.5 * w->threshold[j]);
		w->shell[j] = joint->shell_distance > 0.0f ? joint->shell_distance : default_shell;
		w->shells_f[j] = (float)w->shell[j];
		uint8_t r = joint->rounding == SINEW_ROUNDING_CLIP ? clip->rounding : joint->rounding;
		w->rounding_mode[j] = r <= SINEW_ROUNDING_NEAREST ? r : SINEW_ROUNDING_NONE;
		double ms = 0, mt = 0;
		for (uint32_t s = 0; s < w->stored; ++s) {
			const sinew_qvv *x = &w->poses[(size_t)s * nj + j];
			for (int c = 0; c < 3; ++c)
				if (fabs(x->scale[c]) > ms) ms = fabs(x->scale[c]);
			double t = sqrt((double)x->translation[0] * x->translation[0] + (double)x->translation[1] * x->translation[1] +
			                (double)x->translation[2] * x->translation[2]);
			if (t > mt) mt = t;
		}
		w->max_scale[j] = ms;
		max_translation[j] = mt;
		height[j] = 1;
	}
	for (uint32_t j = 0; j < nj; ++j) {
		int32_t p = clip->joints[j].parent;
		w->parent_gain[j] = p < 0 ? 1.0 : w->parent_gain[p] * w->max_scale[p];
		depth[j] = p < 0 ? 1 : depth[p] + 1;
		const double *off = w->shell_off + 3 * (size_t)j;
		w->lever[j] = sinewi_fmax(off[0], sinewi_fmax(off[1], off[2])); // own shell points, in the joint's coordinates
	}
	// Leaf to root: a child's shell points sit at most |t_c| + max|S_c| * lever_c from the parent.
	for (uint32_t j = nj; j-- > 0;) {
		int32_t p = clip->joints[j].parent;
		if (p < 0) continue;
		double reach = max_translation[j] + w->max_scale[j] * w->lever[j];
		if (reach > w->lever[p]) w->lever[p] = reach;
		if (height[j] + 1 > height[p]) height[p] = height[j] + 1;
	}
	// Errors along a chain add up, partly cancelling: start each joint at 1/sqrt(chain length)
	// of the threshold; the segment search tightens where the object-space check needs it.
	for (uint32_t j = 0; j < nj; ++j) w->rho[j] = 1.0 / sqrt((double)(depth[j] + height[j] - 1));
	return true;
}

static void midrange(const sinewi_work *w, uint32_t j, int sub, float out[3]) {
	const uint32_t nj = w->joint_count;
	for (int c = 0; c < 3; ++c) {
		float lo = INFINITY, hi = -INFINITY;
		for (uint32_t s = 0; s < w->stored; ++s) {
			const sinew_qvv *x = &w->poses[(size_t)s * nj + j];
			float v = sub == SINEWI_TRACK_TRANSLATION ? x->translation[c] : x->scale[c];
			if (v < lo) lo = v;
			if (v > hi) hi = v;
		}
		out[c] = (float)(((double)lo + (double)hi) * 0.5);
	}
}

static void mean_rotation(const sinewi_work *w, uint32_t j, float out[4]) {
	const uint32_t nj = w->joint_count;
	double acc[4] = {0, 0, 0, 0};
	for (uint32_t s = 0; s < w->stored; ++s)
		for (int c = 0; c < 4; ++c) acc[c] += w->poses[(size_t)s * nj + j].rotation[c];
	sinewi_quat_normalize_d(acc);
	for (int c = 0; c < 4; ++c) out[c] = (float)acc[c];
}

// Short_constants (docs/format.md): x rounded to the nearest value whose low 8 bits are zero, so its
// high 3 bytes hold it exactly (relative error at most 2^-16); x cut instead when rounding up would
// overflow.
static float short_constant(float x) {
	uint32_t u;
	memcpy(&u, &x, 4);
	float f;
	uint32_t r = (u + 0x80u) & 0xFFFFFF00u;
	memcpy(&f, &r, 4);
	if (isfinite(f)) return f;
	r = u & 0xFFFFFF00u;
	memcpy(&f, &r, 4);
	return f;
}

static void short_constants(float *v, uint32_t n, bool on) {
	for (uint32_t c = 0; on && c < n; ++c) v[c] = short_constant(v[c]);
}

// A constant rotation is stored as its three smallest components (rounded to 24 bits with `short_values`);
// returns the index of the largest (rebuilt by the decoder) and replaces q by exactly what the
// decoder will produce.
static uint8_t compact_rotation(float q[4], bool short_values) {
	uint32_t big = 0;
	for (uint32_t c = 1; c < 4; ++c)
		if (fabsf(q[c]) > fabsf(q[big])) big = c;
	float sign = q[big] < 0.0f ? -1.0f : 1.0f, stored[3];
	for (uint32_t c = 0, k = 0; c < 4; ++c)
		if (c != big) stored[k++] = q[c] * sign;
	short_constants(stored, 3, short_values);
	sinewi_quat_from_three(stored, big, q);
	return (uint8_t)big;
}

// replace_error of one candidate through its memo (sinewi_joint_candidates): a full maximum answers any
// budget, and an error over an earlier budget answers every budget below it. Whether it fits a budget
// is what replace_error would say; the value returned is replace_error's whenever it fits.
static double memo_replace_error(const sinewi_work *w, uint32_t j, int sub, const sinew_qvv *v, double budget, double *value,
                                 uint8_t *state) {
	if (*state == SINEWI_MEMO_MAX || (*state == SINEWI_MEMO_OVER && budget < *value)) return *value;
	const double e = replace_error(w, j, sub, v, budget);
	if (e <= budget) *value = e, *state = SINEWI_MEMO_MAX; // no sample was over it: the maximum over all
	else if (e > budget) *value = e, *state = SINEWI_MEMO_OVER;
	return e;
}

// The candidates of joint j that no encoding changes, once per clip: the default pose (normalized, its
// rotation as the decoder rebuilds it), the mean rotation and the midrange translation and scale.
static sinewi_joint_candidates *joint_candidates(const sinewi_work *w, uint32_t j) {
	sinewi_joint_candidates *c = &w->candidates[j];
	if (c->ready) return c;
	c->def = w->clip->joints[j].default_pose;
	if (w->settings->rest_defaults) { // the rig's rest value, played as it is (docs/format.md §rest pose)
		c->drop_def = 0;
	} else { // stored like a constant: three components, the fourth rebuilt
		sinewi_quat_normalize(c->def.rotation);
		c->drop_def = compact_rotation(c->def.rotation, false);
	}
	mean_rotation(w, j, c->mean_rotation);
	midrange(w, j, SINEWI_TRACK_TRANSLATION, c->mid_translation);
	midrange(w, j, SINEWI_TRACK_SCALE, c->mid_scale);
	c->ready = 1;
	return c;
}

// Each sub-track takes the first of identity, default and constant whose replacement error fits the
// joint's share (the candidates are computed once per clip, and a candidate is measured only when the
// ones before it do not fit, through its memo: the clip's encodings and classification attempts share
// the measurements).
static void classify_joints(sinewi_work *w) {
	sinewi_enc_clip *enc = w->enc;
	const uint32_t nj = w->joint_count;
	const bool short_values = w->settings->short_constants;
	for (uint32_t j = 0; j < nj; ++j) {
		sinewi_joint_candidates *cand = joint_candidates(w, j);
		double budget = w->threshold[j] * w->rho[j] * w->class_fraction;
		w->const_error[j] = 0;
		sinew_qvv *cv = &enc->constants[j];
		sinewi_qvv_identity(cv);
		sinew_qvv identity, constant;
		const sinew_qvv *def = &cand->def;
		sinewi_qvv_identity(&identity);
		// Short_constants rounds constants to 24 bits; defaults stay f32 (the default pose exactly: a
		// decoder may skip them)
		memcpy(constant.rotation, cand->mean_rotation, sizeof constant.rotation);
		memcpy(constant.translation, cand->mid_translation, sizeof constant.translation);
		memcpy(constant.scale, cand->mid_scale, sizeof constant.scale);
		uint8_t drop_const = compact_rotation(constant.rotation, short_values);
		short_constants(constant.translation, 3, short_values), short_constants(constant.scale, 3, short_values);
		const int crow = short_values ? 3 : 2; // the memo row of this encoding's constant
		for (int sub = 0; sub < 3; ++sub) {
			double e;
			uint8_t kind;
			const sinew_qvv *value;
			// with rest defaults the rest value costs nothing and leaves a node at rest out of the clip: it comes first
			if (w->settings->rest_defaults &&
			    (e = memo_replace_error(w, j, sub, def, budget, &cand->error[1][sub], &cand->state[1][sub])) <= budget)
				kind = SINEWI_KIND_DEFAULT, value = def;
			else if ((e = memo_replace_error(w, j, sub, &identity, budget, &cand->error[0][sub], &cand->state[0][sub])) <= budget)
				kind = SINEWI_KIND_IDENTITY, value = &identity;
			else if (!w->settings->rest_defaults &&
			         (e = memo_replace_error(w, j, sub, def, budget, &cand->error[1][sub], &cand->state[1][sub])) <= budget)
				kind = SINEWI_KIND_DEFAULT, value = def;
			else if ((e = memo_replace_error(w, j, sub, &constant, budget, &cand->error[crow][sub], &cand->state[crow][sub])) <= budget)
				kind = SINEWI_KIND_CONSTANT, value = &constant;
			else kind = SINEWI_KIND_ANIMATED, e = 0, value = &identity;
			enc->joint_kinds[(size_t)j * 3 + sub] = kind;
			w->const_error[j] += e;
			if (sub == SINEWI_TRACK_ROTATION) {
				memcpy(cv->rotation, value->rotation, sizeof cv->rotation);
				enc->constant_dropped[j] = kind == SINEWI_KIND_DEFAULT ? cand->drop_def : (kind == SINEWI_KIND_CONSTANT ? drop_const : 0);
			}
			else if (sub == SINEWI_TRACK_TRANSLATION) memcpy(cv->translation, value->translation, sizeof cv->translation);
			else memcpy(cv->scale, value->scale, sizeof cv->scale);
		}
	}
}

static void classify_scalars(sinewi_work *w) {
	const sinew_clip *clip = w->clip;
	sinewi_enc_clip *enc = w->enc;
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *t = &clip->scalar_tracks[i];
		const uint32_t nc = t->components;
		double precision = t->precision > 0.0f ? t->precision : 1e-4;
		float lo[4], hi[4], mid[4], zero[4] = {0, 0, 0, 0};
		bool has_zero[4] = {false, false, false, false};
		for (uint32_t c = 0; c < nc; ++c) lo[c] = INFINITY, hi[c] = -INFINITY;
		for (uint32_t s = 0; s < w->stored; ++s)
			for (uint32_t c = 0; c < nc; ++c) {
				float v = w->scalars[i][(size_t)s * nc + c];
				if (v < lo[c]) lo[c] = v;
				if (v > hi[c]) hi[c] = v;
				if (v == 0.0f) has_zero[c] = true;
			}
		for (uint32_t c = 0; c < nc; ++c) mid[c] = (float)(((double)lo[c] + (double)hi[c]) * 0.5);
		short_constants(mid, nc, w->settings->short_constants); // Short_constants: constants (not defaults) in 24 bits
		// A candidate value fits when every sample is within precision and exact zeros stay zero.
		// (with rest defaults the rest value first: it costs nothing and leaves the track out of the clip)
		const bool rest = w->settings->rest_defaults;
		const float *candidates[3] = {rest ? t->default_value : zero, rest ? zero : t->default_value, mid};
		uint8_t kinds[3] = {rest ? SINEWI_KIND_DEFAULT : SINEWI_KIND_IDENTITY, rest ? SINEWI_KIND_IDENTITY : SINEWI_KIND_DEFAULT,
		                    SINEWI_KIND_CONSTANT};
		enc->scalar_kinds[i] = SINEWI_KIND_ANIMATED;
		for (int k = 0; k < 3; ++k) {
			bool fits = true;
			for (uint32_t c = 0; c < nc && fits; ++c) {
				float v = candidates[k][c];
				fits = fabs((double)hi[c] - v) <= precision && fabs((double)lo[c] - v) <= precision &&
				       (!has_zero[c] || lo[c] < 0.0f || v == 0.0f);
			}
			if (fits) {
				enc->scalar_kinds[i] = kinds[k];
				memcpy(enc->scalar_constants[i], candidates[k], nc * sizeof(float));
				break;
			}
		}
	}
}

// Chooses, per rotation track and segment, the component to drop (largest magnitude over the
// segment) and flips samples so it is non-negative; stores the choice in the segment tracks.
static void choose_dropped(sinewi_work *w, uint32_t track_index, uint32_t joint) {
	const uint32_t nj = w->joint_count;
	sinewi_enc_clip *enc = w->enc;
	for (uint32_t s = 0; s < enc->segment_count; ++s) {
		const sinewi_enc_segment *seg = &enc->segments[s];
		float best = -1.0f;
		uint32_t drop = 3;
		for (uint32_t c = 0; c < 4; ++c) {
			float m = INFINITY;
			for (uint32_t u = 0; u <= seg->length; ++u) {
				float v = fabsf(w->poses[(size_t)(seg->first_sample + u) * nj + joint].rotation[c]);
				if (v < m) m = v;
			}
			if (m > best) best = m, drop = c;
		}
		seg->tracks[track_index].dropped = (uint8_t)drop;
		seg->tracks[track_index].chosen_dropped = (uint8_t)drop;
	}
}

// Value of animated track `t` at stored sample `s` in the representation it is stored in
// (rotations: sign chosen for segment `seg` so the dropped component is non-negative).
static void stored_value(const sinewi_work *w, const sinewi_enc_track *t, uint32_t dropped, uint32_t s, float out[4]) {
	const uint32_t nj = w->joint_count;
	if (t->type == SINEWI_TRACK_SCALAR) {
		const uint32_t nc = t->components;
		memcpy(out, &w->scalars[t->index][(size_t)s * nc], nc * sizeof(float));
		return;
	}
	const sinew_qvv *x = &w->poses[(size_t)s * nj + t->index];
	if (t->type == SINEWI_TRACK_ROTATION) {
		float sign = x->rotation[dropped] < 0.0f ? -1.0f : 1.0f;
		for (int c = 0; c < 4; ++c) out[c] = x->rotation[c] * sign;
	} else {
		memcpy(out, t->type == SINEWI_TRACK_TRANSLATION ? x->translation : x->scale, 3 * sizeof(float));
	}
}

void sinewi_stored_value(const sinewi_work *w, const sinewi_enc_track *t, uint32_t dropped, uint32_t s, float out[4]);
void sinewi_stored_value(const sinewi_work *w, const sinewi_enc_track *t, uint32_t dropped, uint32_t s, float out[4]) {
	stored_value(w, t, dropped, s, out);
}

static void clip_ranges(sinewi_work *w) {
	sinewi_enc_clip *enc = w->enc;
	for (uint32_t i = 0; i < enc->track_count; ++i) {
		sinewi_enc_track *t = &enc->tracks[i];
		float lo[4] = {INFINITY, INFINITY, INFINITY, INFINITY}, hi[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
		for (uint32_t sg = 0; sg < enc->segment_count; ++sg) {
			const sinewi_enc_segment *seg = &enc->segments[sg];
			for (uint32_t u = 0; u <= seg->length; ++u) {
				float v[4];
				stored_value(w, t, seg->tracks[i].dropped, seg->first_sample + u, v);
				for (uint32_t c = 0; c < t->range_components; ++c) {
					if (v[c] < lo[c]) lo[c] = v[c];
					if (v[c] > hi[c]) hi[c] = v[c];
				}
			}
		}
		for (uint32_t c = 0; c < t->range_components; ++c) {
			t->clip_min[c] = lo[c];
			// extent rounded up so cmin + cext covers the max in float arithmetic
			float ext = (float)((double)hi[c] - (double)lo[c]);
			while (lo[c] + ext < hi[c]) ext = sinewi_next_up(ext);
			t->clip_ext[c] = ext;
		}
	}
}

// Clip ranges as 16-bit values (docs/format.md, Half_ranges: the high half of an f32, bfloat16) halve
// their bytes; the range widens a little (minimum rounded down, extent up until it covers the maximum
// in float arithmetic), which can cost knot bits, so the clip uses them when the estimate of those bits
// (log2 of the widening per knot of each component, a component that was exactly constant paying 8
// bits per knot) is below the 32 bits saved per stored minimum and extent.
static float bits_float(uint32_t u) {
	float f;
	memcpy(&f, &u, 4);
	return f;
}

// The 16-bit value next to x in the direction of +infinity (up) or -infinity (down), x itself when it
// is one; false when that is not finite.
static bool short_round(float x, bool up, float *out) {
	uint32_t u;
	memcpy(&u, &x, 4);
	if (x == 0.0f) u = 0; // -0 and +0 are the same range value
	bool away = (u & 0xFFFFu) && (up == !(u >> 31)); // magnitude up: positive up, negative down
	u = (u & 0xFFFF0000u) + (away ? 0x10000u : 0u);
	*out = bits_float(u);
	return isfinite(*out);
}

// The 16-bit range covering [lo, lo + ext]; false when it would not be finite.
bool sinewi_half_range(float lo, float ext, float *out_lo, float *out_ext) {
	const float hi = lo + ext;
	float flo, fext;
	if (!short_round(lo, false, &flo) || !short_round((float)((double)hi - (double)flo), true, &fext)) return false;
	if (fext < 0.0f) fext = 0.0f;
	while (flo + fext < hi)
		if (!short_round(sinewi_next_up(fext), true, &fext)) return false;
	*out_lo = flo, *out_ext = fext;
	return true;
}

// Bounds of log2 x (x > 0, finite) without libm: 1 - 1/x <= ln x <= x - 1, and x's binary exponent e
// (x = m 2^e, m in [1/2, 1): e - 1 <= log2 x < e).
static void log2_bounds(double x, double *lo, double *hi) {
	const double inv_ln2 = 1.4426950408889634;
	*lo = (1.0 - 1.0 / x) * inv_ln2, *hi = (x - 1.0) * inv_ln2;
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	const int biased = (int)((u >> 52) & 0x7ffu);
	if (biased == 0 || biased == 0x7ff) return; // subnormal or not finite: the first bounds only
	const double e = (double)(biased - 1022);
	if (e - 1.0 > *lo) *lo = e - 1.0;
	if (e < *hi) *hi = e;
}

// The estimate's sum of log2 is decided from bounds where they settle it (log2_bounds, with room for the
// rounding of the exact sum), and summed exactly only where they do not: the same choice, without
// libm's log2 in the common case (the bits a clip's ranges cost are far from the bits they save).
static void choose_half_ranges(sinewi_work *w) {
	sinewi_enc_clip *enc = w->enc;
	enc->half_ranges = 0;
	double low = 0.0, high = 0.0, spread = 0.0, fixed = 0.0, saved = 0.0;
	const double knots = enc->stored_sample_count;
	for (uint32_t i = 0; i < enc->track_count; ++i) {
		const sinewi_enc_track *t = &enc->tracks[i];
		for (uint32_t c = 0; c < t->range_components; ++c) {
			float flo, fext;
			if (!sinewi_half_range(t->clip_min[c], t->clip_ext[c], &flo, &fext)) return;
			if (t->clip_ext[c] > 0.0f) {
				double lo, hi;
				log2_bounds((double)fext / (double)t->clip_ext[c], &lo, &hi);
				low += knots * lo, high += knots * hi, spread += knots * (fabs(lo) + fabs(hi));
			} else if (fext > 0.0f || flo != t->clip_min[c]) {
				fixed += knots * 8.0;
			}
			saved += 32.0;
		}
	}
	const double room = 1e-6 * (spread + fixed + saved + 1.0);
	bool half = fixed + high + room < saved;
	if (!half && !(fixed + low - room >= saved)) { // undecided: the exact sum, in the order it always took
		double cost = 0.0;
		for (uint32_t i = 0; i < enc->track_count; ++i) {
			const sinewi_enc_track *t = &enc->tracks[i];
			for (uint32_t c = 0; c < t->range_components; ++c) {
				float flo, fext;
				sinewi_half_range(t->clip_min[c], t->clip_ext[c], &flo, &fext);
				if (t->clip_ext[c] > 0.0f) cost += knots * sinewi_log2((double)fext / (double)t->clip_ext[c]);
				else if (fext > 0.0f || flo != t->clip_min[c]) cost += knots * 8.0;
			}
		}
		half = cost < saved;
	}
	if (!half) return;
	enc->half_ranges = 1;
	for (uint32_t i = 0; i < enc->track_count; ++i) {
		sinewi_enc_track *t = &enc->tracks[i];
		for (uint32_t c = 0; c < t->range_components; ++c) sinewi_half_range(t->clip_min[c], t->clip_ext[c], &t->clip_min[c], &t->clip_ext[c]);
	}
}

// The clip's samples and per-joint model in w (for sinewi_prepare_clip).
static sinew_result allocate_prep(sinewi_work *w, sinew_error *error) {
	const sinew_clip *clip = w->clip;
	sinewi_arena *a = w->arena;
	const uint32_t nj = clip->joint_count, nt = clip->scalar_track_count;
	const size_t njx = nj ? nj : 1, ntx = nt ? nt : 1;
	size_t stored = (size_t)clip->sample_count + 1, cells;
	SINEWI_CHECK(sinewi_mul_size(stored, njx, &cells), error, SINEW_RESULT_OUT_OF_MEMORY, "clip too large");
	w->poses = (sinew_qvv *)sinewi_arena_array(a, cells, sizeof(sinew_qvv));
	w->scalars = (float **)sinewi_arena_array(a, ntx, sizeof(float *));
	double **fields[] = {&w->threshold, &w->shell, &w->lever, &w->max_scale, &w->parent_gain, &w->rho};
	for (size_t f = 0; f < sizeof fields / sizeof fields[0]; ++f) {
		*fields[f] = (double *)sinewi_arena_array(a, njx, sizeof(double));
		SINEWI_CHECK(*fields[f], error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	w->shells_f = (float *)sinewi_arena_array(a, njx, sizeof(float));
	w->shell_off = (double *)sinewi_arena_array(a, njx * 3, sizeof(double));
	w->rounding_mode = (uint8_t *)sinewi_arena_array(a, njx, 1);
	w->candidates = (sinewi_joint_candidates *)sinewi_arena_array(a, njx, sizeof(sinewi_joint_candidates));
	w->raw_cache = (sinewi_raw_cache *)sinewi_arena_alloc(a, sizeof(sinewi_raw_cache));
	SINEWI_CHECK(w->poses && w->scalars && w->shells_f && w->shell_off && w->rounding_mode && w->candidates && w->raw_cache, error,
	             SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	w->raw_cache->extent = -1.0;
	for (uint32_t i = 0; i < nt; ++i) {
		w->scalars[i] = (float *)sinewi_arena_array(a, stored, clip->scalar_tracks[i].components * sizeof(float));
		SINEWI_CHECK(w->scalars[i], error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	return SINEW_RESULT_OK;
}

sinew_result sinewi_prepare_clip(const sinew_clip *clip, const sinewi_compress_settings *settings, sinewi_arena *arena,
                                 sinewi_clip_prep *prep, sinew_error *error) {
	memset(prep, 0, sizeof *prep);
	sinewi_work w;
	memset(&w, 0, sizeof w);
	w.clip = clip;
	w.settings = settings;
	w.arena = arena;
	w.joint_count = clip->joint_count;
	SINEWI_TRY(allocate_prep(&w, error));
	prepare_samples(&w, prep);
	SINEWI_CHECK(compute_levers(&w), error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	prep->poses = w.poses, prep->scalars = w.scalars;
	prep->threshold = w.threshold, prep->shell = w.shell, prep->shell_off = w.shell_off, prep->lever = w.lever;
	prep->max_scale = w.max_scale, prep->parent_gain = w.parent_gain, prep->rho = w.rho;
	prep->shells_f = w.shells_f, prep->rounding_mode = w.rounding_mode, prep->candidates = w.candidates;
	prep->raw_cache = w.raw_cache;
	if (clip->sample_count <= SINEWI_SHORT_CLIP_SAMPLES && clip->joint_count) // (each kept where a search first asks)
		prep->fits = (struct sinewi_fit_memo **)sinewi_arena_array(arena, (size_t)clip->joint_count * 3, sizeof *prep->fits);
	return SINEW_RESULT_OK;
}

// One encoding's arrays (the clip's prepared samples and model are shared: sinewi_prepare_clip).
static sinew_result allocate(sinewi_work *w, sinew_error *error) {
	const sinew_clip *clip = w->clip;
	sinewi_arena *a = w->arena;
	const uint32_t nj = clip->joint_count, nt = clip->scalar_track_count;
	const size_t njx = nj ? nj : 1, ntx = nt ? nt : 1;
	sinewi_enc_clip *enc = w->enc;
	w->const_error = (double *)sinewi_arena_array(a, njx, sizeof(double));
	enc->joint_kinds = (uint8_t *)sinewi_arena_array(a, njx * 3, 1);
	enc->scalar_kinds = (uint8_t *)sinewi_arena_array(a, ntx, 1);
	enc->constants = (sinew_qvv *)sinewi_arena_array(a, njx, sizeof(sinew_qvv));
	enc->constant_dropped = (uint8_t *)sinewi_arena_array(a, njx, 1);
	enc->scalar_constants = (float(*)[4])sinewi_arena_array(a, ntx, sizeof(float[4]));
	for (int sub = 0; sub < 3; ++sub) enc->joint_track[sub] = (int32_t *)sinewi_arena_array(a, njx, sizeof(int32_t));
	enc->scalar_track = (int32_t *)sinewi_arena_array(a, ntx, sizeof(int32_t));
	// (list_tracks clears each track it lists: only those are touched, a short list of a large skeleton)
	enc->tracks = (sinewi_enc_track *)sinewi_arena_array_uninit(a, njx * 3 + ntx, sizeof(sinewi_enc_track));
	SINEWI_CHECK(w->const_error && enc->constant_dropped && enc->joint_kinds && enc->scalar_kinds && enc->constants &&
	                 enc->scalar_constants && enc->joint_track[0] && enc->joint_track[1] && enc->joint_track[2] &&
	                 enc->scalar_track && enc->tracks,
	             error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	return SINEW_RESULT_OK;
}

static sinew_result build_segments(sinewi_work *w, sinew_error *error) {
	sinewi_enc_clip *enc = w->enc;
	const uint32_t L = w->settings->segment_length;
	const uint32_t intervals = w->stored - 1;
	enc->segment_length = L;
	enc->segment_count = intervals == 0 ? 1 : (intervals + L - 1) / L;
	enc->segments = (sinewi_enc_segment *)sinewi_arena_array(w->arena, enc->segment_count, sizeof(sinewi_enc_segment));
	SINEWI_CHECK(enc->segments, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	for (uint32_t s = 0; s < enc->segment_count; ++s) {
		sinewi_enc_segment *seg = &enc->segments[s];
		seg->first_sample = s * L;
		seg->length = intervals - seg->first_sample < L ? intervals - seg->first_sample : L;
		seg->tracks = (sinewi_enc_seg_track *)sinewi_arena_array(w->arena, enc->track_count ? enc->track_count : 1,
		                                                          sizeof(sinewi_enc_seg_track));
		SINEWI_CHECK(seg->tracks, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	}
	return SINEW_RESULT_OK;
}

static void list_tracks(sinewi_work *w) {
	sinewi_enc_clip *enc = w->enc;
	enc->track_count = 0;
	for (uint32_t j = 0; j < w->joint_count; ++j)
		for (int sub = 0; sub < 3; ++sub) {
			enc->joint_track[sub][j] = -1;
			if (enc->joint_kinds[(size_t)j * 3 + sub] != SINEWI_KIND_ANIMATED) continue;
			sinewi_enc_track *t = &enc->tracks[enc->track_count];
			memset(t, 0, sizeof *t);
			t->type = (uint8_t)sub;
			t->components = 3;
			t->range_components = sub == SINEWI_TRACK_ROTATION ? 4 : 3;
			t->index = j;
			enc->joint_track[sub][j] = (int32_t)enc->track_count++;
		}
	for (uint32_t i = 0; i < w->clip->scalar_track_count; ++i) {
		enc->scalar_track[i] = -1;
		if (enc->scalar_kinds[i] != SINEWI_KIND_ANIMATED) continue;
		sinewi_enc_track *t = &enc->tracks[enc->track_count];
		memset(t, 0, sizeof *t);
		t->type = SINEWI_TRACK_SCALAR;
		t->components = (uint8_t)w->clip->scalar_tracks[i].components;
		t->range_components = t->components;
		t->index = i;
		enc->scalar_track[i] = (int32_t)enc->track_count++;
	}
}

// Groups (sinewi_group): contiguous runs of joints closed under parents, each of at least GROUP_JOINTS
// joints where the hierarchy allows (a large scene of many characters splits into many; one skeleton
// stays one), and the scalar tracks apart. Joint ranges are the clip's; track ranges follow list_tracks.
#define GROUP_JOINTS 64u

static bool make_groups(sinewi_work *w) {
	const uint32_t nj = w->joint_count;
	const sinew_joint *joints = w->clip->joints;
	w->groups = (sinewi_group *)sinewi_arena_array(w->arena, (size_t)nj + 1, sizeof(sinewi_group));
	uint32_t *lowest = (uint32_t *)sinewi_arena_array(w->arena, (size_t)nj + 1, sizeof(uint32_t));
	if (!w->groups || !lowest) return false;
	// lowest[c]: the smallest parent of any joint from c on; a group may end before c when it is >= c
	lowest[nj] = UINT32_MAX;
	for (uint32_t c = nj; c-- > 0;) {
		uint32_t p = joints[c].parent >= 0 && (uint32_t)joints[c].parent < c ? (uint32_t)joints[c].parent : UINT32_MAX;
		lowest[c] = p < lowest[c + 1] ? p : lowest[c + 1];
	}
	w->group_count = 1; // the scalar tracks' group comes first (a clip without scalar tracks leaves it empty)
	uint32_t start = 0;
	for (uint32_t c = 1; c <= nj; ++c)
		if (c == nj || (lowest[c] >= c && c - start >= GROUP_JOINTS && nj - c >= GROUP_JOINTS)) {
			w->groups[w->group_count++] = (sinewi_group){start, c - start, 0, 0};
			start = c;
		}
	return true;
}

// The groups' track ranges: tracks are listed joint by joint, then the scalar tracks (list_tracks).
static void group_tracks(sinewi_work *w) {
	const sinewi_enc_clip *enc = w->enc;
	uint32_t t = 0;
	for (uint32_t g = 1; g < w->group_count; ++g) {
		sinewi_group *gr = &w->groups[g];
		gr->first_track = t;
		for (uint32_t j = gr->first_joint; j < gr->first_joint + gr->joint_count; ++j)
			for (int sub = 0; sub < 3; ++sub) t += enc->joint_track[sub][j] >= 0;
		gr->track_count = t - gr->first_track;
	}
	w->groups[0] = (sinewi_group){0, 0, t, enc->track_count - t};
}

typedef struct search_tasks {
	const sinewi_work *w;
	sinewi_segment_result *results; // [segment * group_count + group]
	uint32_t count, per_chunk;      // (segment, group) searches, and how many a job runs in turn
} search_tasks;

static void search_one(const search_tasks *tasks, uint32_t index, sinewi_arena *scratch) {
	const sinewi_work *w = tasks->w;
	const uint32_t s = index / w->group_count, g = index % w->group_count;
	if (w->groups[g].joint_count == 0 && w->groups[g].track_count == 0) memset(&tasks->results[index], 0, sizeof *tasks->results);
	else sinewi_search_segment(w, s, &w->groups[g], scratch, &tasks->results[index]);
}

// Job `chunk`: per_chunk consecutive searches with one scratch arena of its own (each search rewinds it:
// memory the allocator would hand back and the system fault in again per search).
static void search_chunk(void *arg, uint32_t chunk) {
	const search_tasks *tasks = (const search_tasks *)arg;
	sinewi_arena scratch;
	sinewi_arena_init(&scratch, &tasks->w->arena->alloc.a);
	const uint32_t first = chunk * tasks->per_chunk;
	for (uint32_t k = first; k < tasks->count && k - first < tasks->per_chunk; ++k) search_one(tasks, k, &scratch);
	sinewi_arena_free(&scratch);
}

// Searches every segment of enc->segments, group by group (on w->jobs when given), and takes the results
// in segment and group order as one search of all of them in turn would: the first group over the bound
// ends it (unless the bound may be exceeded). OK, OVER_BOUND (nothing set in `error`) or OUT_OF_MEMORY.
static sinew_result search_segments(sinewi_work *w, sinew_error *error) {
	sinewi_enc_clip *enc = w->enc;
	group_tracks(w);
	const size_t count = (size_t)enc->segment_count * w->group_count;
	SINEWI_CHECK(count <= UINT32_MAX, error, SINEW_RESULT_OUT_OF_MEMORY, "clip too large");
	search_tasks tasks = {w, (sinewi_segment_result *)sinewi_arena_array(w->arena, count, sizeof(sinewi_segment_result)), 0, 1};
	SINEWI_CHECK(tasks.results, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	// knots live in the clip's arena: they are serialized later
	for (uint32_t s = 0; s < enc->segment_count; ++s)
		for (uint32_t i = 0; i < enc->track_count; ++i) {
			sinewi_enc_seg_track *st = &enc->segments[s].tracks[i];
			st->knots = (uint32_t *)sinewi_arena_array_uninit(w->arena, (size_t)(enc->segments[s].length + 1) * 4, sizeof(uint32_t));
			SINEWI_CHECK(st->knots, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		}
	tasks.count = (uint32_t)count;
	if (w->jobs && count > 1) {
		// at most 256 jobs, of consecutive searches: enough to keep any pool busy, few scratch arenas
		tasks.per_chunk = (uint32_t)((count + 255) / 256);
		w->jobs->run(w->jobs->user, search_chunk, &tasks, (uint32_t)((count + tasks.per_chunk - 1) / tasks.per_chunk));
	} else {
		for (uint32_t k = 0; k < count; ++k) search_one(&tasks, k, w->settings->scratch);
	}
	for (size_t k = 0; k < count; ++k) {
		const sinewi_segment_result *r = &tasks.results[k];
		SINEWI_CHECK(r->status != SINEWI_SEGMENT_NO_MEMORY, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		if (r->max_scalar_error > enc->max_scalar_error) enc->max_scalar_error = r->max_scalar_error;
		if (r->max_error > enc->max_error) enc->max_error = r->max_error;
		if (r->plain_differs) enc->plain_differs = 1;
		if (r->status != SINEWI_SEGMENT_OVER) continue;
		const bool joints = w->groups[k % w->group_count].joint_count > 0;
		if (joints && !(r->over_error <= enc->over_error))
			enc->over_error = r->over_error, enc->over_joint = r->over_joint, enc->over_time = r->over_time;
		// asked to write it anyway: this encoding stands, and the clip says it is over its bound (scalar
		// tracks never are: their full precision is the source's)
		if (joints && w->settings->allow_over_bound) enc->over_bound = 1;
		else return SINEW_RESULT_OVER_BOUND;
	}
	return SINEW_RESULT_OK;
}

// Quality tiers: the coarser tiers encode the same segments again, with the same sub-track kinds,
// constants and clip ranges (chosen for the finest bound, so they hold for any coarser one) and
// every joint's threshold scaled to the tier's bound; each is verified like the finest.
static sinew_result encode_tiers(sinewi_work *w, sinew_error *error) {
	sinewi_enc_clip *enc = w->enc;
	const uint32_t n = w->settings->tier_count;
	enc->tier_count = n;
	enc->tier_segments = (sinewi_enc_segment **)sinewi_arena_array(w->arena, n, sizeof *enc->tier_segments);
	enc->tier_max_error = (double *)sinewi_arena_array(w->arena, n, sizeof(double));
	enc->tier_bound = (double *)sinewi_arena_array(w->arena, n, sizeof(double));
	// the coarser tiers' thresholds (the clip's own are shared by its encodings: sinewi_prepare_clip)
	double *scaled = (double *)sinewi_arena_array(w->arena, w->joint_count ? w->joint_count : 1, sizeof(double));
	SINEWI_CHECK(enc->tier_segments && enc->tier_max_error && enc->tier_bound && scaled, error, SINEW_RESULT_OUT_OF_MEMORY,
	             "out of memory");
	const double threshold = sinewi_cm_to_units(w->settings->error_cm, w->clip->unit_scale); // the default joint threshold
	sinewi_enc_segment *finest = enc->segments;
	const double finest_error = enc->max_error;
	double *saved = w->threshold;
	w->threshold = scaled;
	for (uint32_t k = 0; k + 1 < n; ++k) {
		for (uint32_t j = 0; j < w->joint_count; ++j) scaled[j] = saved[j] * w->settings->tier_factor[k];
		SINEWI_TRY(build_segments(w, error));
		// the same dropped rotation component per segment (a lone segment's clip ranges leave it out)
		for (uint32_t s = 0; s < enc->segment_count; ++s)
			for (uint32_t i = 0; i < enc->track_count; ++i) {
				enc->segments[s].tracks[i].dropped = finest[s].tracks[i].chosen_dropped;
				enc->segments[s].tracks[i].chosen_dropped = finest[s].tracks[i].chosen_dropped;
			}
		enc->max_error = 0.0;
		sinew_result r = search_segments(w, error);
		if (r != SINEW_RESULT_OK) w->threshold = saved;
		if (r == SINEW_RESULT_OVER_BOUND)
			return sinewi_fail(error, r, "clip '%s': tier %u cannot meet its bound", w->clip->name ? w->clip->name : "", k);
		if (r != SINEW_RESULT_OK) return r;
		enc->tier_segments[k] = enc->segments;
		enc->tier_max_error[k] = enc->max_error;
		enc->tier_bound[k] = threshold * w->settings->tier_factor[k];
	}
	w->threshold = saved;
	enc->segments = finest;
	enc->max_error = finest_error;
	enc->tier_segments[n - 1] = finest;
	enc->tier_max_error[n - 1] = finest_error;
	enc->tier_bound[n - 1] = threshold;
	return SINEW_RESULT_OK;
}

// An encoding's work state over the clip's prepared samples and model (enc from the caller).
static void work_from_prep(sinewi_work *w, const sinewi_clip_prep *prep) {
	sinewi_enc_clip *enc = w->enc;
	enc->source = w->clip;
	enc->slerp_fit = 1; // docs/format.md step 5: nlerp that follows the slerp (the source's, for glTF)
	enc->looping = prep->looping;
	enc->short_constants = w->settings->short_constants;
	enc->sample_count = prep->sample_count;
	enc->stored_sample_count = prep->stored;
	w->fit = sinewi_slerp_fit;
	w->joint_count = w->clip->joint_count;
	w->jobs = w->settings->jobs;
	w->stored = prep->stored;
	w->poses = prep->poses, w->scalars = prep->scalars;
	w->threshold = prep->threshold, w->shell = prep->shell, w->shell_off = prep->shell_off, w->lever = prep->lever;
	w->max_scale = prep->max_scale, w->parent_gain = prep->parent_gain, w->rho = prep->rho;
	w->shells_f = prep->shells_f, w->rounding_mode = prep->rounding_mode, w->candidates = prep->candidates;
	w->raw_cache = prep->raw_cache;
	w->fits = prep->fits;
}

// Constant sub-tracks may use a share of each joint's budget; if the segment search cannot meet the
// bound, classification retries stricter (finally: only exact constants).
static const double class_fractions[] = {0.25, 0.05, 0.0};
#define CLASS_ATTEMPTS (sizeof class_fractions / sizeof class_fractions[0])

// Every knot of every segment track at `width` bits (0, or SINEWI_WIDTH_RAW: the most a knot takes),
// every knot kept, no residuals: the encoding's fewest or most knot bytes.
static void set_knot_widths(sinewi_enc_clip *enc, uint8_t width) {
	for (uint32_t sg = 0; sg < enc->segment_count; ++sg) {
		const sinewi_enc_segment *seg = &enc->segments[sg];
		for (uint32_t i = 0; i < enc->track_count; ++i) {
			sinewi_enc_seg_track *st = &seg->tracks[i];
			for (int c = 0; c < 4; ++c) st->width[c] = c < enc->tracks[i].components ? width : 0, st->shift[c] = 0;
			st->decimation = 0;
			st->knot_count = sinewi_knot_count(seg->length, 0);
		}
	}
}

// Can this attempt's encoding (its kinds and segments set, no knots chosen yet) not be smaller than
// settings->loses_to bytes, however few its knot bits (none, 16-bit ranges, plain descriptors), while
// keeping 100 times its constant values at least what it could take at most (every knot raw, f32
// ranges, midpoint descriptors), so that encode_clip's 1 % rule weighs Short_constants after it?
// Leaves the segment tracks as build_segments made them.
static bool cannot_win(sinewi_work *w) {
	sinewi_enc_clip *enc = w->enc;
	const sinew_allocator *allocator = &w->arena->alloc.a;
	set_knot_widths(enc, 0);
	enc->half_ranges = 1, enc->midpoint = 0;
	const size_t floor = sinewi_serialized_clip_size(enc, w->settings->rest_defaults, allocator);
	bool sure = floor > w->settings->loses_to && floor < SIZE_MAX - 1;
	if (sure) {
		set_knot_widths(enc, SINEWI_WIDTH_RAW);
		enc->half_ranges = 0, enc->midpoint = 1;
		const size_t ceiling = sinewi_serialized_clip_size(enc, w->settings->rest_defaults, allocator);
		sure = ceiling < SIZE_MAX - 1 && (uint64_t)sinewi_enc_constant_count(enc) * 100 >= ceiling;
		set_knot_widths(enc, 0);
	}
	for (uint32_t sg = 0; sg < enc->segment_count; ++sg)
		for (uint32_t i = 0; i < enc->track_count; ++i) enc->segments[sg].tracks[i].knot_count = 0;
	enc->half_ranges = 0, enc->midpoint = 0;
	return sure;
}

sinew_result sinewi_compress_clip(const sinew_clip *clip, const sinewi_clip_prep *prep, const sinewi_compress_settings *settings,
                                  sinewi_arena *arena, sinewi_enc_clip **out, sinew_error *error) {
	sinewi_enc_clip *enc = (sinewi_enc_clip *)sinewi_arena_alloc(arena, sizeof *enc);
	SINEWI_CHECK(enc, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	sinewi_work w;
	memset(&w, 0, sizeof w);
	w.clip = clip;
	w.settings = settings;
	w.arena = arena;
	w.enc = enc;
	work_from_prep(&w, prep);
	SINEWI_TRY(allocate(&w, error));
	SINEWI_CHECK(make_groups(&w), error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	classify_scalars(&w);
	for (size_t attempt = 0; attempt < CLASS_ATTEMPTS; ++attempt) {
		w.class_fraction = class_fractions[attempt];
		enc->over_error = 0.0, enc->over_bound = 0;
		enc->max_error = enc->max_scalar_error = 0.0; // (a failed attempt's do not count)
		classify_joints(&w);
		list_tracks(&w);
		SINEWI_TRY(build_segments(&w, error));
		for (uint32_t i = 0; i < enc->track_count; ++i)
			if (enc->tracks[i].type == SINEWI_TRACK_ROTATION) choose_dropped(&w, i, enc->tracks[i].index);
		// an encoding that cannot be the smaller one needs only to know that this attempt meets the bound
		// (the search does not depend on the refinement that follows it)
		w.skip_refine = settings->loses_to > 0 && !settings->allow_over_bound && settings->tier_count <= 1 && cannot_win(&w);
		// the first search's choices of a run with midpoint knots that ended with these kinds, in a lone
		// segment as this one: the choices this search would make first (compress_work.h, replay)
		const sinewi_enc_clip *rp = settings->replay;
		w.replay = rp && !settings->midpoint && rp->attempt == attempt && rp->segment_count == 1 && enc->segment_count == 1 &&
		                   rp->track_count == enc->track_count && rp->segments[0].length == enc->segments[0].length
		               ? rp
		               : NULL;
		enc->attempt = (uint8_t)attempt;
		clip_ranges(&w);
		choose_half_ranges(&w);
		sinew_result r = search_segments(&w, error);
		if (r != SINEW_RESULT_OK && r != SINEW_RESULT_OVER_BOUND) return r;
		if (r == SINEW_RESULT_OK && w.skip_refine) {
			enc->left_out = 1; // its kinds are final, and it is larger than loses_to: not refined, never written
			*out = enc;
			return SINEW_RESULT_OK;
		}
		if (r == SINEW_RESULT_OK) {
			w.replay = NULL; // (the coarser tiers' searches have budgets of their own)
			SINEWI_TRY(encode_tiers(&w, error));
			sinewi_choose_midpoint(enc, settings->midpoint);
			*out = enc;
			return SINEW_RESULT_OK;
		}
	}
	// the one line a user sees (DESIGN §4: never silently over the bound): clip, node, time, error
	const uint32_t j = enc->over_joint < clip->joint_count ? enc->over_joint : 0;
	const double to_cm = 100.0 / clip->unit_scale;
	char node[96];
	if (clip->joint_count && clip->joints[j].name) snprintf(node, sizeof node, "node '%.80s'", clip->joints[j].name);
	else snprintf(node, sizeof node, "joint %u", j);
	const double nominal = clip->joint_count && clip->joints[j].precision > 0.0f ? clip->joints[j].precision * to_cm
	                                                                             : settings->error_cm; // as asked
	const double allowed = clip->joint_count ? w.threshold[j] * to_cm : nominal; // less float32's share (compute_levers)
	if (allowed < nominal * (1.0 - 1e-9))
		return sinewi_fail(error, SINEW_RESULT_OVER_BOUND,
		                   "clip '%s': %s is %.4g cm off at t = %.6g s even at full precision, over the %.4g cm left of the "
		                   "%.4g cm threshold once float32 precision (%.3g cm) is kept twice; --allow-over-bound writes it anyway",
		                   clip->name ? clip->name : "", node, enc->over_error * to_cm, enc->over_time, allowed, nominal,
		                   clip->float_error * to_cm);
	return sinewi_fail(error, SINEW_RESULT_OVER_BOUND,
	                   "clip '%s': %s is %.4g cm off at t = %.6g s, over the %.4g cm threshold even at full precision "
	                   "(resampling the source costs %.4g cm; --allow-over-bound writes it anyway)",
	                   clip->name ? clip->name : "", node, enc->over_error * to_cm, enc->over_time, nominal,
	                   clip->resample_error * to_cm);
}

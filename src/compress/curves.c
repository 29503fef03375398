// sinew — see include/sinew.h for version and licence
// Curves (docs/format.md §curves): a clip whose animated tracks are its source's keys (values and, for CUBICSPLINE,
// tangents) quantized per component, played as glTF plays them. A CUBICSPLINE curve played back linearly needs samples
// in proportion to sqrt(bend / bound) (555 for a 3-key Blender translation); its keys are a few dozen bytes.
//
// The encoding keeps the kinds and constants of the clip's sample encoding, gives every field (a component's value,
// or its tangents) 24 bits, and then lowers the fields one bit at a time, round after round, while every joint the
// track moves (its subtree) stays within its threshold at every sample, sample midpoint and check point (composed in
// object space from the decoder's own arithmetic, sinewi_curve_value) and every scalar track within its precision.
#include "../clip/clip_internal.h"
#include "../core/bits.h"
#include "../core/codec_math.h"
#include "../core/format_layout.h"
#include "../core/metric.h"
#include "compress_internal.h"

#include <math.h>
#include <string.h>

// (time, joint) pairs a clip is checked at, at most: a larger clip keeps its samples (its reference frames would
// take more than 50 MB; curve sources that long are not seen in practice).
#define MAX_PAIRS ((size_t)1 << 19)
#define MAX_KEYS 65535u // a key time set's keys are counted in 16 bits
#define DEFAULT_SCALAR_PRECISION 1e-4

typedef struct work {
	const sinew_clip *clip;
	const sinewi_clip_prep *prep;
	sinewi_enc_clip *enc;
	sinewi_enc_curves *cv;
	const sinew_curve **src;   // [track_count] each track's source curve
	unsigned char **set_bytes; // [set_count] the times as the blob stores them (little-endian f32)
	uint32_t nj, nt, times, scalar_times, comps;
	double duration;
	double *t;                 // [times]: samples, sample midpoints, check points
	sinewi_affine_d *ref;      // [times * nj] the source's object-space frames
	float *ref_scalars;        // [scalar_times * comps] the source's scalar values (samples and midpoints)
	sinew_qvv *local;          // [times * nj] the decoded local pose (the current encoding)
	sinewi_affine_d *dec;      // [times * nj] its frames
	sinewi_affine_d *frames;   // [nj] a trial's frames at one time
	float *values;             // [times * 4] a trial's track values
	uint32_t *q;               // [keys * 12] a trial's quantized fields
	uint8_t *in_subtree;       // [nj]
	uint32_t *scalar_out;      // [scalar tracks] first float of each in ref_scalars' rows
	double *threshold;         // [nj] the joint's threshold less the clip's resampling error: samples of the decoded
	                           // curves, interpolated (sinew decompress writes them), stay within the bound
	double max_error, max_scalar_error;
} work;

static uint32_t components_of(const sinewi_enc_track *t) {
	return t->type == SINEWI_TRACK_ROTATION ? 4u : t->components;
}

// The range of a field ([lo, lo + ext] in float arithmetic, rounded to 16-bit values with `half`); false when not finite.
static bool field_range(float lo, float hi, bool half, float *out_lo, float *out_ext) {
	float ext = (float)((double)hi - (double)lo);
	while (lo + ext < hi) ext = sinewi_next_up(ext);
	if (!isfinite(ext)) return false;
	if (half) return sinewi_half_range(lo, ext, out_lo, out_ext);
	*out_lo = lo, *out_ext = ext;
	return true;
}

// Quantizes every field of curve `c` (source `s`) at its widths into q.
static void quantize_curve(const sinewi_enc_curve *c, const sinew_curve *s, uint32_t *q) {
	const uint32_t n = c->n, parts = c->interpolation == SINEW_CURVE_CUBICSPLINE ? 3u : 1u;
	for (uint32_t k = 0; k < c->keys; ++k)
		for (uint32_t p = 0; p < parts; ++p)
			for (uint32_t i = 0; i < n; ++i) {
				const size_t at = ((size_t)k * parts + p) * n + i;
				const bool value = parts == 1 || p == 1;
				q[at] = value ? sinewi_quantize(s->values[at], c->vw[i], c->vmin[i], c->vext[i])
				              : sinewi_quantize(s->values[at], c->tw[i], c->tmin[i], c->text[i]);
			}
}

// Fields `part` (0 in-tangent, 1 value, 2 out-tangent; 0 the value without tangents) of key k, dequantized.
static void key_fields(const sinewi_enc_curve *c, const uint32_t *q, uint32_t k, uint32_t part, float *out) {
	const uint32_t parts = c->interpolation == SINEW_CURVE_CUBICSPLINE ? 3u : 1u;
	const bool value = parts == 1 || part == 1;
	for (uint32_t i = 0; i < c->n; ++i) {
		const uint32_t v = q[((size_t)k * parts + part) * c->n + i];
		out[i] = value ? sinewi_dequantize(v, c->vw[i], c->vmin[i], c->vext[i]) : sinewi_dequantize(v, c->tw[i], c->tmin[i], c->text[i]);
	}
}

// The decoded values of curve c (quantized as q) at every check time, as the decoder plays them.
static void curve_values(const work *w, const sinewi_enc_curve *c, const uint32_t *q, bool rotation, uint32_t count, float *out) {
	const bool cubic = c->interpolation == SINEW_CURVE_CUBICSPLINE;
	const uint32_t value = cubic ? 1u : 0u;
	for (uint32_t k = 0; k < count; ++k) {
		const double t = !(w->t[k] > 0.0) ? 0.0 : w->t[k] > w->duration ? w->duration : w->t[k];
		float s, td, v0[4], v1[4] = {0, 0, 0, 0}, m0[4] = {0, 0, 0, 0}, m1[4] = {0, 0, 0, 0};
		const uint32_t i = sinewi_curve_locate(w->set_bytes[c->set], c->keys, c->interpolation, t, &s, &td);
		key_fields(c, q, i, value, v0);
		if (s >= 0.0f) key_fields(c, q, i + 1, value, v1); // (held: the rest 0)
		if (s >= 0.0f && cubic) key_fields(c, q, i, 2, m0), key_fields(c, q, i + 1, 0, m1);
		sinewi_curve_value(c->interpolation, rotation, c->n, sinewi_slerp_fit, s, td, v0, m0, v1, m1, out + 4 * (size_t)k);
	}
}

static void set_sub(sinew_qvv *x, uint32_t sub, const float *v) {
	if (sub == SINEWI_TRACK_ROTATION) memcpy(x->rotation, v, 4 * sizeof(float));
	else memcpy(sub == SINEWI_TRACK_TRANSLATION ? x->translation : x->scale, v, 3 * sizeof(float));
}

// Marks joint j and its descendants (parents come before children).
static void mark_subtree(work *w, uint32_t j) {
	memset(w->in_subtree, 0, w->nj);
	w->in_subtree[j] = 1;
	for (uint32_t k = j + 1; k < w->nj; ++k) {
		const int32_t p = w->clip->joints[k].parent;
		w->in_subtree[k] = p >= 0 && w->in_subtree[p];
	}
}

// Whether track ti, decoded as w->values, keeps its joint's subtree (or, a scalar track, its values) within bounds
// at every time; with `commit` the decoded pose and frames take it. Tracks the largest error seen.
static bool check_track(work *w, uint32_t ti, bool commit) {
	const sinewi_enc_track *t = &w->enc->tracks[ti];
	const sinewi_clip_prep *prep = w->prep;
	if (t->type == SINEWI_TRACK_SCALAR) {
		const sinew_scalar_track *st = &w->clip->scalar_tracks[t->index];
		const double precision = st->precision > 0.0f ? st->precision : DEFAULT_SCALAR_PRECISION;
		for (uint32_t k = 0; k < w->scalar_times; ++k)
			for (uint32_t c = 0; c < t->components; ++c) {
				const double e = fabs((double)w->values[4 * (size_t)k + c] - w->ref_scalars[(size_t)k * w->comps + w->scalar_out[t->index] + c]);
				if (!(e <= precision)) return false;
				if (commit && e / precision > w->max_scalar_error) w->max_scalar_error = e / precision;
			}
		return true;
	}
	const uint32_t j = t->index, nj = w->nj;
	mark_subtree(w, j);
	for (uint32_t k = 0; k < w->times; ++k) {
		const sinew_qvv *pose = w->local + (size_t)k * nj;
		const sinewi_affine_d *dec = w->dec + (size_t)k * nj, *ref = w->ref + (size_t)k * nj;
		for (uint32_t i = j; i < nj; ++i) {
			if (!w->in_subtree[i]) continue;
			sinew_qvv x = pose[i];
			if (i == j) set_sub(&x, t->type, w->values + 4 * (size_t)k);
			sinewi_affine_d a;
			sinewi_affine_from_qvv_d(&x, &a);
			const int32_t p = w->clip->joints[i].parent;
			if (p >= 0) sinewi_affine_mul_d(w->in_subtree[p] ? &w->frames[p] : &dec[p], &a, &w->frames[i]);
			else w->frames[i] = a;
			const double e = sinewi_shell_error_d(&ref[i], &w->frames[i], prep->shell_off + 3 * (size_t)i);
			if (!(e <= w->threshold[i])) return false;
			if (commit && e > w->max_error) w->max_error = e;
		}
		if (!commit) continue;
		set_sub(w->local + (size_t)k * nj + j, t->type, w->values + 4 * (size_t)k);
		for (uint32_t i = j; i < nj; ++i)
			if (w->in_subtree[i]) w->dec[(size_t)k * nj + i] = w->frames[i];
	}
	return true;
}

// Quantizes track ti at its curve's widths and checks it (scalar tracks at the samples and midpoints only); when it
// passes, the encoding takes it (the decoded pose the next trials are checked with).
static bool try_track(work *w, uint32_t ti) {
	sinewi_enc_curve *c = &w->cv->tracks[ti];
	const sinewi_enc_track *t = &w->enc->tracks[ti];
	quantize_curve(c, w->src[ti], w->q);
	curve_values(w, c, w->q, t->type == SINEWI_TRACK_ROTATION, t->type == SINEWI_TRACK_SCALAR ? w->scalar_times : w->times,
	             w->values);
	if (!check_track(w, ti, false)) return false;
	check_track(w, ti, true);
	memcpy(c->q, w->q, (size_t)c->keys * (c->interpolation == SINEW_CURVE_CUBICSPLINE ? 3u : 1u) * c->n * sizeof(uint32_t));
	return true;
}

// The check times and what the source is there: every sample (the clip's samples), every sample midpoint (the
// samples' halfway pose, then every curve at that time: the source) and every check point (the source's pose).
static bool reference(work *w, sinewi_arena *arena) {
	const sinew_clip *clip = w->clip;
	const uint32_t nj = w->nj, ns = clip->sample_count;
	const uint32_t mids = clip->check_midpoints && ns > 1 ? ns - 1 : 0;
	const uint32_t checks = clip->check_times && clip->check_transforms ? clip->check_count : 0;
	w->times = ns + mids + checks, w->scalar_times = ns + mids;
	if ((size_t)w->times * (nj ? nj : 1) > MAX_PAIRS) return false;
	const size_t pairs = (size_t)w->times * nj + 1;
	w->t = (double *)sinewi_arena_array(arena, w->times, sizeof(double));
	w->ref = (sinewi_affine_d *)sinewi_arena_array(arena, pairs, sizeof(sinewi_affine_d));
	w->dec = (sinewi_affine_d *)sinewi_arena_array(arena, pairs, sizeof(sinewi_affine_d));
	w->local = (sinew_qvv *)sinewi_arena_array(arena, pairs, sizeof(sinew_qvv));
	w->ref_scalars = (float *)sinewi_arena_array(arena, (size_t)w->scalar_times * w->comps + 1, sizeof(float));
	sinew_qvv *half = (sinew_qvv *)sinewi_arena_array(arena, nj + 1, sizeof(sinew_qvv));
	if (!w->t || !w->ref || !w->dec || !w->local || !w->ref_scalars || !half) return false;
	for (uint32_t k = 0; k < w->times; ++k) {
		const sinew_qvv *pose;
		float *scalars = k < w->scalar_times ? w->ref_scalars + (size_t)k * w->comps : NULL;
		if (k < ns) {
			w->t[k] = sinew_clip_sample_time(clip, (double)k);
			pose = clip->transforms + (size_t)k * nj;
			sinewi_clip_halfway(clip, k, k, NULL, scalars);
		} else if (k < ns + mids) {
			const uint32_t a = k - ns;
			w->t[k] = sinew_clip_sample_time(clip, (double)a + 0.5);
			sinewi_clip_halfway(clip, a, a + 1, half, scalars);
			sinewi_clip_curves_at(clip, w->t[k], half, scalars);
			pose = half;
		} else {
			w->t[k] = clip->check_times[k - ns - mids];
			pose = clip->check_transforms + (size_t)(k - ns - mids) * nj;
		}
		sinewi_compose_pose_d(clip->joints, nj, pose, w->ref + (size_t)k * nj);
	}
	return true;
}

// Ranges of curve c (source s) and its first widths: 24 bits, none where a field's range is a single value.
static bool init_curve(sinewi_enc_curve *c, const sinew_curve *s, bool half, uint8_t width) {
	const uint32_t n = c->n, parts = c->interpolation == SINEW_CURVE_CUBICSPLINE ? 3u : 1u;
	for (uint32_t i = 0; i < n; ++i) {
		float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}; // values, tangents
		for (uint32_t k = 0; k < c->keys; ++k)
			for (uint32_t p = 0; p < parts; ++p) {
				// the first key's in-tangent and the last one's out-tangent are never played
				if (parts == 3 && ((p == 0 && k == 0) || (p == 2 && k + 1 == c->keys))) continue;
				const float v = s->values[((size_t)k * parts + p) * n + i];
				const int f = parts == 3 && p != 1;
				if (v < lo[f]) lo[f] = v;
				if (v > hi[f]) hi[f] = v;
			}
		if (!field_range(lo[0], hi[0], half, &c->vmin[i], &c->vext[i])) return false;
		c->vw[i] = c->vext[i] > 0.0f ? width : 0u;
		if (parts == 3 && c->keys > 1) {
			if (!field_range(lo[1], hi[1], half, &c->tmin[i], &c->text[i])) return false;
			c->tw[i] = c->text[i] > 0.0f ? width : 0u;
		}
	}
	return true;
}

// Every track at full precision (24 bits). False when even that misses the bound (the samples stand).
static bool start(work *w, bool half) {
	for (int pass = 0; pass < 1; ++pass) {
		bool ok = true;
		for (uint32_t ti = 0; ti < w->nt && ok; ++ti) ok = init_curve(&w->cv->tracks[ti], w->src[ti], half, SINEWI_MAX_WIDTH);
		if (!ok) return false;
		w->max_error = w->max_scalar_error = 0.0;
		for (uint32_t k = 0; k < w->times; ++k) // the constant pose (kinds and constants of the sample encoding)
			for (uint32_t j = 0; j < w->nj; ++j) w->local[(size_t)k * w->nj + j] = w->enc->constants[j];
		for (uint32_t ti = 0; ti < w->nt; ++ti) { // every track committed, then all checked together
			const sinewi_enc_track *t = &w->enc->tracks[ti];
			sinewi_enc_curve *c = &w->cv->tracks[ti];
			quantize_curve(c, w->src[ti], c->q);
			if (t->type == SINEWI_TRACK_SCALAR) continue;
			curve_values(w, c, c->q, t->type == SINEWI_TRACK_ROTATION, w->times, w->values);
			for (uint32_t k = 0; k < w->times; ++k) set_sub(w->local + (size_t)k * w->nj + t->index, t->type, w->values + 4 * (size_t)k);
		}
		for (uint32_t k = 0; k < w->times; ++k)
			sinewi_compose_pose_d(w->clip->joints, w->nj, w->local + (size_t)k * w->nj, w->dec + (size_t)k * w->nj);
		for (uint32_t ti = 0; ti < w->nt && ok; ++ti) ok = try_track(w, ti);
		if (ok) return true;
	}
	return false;
}

// lo + ext / 2, rounded to a 16-bit range value with `half` (the nearest, halfway away from zero).
static float middle(float lo, float ext, bool half) {
	float m = (float)((double)lo + 0.5 * (double)ext);
	if (!half) return m;
	uint32_t u;
	memcpy(&u, &m, 4);
	u = (u + 0x8000u) & 0xFFFF0000u;
	memcpy(&m, &u, 4);
	return isfinite(m) ? m : lo;
}

// Lowers every field (a component's value, or its tangents) one bit at a time, round after round, while its track
// stays within bounds: the fields of a chain share the bound as the rounds go.
static void descend(work *w) {
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t ti = 0; ti < w->nt; ++ti) {
			sinewi_enc_curve *c = &w->cv->tracks[ti];
			for (uint32_t f = 0; f < 2u * c->n; ++f) {
				uint8_t *width = f & 1u ? &c->tw[f / 2] : &c->vw[f / 2];
				if (*width == 0 || (f & 1u && c->interpolation != SINEW_CURVE_CUBICSPLINE)) continue;
				const uint8_t keep = *width;
				*width = (uint8_t)(keep - 1);
				// no bits: the field is its Min, taken in the middle of its range
				float *lo = f & 1u ? &c->tmin[f / 2] : &c->vmin[f / 2];
				const float keep_lo = *lo, ext = f & 1u ? c->text[f / 2] : c->vext[f / 2];
				if (*width == 0) *lo = middle(keep_lo, ext, w->enc->half_ranges);
				if (try_track(w, ti)) {
					changed = true;
					continue;
				}
				*width = keep, *lo = keep_lo;
			}
		}
	}
	// the errors of the final encoding (each track's subtree, every track at its final widths)
	w->max_error = w->max_scalar_error = 0.0;
	for (uint32_t ti = 0; ti < w->nt; ++ti) {
		const sinewi_enc_track *t = &w->enc->tracks[ti];
		sinewi_enc_curve *c = &w->cv->tracks[ti];
		curve_values(w, c, c->q, t->type == SINEWI_TRACK_ROTATION, t->type == SINEWI_TRACK_SCALAR ? w->scalar_times : w->times,
		             w->values);
		check_track(w, ti, true);
	}
}

sinew_result sinewi_encode_curves(const sinew_clip *clip, const sinewi_clip_prep *prep, const sinewi_enc_clip *base, bool half,
                                  sinewi_arena *arena, sinewi_enc_clip **out, sinew_error *error) {
	*out = NULL;
	if (!clip->curve_count || prep->looping || base->track_count == 0 || base->tier_count > 1) return SINEW_RESULT_OK;
	work w;
	memset(&w, 0, sizeof w);
	w.clip = clip, w.prep = prep, w.nj = clip->joint_count, w.nt = base->track_count;
	w.duration = sinew_clip_duration(clip);
	sinewi_enc_clip *enc = (sinewi_enc_clip *)sinewi_arena_alloc(arena, sizeof *enc);
	sinewi_enc_curves *cv = (sinewi_enc_curves *)sinewi_arena_alloc(arena, sizeof *cv);
	w.src = (const sinew_curve **)sinewi_arena_array(arena, w.nt, sizeof *w.src);
	SINEWI_CHECK(enc && cv && w.src, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	*enc = *base;
	enc->curves_base = base;
	enc->curves = cv, enc->segments = NULL, enc->segment_count = 0, enc->segment_length = 0, enc->midpoint = 0;
	enc->half_ranges = half;
	w.enc = enc, w.cv = cv;
	// each animated track's curve (the first one of its sub-track or scalar track), and the key time sets
	const size_t slots = (size_t)w.nj * 3 + clip->scalar_track_count;
	int32_t *curve_of = (int32_t *)sinewi_arena_array(arena, slots + 1, sizeof(int32_t));
	cv->tracks = (sinewi_enc_curve *)sinewi_arena_array(arena, w.nt, sizeof(sinewi_enc_curve));
	cv->set_times = (const float **)sinewi_arena_array(arena, w.nt, sizeof(float *));
	cv->set_keys = (uint32_t *)sinewi_arena_array(arena, w.nt, sizeof(uint32_t));
	w.set_bytes = (unsigned char **)sinewi_arena_array(arena, w.nt, sizeof(unsigned char *));
	w.scalar_out = (uint32_t *)sinewi_arena_array(arena, clip->scalar_track_count + 1, sizeof(uint32_t));
	SINEWI_CHECK(curve_of && cv->tracks && cv->set_times && cv->set_keys && w.set_bytes && w.scalar_out, error,
	             SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	for (size_t k = 0; k < slots; ++k) curve_of[k] = -1;
	for (uint32_t k = clip->curve_count; k-- > 0;) { // (the first curve of a slot wins)
		const sinew_curve *c = &clip->curves[k];
		curve_of[c->target == 3 ? (size_t)w.nj * 3 + c->index : (size_t)c->index * 3 + c->target] = (int32_t)k;
	}
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) w.scalar_out[i] = w.comps, w.comps += clip->scalar_tracks[i].components;
	uint32_t max_keys = 1, times = 0;
	for (uint32_t ti = 0; ti < w.nt; ++ti) {
		const sinewi_enc_track *t = &base->tracks[ti];
		const int32_t k = curve_of[t->type == SINEWI_TRACK_SCALAR ? (size_t)w.nj * 3 + t->index : (size_t)t->index * 3 + t->type];
		if (k < 0 || clip->curves[k].key_count > MAX_KEYS) return SINEW_RESULT_OK; // a track without a curve: samples
		const sinew_curve *s = w.src[ti] = &clip->curves[k];
		sinewi_enc_curve *c = &cv->tracks[ti];
		c->interpolation = s->interpolation, c->n = (uint8_t)components_of(t), c->keys = s->key_count;
		uint32_t set = 0;
		while (set < cv->set_count && !(cv->set_keys[set] == s->key_count &&
		                                 memcmp(cv->set_times[set], s->times, (size_t)s->key_count * sizeof(float)) == 0))
			++set;
		if (set == cv->set_count) {
			if ((times += s->key_count) > MAX_KEYS) return SINEW_RESULT_OK; // (key times are counted in 16 bits)
			cv->set_times[set] = s->times, cv->set_keys[set] = s->key_count, cv->set_count++;
			w.set_bytes[set] = (unsigned char *)sinewi_arena_array(arena, s->key_count, 4);
			SINEWI_CHECK(w.set_bytes[set], error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
			for (uint32_t e = 0; e < s->key_count; ++e) sinewi_wrf32(w.set_bytes[set] + 4 * (size_t)e, s->times[e]);
		}
		c->set = (uint16_t)set;
		c->q = (uint32_t *)sinewi_arena_array(arena, (size_t)s->key_count * 3 * c->n, sizeof(uint32_t));
		SINEWI_CHECK(c->q, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		if (s->key_count > max_keys) max_keys = s->key_count;
	}
	if (!reference(&w, arena)) return SINEW_RESULT_OK; // (too large, or out of memory: the samples stand)
	w.threshold = (double *)sinewi_arena_array(arena, w.nj + 1, sizeof(double));
	SINEWI_CHECK(w.threshold, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	for (uint32_t j = 0; j < w.nj; ++j)
		w.threshold[j] = sinewi_fmax(prep->threshold[j] - clip->resample_error, 0.25 * prep->threshold[j]);
	w.values = (float *)sinewi_arena_array(arena, (size_t)w.times * 4, sizeof(float));
	w.q = (uint32_t *)sinewi_arena_array(arena, (size_t)max_keys * 12, sizeof(uint32_t));
	w.frames = (sinewi_affine_d *)sinewi_arena_array(arena, w.nj + 1, sizeof(sinewi_affine_d));
	w.in_subtree = (uint8_t *)sinewi_arena_alloc(arena, w.nj + 1);
	SINEWI_CHECK(w.values && w.q && w.frames && w.in_subtree, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
	if (!start(&w, half)) return SINEW_RESULT_OK;
	descend(&w);
	enc->max_error = w.max_error, enc->max_scalar_error = w.max_scalar_error;
	enc->over_bound = 0;
	*out = enc;
	return SINEW_RESULT_OK;
}

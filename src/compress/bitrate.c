// sinew — see include/sinew.h for version and licence
// Per-segment bit-rate search. Each animated track gets, per segment, a decimation d (knots
// every 2^d samples, linear in between) and a bit width per component derived from one
// precision step; the cheapest pair whose error fits the joint's budget wins. Then the whole
// segment is decoded, composed in object space and checked against the threshold at every
// sample; joints on chains that exceed it get tighter budgets until everything fits.
#include "../core/codec_math.h"
#include "../core/metric.h"
#include "../clip/clip_internal.h"
#include "compress_work.h"

#include <math.h>
#include <string.h>

void sinewi_stored_value(const sinewi_work *w, const sinewi_enc_track *t, uint32_t dropped, uint32_t s, float out[4]);

// Raw rotations keep all four components per knot (docs/format.md §segment data).
static bool raw_rotation(const sinewi_enc_track *t, const sinewi_enc_seg_track *st) {
	return t->type == SINEWI_TRACK_ROTATION && st->width[0] == SINEWI_WIDTH_RAW;
}

// Stored component index of slot c (rotations skip the dropped component).
static uint32_t slot_component(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint32_t c) {
	return t->type == SINEWI_TRACK_ROTATION ? sinewi_stored_component(c, st->dropped) : c;
}

static void seg_lo_ext(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint32_t c, float *lo, float *ext) {
	uint32_t comp = slot_component(t, st, c);
	sinewi_segment_range(t->clip_min[comp], t->clip_ext[comp], st->range_min[c], st->range_ext[c], lo, ext);
}

// Segment ranges: 8-bit fractions of the clip range that cover every sample of the segment.
static void segment_ranges(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                           sinewi_enc_seg_track *st) {
	for (uint32_t c = 0; c < t->components; ++c) {
		uint32_t comp = slot_component(t, st, c);
		float lo = INFINITY, hi = -INFINITY;
		for (uint32_t u = 0; u <= seg->length; ++u) {
			float v[4];
			sinewi_stored_value(w, t, st->dropped, seg->first_sample + u, v);
			if (v[comp] < lo) lo = v[comp];
			if (v[comp] > hi) hi = v[comp];
		}
		float cmin = t->clip_min[comp], cext = t->clip_ext[comp];
		int qmin = 0, qmax = 0;
		if (w->enc->segment_count == 1) { // format 2 stores no ranges for a lone segment: the whole clip range
			st->range_min[c] = 0;
			st->range_ext[c] = 255;
			continue;
		}
		if (cext > 0.0f) {
			qmin = (int)floor(((double)lo - cmin) / cext * 255.0);
			qmax = (int)ceil(((double)hi - cmin) / cext * 255.0);
			qmin = qmin < 0 ? 0 : (qmin > 255 ? 255 : qmin);
			qmax = qmax < qmin ? qmin : (qmax > 255 ? 255 : qmax);
			float flo, fext;
			// float rounding may leave the ends just inside the samples: widen until covered
			for (;;) {
				sinewi_segment_range(cmin, cext, (uint32_t)qmin, (uint32_t)(qmax - qmin), &flo, &fext);
				if (flo > lo && qmin > 0) --qmin;
				else if (flo + fext < hi && qmax < 255) ++qmax;
				else break;
			}
		}
		st->range_min[c] = (uint8_t)qmin;
		st->range_ext[c] = (uint8_t)(qmax - qmin);
	}
}

// Widths for precision level k: the widest component gets k bits; every component gets the
// fewest bits whose step is no coarser than the widest one's.
#define LEVEL_RAW (SINEWI_MAX_WIDTH + 1u) // last resort: raw float32 components

static void widths_for_level(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint32_t k, uint8_t width[4]) {
	float ext[4], lo, emax = 0.0f;
	if (k >= LEVEL_RAW) {
		for (uint32_t c = 0; c < 4; ++c) width[c] = (uint8_t)(c < t->components ? SINEWI_WIDTH_RAW : 0);
		return;
	}
	for (uint32_t c = 0; c < t->components; ++c) {
		seg_lo_ext(t, st, c, &lo, &ext[c]);
		if (ext[c] > emax) emax = ext[c];
	}
	for (uint32_t c = 0; c < 4; ++c) width[c] = 0;
	if (k == 0 || !(emax > 0.0f)) return;
	double steps = (double)((1u << k) - 1u);
	for (uint32_t c = 0; c < t->components; ++c) {
		double need = (double)ext[c] / (double)emax * steps; // intervals needed at the common step
		uint32_t bits = 0;
		while (bits < k && (double)((1u << bits) - 1u) < need - 1e-9) ++bits;
		width[c] = (uint8_t)bits;
	}
}

// Quantizes the knots of `st` (widths/decimation already set) from the source samples.
static void quantize_knots(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                           sinewi_enc_seg_track *st) {
	st->knot_count = sinewi_knot_count(seg->length, st->decimation);
	const bool raw = raw_rotation(t, st);
	for (uint32_t i = 0; i < st->knot_count; ++i) {
		uint32_t p = i << st->decimation;
		if (p > seg->length) p = seg->length;
		float v[4];
		sinewi_stored_value(w, t, st->dropped, seg->first_sample + p, v);
		if (raw) { // raw rotation: the source's own quaternion bits (only its sign may flip, exactly)
			uint32_t s = seg->first_sample + p;
			const sinew_clip *clip = w->clip;
			uint32_t src = (s >= clip->sample_count || (w->enc->looping && s == w->enc->sample_count)) ? 0 : s;
			const float *q = clip->transforms[(size_t)src * clip->joint_count + t->index].rotation;
			float sign = (double)q[0] * v[0] + (double)q[1] * v[1] + (double)q[2] * v[2] + (double)q[3] * v[3] < 0.0 ? -1.0f : 1.0f;
			for (uint32_t c = 0; c < 4; ++c) st->knots[i * 4 + c] = sinewi_quantize(q[c] * sign, SINEWI_WIDTH_RAW, 0.0f, 0.0f);
			continue;
		}
		for (uint32_t c = 0; c < t->components; ++c) {
			float lo, ext;
			seg_lo_ext(t, st, c, &lo, &ext);
			st->knots[i * t->components + c] = sinewi_quantize(v[slot_component(t, st, c)], st->width[c], lo, ext);
		}
	}
}

void sinewi_decode_track_sample(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint32_t length, float u,
                                const float *fit, float out[4]) {
	uint32_t k0;
	float alpha;
	sinewi_knot_locate(u, length, st->decimation, &k0, &alpha);
	uint32_t k1 = k0 + 1 < st->knot_count ? k0 + 1 : k0;
	float a[4], b[4];
	if (raw_rotation(t, st)) {
		for (uint32_t c = 0; c < 4; ++c) {
			a[c] = sinewi_dequantize(st->knots[k0 * 4 + c], SINEWI_WIDTH_RAW, 0.0f, 0.0f);
			b[c] = sinewi_dequantize(st->knots[k1 * 4 + c], SINEWI_WIDTH_RAW, 0.0f, 0.0f);
		}
		// raw rotations are the lossless fallback: a knot decodes as stored (docs/format.md)
		if (alpha == 0.0f) memcpy(out, a, sizeof a);
		else sinewi_quat_nlerp_fit(a, b, alpha, fit, out);
		return;
	}
	for (uint32_t c = 0; c < t->components; ++c) {
		float lo, ext;
		seg_lo_ext(t, st, c, &lo, &ext);
		a[c] = sinewi_dequantize(st->knots[k0 * t->components + c], st->width[c], lo, ext);
		b[c] = sinewi_dequantize(st->knots[k1 * t->components + c], st->width[c], lo, ext);
	}
	if (t->type == SINEWI_TRACK_ROTATION)
		sinewi_interp_rotation(a, b, st->dropped, alpha, fit, out);
	else
		sinewi_interp_values(a, b, t->components, alpha, out);
}

// Check position c of the current segment as joint j's rounding mode plays it.
static float check_u(const sinewi_work *w, uint32_t j, uint32_t c) {
	return w->rounding_mode[j] == SINEW_ROUNDING_NONE ? w->check_u[c] : w->check_u_step[c];
}

// Error of a track at local sample u of the segment in its budget's unit (object-space model for
// transforms, multiples of the precision for scalars; exact zeros must stay zero); v is the decoded value.
static double sample_error(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg, uint32_t u,
                           const float v[4]) {
	const uint32_t nj = w->joint_count;
	uint32_t s = seg->first_sample + u;
	double e;
	if (t->type == SINEWI_TRACK_SCALAR) {
		const sinew_scalar_track *src = &w->clip->scalar_tracks[t->index];
		double precision = src->precision > 0.0f ? src->precision : 1e-4;
		const float *ref = &w->scalars[t->index][(size_t)s * t->components];
		e = 0.0;
		for (uint32_t c = 0; c < t->components; ++c) {
			// non-negative curves (morph weights): a zero must decode as exactly zero
			if (ref[c] == 0.0f && v[c] != 0.0f && t->clip_min[c] == 0.0f) return INFINITY;
			double d = fabs((double)ref[c] - v[c]) / precision;
			if (d > e) e = d;
		}
		return e;
	}
	const sinew_qvv *x = &w->poses[(size_t)s * nj + t->index];
	const uint32_t j = t->index;
	if (t->type == SINEWI_TRACK_ROTATION) {
		e = sinewi_rotation_chord(x->rotation, v) * w->lever[j] * w->max_scale[j];
	} else if (t->type == SINEWI_TRACK_TRANSLATION) {
		double dx = (double)x->translation[0] - v[0], dy = (double)x->translation[1] - v[1], dz = (double)x->translation[2] - v[2];
		e = sqrt(dx * dx + dy * dy + dz * dz);
	} else {
		e = 0.0;
		for (int c = 0; c < 3; ++c) {
			double d = fabs((double)x->scale[c] - v[c]);
			if (d > e) e = d;
		}
		e *= w->lever[j];
	}
	return e * w->parent_gain[j];
}

// Does the track stay within `budget` at every sample of the segment? Starts at *start (where the
// last test of this track failed: the worst sample moves little between widths) and stops at the
// first sample over, which it leaves in *start. The answer does not depend on the order.
static bool track_fits(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                       const sinewi_enc_seg_track *st, double budget, uint32_t *start) {
	const uint32_t n = seg->length + 1, first = *start < n ? *start : 0;
	for (uint32_t k = 0; k < n; ++k) {
		uint32_t u = first + k < n ? first + k : first + k - n;
		float v[4];
		sinewi_decode_track_sample(t, st, seg->length, (float)u, w->fit, v);
		if (!(sample_error(w, t, seg, u, v) <= budget)) {
			*start = u;
			return false;
		}
	}
	return true;
}

// Largest error of a track over the segment (sample_error); with `decoded`, the decoded values of
// every position go there.
static double track_error(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                          const sinewi_enc_seg_track *st, float *decoded) {
	double worst = 0.0;
	for (uint32_t u = 0; u <= seg->length; ++u) {
		float v[4];
		sinewi_decode_track_sample(t, st, seg->length, (float)u, w->fit, v);
		if (decoded) memcpy(decoded + 4 * u, v, sizeof v);
		double e = sample_error(w, t, seg, u, v);
		if (!(e <= worst)) worst = e;
	}
// Check positions between samples (source key times and midpoints) are decoded for the
	// object-space verification only; the per-track model looks at samples.
	if (decoded && t->type != SINEWI_TRACK_SCALAR)
		for (uint32_t c = 0; c < w->check_n; ++c)
			sinewi_decode_track_sample(t, st, seg->length, sinewi_rounded_u(w, t->index, check_u(w, t->index, c), seg->length), w->fit,
			                           decoded + 4 * (seg->length + 1 + c));
	return worst;
}

// Bits of a candidate whose knots are quantized: with midpoint residuals where they save bits
// (sinewi_choose_midpoint decides for the whole clip later), so the search weighs decimation against
// dense knots that predict well.
static uint32_t candidate_cost(const sinewi_work *w, const sinewi_enc_track *t, sinewi_enc_seg_track *st, uint32_t length) {
	uint32_t bits = 0;
	if (raw_rotation(t, st)) bits = 128;
	else
		for (uint32_t c = 0; c < t->components; ++c) bits += sinewi_width_bits(st->width[c]);
	st->knot_count = sinewi_knot_count(length, st->decimation);
	return st->knot_count * bits - (w->settings->midpoint ? (uint32_t)sinewi_track_shifts(t, st) : 0u);
}

// Chooses decimation and widths for one track in one segment; returns the error reached.
static double search_track(const sinewi_work *w, uint32_t ti, const sinewi_enc_segment *seg, sinewi_enc_seg_track *st,
                           double budget, bool force_max, float *decoded, uint8_t *level) {
	const sinewi_enc_track *t = &w->enc->tracks[ti];
	int max_d = w->settings->max_decimation;
	uint32_t best_cost = UINT32_MAX, best_k = LEVEL_RAW, best_d = 0;
	const uint8_t dropped = st->chosen_dropped;
	st->dropped = dropped;
	uint32_t start = 0; // where the last test failed
	if (!force_max) {
		for (int d = 0; d <= max_d; ++d) {
			if (d > 0 && (1u << d) > seg->length) break;
			st->decimation = (uint8_t)d;
			widths_for_level(t, st, SINEWI_MAX_WIDTH, st->width);
			quantize_knots(w, t, seg, st);
			if (!track_fits(w, t, seg, st, budget, &start)) break; // coarser knots only get worse
			uint32_t lo = 0, hi = SINEWI_MAX_WIDTH;
			while (lo < hi) {
				uint32_t mid = (lo + hi) / 2;
				widths_for_level(t, st, mid, st->width);
				quantize_knots(w, t, seg, st);
				if (track_fits(w, t, seg, st, budget, &start))
					hi = mid;
				else
					lo = mid + 1;
			}
			widths_for_level(t, st, lo, st->width);
			if (w->settings->midpoint) quantize_knots(w, t, seg, st); // the residuals of exactly these knots
			uint32_t cost = candidate_cost(w, t, st, seg->length);
			if (cost < best_cost) best_cost = cost, best_k = lo, best_d = (uint32_t)d;
		}
	}
	st->decimation = (uint8_t)best_d;
	// raw rotations keep all four components and drop none (docs/format.md)
	st->dropped = best_k == LEVEL_RAW && t->type == SINEWI_TRACK_ROTATION ? 0 : dropped;
	widths_for_level(t, st, best_k, st->width);
	quantize_knots(w, t, seg, st);
	if (level) *level = (uint8_t)best_k;
	return track_error(w, t, seg, st, decoded);
}

// A segment is verified at its samples u = 0..length and then at the clip's check points inside it
// (positions length + 1 ...): `positions` in all.
typedef struct seg_scratch {
	uint32_t positions;
	uint32_t explicit_start;  // first position that is a clip check point
	float **decoded;          // [track] -> [positions * 4]
	sinewi_shell_frame_d *raw; // [positions * joints] the source's shell frames
	sinewi_affine_d *dec;     // [joints]
	sinew_qvv *pose;          // [joints]
	double *rho, *err;        // [joints]
	uint8_t *dirty, *forced;  // [joints]
	uint8_t *level;           // [track] precision level chosen by the search
	sinewi_affine_d *obj;     // [positions * joints] object-space transforms of the decoded pose
	sinewi_affine_d *trial;   // [positions * joints] same, for a trial change
	uint8_t *mark;            // [joints] joints in the subtree of a trial change (valid from its root to its end)
	uint32_t *subtree_end;    // [joints] one past the last descendant's index (descendants lie in [j, end))
	float *trial_decoded;     // [positions * 4]
	uint32_t *saved_knots;    // [(length + 1) * 4]
	// refinement (refine_segment): the decoded pose's local transforms, the trial joint's, and what a
	// rejected trial needs to be tried again (see there)
	sinewi_affine_d *local;      // [positions * joints]
	sinewi_affine_d *trial_local; // [positions]
	uint32_t *fail_position;     // [track] where the track's last trial failed (tested first next time)
	uint32_t *rejected_at;       // [track] stamp of the track's last rejected trial (0: none)
	uint32_t *changed_at;        // [joints] stamp of the last accepted change of the joint's tracks
	uint32_t worst_joint, worst_position; // the largest error / threshold of the last verify_segment
} seg_scratch;

static bool scratch_alloc(sinewi_work *w, uint32_t length, seg_scratch *sc) {
	const uint32_t nj = w->joint_count ? w->joint_count : 1, nt = w->enc->track_count ? w->enc->track_count : 1;
	sinewi_arena *a = w->arena;
	const size_t np = (size_t)length + 1 + w->check_n;
	sc->positions = (uint32_t)np;
	sc->explicit_start = length + 1 + w->mid_n;
	sc->decoded = (float **)sinewi_arena_array_uninit(a, nt, sizeof(float *));
	sc->raw = (sinewi_shell_frame_d *)sinewi_arena_array_uninit(a, np * nj, sizeof(sinewi_shell_frame_d));
	sc->dec = (sinewi_affine_d *)sinewi_arena_array_uninit(a, nj, sizeof(sinewi_affine_d));
	sc->pose = (sinew_qvv *)sinewi_arena_array_uninit(a, nj, sizeof(sinew_qvv));
	sc->rho = (double *)sinewi_arena_array_uninit(a, nj, sizeof(double));
	sc->err = (double *)sinewi_arena_array_uninit(a, nj, sizeof(double));
	sc->dirty = (uint8_t *)sinewi_arena_array_uninit(a, nj, 1);
	sc->forced = (uint8_t *)sinewi_arena_array_uninit(a, nj, 1);
	sc->level = (uint8_t *)sinewi_arena_array_uninit(a, nt, 1);
	sc->obj = (sinewi_affine_d *)sinewi_arena_array_uninit(a, np * nj, sizeof(sinewi_affine_d));
	sc->trial = (sinewi_affine_d *)sinewi_arena_array_uninit(a, np * nj, sizeof(sinewi_affine_d));
	sc->mark = (uint8_t *)sinewi_arena_array_uninit(a, nj, 1);
	sc->subtree_end = (uint32_t *)sinewi_arena_array_uninit(a, nj, sizeof(uint32_t));
	sc->trial_decoded = (float *)sinewi_arena_array_uninit(a, np * 4, sizeof(float));
	sc->saved_knots = (uint32_t *)sinewi_arena_array_uninit(a, (size_t)(length + 1) * 4, sizeof(uint32_t));
	sc->local = (sinewi_affine_d *)sinewi_arena_array_uninit(a, np * nj, sizeof(sinewi_affine_d));
	sc->trial_local = (sinewi_affine_d *)sinewi_arena_array_uninit(a, np, sizeof(sinewi_affine_d));
	sc->fail_position = (uint32_t *)sinewi_arena_array_uninit(a, nt, sizeof(uint32_t));
	sc->rejected_at = (uint32_t *)sinewi_arena_array_uninit(a, nt, sizeof(uint32_t));
	sc->changed_at = (uint32_t *)sinewi_arena_array_uninit(a, nj, sizeof(uint32_t));
	if (!sc->decoded || !sc->raw || !sc->dec || !sc->pose || !sc->rho || !sc->err || !sc->dirty || !sc->forced ||
	    !sc->level || !sc->obj || !sc->trial || !sc->mark || !sc->subtree_end || !sc->trial_decoded || !sc->saved_knots ||
	    !sc->local || !sc->trial_local || !sc->fail_position || !sc->rejected_at || !sc->changed_at)
		return false;
	// parents come before children, so one backward pass carries each subtree's end up to its root
	for (uint32_t i = 0; i < w->joint_count; ++i) sc->subtree_end[i] = i + 1;
	for (uint32_t i = w->joint_count; i-- > 1;) {
		int32_t p = w->clip->joints[i].parent;
		if (p >= 0 && sc->subtree_end[i] > sc->subtree_end[p]) sc->subtree_end[p] = sc->subtree_end[i];
	}
	for (uint32_t i = 0; i < w->enc->track_count; ++i) {
		sc->decoded[i] = (float *)sinewi_arena_array_uninit(a, np * 4, sizeof(float));
		if (!sc->decoded[i]) return false;
	}
	return true;
}

// The time of position u of the current segment (a sample, a sample midpoint or a clip check point).
static double position_time(const sinewi_work *w, const seg_scratch *sc, const sinewi_enc_segment *seg, uint32_t u) {
	if (u <= seg->length) return sinew_clip_sample_time(w->clip, (double)(seg->first_sample + u));
	if (u < sc->explicit_start) return sinew_clip_sample_time(w->clip, (double)(seg->first_sample + u - seg->length - 1) + 0.5);
	return w->clip->check_times[w->check_first + u - sc->explicit_start];
}

// Object-space error of every joint at every position of the segment (samples, then check points); returns the largest ratio
// error / threshold.
// The samples come first: when one is over, the positions between them are not checked (the search
// tightens and verifies again), which saves most of their cost in the tightening rounds.
static double verify_segment(sinewi_work *w, seg_scratch *sc) {
	const uint32_t nj = w->joint_count;
	const sinewi_enc_clip *enc = w->enc;
	const sinew_joint *joints = w->clip->joints;
	const uint32_t samples = sc->positions - w->check_n;
	double worst_ratio = 0.0;
	for (uint32_t j = 0; j < nj; ++j) sc->err[j] = 0.0;
	sc->worst_joint = sc->worst_position = 0;
	for (uint32_t u = 0; u < sc->positions; ++u) {
		if (u == samples && worst_ratio > 1.0) break;
		for (uint32_t j = 0; j < nj; ++j) {
			sinew_qvv *x = &sc->pose[j];
			*x = enc->constants[j];
			int32_t tr = enc->joint_track[SINEWI_TRACK_ROTATION][j], tt = enc->joint_track[SINEWI_TRACK_TRANSLATION][j],
			        ts = enc->joint_track[SINEWI_TRACK_SCALE][j];
			if (tr >= 0) memcpy(x->rotation, sc->decoded[tr] + 4 * u, 4 * sizeof(float));
			if (tt >= 0) memcpy(x->translation, sc->decoded[tt] + 4 * u, 3 * sizeof(float));
			if (ts >= 0) memcpy(x->scale, sc->decoded[ts] + 4 * u, 3 * sizeof(float));
		}
		sinewi_compose_pose_d(joints, nj, sc->pose, sc->dec);
		const sinewi_shell_frame_d *raw = sc->raw + (size_t)u * nj;
		for (uint32_t j = 0; j < nj; ++j) {
			double e = sinewi_shell_error_frame_d(&raw[j], &sc->dec[j], w->shell_off + 3 * (size_t)j);
			if (e > sc->err[j]) sc->err[j] = e;
			double r = e / w->threshold[j];
			if (!(r <= worst_ratio)) worst_ratio = r, sc->worst_joint = j, sc->worst_position = u;
		}
	}
	return worst_ratio;
}

// The positions of segment `seg` verified besides its samples, as local positions in w->check_u:
// the midpoint of every sample interval (clip->check_midpoints), then the clip's check points strictly
// inside the segment (decoder's key arithmetic: docs/format.md §sampling).
static bool segment_checks(sinewi_work *w, const sinewi_enc_segment *seg, sinewi_arena *arena) {
	const sinew_clip *clip = w->clip;
	const bool explicit_checks = clip->check_count && clip->check_times && clip->check_transforms;
	w->check_n = w->mid_n = 0;
	w->check_first = 0;
	w->check_u = w->check_u_step = NULL;
	if (w->joint_count == 0 || (!explicit_checks && !clip->check_midpoints)) return true;
	const uint32_t mids = clip->check_midpoints ? seg->length : 0;
	const size_t max_n = (size_t)mids + (explicit_checks ? clip->check_count : 0) + 1;
	w->check_u = (float *)sinewi_arena_array_uninit(arena, max_n, sizeof(float));
	w->check_u_step = (float *)sinewi_arena_array_uninit(arena, max_n, sizeof(float));
	if (!w->check_u || !w->check_u_step) return false;
	for (uint32_t k = 0; k < mids; ++k) w->check_u[w->check_n] = w->check_u_step[w->check_n] = (float)k + 0.5f, w->check_n++;
	w->mid_n = w->check_n;
	if (!explicit_checks) return true;
	const double lo = seg->first_sample, hi = (double)seg->first_sample + seg->length;
	const double last = (double)(w->stored - 1);
	uint32_t a = 0, b = clip->check_count; // first check with key > lo
	while (a < b) {
		uint32_t m = a + (b - a) / 2;
		if (sinewi_clip_key(clip, clip->check_times[m]) <= lo) a = m + 1;
		else b = m;
	}
	w->check_first = a;
	for (uint32_t c = a; c < clip->check_count; ++c) {
		double key = sinewi_clip_key(clip, clip->check_times[c]); // t * rate, or through the time map
		if (key >= hi || key > last) break;
		// the context snaps keys this close to a sample onto it (two tolerances: codec_math.h); keep the
		// run contiguous (check_first + index): a snapped key checks its sample again
		w->check_u[w->check_n] = (float)(sinewi_snap_key(key, SINEWI_SNAP_INTERPOLATED) - lo);
		w->check_u_step[w->check_n++] = (float)(sinewi_snap_key(key, SINEWI_SNAP_ROUNDED) - lo);
	}
	return true;
}

// Source sample of stored sample s (the wrap sample of a looping clip is source sample 0).
static uint32_t source_sample(const sinewi_work *w, uint32_t s) {
	return (s >= w->clip->sample_count || (w->enc->looping && s == w->enc->sample_count)) ? 0 : s;
}

// The source's pose halfway between source samples a and b as sampling plays it.
static void interpolate_source(const sinewi_work *w, uint32_t a, uint32_t b, sinew_qvv *out) {
	const uint32_t nj = w->joint_count;
	const sinew_qvv *pa = &w->clip->transforms[(size_t)a * nj], *pb = &w->clip->transforms[(size_t)b * nj];
	for (uint32_t j = 0; j < nj; ++j) sinewi_qvv_halfway(&pa[j], &pb[j], w->rounding_mode[j], &out[j]);
}

static void search_joint(sinewi_work *w, uint32_t j, const sinewi_enc_segment *seg, seg_scratch *sc) {
	const sinewi_enc_clip *enc = w->enc;
	uint32_t animated = 0;
	for (int sub = 0; sub < 3; ++sub) animated += enc->joint_track[sub][j] >= 0;
	if (!animated) return;
	double budget = w->threshold[j] * sc->rho[j] - w->const_error[j];
	if (budget < w->threshold[j] * sc->rho[j] * 0.1) budget = w->threshold[j] * sc->rho[j] * 0.1;
	budget /= animated;
	for (int sub = 0; sub < 3; ++sub) {
		int32_t ti = enc->joint_track[sub][j];
		if (ti < 0) continue;
		search_track(w, (uint32_t)ti, seg, &seg->tracks[ti], budget, sc->forced[j] != 0, sc->decoded[ti], &sc->level[ti]);
	}
}


// Local transform of joint j at local sample u from the decoded caches; `override` replaces
// track `ti`'s values (a trial) when not NULL.
static void decoded_local(const sinewi_work *w, const seg_scratch *sc, uint32_t j, uint32_t u, int32_t ti,
                          const float *override, sinew_qvv *x) {
	const sinewi_enc_clip *enc = w->enc;
	*x = enc->constants[j];
	for (int sub = 0; sub < 3; ++sub) {
		int32_t t = enc->joint_track[sub][j];
		if (t < 0) continue;
		const float *v = (t == ti && override) ? override + 4 * u : sc->decoded[t] + 4 * u;
		if (sub == 0) memcpy(x->rotation, v, 4 * sizeof(float));
		else memcpy(sub == 1 ? x->translation : x->scale, v, 3 * sizeof(float));
	}
}

static void build_object_cache(const sinewi_work *w, seg_scratch *sc) {
	const uint32_t nj = w->joint_count;
	const sinew_joint *joints = w->clip->joints;
	for (uint32_t u = 0; u < sc->positions; ++u) {
		sinewi_affine_d *local = sc->local + (size_t)u * nj, *obj = sc->obj + (size_t)u * nj;
		for (uint32_t j = 0; j < nj; ++j) {
			sinew_qvv x;
			decoded_local(w, sc, j, u, -1, NULL, &x);
			sinewi_affine_from_qvv_d(&x, &local[j]);
			int32_t p = joints[j].parent; // as sinewi_compose_pose_d composes
			if (p >= 0 && (uint32_t)p < j) sinewi_affine_mul_d(&obj[p], &local[j], &obj[j]);
			else obj[j] = local[j];
		}
	}
}

// Decodes track t at every position of the segment (samples, then check points) into out.
static void decode_positions(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                             const sinewi_enc_seg_track *st, float *out) {
	for (uint32_t u = 0; u <= seg->length; ++u) sinewi_decode_track_sample(t, st, seg->length, (float)u, w->fit, out + 4 * u);
	if (t->type != SINEWI_TRACK_SCALAR)
		for (uint32_t c = 0; c < w->check_n; ++c)
			sinewi_decode_track_sample(t, st, seg->length, sinewi_rounded_u(w, t->index, check_u(w, t->index, c), seg->length), w->fit,
			                           out + 4 * (seg->length + 1 + c));
}

// Marks joint j and its descendants in sc->mark (valid in [j, subtree_end[j]); a parent below j is outside).
static void mark_subtree(const sinewi_work *w, seg_scratch *sc, uint32_t j) {
	const uint32_t end = sc->subtree_end[j];
	const sinew_joint *joints = w->clip->joints;
	memset(sc->mark + j, 0, end - j);
	sc->mark[j] = 1;
	for (uint32_t i = j + 1; i < end; ++i)
		if (joints[i].parent >= (int32_t)j && sc->mark[joints[i].parent]) sc->mark[i] = 1;
}

// Does position u still meet every threshold of joint j's subtree (marked) with j's local transform
// `local_j`? The trial transforms go to sc->trial.
static bool position_fits(const sinewi_work *w, seg_scratch *sc, uint32_t j, uint32_t u, const sinewi_affine_d *local_j) {
	const uint32_t nj = w->joint_count, end = sc->subtree_end[j];
	const sinew_joint *joints = w->clip->joints;
	const sinewi_shell_frame_d *raw = sc->raw + (size_t)u * nj;
	const sinewi_affine_d *obj = sc->obj + (size_t)u * nj, *local = sc->local + (size_t)u * nj;
	sinewi_affine_d *trial = sc->trial + (size_t)u * nj;
	for (uint32_t i = j; i < end; ++i) {
		if (!sc->mark[i]) continue;
		const sinewi_affine_d *l = i == j ? local_j : &local[i];
		int32_t p = joints[i].parent;
		if (p >= 0 && (uint32_t)p < i)
			sinewi_affine_mul_d(p >= (int32_t)j && sc->mark[p] ? &trial[p] : &obj[p], l, &trial[i]);
		else
			trial[i] = *l;
		if (!(sinewi_shell_error_frame_d(&raw[i], &trial[i], w->shell_off + 3 * (size_t)i) <= w->threshold[i])) return false;
	}
	return true;
}

// Does the segment still meet every threshold when track ti (of joint j) decodes as `values`? Only
// joint j and its descendants can change. The position where the track's last trial failed is tested
// first (a rejection usually fails there again); the answer does not depend on the order.
// The subtree is marked (mark_subtree) by the caller.
static bool subtree_fits(const sinewi_work *w, seg_scratch *sc, uint32_t j, int32_t ti, const float *values) {
	const uint32_t first = sc->fail_position[ti] < sc->positions ? sc->fail_position[ti] : 0;
	for (uint32_t k = 0; k < sc->positions; ++k) {
		uint32_t u = first + k < sc->positions ? first + k : first + k - sc->positions;
		sinew_qvv x;
		decoded_local(w, sc, j, u, ti, values, &x);
		sinewi_affine_from_qvv_d(&x, &sc->trial_local[u]);
		if (!position_fits(w, sc, j, u, &sc->trial_local[u])) {
			sc->fail_position[ti] = u;
			return false;
		}
	}
	return true;
}

// Has anything that decides a trial of track ti (joint j) changed since it was last rejected? A trial
// depends on the track's own state and on the decoded transforms of j's ancestors and of its subtree
// (marked by the caller): if none of them changed, it would be rejected again.
static bool retry_needed(const sinewi_work *w, const seg_scratch *sc, uint32_t ti, uint32_t j) {
	const uint32_t since = sc->rejected_at[ti];
	if (since == 0) return true;
	for (int32_t a = (int32_t)j; a >= 0; a = w->clip->joints[a].parent)
		if (sc->changed_at[a] > since) return true;
	for (uint32_t i = j + 1; i < sc->subtree_end[j]; ++i)
		if (sc->mark[i] && sc->changed_at[i] > since) return true;
	return false;
}

// Greedy descent on exact object-space error: each pass tries to drop every transform track
// one precision level; a step stays when the joint's subtree still meets the threshold. A trial that
// nothing has changed for since its rejection is not run again (it would be rejected again), so the
// passes reach exactly what trying every track every pass reaches.
static void refine_segment(sinewi_work *w, const sinewi_enc_segment *seg, seg_scratch *sc, int passes) {
	const sinewi_enc_clip *enc = w->enc;
	const uint32_t nj = w->joint_count;
	const size_t knot_bytes = (size_t)(seg->length + 1) * 4 * sizeof(uint32_t);
	build_object_cache(w, sc);
	memset(sc->fail_position, 0, enc->track_count * sizeof(uint32_t));
	memset(sc->rejected_at, 0, enc->track_count * sizeof(uint32_t));
	memset(sc->changed_at, 0, nj * sizeof(uint32_t));
	uint32_t stamp = 0;
	for (int pass = 0; pass < passes; ++pass) {
		bool changed = false;
		for (uint32_t ti = 0; ti < enc->track_count; ++ti) {
			const sinewi_enc_track *t = &enc->tracks[ti];
			if (t->type == SINEWI_TRACK_SCALAR || sc->level[ti] == 0) continue;
			const uint32_t j = t->index;
			mark_subtree(w, sc, j);
			if (!retry_needed(w, sc, ti, j)) continue;
			++stamp;
			sinewi_enc_seg_track *st = &seg->tracks[ti];
			sinewi_enc_seg_track saved = *st;
			memcpy(sc->saved_knots, st->knots, knot_bytes);
			st->dropped = st->chosen_dropped;
			widths_for_level(t, st, sc->level[ti] - 1u, st->width);
			quantize_knots(w, t, seg, st);
			decode_positions(w, t, seg, st, sc->trial_decoded);
			if (subtree_fits(w, sc, j, (int32_t)ti, sc->trial_decoded)) {
				sc->level[ti]--;
				memcpy(sc->decoded[ti], sc->trial_decoded, (size_t)sc->positions * 4 * sizeof(float));
				for (uint32_t u = 0; u < sc->positions; ++u) {
					sc->local[(size_t)u * nj + j] = sc->trial_local[u];
					for (uint32_t i = j; i < sc->subtree_end[j]; ++i)
						if (sc->mark[i]) sc->obj[(size_t)u * nj + i] = sc->trial[(size_t)u * nj + i];
				}
				sc->changed_at[j] = stamp;
				changed = true;
			} else {
				*st = saved;
				memcpy(st->knots, sc->saved_knots, knot_bytes);
				sc->rejected_at[ti] = stamp;
			}
		}
		if (!changed) break;
	}
}

bool sinewi_search_segment(sinewi_work *w, uint32_t s, sinew_error *error) {
	(void)error;
	sinewi_enc_clip *enc = w->enc;
	sinewi_enc_segment *seg = &enc->segments[s];
	const uint32_t nj = w->joint_count;
	sinewi_arena scratch_arena;
	sinewi_arena_init(&scratch_arena, &w->arena->alloc.a);
	sinewi_arena *saved = w->arena;
	w->arena = &scratch_arena;
	bool ok = segment_checks(w, seg, &scratch_arena);
	seg_scratch sc;
	ok = ok && scratch_alloc(w, seg->length, &sc);
	w->arena = saved;
	if (!ok) {
		sinewi_arena_free(&scratch_arena);
		return false;
	}
	// knots live in the clip's arena: they are serialized later
	for (uint32_t i = 0; i < enc->track_count; ++i) {
		sinewi_enc_seg_track *st = &seg->tracks[i];
		st->knots = (uint32_t *)sinewi_arena_array_uninit(w->arena, (size_t)(seg->length + 1) * 4, sizeof(uint32_t));
		if (!st->knots) {
			sinewi_arena_free(&scratch_arena);
			return false;
		}
		segment_ranges(w, &enc->tracks[i], seg, st);
	}
	// scalar tracks: independent, no hierarchy
	for (uint32_t i = 0; i < enc->track_count; ++i)
		if (enc->tracks[i].type == SINEWI_TRACK_SCALAR) {
			double e = search_track(w, i, seg, &seg->tracks[i], 1.0, false, NULL, NULL);
			if (!(e <= 1.0)) e = search_track(w, i, seg, &seg->tracks[i], 1.0, true, NULL, NULL);
			if (e > enc->max_scalar_error) enc->max_scalar_error = e;
			if (!(e <= 1.0)) {
				sinewi_arena_free(&scratch_arena);
				return false;
			}
		}
	if (nj == 0) { // scalar tracks only
		sinewi_arena_free(&scratch_arena);
		return true;
	}
	// The reference is the source clip itself (not the normalized working copy), so the bound
	// holds for exactly what sinew_measure_error compares; the wrap sample is source sample 0.
	// Sample midpoints compare with the source samples interpolated (DESIGN §4 sampling semantics),
	// check points with the source's own evaluation at their times.
	sinewi_affine_d *obj = sc.obj; // free until build_object_cache
	for (uint32_t u = 0; u < sc.positions; ++u) {
		const sinew_qvv *ref;
		if (u <= seg->length) {
			ref = &w->clip->transforms[(size_t)source_sample(w, seg->first_sample + u) * nj];
		} else if (u <= seg->length + w->mid_n) {
			uint32_t k = u - seg->length - 1;
			interpolate_source(w, source_sample(w, seg->first_sample + k), source_sample(w, seg->first_sample + k + 1),
			                   sc.pose);
			ref = sc.pose;
		} else {
			ref = &w->clip->check_transforms[(size_t)(w->check_first + u - seg->length - 1 - w->mid_n) * nj];
		}
		sinewi_compose_pose_d(w->clip->joints, nj, ref, obj);
		for (uint32_t j = 0; j < nj; ++j) sinewi_shell_frame_from_d(&obj[j], w->shell_off + 3 * (size_t)j, &sc.raw[(size_t)u * nj + j]);
	}
	for (uint32_t j = 0; j < nj; ++j) {
		sc.rho[j] = w->rho[j];
		sc.dirty[j] = 1;
		sc.forced[j] = 0;
	}
	const int max_iter = w->settings->level >= SINEW_LEVEL_HIGH ? 40 : (w->settings->level == SINEW_LEVEL_FAST ? 8 : 20);
	bool success = false;
	for (int iter = 0; iter <= max_iter + 1; ++iter) {
		for (uint32_t j = 0; j < nj; ++j)
			if (sc.dirty[j]) search_joint(w, j, seg, &sc), sc.dirty[j] = 0;
		double ratio = verify_segment(w, &sc);
		if (ratio <= 1.0) {
			success = true;
			int passes = w->settings->level == SINEW_LEVEL_FAST ? 0 : (w->settings->level >= SINEW_LEVEL_HIGH ? 24 : 8);
			if (passes) {
				refine_segment(w, seg, &sc, passes);
				verify_segment(w, &sc);
			}
			double e = 0;
			for (uint32_t j = 0; j < nj; ++j)
				if (sc.err[j] > e) e = sc.err[j];
			if (e > enc->max_error) enc->max_error = e;
			break;
		}
		if (iter > max_iter) { // even full precision is over (resampling took more than the bound at check points)
			for (uint32_t j = 0; j < nj; ++j)
				if (sc.err[j] > enc->max_error) enc->max_error = sc.err[j];
			const uint32_t j = sc.worst_joint;
			if (!(sc.err[j] <= enc->over_error)) {
				enc->over_error = sc.err[j], enc->over_joint = j;
				enc->over_time = position_time(w, &sc, seg, sc.worst_position);
			}
			// asked to write it anyway: this encoding stands, and the clip says it is over its bound
			if (w->settings->allow_over_bound) enc->over_bound = 1, success = true;
			break;
		}
		// Tighten every joint on the chain of each joint over its threshold; after max_iter
		// rounds, chains still over go to full precision.
		for (uint32_t v = 0; v < nj; ++v) {
			if (sc.err[v] <= w->threshold[v]) continue;
			double f = w->threshold[v] / sc.err[v] * 0.9;
			f = f < 0.3 ? 0.3 : (f > 0.95 ? 0.95 : f);
			for (int32_t a = (int32_t)v; a >= 0; a = w->clip->joints[a].parent) {
				if (iter == max_iter) sc.forced[a] = 1;
				else if (sc.rho[a] * f < sc.rho[a]) sc.rho[a] *= f;
				sc.dirty[a] = 1;
			}
		}
	}
	sinewi_arena_free(&scratch_arena);
	return success;
}

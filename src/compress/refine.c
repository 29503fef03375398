// sinew — see include/sinew.h for version and licence
// Refinement of one segment after the bit-rate search met the bound: a greedy descent on the exact
// object-space error that tries to take one precision level from every transform track, pass after
// pass, keeping a step when the joint's subtree still meets every threshold at every position.
//
// Two things keep it cheap without changing a single decision:
// - a trial that nothing has changed for since its rejection is not run again (retry_needed);
// - a position whose subtree has room is accepted from a bound instead of composed: a change of joint
//   j's local transform from L to L' moves a shell point of its subtree by |W (L' - L) z|, where W is
//   the ancestors' map (norm at most the product of their largest scale components) and z the point in
//   j's coordinates (|z| at most the subtree's reach, from the decoded translations and scales). Where
//   the current error plus that displacement stays under the threshold with room for rounding, the
//   exact test would pass too; elsewhere the position is composed and tested exactly. Object-space
//   transforms left out of date that way are recomposed from the local ones when a later trial needs them.
// A guide (refine_memo.c) may give a trial's outcome instead of testing it: an acceptance taken that way
// leaves the subtree's transforms out of date with no bound on their errors, so they are composed again
// where a later trial or the end needs them.
#include "segment_search.h"

#include <math.h>
#include <string.h>

// Marks joint j and its descendants in sc->mark (valid in [j, subtree_end); a parent below j is outside).
static void mark_subtree(const sinewi_work *w, seg_scratch *sc, uint32_t j) {
	const uint32_t j0 = sc->j0, end = sc->subtree_end[j - j0];
	const sinew_joint *joints = w->clip->joints;
	if (sc->descendants[j - j0] == end - j - 1) { // (depth-first order: the whole range)
		memset(sc->mark + (j - j0), 1, end - j);
		return;
	}
	memset(sc->mark + (j - j0), 0, end - j);
	sc->mark[j - j0] = 1;
	for (uint32_t i = j + 1; i < end; ++i)
		if (joints[i].parent >= (int32_t)j && sc->mark[(uint32_t)joints[i].parent - j0]) sc->mark[i - j0] = 1;
}

// The object-space transform of joint i at position u, recomposed (with every out-of-date ancestor)
// from the local transforms where a bounded acceptance left it out of date; the errors of the
// recomposed joints become exact again (an up-to-date joint's error_bound is its exact error).
static const sinewi_affine_d *current_obj(const sinewi_work *w, seg_scratch *sc, uint32_t u, uint32_t i) {
	const uint32_t j0 = sc->j0;
	const size_t row = (size_t)u * sc->nj;
	const sinew_joint *joints = w->clip->joints;
	sinewi_affine_d *obj = sc->obj + row;
	const sinewi_affine_d *local = sc->local + row;
	uint8_t *stale = sc->stale + row;
	uint32_t n = 0;
	for (uint32_t k = i; stale[k - j0];) {
		sc->path[n++] = k;
		if (!sinewi_has_parent(joints, k)) break;
		k = (uint32_t)joints[k].parent;
	}
	while (n--) {
		const uint32_t k = sc->path[n], l = k - j0;
		if (sinewi_has_parent(joints, k)) sinewi_affine_mul_d(&obj[(uint32_t)joints[k].parent - j0], &local[l], &obj[l]);
		else obj[l] = local[l];
		stale[l] = 0; // and its error exact again
		sc->error_bound[row + l] = sinewi_shell_error_frame_d(&sc->raw[row + l], &obj[l], w->shell_off + 3 * (size_t)k);
	}
	return &obj[i - j0];
}

// The bound's quantities for the decoded pose before refinement (largest scale component, subtree
// reach, ancestors' gain); its local and object-space transforms and errors are verify_segment's.
static void build_caches(const sinewi_work *w, seg_scratch *sc) {
	const uint32_t nj = sc->nj, j0 = sc->j0;
	const sinew_joint *joints = w->clip->joints;
	// the scene's extent (from the source's frames: the clip's earlier encodings may have measured them)
	if (!(sc->extent >= 0.0)) {
		double extent = 0.0;
		for (size_t f = 0; f < (size_t)sc->positions * nj; ++f) {
			const sinewi_shell_frame_d *raw = &sc->raw[f];
			double size = fabs(raw->t[0]) + fabs(raw->t[1]) + fabs(raw->t[2]);
			for (int k = 0; k < 3; ++k) size += fabs(raw->u[0][k]) + fabs(raw->u[1][k]) + fabs(raw->u[2][k]); // axis k
			if (size > extent) extent = size;
		}
		sc->extent = extent;
		if (w->raw_cache && w->raw_cache->frames == sc->raw) w->raw_cache->extent = extent;
	}
	for (uint32_t u = 0; u < sc->positions; ++u) {
		const size_t row = (size_t)u * nj;
		const sinewi_affine_d *local = sc->local + row;
		double *smax = sc->scale_max + row, *reach = sc->reach + row, *gain = sc->gain + row;
		for (uint32_t l = 0; l < nj; ++l) {
			sinew_qvv x;
			sinewi_decoded_local(w, sc, j0 + l, u, -1, NULL, &x);
			sc->stale[row + l] = 0;
			smax[l] = sinewi_fmax(fabs((double)x.scale[0]), sinewi_fmax(fabs((double)x.scale[1]), fabs((double)x.scale[2])));
			const double *off = w->shell_off + 3 * (size_t)(j0 + l);
			reach[l] = sinewi_fmax(off[0], sinewi_fmax(off[1], off[2]));
		}
		// children have larger indices than their parents: one backward pass carries each reach up
		for (uint32_t l = nj; l-- > 0;) {
			if (!sinewi_has_parent(joints, j0 + l)) continue;
			const double *t = local[l].t;
			const uint32_t p = (uint32_t)joints[j0 + l].parent - j0;
			reach[p] = sinewi_fmax(reach[p], sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) + smax[l] * reach[l]);
		}
		for (uint32_t l = 0; l < nj; ++l) {
			const bool p = sinewi_has_parent(joints, j0 + l);
			const uint32_t pl = p ? (uint32_t)joints[j0 + l].parent - j0 : 0;
			gain[l] = p ? gain[pl] * smax[pl] : 1.0;
		}
	}
	// rounding in composing the pose is far below 1e-12 of the scene's extent
	sc->margin = 1e-12 * sc->extent;
	for (uint32_t l = 0; l < nj; ++l) sc->room_limit[l] = w->threshold[j0 + l] * (1.0 - 1e-7) - sc->margin;
}

// Brings every out-of-date object-space transform and its error up to date (the exact errors of the
// refined encoding, for verify_segment).
static void refresh_caches(const sinewi_work *w, seg_scratch *sc) {
	for (uint32_t u = 0; u < sc->positions; ++u)
		for (uint32_t l = 0; l < sc->nj; ++l)
			if (sc->stale[(size_t)u * sc->nj + l]) current_obj(w, sc, u, sc->j0 + l);
}

// Joint a's reach at position u from its own shell and its children's.
static void update_reach(const sinewi_work *w, seg_scratch *sc, uint32_t u, uint32_t a) {
	const uint32_t j0 = sc->j0;
	const size_t row = (size_t)u * sc->nj;
	const double *off = w->shell_off + 3 * (size_t)a;
	double r = sinewi_fmax(off[0], sinewi_fmax(off[1], off[2]));
	for (uint32_t k = sc->child_start[a - j0]; k < sc->child_start[a - j0 + 1]; ++k) {
		const uint32_t c = sc->children[k] - j0;
		const double *t = sc->local[row + c].t;
		r = sinewi_fmax(r, sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) + sc->scale_max[row + c] * sc->reach[row + c]);
	}
	sc->reach[row + a - j0] = r;
}

// How far the trial of track t (joint j) can move any shell point of j's subtree at position u: an
// upper bound (see the top of this file), with 1e-6 of it for rounding.
static double trial_delta(const seg_scratch *sc, const sinewi_enc_track *t, uint32_t ti, uint32_t u, const float *values) {
	const size_t at = (size_t)u * sc->nj + (t->index - sc->j0);
	const float *a = sc->decoded[ti - sc->t0] + 4 * (size_t)u, *b = values + 4 * (size_t)u;
	double linear = 0.0, shift = 0.0;
	if (t->type == SINEWI_TRACK_ROTATION) {
		// |R(q') - R(q)| = 2 sin(angle / 2) <= 2 |q' - q| for unit quaternions on the same side; for the
		// decoded ones, |a/|a| - b/|b|| <= |a - b| + ||a| - 1| + ||b| - 1|, and ||a| - 1| <= |a.a - 1|
		// (no normalization: the bound only has to hold)
		double qa[4] = {a[0], a[1], a[2], a[3]}, qb[4] = {b[0], b[1], b[2], b[3]}, chord2 = 0.0;
		const double na = sinewi_quat_dot_d(qa, qa), nb = sinewi_quat_dot_d(qb, qb);
		double slack = fabs(na - 1.0) + fabs(nb - 1.0) + 1e-12;
		if (!(na > 0.0 && nb > 0.0)) { // a zero quaternion normalizes to the identity
			sinewi_quat_normalize_d(qa);
			sinewi_quat_normalize_d(qb);
			slack = 1e-12;
		}
		const double sign = sinewi_quat_dot_d(qa, qb) < 0.0 ? -1.0 : 1.0;
		for (int k = 0; k < 4; ++k) chord2 += (qb[k] - sign * qa[k]) * (qb[k] - sign * qa[k]);
		linear = 2.0 * (sqrt(chord2) + slack) * sc->scale_max[at];
	} else if (t->type == SINEWI_TRACK_TRANSLATION) {
		const double dx = (double)b[0] - a[0], dy = (double)b[1] - a[1], dz = (double)b[2] - a[2];
		shift = sqrt(dx * dx + dy * dy + dz * dz);
	} else {
		for (int k = 0; k < 3; ++k) linear = sinewi_fmax(linear, fabs((double)b[k] - a[k]));
	}
	return sc->gain[at] * (linear * sc->reach[at] + shift) * (1.0 + 1e-6);
}

// Does position u still meet every threshold of joint j's subtree (marked) with j's local transform
// `local_j`? The trial transforms go to sc->trial and their errors to sc->trial_error.
static bool position_fits(const sinewi_work *w, seg_scratch *sc, uint32_t j, uint32_t u, const sinewi_affine_d *local_j) {
	const uint32_t j0 = sc->j0, end = sc->subtree_end[j - j0];
	const sinew_joint *joints = w->clip->joints;
	const size_t row = (size_t)u * sc->nj;
	const sinewi_shell_frame_d *raw = sc->raw + row;
	const sinewi_affine_d *local = sc->local + row;
	const sinewi_affine_d *parent_obj = sinewi_has_parent(joints, j) ? current_obj(w, sc, u, (uint32_t)joints[j].parent) : NULL;
	sinewi_affine_d *trial = sc->trial + row;
	for (uint32_t i = j; i < end; ++i) {
		const uint32_t l = i - j0;
		if (!sc->mark[l]) continue;
		if (i == j) {
			if (parent_obj) sinewi_affine_mul_d(parent_obj, local_j, &trial[l]);
			else trial[l] = *local_j;
		} else {
			sinewi_affine_mul_d(&trial[(uint32_t)joints[i].parent - j0], &local[l], &trial[l]); // marked: its parent is too
		}
		double e = sinewi_shell_error_frame_d(&raw[l], &trial[l], w->shell_off + 3 * (size_t)i);
		sc->trial_error[row + l] = e;
		if (!(e <= w->threshold[i])) return false;
	}
	return true;
}

// Does the segment still meet every threshold when track ti (of joint j, subtree marked) decodes as
// st does? Its values go to `values` position by position as they are tested (a rejection decodes no
// more: an accepted trial has them all). Positions with room are passed by the bound (sc->delta[u] >=
// 0), the others composed (sc->delta[u] = -1). The position where the track's last trial failed comes
// first (a rejection usually fails there again); the answer does not depend on the order.
static bool subtree_fits(const sinewi_work *w, seg_scratch *sc, const sinewi_enc_segment *seg, const sinewi_enc_track *t,
                         uint32_t ti, const sinewi_enc_seg_track *st, float *values) {
	const uint32_t j0 = sc->j0, j = t->index, end = sc->subtree_end[j - j0], k0 = ti - sc->t0;
	const uint32_t first = sc->fail_position[k0] < sc->positions ? sc->fail_position[k0] : 0;
	const bool whole = sc->descendants[j - j0] == end - j - 1; // every joint of [j, end) marked
	for (uint32_t k = 0; k < sc->positions; ++k) {
		uint32_t u = first + k < sc->positions ? first + k : first + k - sc->positions;
		const size_t row = (size_t)u * sc->nj;
		sinewi_decode_position(w, sc, t, seg, st, &sc->td[k0], u, values + 4 * (size_t)u);
		const double delta = trial_delta(sc, t, ti, u, values);
		bool room = delta == delta; // false for NaN
		if (whole) {
			const double *bound = sc->error_bound + row + (j - j0), *limit = sc->room_limit + (j - j0);
			for (uint32_t i = 0; i < end - j && room; ++i) room = bound[i] + delta <= limit[i];
		} else {
			for (uint32_t i = j; i < end && room; ++i)
				if (sc->mark[i - j0]) room = sc->error_bound[row + i - j0] + delta <= sc->room_limit[i - j0];
		}
		if (room) {
			sc->delta[u] = delta;
			continue;
		}
		sc->delta[u] = -1.0;
		sinew_qvv x;
		sinewi_decoded_local(w, sc, j, u, (int32_t)ti, values, &x);
		sinewi_affine_from_qvv_d(&x, &sc->trial_local[u]);
		if (!position_fits(w, sc, j, u, &sc->trial_local[u])) {
			sc->fail_position[k0] = u;
			return false;
		}
	}
	return true;
}

// Takes the trial of track t (joint j, subtree marked) into the caches.
static void accept_trial(const sinewi_work *w, seg_scratch *sc, const sinewi_enc_track *t, uint32_t ti) {
	const uint32_t j0 = sc->j0, j = t->index, end = sc->subtree_end[j - j0], l0 = j - j0, n = end - j;
	const sinew_joint *joints = w->clip->joints;
	const bool whole = sc->descendants[l0] == n - 1; // every joint of [j, end) marked: whole ranges at once
	memcpy(sc->decoded[ti - sc->t0], sc->trial_decoded, (size_t)sc->positions * 4 * sizeof(float));
	for (uint32_t u = 0; u < sc->positions; ++u) {
		const size_t row = (size_t)u * sc->nj;
		if (sc->delta[u] >= 0.0) { // bounded: the errors grow by at most delta, the transforms go out of date
			sinew_qvv x;
			sinewi_decoded_local(w, sc, j, u, -1, NULL, &x);
			sinewi_affine_from_qvv_d(&x, &sc->local[row + j - j0]);
			if (whole) {
				double *bound = sc->error_bound + row + l0;
				for (uint32_t i = 0; i < n; ++i) bound[i] += sc->delta[u];
				memset(sc->stale + row + l0, 1, n);
			} else {
				for (uint32_t i = j; i < end; ++i)
					if (sc->mark[i - j0]) sc->error_bound[row + i - j0] += sc->delta[u], sc->stale[row + i - j0] = 1;
			}
		} else {
			sc->local[row + j - j0] = sc->trial_local[u];
			if (whole) {
				memcpy(sc->obj + row + l0, sc->trial + row + l0, n * sizeof(sinewi_affine_d));
				memcpy(sc->error_bound + row + l0, sc->trial_error + row + l0, n * sizeof(double));
				memset(sc->stale + row + l0, 0, n);
			} else {
				for (uint32_t i = j; i < end; ++i) {
					const uint32_t l = i - j0;
					if (sc->mark[l]) sc->obj[row + l] = sc->trial[row + l], sc->error_bound[row + l] = sc->trial_error[row + l], sc->stale[row + l] = 0;
				}
			}
		}
		if (t->type == SINEWI_TRACK_ROTATION) continue; // the bound's reach and gain hold no rotation
		if (t->type == SINEWI_TRACK_SCALE) {
			const float *s = sc->decoded[ti - sc->t0] + 4 * (size_t)u;
			sc->scale_max[row + j - j0] = sinewi_fmax(fabs((double)s[0]), sinewi_fmax(fabs((double)s[1]), fabs((double)s[2])));
			for (uint32_t i = j + 1; i < end; ++i) {
				if (!sc->mark[i - j0]) continue;
				const uint32_t p = (uint32_t)joints[i].parent - j0;
				sc->gain[row + i - j0] = sc->gain[row + p] * sc->scale_max[row + p];
			}
		}
		// the ancestors' reach holds j's translation and largest scale
		for (uint32_t a = j; sinewi_has_parent(joints, a);) {
			a = (uint32_t)joints[a].parent;
			update_reach(w, sc, u, a);
		}
	}
}

// Has anything that decides a trial of track ti (joint j) changed since it was last rejected? A trial
// depends on the track's own state and on the decoded transforms of j's ancestors and of its subtree
// (marked by the caller): if none of them changed, it would be rejected again.
static bool retry_needed(const sinewi_work *w, const seg_scratch *sc, uint32_t ti, uint32_t j) {
	const uint32_t j0 = sc->j0, since = sc->rejected_at[ti - sc->t0];
	if (since == 0) return true;
	for (int32_t a = (int32_t)j; a >= 0; a = w->clip->joints[a].parent)
		if (sc->changed_at[(uint32_t)a - j0] > since) return true;
	for (uint32_t i = j + 1; i < sc->subtree_end[j - j0]; ++i)
		if (sc->mark[i - j0] && sc->changed_at[i - j0] > since) return true;
	return false;
}

void sinewi_refine_segment(const sinewi_work *w, const sinewi_enc_segment *seg, seg_scratch *sc, int passes,
                           sinewi_refine_guide *guide) {
	const sinewi_enc_clip *enc = w->enc;
	const size_t knot_bytes = (size_t)(seg->length + 1) * 4 * sizeof(uint32_t);
	build_caches(w, sc);
	memset(sc->fail_position, 0, sc->nt * sizeof(uint32_t));
	memset(sc->rejected_at, 0, sc->nt * sizeof(uint32_t));
	memset(sc->changed_at, 0, sc->nj * sizeof(uint32_t));
	uint32_t stamp = 0;
	for (int pass = 0; pass < passes; ++pass) {
		bool changed = false;
		for (uint32_t ti = sc->t0; ti < sc->t0 + sc->nt; ++ti) {
			const sinewi_enc_track *t = &enc->tracks[ti];
			const uint32_t k = ti - sc->t0;
			if (t->type == SINEWI_TRACK_SCALAR || sc->level[k] == 0) continue;
			const uint32_t j = t->index;
			mark_subtree(w, sc, j);
			if (!retry_needed(w, sc, ti, j)) continue;
			++stamp;
			const int known = guide ? sinewi_refine_guide_next(guide, w, seg, sc, k) : SINEWI_TRIAL_RUN;
			if (known == SINEWI_TRIAL_ACCEPTED) { // the record's knots and decoded values are in place: no bound on the errors
				sc->level[k]--;
				for (uint32_t u = 0; u < sc->positions; ++u) sc->delta[u] = INFINITY;
				accept_trial(w, sc, t, ti);
				sc->changed_at[j - sc->j0] = stamp;
				changed = true;
				continue;
			}
			if (known == SINEWI_TRIAL_REJECTED) {
				sc->rejected_at[k] = stamp;
				continue;
			}
			sinewi_enc_seg_track *st = &seg->tracks[ti];
			sinewi_enc_seg_track saved = *st;
			memcpy(sc->saved_knots, st->knots, knot_bytes);
			st->dropped = st->chosen_dropped;
			sinewi_widths_for_level(t, &sc->td[k], sc->level[k] - 1u, st->width);
			sinewi_quantize_knots(w, t, seg, st, &sc->td[k]);
			const bool accepted = subtree_fits(w, sc, seg, t, ti, st, sc->trial_decoded);
			if (accepted) {
				sc->level[k]--;
				accept_trial(w, sc, t, ti);
				sc->changed_at[j - sc->j0] = stamp;
				changed = true;
			} else {
				*st = saved;
				memcpy(st->knots, sc->saved_knots, knot_bytes);
				sc->rejected_at[k] = stamp;
			}
			if (guide) sinewi_refine_guide_ran(guide, w, seg, sc, k, accepted);
		}
		if (!changed) break;
	}
	if (guide) sinewi_refine_guide_end(guide);
	refresh_caches(w, sc);
}

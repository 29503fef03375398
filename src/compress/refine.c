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
#include "segment_search.h"

#include <math.h>
#include <string.h>

// Marks joint j and its descendants in sc->mark (valid in [j, subtree_end[j]); a parent below j is outside).
static void mark_subtree(const sinewi_work *w, seg_scratch *sc, uint32_t j) {
	const uint32_t end = sc->subtree_end[j];
	const sinew_joint *joints = w->clip->joints;
	memset(sc->mark + j, 0, end - j);
	sc->mark[j] = 1;
	for (uint32_t i = j + 1; i < end; ++i)
		if (joints[i].parent >= (int32_t)j && sc->mark[joints[i].parent]) sc->mark[i] = 1;
}

static bool has_parent(const sinew_joint *joints, uint32_t i) {
	return joints[i].parent >= 0 && (uint32_t)joints[i].parent < i; // as sinewi_compose_pose_d composes
}

// The object-space transform of joint i at position u, recomposed (with every out-of-date ancestor)
// from the local transforms where a bounded acceptance left it out of date; the errors of the
// recomposed joints become exact again (an up-to-date joint's error_bound is its exact error).
static const sinewi_affine_d *current_obj(const sinewi_work *w, seg_scratch *sc, uint32_t u, uint32_t i) {
	const uint32_t nj = w->joint_count;
	const sinew_joint *joints = w->clip->joints;
	sinewi_affine_d *obj = sc->obj + (size_t)u * nj;
	const sinewi_affine_d *local = sc->local + (size_t)u * nj;
	uint8_t *stale = sc->stale + (size_t)u * nj;
	uint32_t n = 0;
	for (uint32_t k = i; stale[k];) {
		sc->path[n++] = k;
		if (!has_parent(joints, k)) break;
		k = (uint32_t)joints[k].parent;
	}
	while (n--) {
		uint32_t k = sc->path[n];
		if (has_parent(joints, k)) sinewi_affine_mul_d(&obj[joints[k].parent], &local[k], &obj[k]);
		else obj[k] = local[k];
		stale[k] = 0; // and its error exact again
		sc->error_bound[(size_t)u * nj + k] = sinewi_shell_error_frame_d(&sc->raw[(size_t)u * nj + k], &obj[k], w->shell_off + 3 * (size_t)k);
	}
	return &obj[i];
}

// The bound's quantities for the decoded pose before refinement (largest scale component, subtree
// reach, ancestors' gain); its local and object-space transforms and errors are verify_segment's.
static void build_caches(const sinewi_work *w, seg_scratch *sc) {
	const uint32_t nj = w->joint_count;
	const sinew_joint *joints = w->clip->joints;
	double extent = 0.0;
	for (uint32_t u = 0; u < sc->positions; ++u) {
		const size_t row = (size_t)u * nj;
		const sinewi_affine_d *local = sc->local + row;
		const sinewi_shell_frame_d *raw = sc->raw + row;
		double *smax = sc->scale_max + row, *reach = sc->reach + row, *gain = sc->gain + row;
		for (uint32_t j = 0; j < nj; ++j) {
			sinew_qvv x;
			sinewi_decoded_local(w, sc, j, u, -1, NULL, &x);
			sc->stale[row + j] = 0;
			smax[j] = fmax(fabs((double)x.scale[0]), fmax(fabs((double)x.scale[1]), fabs((double)x.scale[2])));
			const double *off = w->shell_off + 3 * (size_t)j;
			reach[j] = fmax(off[0], fmax(off[1], off[2]));
			double size = fabs(raw[j].t[0]) + fabs(raw[j].t[1]) + fabs(raw[j].t[2]);
			for (int k = 0; k < 3; ++k) size += fabs(raw[j].u[k][0]) + fabs(raw[j].u[k][1]) + fabs(raw[j].u[k][2]);
			if (size > extent) extent = size;
		}
		// children have larger indices than their parents: one backward pass carries each reach up
		for (uint32_t j = nj; j-- > 0;) {
			if (!has_parent(joints, j)) continue;
			const double tj = sqrt(local[j].t[0] * local[j].t[0] + local[j].t[1] * local[j].t[1] + local[j].t[2] * local[j].t[2]);
			const uint32_t p = (uint32_t)joints[j].parent;
			reach[p] = fmax(reach[p], tj + smax[j] * reach[j]);
		}
		for (uint32_t j = 0; j < nj; ++j)
			gain[j] = has_parent(joints, j) ? gain[joints[j].parent] * smax[joints[j].parent] : 1.0;
	}
	// rounding in composing the pose is far below 1e-12 of the scene's extent
	sc->margin = 1e-12 * extent;
}

// Brings every out-of-date object-space transform and its error up to date (the exact errors of the
// refined encoding, for verify_segment).
static void refresh_caches(const sinewi_work *w, seg_scratch *sc) {
	const uint32_t nj = w->joint_count;
	for (uint32_t u = 0; u < sc->positions; ++u) {
		const size_t row = (size_t)u * nj;
		for (uint32_t j = 0; j < nj; ++j)
			if (sc->stale[row + j]) current_obj(w, sc, u, j);
	}
}

// Joint a's reach at position u from its own shell and its children's.
static void update_reach(const sinewi_work *w, seg_scratch *sc, uint32_t u, uint32_t a) {
	const uint32_t nj = w->joint_count;
	const size_t row = (size_t)u * nj;
	const double *off = w->shell_off + 3 * (size_t)a;
	double r = fmax(off[0], fmax(off[1], off[2]));
	for (uint32_t k = sc->child_start[a]; k < sc->child_start[a + 1]; ++k) {
		const uint32_t c = sc->children[k];
		const double *t = sc->local[row + c].t;
		r = fmax(r, sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) + sc->scale_max[row + c] * sc->reach[row + c]);
	}
	sc->reach[row + a] = r;
}

// How far the trial of track t (joint j) can move any shell point of j's subtree at position u: an
// upper bound (see the top of this file), with 1e-6 of it for rounding.
static double trial_delta(const sinewi_work *w, const seg_scratch *sc, const sinewi_enc_track *t, uint32_t ti, uint32_t u,
                          const float *values) {
	const uint32_t nj = w->joint_count, j = t->index;
	const size_t at = (size_t)u * nj + j;
	const float *a = sc->decoded[ti] + 4 * (size_t)u, *b = values + 4 * (size_t)u;
	double linear = 0.0, shift = 0.0;
	if (t->type == SINEWI_TRACK_ROTATION) {
		// |R(q') - R(q)| = 2 sin(angle / 2) <= 2 |q' - q| for unit quaternions on the same side
		double qa[4] = {a[0], a[1], a[2], a[3]}, qb[4] = {b[0], b[1], b[2], b[3]}, chord2 = 0.0;
		sinewi_quat_normalize_d(qa);
		sinewi_quat_normalize_d(qb);
		const double sign = sinewi_quat_dot_d(qa, qb) < 0.0 ? -1.0 : 1.0;
		for (int k = 0; k < 4; ++k) chord2 += (qb[k] - sign * qa[k]) * (qb[k] - sign * qa[k]);
		linear = 2.0 * sqrt(chord2) * sc->scale_max[at];
	} else if (t->type == SINEWI_TRACK_TRANSLATION) {
		const double dx = (double)b[0] - a[0], dy = (double)b[1] - a[1], dz = (double)b[2] - a[2];
		shift = sqrt(dx * dx + dy * dy + dz * dz);
	} else {
		for (int k = 0; k < 3; ++k) linear = fmax(linear, fabs((double)b[k] - a[k]));
	}
	return sc->gain[at] * (linear * sc->reach[at] + shift) * (1.0 + 1e-6);
}

// Does position u still meet every threshold of joint j's subtree (marked) with j's local transform
// `local_j`? The trial transforms go to sc->trial and their errors to sc->trial_error.
static bool position_fits(const sinewi_work *w, seg_scratch *sc, uint32_t j, uint32_t u, const sinewi_affine_d *local_j) {
	const uint32_t nj = w->joint_count, end = sc->subtree_end[j];
	const sinew_joint *joints = w->clip->joints;
	const size_t row = (size_t)u * nj;
	const sinewi_shell_frame_d *raw = sc->raw + row;
	const sinewi_affine_d *local = sc->local + row;
	const sinewi_affine_d *parent_obj = has_parent(joints, j) ? current_obj(w, sc, u, (uint32_t)joints[j].parent) : NULL;
	sinewi_affine_d *trial = sc->trial + row;
	for (uint32_t i = j; i < end; ++i) {
		if (!sc->mark[i]) continue;
		const sinewi_affine_d *l = i == j ? local_j : &local[i];
		if (i == j) {
			if (parent_obj) sinewi_affine_mul_d(parent_obj, l, &trial[i]);
			else trial[i] = *l;
		} else {
			sinewi_affine_mul_d(&trial[joints[i].parent], l, &trial[i]); // marked: its parent is too
		}
		double e = sinewi_shell_error_frame_d(&raw[i], &trial[i], w->shell_off + 3 * (size_t)i);
		sc->trial_error[row + i] = e;
		if (!(e <= w->threshold[i])) return false;
	}
	return true;
}

// Does the segment still meet every threshold when track ti (of joint j, subtree marked) decodes as
// `values`? Positions with room are passed by the bound (sc->delta[u] >= 0), the others composed
// (sc->delta[u] = -1). The position where the track's last trial failed comes first (a rejection
// usually fails there again); the answer does not depend on the order.
static bool subtree_fits(const sinewi_work *w, seg_scratch *sc, const sinewi_enc_track *t, uint32_t ti, const float *values) {
	const uint32_t nj = w->joint_count, j = t->index, end = sc->subtree_end[j];
	const uint32_t first = sc->fail_position[ti] < sc->positions ? sc->fail_position[ti] : 0;
	for (uint32_t k = 0; k < sc->positions; ++k) {
		uint32_t u = first + k < sc->positions ? first + k : first + k - sc->positions;
		const size_t row = (size_t)u * nj;
		const double delta = trial_delta(w, sc, t, ti, u, values);
		bool room = delta == delta; // false for NaN
		for (uint32_t i = j; i < end && room; ++i)
			if (sc->mark[i])
				room = sc->error_bound[row + i] + delta <= w->threshold[i] * (1.0 - 1e-7) - sc->margin;
		if (room) {
			sc->delta[u] = delta;
			continue;
		}
		sc->delta[u] = -1.0;
		sinew_qvv x;
		sinewi_decoded_local(w, sc, j, u, (int32_t)ti, values, &x);
		sinewi_affine_from_qvv_d(&x, &sc->trial_local[u]);
		if (!position_fits(w, sc, j, u, &sc->trial_local[u])) {
			sc->fail_position[ti] = u;
			return false;
		}
	}
	return true;
}

// Takes the trial of track t (joint j, subtree marked) into the caches.
static void accept_trial(const sinewi_work *w, seg_scratch *sc, const sinewi_enc_track *t, uint32_t ti) {
	const uint32_t nj = w->joint_count, j = t->index, end = sc->subtree_end[j];
	const sinew_joint *joints = w->clip->joints;
	memcpy(sc->decoded[ti], sc->trial_decoded, (size_t)sc->positions * 4 * sizeof(float));
	for (uint32_t u = 0; u < sc->positions; ++u) {
		const size_t row = (size_t)u * nj;
		if (sc->delta[u] >= 0.0) { // bounded: the errors grow by at most delta, the transforms go out of date
			sinew_qvv x;
			sinewi_decoded_local(w, sc, j, u, -1, NULL, &x);
			sinewi_affine_from_qvv_d(&x, &sc->local[row + j]);
			for (uint32_t i = j; i < end; ++i)
				if (sc->mark[i]) sc->error_bound[row + i] += sc->delta[u], sc->stale[row + i] = 1;
		} else {
			sc->local[row + j] = sc->trial_local[u];
			for (uint32_t i = j; i < end; ++i)
				if (sc->mark[i])
					sc->obj[row + i] = sc->trial[row + i], sc->error_bound[row + i] = sc->trial_error[row + i], sc->stale[row + i] = 0;
		}
		if (t->type == SINEWI_TRACK_ROTATION) continue; // the bound's reach and gain hold no rotation
		if (t->type == SINEWI_TRACK_SCALE) {
			const float *s = sc->decoded[ti] + 4 * (size_t)u;
			sc->scale_max[row + j] = fmax(fabs((double)s[0]), fmax(fabs((double)s[1]), fabs((double)s[2])));
			for (uint32_t i = j + 1; i < end; ++i)
				if (sc->mark[i]) sc->gain[row + i] = sc->gain[row + joints[i].parent] * sc->scale_max[row + joints[i].parent];
		}
		// the ancestors' reach holds j's translation and largest scale
		for (uint32_t a = j; has_parent(joints, a);) {
			a = (uint32_t)joints[a].parent;
			update_reach(w, sc, u, a);
		}
	}
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

void sinewi_refine_segment(sinewi_work *w, const sinewi_enc_segment *seg, seg_scratch *sc, int passes) {
	const sinewi_enc_clip *enc = w->enc;
	const uint32_t nj = w->joint_count;
	const size_t knot_bytes = (size_t)(seg->length + 1) * 4 * sizeof(uint32_t);
	build_caches(w, sc);
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
			sinewi_widths_for_level(t, st, sc->level[ti] - 1u, st->width);
			sinewi_quantize_knots(w, t, seg, st, &sc->td[ti]);
			sinewi_decode_positions(w, t, seg, st, &sc->td[ti], sc->trial_decoded);
			if (subtree_fits(w, sc, t, ti, sc->trial_decoded)) {
				sc->level[ti]--;
				accept_trial(w, sc, t, ti);
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
	refresh_caches(w, sc);
}

// sinew — see include/sinew.h for version and licence
// The midpoint run's refinement of a lone segment, kept for the plain run's (segment_search.h,
// sinewi_refine_memo). The two runs of a short clip often end their searches alike, or with tracks
// that differ only in knots that decode the same (another decimation of a near-constant track), and
// their refinements then test the same trials with the same outcomes: the plain run takes them.
//
// Kept only where the searches run on this thread (the clip's arena is not shared) and read the same
// source frames (the clip's raw cache: one segment, one group of joints), without tiers (whose
// searches have budgets of their own). The start holds everything a refinement reads that two
// encodings of one clip can differ in: the segment's place, the group's constants and tracks, and each
// track's level, widths, ranges, decimation, dropped component, knots and decoded values. The rest
// (the samples, the error model, the frames, the check points) is the clip's and the same for both.
#include "segment_search.h"

#include <string.h>

static bool applies(const sinewi_work *w, const seg_scratch *sc) {
	return !w->jobs && w->enc->segment_count == 1 && w->group_count == 2 && w->settings->tier_count <= 1 && w->raw_cache &&
	       sc->raw == w->raw_cache->frames && sc->nt > 0;
}

// Knot words of track t in the segment (raw rotations keep four components per knot).
static size_t knot_words(const sinewi_enc_track *t, const sinewi_enc_seg_track *st) {
	return (size_t)st->knot_count * (sinewi_raw_rotation(t, st) ? 4u : t->components);
}

static bool same_track(const sinewi_enc_track *a, const sinewi_enc_track *b) {
	return a->type == b->type && a->components == b->components && a->range_components == b->range_components &&
	       a->index == b->index && memcmp(a->clip_min, b->clip_min, sizeof a->clip_min) == 0 &&
	       memcmp(a->clip_ext, b->clip_ext, sizeof a->clip_ext) == 0;
}

// The fields of a segment track that a refinement reads and never changes.
static bool same_fixed(const sinewi_enc_seg_track *a, const sinewi_enc_seg_track *b) {
	return a->decimation == b->decimation && a->chosen_dropped == b->chosen_dropped && a->knot_count == b->knot_count &&
	       memcmp(a->range_min, b->range_min, sizeof a->range_min) == 0 && memcmp(a->range_ext, b->range_ext, sizeof a->range_ext) == 0;
}

// Those it changes (`knots` the first knot_count of), given the same fixed ones.
static bool same_state(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint8_t level, uint8_t level_b, const uint8_t width[4],
                       uint8_t dropped, const uint32_t *knots) {
	return level == level_b && memcmp(st->width, width, 4) == 0 && st->dropped == dropped &&
	       memcmp(st->knots, knots, knot_words(t, st) * sizeof(uint32_t)) == 0;
}

// The record of a refinement starting now (NULL when out of memory: nothing is recorded).
static sinewi_refine_memo *record_start(const sinewi_work *w, const sinewi_enc_segment *seg, const seg_scratch *sc, int passes) {
	sinewi_arena *a = w->arena;
	const sinewi_enc_clip *enc = w->enc;
	const uint32_t nj = sc->nj, nt = sc->nt;
	const size_t words = (size_t)(seg->length + 1) * 4, values = (size_t)sc->positions * 4;
	sinewi_refine_memo *m = (sinewi_refine_memo *)sinewi_arena_alloc(a, sizeof *m);
	if (!m) return NULL;
	*m = (sinewi_refine_memo){.first_sample = seg->first_sample, .length = seg->length, .positions = sc->positions,
	                          .j0 = sc->j0, .nj = nj, .t0 = sc->t0, .nt = nt, .passes = passes, .threshold = w->threshold, .raw = sc->raw};
	m->constants = (sinew_qvv *)sinewi_arena_array_uninit(a, nj, sizeof(sinew_qvv));
	m->joint_track = (int32_t *)sinewi_arena_array_uninit(a, 3 * (size_t)nj, sizeof(int32_t));
	m->tracks = (sinewi_enc_track *)sinewi_arena_array_uninit(a, nt, sizeof(sinewi_enc_track));
	m->level = (uint8_t *)sinewi_arena_array_uninit(a, nt, 1);
	m->st = (sinewi_enc_seg_track *)sinewi_arena_array_uninit(a, nt, sizeof(sinewi_enc_seg_track));
	m->knots = (uint32_t *)sinewi_arena_array_uninit(a, nt * words, sizeof(uint32_t));
	m->decoded = (float *)sinewi_arena_array_uninit(a, nt * values, sizeof(float));
	m->trials = (uint32_t *)sinewi_arena_array_uninit(a, (size_t)passes * nt, sizeof(uint32_t));
	m->last = &m->accepted;
	if (!m->constants || !m->joint_track || !m->tracks || !m->level || !m->st || !m->knots || !m->decoded || !m->trials) return NULL;
	memcpy(m->constants, enc->constants + sc->j0, nj * sizeof(sinew_qvv));
	for (int sub = 0; sub < 3; ++sub) memcpy(m->joint_track + (size_t)sub * nj, enc->joint_track[sub] + sc->j0, nj * sizeof(int32_t));
	memcpy(m->tracks, enc->tracks + sc->t0, nt * sizeof(sinewi_enc_track));
	for (uint32_t k = 0; k < nt; ++k) {
		const sinewi_enc_seg_track *st = &seg->tracks[sc->t0 + k];
		m->level[k] = sc->level[k];
		m->st[k] = *st;
		m->st[k].knots = m->knots + k * words;
		memcpy(m->st[k].knots, st->knots, knot_words(&enc->tracks[sc->t0 + k], st) * sizeof(uint32_t));
		memcpy(m->decoded + k * values, sc->decoded[k], values * sizeof(float));
	}
	return m;
}

// Marks track t's decoded values as the record's or not.
static void set_decoded_differs(sinewi_refine_guide *g, const seg_scratch *sc, uint32_t k, const sinewi_enc_track *t, bool differs) {
	if (!(g->differs[k] & 2) == !differs) return;
	g->differs[k] ^= 2;
	g->joint_differs[t->index - sc->j0] += differs ? 1u : UINT32_MAX;
	g->decoded_differ += differs ? 1u : UINT32_MAX;
}

// Where the replayed encoding's record starts from this refinement's start: marks the tracks that
// differ (1: state, 2: decoded values) and returns true.
static bool follow_start(const sinewi_work *w, const sinewi_enc_segment *seg, const seg_scratch *sc, int passes,
                         const sinewi_refine_memo *m, sinewi_refine_guide *g) {
	const sinewi_enc_clip *enc = w->enc;
	const uint32_t nj = sc->nj, nt = sc->nt;
	if (m->first_sample != seg->first_sample || m->length != seg->length || m->positions != sc->positions || m->j0 != sc->j0 ||
	    m->nj != nj || m->t0 != sc->t0 || m->nt != nt || m->passes != passes || m->threshold != w->threshold || m->raw != sc->raw)
		return false;
	if (memcmp(m->constants, enc->constants + sc->j0, nj * sizeof(sinew_qvv)) != 0) return false;
	for (int sub = 0; sub < 3; ++sub)
		if (memcmp(m->joint_track + (size_t)sub * nj, enc->joint_track[sub] + sc->j0, nj * sizeof(int32_t)) != 0) return false;
	g->differs = (uint8_t *)sinewi_arena_array(w->arena, nt, 1);
	g->joint_differs = (uint32_t *)sinewi_arena_array(w->arena, nj, sizeof(uint32_t));
	if (!g->differs || !g->joint_differs) return false;
	const size_t values = (size_t)m->positions * 4;
	for (uint32_t k = 0; k < nt; ++k) {
		const sinewi_enc_track *t = &enc->tracks[sc->t0 + k];
		const sinewi_enc_seg_track *st = &seg->tracks[sc->t0 + k];
		const sinewi_enc_seg_track *was = &m->st[k];
		if (!same_track(&m->tracks[k], t) || !same_fixed(was, st)) g->differs[k] |= 4;
		else if (!same_state(t, st, sc->level[k], m->level[k], was->width, was->dropped, was->knots)) g->differs[k] |= 1;
		if (memcmp(m->decoded + k * values, sc->decoded[k], values * sizeof(float)) != 0) set_decoded_differs(g, sc, k, t, true);
	}
	return true;
}

void sinewi_refine_guide_start(const sinewi_work *w, const sinewi_enc_segment *seg, const seg_scratch *sc, int passes,
                               sinewi_refine_guide *g) {
	memset(g, 0, sizeof *g);
	if (!applies(w, sc)) return;
	if (w->settings->midpoint && !w->replay) {
		// (a search that chose nothing otherwise than without midpoint residuals is the plain run's own)
		if (sc->plain_differs) g->record = record_start(w, seg, sc, passes);
		w->enc->refined = g->record; // (an earlier classification attempt's is replaced)
		return;
	}
	const sinewi_refine_memo *m = w->replay ? w->replay->refined : NULL;
	if (m && m->done && follow_start(w, seg, sc, passes, m, g)) g->follow = m, g->next = m->accepted;
}

// Does a track whose decoded values are not the record's sit on joint j, an ancestor of it or a joint
// of its subtree (marked)? Only those decide a trial of j's tracks.
static bool pose_differs(const sinewi_refine_guide *g, const sinewi_work *w, const seg_scratch *sc, uint32_t j) {
	for (int32_t a = (int32_t)j; a >= 0; a = w->clip->joints[a].parent)
		if (g->joint_differs[(uint32_t)a - sc->j0]) return true;
	for (uint32_t i = j + 1; i < sc->subtree_end[j - sc->j0]; ++i)
		if (sc->mark[i - sc->j0] && g->joint_differs[i - sc->j0]) return true;
	return false;
}

int sinewi_refine_guide_next(sinewi_refine_guide *g, const sinewi_work *w, const sinewi_enc_segment *seg, seg_scratch *sc,
                             uint32_t k) {
	const sinewi_refine_memo *m = g->follow;
	if (!m) return SINEWI_TRIAL_RUN;
	if (g->step >= m->trial_count || m->trials[g->step] >> 1 != k) { // (the order departs from the record)
		g->follow = NULL;
		return SINEWI_TRIAL_RUN;
	}
	if (g->differs[k] || (g->decoded_differ && pose_differs(g, w, sc, w->enc->tracks[sc->t0 + k].index))) {
		g->pending = true;
		return SINEWI_TRIAL_RUN;
	}
	w->enc->refine_taken++;
	if (!(m->trials[g->step++] & 1)) return SINEWI_TRIAL_REJECTED;
	const sinewi_refine_trial *r = g->next;
	g->next = r->next;
	const sinewi_enc_track *t = &w->enc->tracks[sc->t0 + k];
	sinewi_enc_seg_track *st = &seg->tracks[sc->t0 + k];
	memcpy(st->width, r->width, sizeof st->width);
	st->dropped = r->dropped;
	st->knot_count = r->knot_count;
	memcpy(st->knots, r->knots, knot_words(t, st) * sizeof(uint32_t));
	memcpy(sc->trial_decoded, r->decoded, (size_t)m->positions * 4 * sizeof(float));
	return SINEWI_TRIAL_ACCEPTED;
}

void sinewi_refine_guide_ran(sinewi_refine_guide *g, const sinewi_work *w, const sinewi_enc_segment *seg, const seg_scratch *sc,
                             uint32_t k, bool accepted) {
	const sinewi_enc_track *t = &w->enc->tracks[sc->t0 + k];
	const sinewi_enc_seg_track *st = &seg->tracks[sc->t0 + k];
	const size_t values = (size_t)sc->positions * 4;
	sinewi_refine_memo *m = g->record;
	if (m && m->trial_count < (uint32_t)m->passes * m->nt) {
		m->trials[m->trial_count++] = k << 1 | (accepted ? 1u : 0u);
		if (!accepted) return;
		const size_t words = knot_words(t, st);
		sinewi_refine_trial *r = (sinewi_refine_trial *)sinewi_arena_array_uninit(w->arena, 1, sizeof *r + (words + values) * 4);
		if (!r) { // out of memory: no record
			w->enc->refined = g->record = NULL;
			return;
		}
		*r = (sinewi_refine_trial){.level = sc->level[k], .dropped = st->dropped, .knot_count = st->knot_count};
		memcpy(r->width, st->width, sizeof r->width);
		r->knots = (uint32_t *)(r + 1), r->decoded = (float *)(r->knots + words);
		memcpy(r->knots, st->knots, words * sizeof(uint32_t));
		memcpy(r->decoded, sc->decoded[k], values * sizeof(float));
		*m->last = r, m->last = &r->next;
		return;
	}
	if (!g->follow || !g->pending) return;
	g->pending = false;
	const bool was_accepted = g->follow->trials[g->step++] & 1;
	if (was_accepted != accepted) { // the order departs from the record from here
		g->follow = NULL;
		return;
	}
	if (!accepted) return; // (neither changed)
	const sinewi_refine_trial *r = g->next;
	g->next = r->next;
	if (!(g->differs[k] & 4)) // (fixed fields that differ keep it apart)
		g->differs[k] = (uint8_t)((g->differs[k] & ~1u) | (same_state(t, st, sc->level[k], r->level, r->width, r->dropped, r->knots) ? 0u : 1u));
	set_decoded_differs(g, sc, k, t, memcmp(sc->decoded[k], r->decoded, values * sizeof(float)) != 0);
}

void sinewi_refine_guide_end(sinewi_refine_guide *g) {
	if (g->record) g->record->done = true;
}

// sinew — see include/sinew.h for version and licence
// The per-segment search's shared state (bitrate.c searches and verifies, refine.c refines): the
// tracks' samples and ranges in the segment and the scratch of one segment's search.
#ifndef SINEW_COMPRESS_SEGMENT_SEARCH_H
#define SINEW_COMPRESS_SEGMENT_SEARCH_H

#include "../core/codec_math.h"
#include "../core/metric.h"
#include "compress_work.h"

#include <string.h>

// A track's samples in one segment as it is stored (rotations with the segment's dropped component
// made non-negative) and its quantization ranges per stored slot: computed once per segment
// (segment_data), read by every quantization and decode of the search.
typedef struct track_data {
	const float *values; // [(length + 1) * 4]
	float lo[4], ext[4]; // per stored slot, for the segment's chosen dropped component
	const double *source; // rotations: [(length + 1) * 4] the source rotations normalized in double (the model's reference)
	bool knot_only;      // the value on a knot is that knot's alone (finite ranges: (b - a) * 0 cannot be NaN)
	double *unit;        // [(length + 1) * 4] ((double)value - lo) / ext per sample and slot (sinewi_quantize's, ext > 0)
	uint32_t widths_known;                 // bit k: widths[k] holds sinewi_widths_for_level's widths for level k
	uint8_t widths[SINEWI_MAX_WIDTH + 1][4]; // (the search and the refinement ask the same levels again and again)
} track_data;

// A segment is verified at its samples u = 0..length and then at the clip's check points inside it
// (positions length + 1 ...): `positions` in all.
typedef struct seg_scratch {
	// the group searched: joints [j0, j0 + nj) (every parent of one is in it) and their tracks [t0, t0 + nt);
	// per-joint arrays are indexed by j - j0, per-track arrays by ti - t0, per-position arrays by
	// u * nj + (j - j0)
	uint32_t j0, nj, t0, nt;
	// the segment's positions besides its samples: mid_n sample midpoints, then the clip's check points
	// inside it (from clip check index check_first); local positions
	uint32_t check_first, check_n, mid_n;
	float *check_u;      // as interpolating tracks play them
	float *check_u_step; // as floor/ceil/nearest tracks play them (snapped wider onto samples)
	uint32_t positions;
	uint32_t explicit_start;  // first position that is a clip check point
	float **decoded;          // [track] -> [positions * 4]
	sinewi_shell_frame_d *raw; // [positions * joints] the source's shell frames
	sinew_qvv *pose;          // [joints]
	double *rho, *err;        // [joints]
	uint8_t *dirty, *forced;  // [joints]
	uint8_t *level;           // [track] precision level chosen by the search
	sinewi_affine_d *obj;     // [positions * joints] object-space transforms of the decoded pose
	sinewi_affine_d *trial;   // [positions * joints] same, for a trial change
	uint8_t *mark;            // [joints] joints in the subtree of a trial change (valid from its root to its end)
	uint32_t *subtree_end;    // [joints] one past the last descendant's index (descendants lie in [j, end))
	uint32_t *descendants;    // [joints] how many; end - j - 1 of them: every joint in (j, end) is one
	float *trial_decoded;     // [positions * 4]
	uint32_t *saved_knots;    // [(length + 1) * 4]
	// refinement (refine_segment): the decoded pose's local transforms, the trial joint's, and what a
	// rejected trial needs to be tried again (see there)
	sinewi_affine_d *local;      // [positions * joints]
	sinewi_affine_d *trial_local; // [positions]
	uint32_t *fail_position;     // [track] where the track's last trial failed (tested first next time)
	uint32_t *rejected_at;       // [track] stamp of the track's last rejected trial (0: none)
	uint32_t *changed_at;        // [joints] stamp of the last accepted change of the joint's tracks
	track_data *td;              // [track] samples and quantization ranges in this segment (segment_data)
	// what refine_segment's bound needs (refine.c): per position and joint, an upper bound of the error
	// of the decoded pose, whether obj is out of date, the largest scale component of the local transform,
	// the reach of the subtree's shell points in the joint's coordinates and the ancestors' gain
	double *error_bound;         // [positions * joints]
	uint8_t *stale;              // [positions * joints]
	double *scale_max, *reach, *gain; // [positions * joints]
	double *trial_error;         // [positions * joints] errors of a trial where it was composed
	double *delta;               // [positions] the bound's displacement of a trial (negative: composed exactly)
	uint32_t *child_start, *children; // [joints + 1], [joints]: children of each joint (CSR)
	uint32_t *path;              // [joints] an ancestor chain being recomposed
	uint8_t *redo;               // [joints] verify_segment: composed again
	double margin;               // absolute slack for rounding (scene extent times 1e-12)
	double extent;               // the scene extent of raw (refine.c); < 0: not yet measured
	double *room_limit;          // [joints] refine.c: the error a joint may reach by a bound, its threshold less the slack
	uint32_t worst_joint, worst_position; // the largest error / threshold of the last verify_segment
	bool plain_differs;          // some track chose otherwise than it would without midpoint residuals (search_track)
} seg_scratch;

// Raw rotations keep all four components per knot (docs/format.md §segment data).
static inline bool sinewi_raw_rotation(const sinewi_enc_track *t, const sinewi_enc_seg_track *st) {
	return t->type == SINEWI_TRACK_ROTATION && st->width[0] == SINEWI_WIDTH_RAW;
}

// Stored component index of slot c (rotations skip the dropped component).
static inline uint32_t sinewi_slot_component(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint32_t c) {
	return t->type == SINEWI_TRACK_ROTATION ? sinewi_stored_component(c, st->dropped) : c;
}

// Has joint i a parent it is composed with (parents come first; sinewi_compose_pose_d composes so)?
static inline bool sinewi_has_parent(const sinew_joint *joints, uint32_t i) {
	return joints[i].parent >= 0 && (uint32_t)joints[i].parent < i;
}

// Local transform of joint j at position u from the decoded caches; `override` replaces track `ti`'s
// values (a trial) when not NULL.
static inline void sinewi_decoded_local(const sinewi_work *w, const seg_scratch *sc, uint32_t j, uint32_t u, int32_t ti,
                                        const float *override, sinew_qvv *x) {
	const sinewi_enc_clip *enc = w->enc;
	*x = enc->constants[j];
	for (int sub = 0; sub < 3; ++sub) {
		int32_t t = enc->joint_track[sub][j];
		if (t < 0) continue;
		const float *v = (t == ti && override) ? override + 4 * u : sc->decoded[(uint32_t)t - sc->t0] + 4 * u;
		if (sub == 0) memcpy(x->rotation, v, 4 * sizeof(float));
		else memcpy(sub == 1 ? x->translation : x->scale, v, 3 * sizeof(float));
	}
}

// Widths for precision level k (the widest component gets k bits; LEVEL_RAW: raw float32 components)
// over the segment's extents td->ext.
#define SINEWI_LEVEL_RAW (SINEWI_MAX_WIDTH + 1u)
void sinewi_widths_for_level(const sinewi_enc_track *t, track_data *td, uint32_t k, uint8_t width[4]);
// Quantizes the knots of st (widths and decimation set) from the segment's samples.
void sinewi_quantize_knots(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                           sinewi_enc_seg_track *st, const track_data *td);
// Decodes track t at position u of the segment (a sample, then check points) into out.
void sinewi_decode_position(const sinewi_work *w, const seg_scratch *sc, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                            const sinewi_enc_seg_track *st, const track_data *td, uint32_t u, float out[4]);
// The refinement of the midpoint run's lone segment, kept for the plain run's (refine_memo.c). A trial's
// outcome depends only on the pose (every track's decoded values and the constants), on its own track
// (level, widths, ranges, decimation, dropped component, knots) and on the clip's error model; the
// order of trials only on the outcomes before it. So where the plain run refines the same segment, it
// takes each recorded outcome, and the accepted trial's knots, for a track whose state is the record's
// and whose joint's ancestors and subtree decode as in the record (the only joints its trial tests);
// it tests the others, and stops taking them once the order departs from the record.
typedef struct sinewi_refine_trial {
	struct sinewi_refine_trial *next; // the next accepted trial
	uint8_t level;                    // the track's level after it
	uint8_t width[4], dropped;        // its new widths, dropped component, knots and decoded values
	uint32_t knot_count;
	uint32_t *knots;
	float *decoded;                   // [positions * 4]
} sinewi_refine_trial;

typedef struct sinewi_refine_memo {
	uint32_t first_sample, length, positions, j0, nj, t0, nt;
	int passes;
	const double *threshold;          // the error model's (the clip's)
	const sinewi_shell_frame_d *raw;  // the clip's raw cache frames
	sinew_qvv *constants;             // [nj]
	int32_t *joint_track;             // [3 * nj]
	sinewi_enc_track *tracks;         // [nt]
	uint8_t *level;                   // [nt] the start: levels, segment tracks (knots into `knots`), decoded values
	sinewi_enc_seg_track *st;         // [nt]
	uint32_t *knots;                  // [nt * (length + 1) * 4]
	float *decoded;                   // [nt * positions * 4]
	uint32_t *trials;                 // [passes * nt] in the order tested: track (ti - t0) << 1 | accepted
	uint32_t trial_count;
	sinewi_refine_trial *accepted, **last; // the accepted ones in order
	bool done;                        // the refinement ended (trials complete)
} sinewi_refine_memo;

// One refinement's use of a memo: recording the midpoint run's, or following it in the plain run.
typedef struct sinewi_refine_guide {
	sinewi_refine_memo *record;
	const sinewi_refine_memo *follow; // NULL once the refinement departs from it
	uint32_t step;                    // the next recorded trial
	const sinewi_refine_trial *next;  // follow: the next recorded accepted trial
	bool pending;                     // follow: trial `step` is being tested (sinewi_refine_guide_ran compares)
	uint8_t *differs;                 // [nt] follow: what of a track is not the record's: 1 its level, widths, dropped
	                                  // component or knots, 2 its decoded values, 4 its ranges or decimation
	uint32_t decoded_differ;          // tracks whose decoded values are not the record's
	uint32_t *joint_differs;          // [nj] those of each joint
} sinewi_refine_guide;

// Sets up the guide of a refinement of segment seg: recording (the midpoint run's lone segment),
// following (the plain run's, where the record's start matches) or neither (both NULL).
void sinewi_refine_guide_start(const sinewi_work *w, const sinewi_enc_segment *seg, const seg_scratch *sc, int passes,
                               sinewi_refine_guide *g);
// Before testing a trial of track ti - t0 = k: RUN (test it), or its recorded outcome; ACCEPTED puts
// the accepted trial's widths, dropped component and knots in seg's track and its decoded values in
// sc->trial_decoded.
enum { SINEWI_TRIAL_RUN = 0, SINEWI_TRIAL_REJECTED = 1, SINEWI_TRIAL_ACCEPTED = 2 };
int sinewi_refine_guide_next(sinewi_refine_guide *g, const sinewi_work *w, const sinewi_enc_segment *seg, seg_scratch *sc,
                             uint32_t k);
// After a tested trial of track k (taken into seg and sc when accepted).
void sinewi_refine_guide_ran(sinewi_refine_guide *g, const sinewi_work *w, const sinewi_enc_segment *seg, const seg_scratch *sc,
                             uint32_t k, bool accepted);
// After the refinement.
void sinewi_refine_guide_end(sinewi_refine_guide *g);

// Greedy descent on the exact object-space error after the search met the bound (refine.c); starts from
// and leaves exact sc->local, sc->obj and sc->error_bound (verify_segment's). `guide` (or NULL) records
// its trials or gives their outcomes (sinewi_refine_guide).
void sinewi_refine_segment(const sinewi_work *w, const sinewi_enc_segment *seg, seg_scratch *sc, int passes,
                           sinewi_refine_guide *guide);
// The stored value of track t at stored sample s (analyze.c).
void sinewi_stored_value(const sinewi_work *w, const sinewi_enc_track *t, uint32_t dropped, uint32_t s, float out[4]);

#endif

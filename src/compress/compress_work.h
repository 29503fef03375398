// sinew — see include/sinew.h for version and licence
// Working state shared by the compressor's analysis (analyze.c) and bit-rate search (bitrate.c).
#ifndef SINEW_COMPRESS_WORK_H
#define SINEW_COMPRESS_WORK_H

#include "../core/quat.h"
#include "compress_internal.h"

struct sinewi_group;

typedef struct sinewi_work {
	const sinew_clip *clip;
	const sinewi_compress_settings *settings;
	sinewi_arena *arena;
	sinewi_enc_clip *enc;
	const float *fit;             // the decoder's rotation interpolation: sinewi_slerp_fit (Slerp_fit) or NULL
	uint32_t joint_count, stored; // stored samples
	sinew_qvv *poses;             // [stored * joint_count]: normalized, hemisphere-continuous rotations
	float **scalars;              // [scalar_track_count] -> [stored * components]
	// per joint
	double *threshold;   // object-space error threshold (clip units)
	double *shell;       // shell distance (clip units)
	double *shell_off;   // [joint_count * 3] local shell offsets (sinewi_shell_offsets): d / rest column length
	double *lever;       // dominant shell: furthest descendant shell point in the joint's local (pre-scale) frame
	double *max_scale;   // largest |scale| component over the clip
	double *parent_gain; // product of ancestors' max_scale: local displacement -> object space
	double *rho;         // share of the threshold the joint's own approximation may use (initial)
	double *const_error; // object-space error spent by the joint's identity/default/constant sub-tracks
	float *shells_f;     // shell as float for the metric
	double class_fraction; // share of a joint's budget a constant sub-track may use
	uint8_t *rounding_mode; // [joint_count] effective sinew_rounding of each joint
	sinewi_joint_candidates *candidates; // [joint_count] classification candidates and their memo (the clip's)
	sinewi_raw_cache *raw_cache;          // the clip's (searches on this thread only)
	struct sinewi_fit_memo **fits;        // the clip's, or NULL (bitrate.c; searches on this thread only)
	// the joints split into groups the segment search treats apart (sinewi_group)
	struct sinewi_group *groups;
	uint32_t group_count;
	const sinew_jobs *jobs; // where the (segment, group) searches run; NULL: on this thread
	bool skip_refine;       // the segment searches stop once they meet the bound (sinewi_compress_clip)
	// An encoding without midpoint knots whose kinds, tracks and lone segment are those of `replay`, an
	// encoding of the same clip and constants with them: the first search of a track depends only on
	// its samples and budget (every joint starts at its initial share, nothing forced), and differs
	// between the two only in the costs its candidates are weighed by, so replay's record of the choice
	// without residuals (plain_choice) is this search's first choice, taken without its probes.
	const struct sinewi_enc_clip *replay;
} sinewi_work;

// Joints [first_joint, first_joint + joint_count) that hold every parent of theirs (whole subtrees of
// roots, contiguous in index order), and their animated tracks; or a clip's scalar tracks alone
// (joint_count 0). Searched apart, they reach exactly what one search of all joints reaches: a joint's
// error depends only on its ancestors, and the search tightens only along chains.
typedef struct sinewi_group {
	uint32_t first_joint, joint_count;
	uint32_t first_track, track_count;
} sinewi_group;

// What the search of one group in one segment found.
enum { SINEWI_SEGMENT_OK = 0, SINEWI_SEGMENT_OVER = 1, SINEWI_SEGMENT_NO_MEMORY = 2 };
typedef struct sinewi_segment_result {
	int status;                 // SINEWI_SEGMENT_*
	double max_error;           // clip units, over the group's joints
	double max_scalar_error;    // relative to each track's precision
	uint32_t over_joint;        // with SINEWI_SEGMENT_OVER: the joint furthest over, its error and the time
	double over_error, over_time;
	bool plain_differs;         // a track chose otherwise than without midpoint residuals in its costs
} sinewi_segment_result;

// Local position at which a joint's tracks are decoded for local position u (its rounding mode;
// docs/format.md §sampling). Check points lie strictly inside a segment.
static inline float sinewi_rounded_u(const sinewi_work *w, uint32_t joint, float u, uint32_t length) {
	float r;
	switch (w->rounding_mode[joint]) {
	case SINEW_ROUNDING_FLOOR: r = floorf(u); break;
	case SINEW_ROUNDING_CEIL: r = ceilf(u); break;
	case SINEW_ROUNDING_NEAREST: r = floorf(u + 0.5f); break;
	default: r = u; break;
	}
	return r > (float)length ? (float)length : r;
}

// Per-segment bit-rate search of one group: fills the group's tracks of enc->segments[s] (whose knot
// arrays the caller allocated). Reads w and writes only those tracks: searches of different segments
// and groups may run at once. The caller merges the results (analyze.c). `scratch`: an arena of the
// caller's that the search rewinds and uses (one per thread), or NULL for one of its own.
void sinewi_search_segment(const sinewi_work *w, uint32_t s, const sinewi_group *group, sinewi_arena *scratch,
                           sinewi_segment_result *res);

// Decoded value of an animated track at local sample u of a segment (the decoder's arithmetic).
void sinewi_decode_track_sample(const sinewi_enc_track *track, const sinewi_enc_seg_track *st, uint32_t length, float u,
                                const float *fit, float out[4]);

#endif

// sinew — see include/sinew.h for version and licence
// Working state shared by the compressor's analysis (analyze.c) and bit-rate search (bitrate.c).
#ifndef SINEW_COMPRESS_WORK_H
#define SINEW_COMPRESS_WORK_H

#include "../core/quat.h"
#include "compress_internal.h"

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
	// the current segment's positions besides its samples: mid_n sample midpoints, then the clip's
	// check points inside it (from clip check index check_first); local positions
	uint32_t check_first, check_n, mid_n;
	float *check_u;      // as interpolating tracks play them
	float *check_u_step; // as floor/ceil/nearest tracks play them (snapped wider onto samples)
} sinewi_work;

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

// Per-segment bit-rate search: fills enc->segments[s].tracks for segment s. Returns false when
// the error bound could not be met (the caller retries with stricter classification).
bool sinewi_search_segment(sinewi_work *w, uint32_t s, sinew_error *error);

// Decoded value of an animated track at local sample u of a segment (the decoder's arithmetic).
void sinewi_decode_track_sample(const sinewi_enc_track *track, const sinewi_enc_seg_track *st, uint32_t length, float u,
                                const float *fit, float out[4]);

#endif

// sinew — see include/sinew.h for version and licence
// The compressor's result for one clip (sinewi_enc_clip), which format/ serializes as
// docs/format.md describes, and the internal entry points of the compress stage.
#ifndef SINEW_COMPRESS_INTERNAL_H
#define SINEW_COMPRESS_INTERNAL_H

#include "../core/base.h"

// Sub-track kinds (docs/format.md §joint descriptors).
enum {
	SINEWI_KIND_IDENTITY = 0, // identity rotation, zero translation, unit scale; scalar: all zero
	SINEWI_KIND_DEFAULT = 1,  // equal to the joint's default pose (the rig's rest value, or stored with the constants
	                          // without rest defaults)
	SINEWI_KIND_CONSTANT = 2, // one value for the whole clip (stored with the constants)
	SINEWI_KIND_ANIMATED = 3  // range-reduced, quantized per segment
};

enum { SINEWI_TRACK_ROTATION = 0, SINEWI_TRACK_TRANSLATION = 1, SINEWI_TRACK_SCALE = 2, SINEWI_TRACK_SCALAR = 3 };

#define SINEWI_ROUNDING_FROM_CLIP 15u // per-track rounding nibble meaning "use the clip's"

// One animated track (a joint's rotation/translation/scale sub-track or a scalar track).
typedef struct sinewi_enc_track {
	uint8_t type;         // SINEWI_TRACK_*
	uint8_t components;   // stored components per knot: 3 for transforms, 1..4 for scalars
	uint8_t range_components; // clip range components: 4 for rotations (dropped one varies), else `components`
	uint32_t index;       // joint or scalar track index
	float clip_min[4], clip_ext[4];
} sinewi_enc_track;

// One animated track inside one segment.
typedef struct sinewi_enc_seg_track {
	uint8_t width[4];   // bits per stored component (0..24)
	uint8_t decimation; // knots every 2^d samples
	uint8_t dropped;    // rotations: component rebuilt from the other three (0 when raw)
	uint8_t chosen_dropped; // the segment's choice for quantized rotations
	uint8_t range_min[4], range_ext[4]; // 8-bit fractions of the clip range per stored component
	uint8_t shift[4];   // Midpoint_knots: residual bits saved per stored component (all 0: plain knots)
	uint8_t plain_choice; // the first search's choice without midpoint residuals: level | decimation << 5
	uint32_t knot_count;
	uint32_t *knots;    // [knot_count * components] quantized values
} sinewi_enc_seg_track;

typedef struct sinewi_enc_segment {
	uint32_t first_sample; // stored sample index of local position 0
	uint32_t length;       // intervals (samples - 1)
	sinewi_enc_seg_track *tracks; // [animated_track_count]
} sinewi_enc_segment;

// A clip stored as curves (docs/format.md §curves): per animated track, its source curve's keys quantized.
typedef struct sinewi_enc_curve {
	uint8_t interpolation;  // sinew_curve_interpolation
	uint8_t n;              // components (4 for a rotation)
	uint16_t set;           // its key time set
	uint32_t keys;
	uint8_t vw[4], tw[4];   // width codes of each component's value and tangents (0..24, SINEWI_WIDTH_RAW)
	float vmin[4], vext[4], tmin[4], text[4]; // their ranges (16-bit values with half_ranges)
	uint32_t *q;            // [keys * n], CUBICSPLINE [keys * 3 * n]: quantized in-tangent, value, out-tangent per key
} sinewi_enc_curve;
typedef struct sinewi_enc_curves {
	uint32_t set_count;
	const float **set_times;   // [set_count]
	uint32_t *set_keys;        // [set_count]
	sinewi_enc_curve *tracks;  // [track_count]
} sinewi_enc_curves;

typedef struct sinewi_enc_clip {
	const sinew_clip *source;
	const sinewi_enc_curves *curves; // a curve clip (no segments), or NULL
	const struct sinewi_enc_clip *curves_base; // a curve clip: the sample encoding whose kinds and constants it has
	uint32_t sample_count;        // samples described (source count, minus a repeated loop sample)
	uint32_t stored_sample_count; // + 1 wrap sample for looping clips
	uint32_t segment_length;
	uint32_t segment_count;
	uint8_t looping;
	uint8_t half_ranges;    // clip ranges stored as binary16 (Half_ranges): clip_min/clip_ext hold those values
	uint8_t short_constants; // constants stored as their high 24 bits (Short_constants): the values are such
	uint8_t midpoint;       // 5-byte track descriptors, predicted knots as midpoint residuals (Midpoint_knots)
	uint8_t over_bound;     // the bound was not met (written on request: Over_bound)
	uint8_t slerp_fit;      // rotations interpolate at the slerp-fitted parameter (Slerp_fit; every clip the encoder writes)
	uint8_t attempt;        // the classification attempt it ended with (sinewi_compress_clip)
	uint8_t left_out;       // sure to be larger than settings->loses_to: its search stopped at the bound (never written)
	uint8_t plain_differs;  // some track of some search of the clip chose otherwise than it would have without midpoint
	                        // residuals in its costs (not serialized; without it, a search without them chooses the same)
	struct sinewi_refine_memo *refined; // a lone segment's refinement, for the plain run (refine_memo.c; not serialized)
	uint32_t refine_taken;  // trial outcomes its refinements took from the replayed encoding's record (not serialized)
	uint32_t fits_learnt;   // fit tests its searches answered from what the clip's earlier ones learnt (not serialized)
	// where the bound was missed worst (when it was): joint, time (seconds) and error (clip units)
	uint32_t over_joint;
	double over_time, over_error;
	uint8_t *joint_kinds;   // [joint_count * 3] rotation, translation, scale
	uint8_t *scalar_kinds;  // [scalar_track_count]
	sinew_qvv *constants;   // [joint_count] values of DEFAULT/CONSTANT sub-tracks (as decoded)
	uint8_t *constant_dropped; // [joint_count] component a constant rotation rebuilds from the other three
	float (*scalar_constants)[4]; // [scalar_track_count]
	uint32_t track_count;   // animated tracks
	sinewi_enc_track *tracks;
	int32_t *joint_track[3];    // [joint_count] index into tracks or -1, per sub-track
	int32_t *scalar_track;      // [scalar_track_count] index into tracks or -1
	sinewi_enc_segment *segments;
	// quality tiers (docs/format.md §tiers): tier k's segments, coarsest first; the last is `segments`
	uint32_t tier_count;
	sinewi_enc_segment **tier_segments; // [tier_count]
	double *tier_max_error;             // [tier_count] clip units, as max_error
	double *tier_bound;                 // [tier_count] clip units: the default joint threshold of the tier
	// measured by the compressor with the decoder's arithmetic, over every source sample
	double max_error;           // clip units
	double max_scalar_error;    // relative to each track's precision
} sinewi_enc_clip;

// Resolved compression settings (sinew_compress_options with defaults applied, in clip units).
typedef struct sinewi_compress_settings {
	double error_cm, shell_cm;
	uint32_t segment_length;
	int level;
	int max_decimation;
	uint32_t tier_count;        // 1 = no tiers
	double tier_factor[8];      // tier k's bound / the clip threshold (>= 1; the last is 1)
	bool short_constants;       // round constants to 24 bits (Short_constants; compress.c tries both)
	bool midpoint;              // may store midpoint residuals (Midpoint_knots), the option midpoint_knots
	bool allow_over_bound;      // a clip whose bound cannot be met is written anyway (Over_bound)
	const sinew_jobs *jobs;     // where a clip's segment searches run (NULL: this thread)
	sinewi_arena *scratch;      // with no jobs: one arena the segment searches of the clip's encodings reuse
	                            // in turn (rewound, not freed, between them); NULL: each its own
	int rig;                    // the blob's rig (sinew_compress_options.strip_metadata): SINEW_STRIP_NONE, _ALL, _TO_SOURCES
	bool rest_defaults;         // defaults play the rig's rest pose and cost no bytes (every rig but SINEW_STRIP_ALL):
	                            // classification tries the default pose first, as it is, and stores none
	size_t loses_to;            // > 0: leave out an encoding sure to be larger (sinewi_compress_clip)
	const struct sinewi_enc_clip *replay; // without midpoint knots: a lone-segment encoding of the same clip and
	                            // constants with them, whose first search's plain choices stand in for this one's
} sinewi_compress_settings;

void sinewi_compress_settings_resolve(const sinew_compress_options *options, sinewi_compress_settings *out);

// classify_joints' candidates for one joint, computed once per clip, and the memo of their replacement
// errors per sub-track: [identity, default, f32 constant, Short_constants constant][sub]; a state says
// what the value is (SINEWI_MEMO_MAX: the error over every sample; _OVER: a sample's error over the
// budget it was measured against).
enum { SINEWI_MEMO_NONE = 0, SINEWI_MEMO_MAX = 1, SINEWI_MEMO_OVER = 2 };
typedef struct sinewi_joint_candidates {
	sinew_qvv def;           // the default pose, normalized, its rotation as the decoder rebuilds it
	float mean_rotation[4];  // the constant candidates before they are stored (compact_rotation, Short_constants)
	float mid_translation[3], mid_scale[3];
	double error[4][3];
	uint8_t state[4][3];
	uint8_t drop_def, ready;
} sinewi_joint_candidates;

// The source's shell frames at the positions of one (segment, group) search, kept for the clip's next
// encodings where they search the same positions (one segment and one group of joints: short clips).
struct sinewi_shell_frame_d;
typedef struct sinewi_raw_cache {
	uint32_t first_sample, length, j0, nj, positions; // the search they are for
	struct sinewi_shell_frame_d *frames;              // [positions * nj]; NULL: none kept yet
	double extent;                                    // refine.c's scene extent of them; < 0: not yet measured
} sinewi_raw_cache;

// What every encoding of a clip shares, whatever its segment length, constants or knots: the samples as
// the compressor reads them (normalized, hemisphere-continuous rotations; a repeated loop sample dropped)
// and each joint's error model (compress_work.h says what each array holds). Read-only once prepared
// but for the candidates' memo and the shell frames' cache, which the clip's encodings fill in turn (never
// two at once).
typedef struct sinewi_clip_prep {
	uint32_t sample_count, stored; // samples, and stored samples (a loop's wrap sample included)
	bool looping;
	sinew_qvv *poses;              // [stored * joint_count]
	float **scalars;               // [scalar_track_count] -> [stored * components]
	double *threshold, *shell, *shell_off, *lever, *max_scale, *parent_gain, *rho;
	float *shells_f;
	uint8_t *rounding_mode;
	sinewi_joint_candidates *candidates; // [joint_count], filled as the encodings classify
	sinewi_raw_cache *raw_cache;         // filled by the first search it fits (the other part written)
	struct sinewi_fit_memo **fits;       // [joint_count * 3] short clips: what the searches learnt of each sub-track's
	                                     // fits (bitrate.c; NULL: none kept), filled by the searches on this thread
} sinewi_clip_prep;

// Clips of at most this many samples: compressed as the high level does at the default level, and
// encoded with Short_constants first (compress.c); their searches keep what they learn (prep->fits).
#define SINEWI_SHORT_CLIP_SAMPLES 65u

// Prepares one validated clip for its encodings (memory from `arena`, which must outlive them).
sinew_result sinewi_prepare_clip(const sinew_clip *clip, const sinewi_compress_settings *settings, sinewi_arena *arena,
                                 sinewi_clip_prep *prep, sinew_error *error);
// Compresses one validated, prepared clip. Memory comes from `arena` (freed by the caller with it).
// With settings->loses_to, an encoding that is sure to be larger than that many bytes (its kinds leave
// it larger whatever its knots, and its bound is met) stops there: OK, marked left_out.
sinew_result sinewi_compress_clip(const sinew_clip *clip, const sinewi_clip_prep *prep, const sinewi_compress_settings *settings,
                                  sinewi_arena *arena, sinewi_enc_clip **out, sinew_error *error);

// Curves (docs/format.md §curves): an encoding of the clip whose animated tracks (those of `base`, with its kinds and
// constants) are their source curves (clip->curves) with the fewest bits the search finds that play within every joint's
// threshold (prep) at every sample, sample midpoint (against the curves) and check point, and every scalar track within
// its precision. *out is NULL when the clip cannot be stored so: a track without a curve, a looping clip, too many keys,
// or the bound missed even at full precision. `half`: 16-bit ranges (Half_ranges).
sinew_result sinewi_encode_curves(const sinew_clip *clip, const sinewi_clip_prep *prep, const sinewi_enc_clip *base, bool half,
                                  sinewi_arena *arena, sinewi_enc_clip **out, sinew_error *error);
// The 16-bit range covering [lo, lo + ext] (Half_ranges); false when it would not be finite.
bool sinewi_half_range(float lo, float ext, float *out_lo, float *out_ext);

// Midpoint knots (docs/format.md): sets each segment track's shifts where residuals from the
// neighbours' midpoint take fewer bits, and `midpoint` when the clip is smaller that way. Lossless:
// the quantized knots, and so the error, do not change.
void sinewi_choose_midpoint(sinewi_enc_clip *enc, bool allowed);
// Default segment lengths (intervals) with and without midpoint knots (analyze.c says why they differ).
#define SINEWI_MIDPOINT_SEGMENT_LENGTH 40u
#define SINEWI_PLAIN_SEGMENT_LENGTH 32u
// Sets the shifts of one quantized track in one segment; returns the knot bits they save.
uint64_t sinewi_track_shifts(const sinewi_enc_track *t, sinewi_enc_seg_track *st);

// Values of the clip's constant (not default) sub-tracks and scalar tracks: what Short_constants shortens.
uint32_t sinewi_enc_constant_count(const sinewi_enc_clip *enc);
// Bytes of one clip block as serialize writes it without pages (for choosing between encodings).
size_t sinewi_serialized_clip_size(const sinewi_enc_clip *enc, bool rest_defaults, const sinew_allocator *allocator);
// Writes the blob of `clip_count` encoded clips (docs/format.md): the clips, then the rig `rig` (a SINEW_STRIP_*
// mode) made of the first clip's joints and scalar tracks (every clip has the same: sinewi_check_rig), paged when
// `page_target` > 0 (every tier of a tiered clip in pages of its own). Page bookkeeping comes from `arena`.
sinew_result sinewi_serialize(sinewi_enc_clip *const *encoded, uint32_t clip_count, int rig, uint32_t page_target,
                              sinewi_arena *arena, const sinew_allocator *allocator, void **out_blob, size_t *out_size,
                              sinew_error *error);
// Checks that every clip of the set plays on one rig (docs/format.md §rig): the same joints (parents, names,
// source indices, default poses), scalar tracks (components, names, sources, default values) and unit.
// BAD_COUNT with the first difference otherwise.
sinew_result sinewi_check_rig(const sinew_clip_set *set, sinew_error *error);

// OVER_BOUND, naming the node, the time and why, when the clip's samples are already further from its source than
// the threshold (clip->resample_error), unless settings->allow_over_bound (source_bound.c).
sinew_result sinewi_check_source_bound(const sinew_clip *clip, const sinewi_compress_settings *settings,
                                       const sinew_allocator *allocator, sinew_error *error);

#endif

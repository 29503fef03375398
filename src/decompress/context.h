// sinew — see include/sinew.h for version and licence
// The sampling context: a validated clip view, per-joint/per-track lookup tables, the constant
// pose, and a cache of the current segment's per-track parameters, all in caller memory.
#ifndef SINEW_DECOMPRESS_CONTEXT_H
#define SINEW_DECOMPRESS_CONTEXT_H

#include "../format/format_read.h"
#include "kernels_api.h"
#include "../core/codec_math.h"

typedef struct sinewi_joint_entry {
	uint8_t kinds[3];      // sub-track kinds (docs/format.md §descriptors)
	uint8_t rounding;      // effective rounding (clip's applied)
	uint8_t dropped;       // constant rotation: component rebuilt from the stored three
	uint8_t reserved[3];
	int32_t track[3];      // animated track index per sub-track or -1
	uint32_t constants;    // byte offset (from the clip) of the joint's first constant value
} sinewi_joint_entry;

typedef struct sinewi_track_entry {
	uint8_t type;          // 0 rotation, 1 translation, 2 scale, 3 scalar
	uint8_t components;    // stored components
	uint8_t rounding;
	uint8_t reserved;
	uint32_t owner;        // joint index, or scalar track index
	uint32_t ranges;       // byte offset (from the clip) of the track's clip range
	uint32_t segment_ranges; // byte offset inside a segment's range bytes
	uint32_t batch;        // index in the rotation batch or the vector batch
	float range_min[4], range_extent[4]; // the clip range per component (read once: filling a segment needs them)
} sinewi_track_entry;

typedef struct sinewi_scalar_entry {
	uint8_t kind, components, rounding, reserved;
	int32_t track;
	uint32_t constants;
	uint32_t output;       // first float in the caller's scalar output
} sinewi_scalar_entry;

// Per animated track, for a segment, in batch order (rotations, then vectors) so the unpack loops read them
// sequentially and without a branch on the track type: 24 bytes.
#define SINEWI_TRACK_RAW 1u       // some component is raw float32 (the decode_track path)
#define SINEWI_TRACK_PREDICTED 2u // the odd knots but the last are stored apart, after the plain ones (format 2: some
                                  // Shift is set; format 3: every track of a clip with Midpoint_knots, in the residual rows)
#define SINEWI_TRACK_WHOLE 4u     // format 3, predicted: the track has no Shift and its odd knots are stored whole
#define SINEWI_TRACK_DROPPED_SHIFT 4 // a rotation's dropped component (0..3) in these bits of `flags`
typedef struct sinewi_cached_track {
	uint64_t bitpos;       // formats 1, 2: first bit of the track's first (plain) knot in the segment's stream;
	                       // format 3: its column in its level's plain rows
	uint32_t residual_pos; // format 3: its column in its level's residual rows (formats 1, 2: 0; its residuals follow
	                       // its plain knots, sinewi_segment_params.row_bits)
	uint8_t width[4];      // bits per stored component (width codes)
	uint8_t rwidth[4];     // midpoint knots: bits per component of a residual (width - Shift)
	uint8_t knot_bits;     // bits per knot (sum of widths; 128 for a raw rotation)
	uint8_t residual_bits; // bits per residual (may be 0: every predicted knot is its midpoint)
	uint8_t sel;           // rounding * 4 + decimation: which knot pair and weight the track uses
	uint8_t flags;         // SINEWI_TRACK_*, and a rotation's dropped component
} sinewi_cached_track;

// The rotation batch's segment constants, structure of arrays, each `rotation_stride` floats (one per rotation, the
// arrays back to back; a kernel's last lanes read into the next array, or the slack after the last): lo and step per
// stored slot, and the dropped component as a float 0..3, which the kernels read where it is (the unpack loop gives
// them the rest from the tracks).
enum { SINEWI_ROT_LO = 0, SINEWI_ROT_STEP = 3, SINEWI_ROT_DROPPED = 6, SINEWI_ROT_ARRAYS = 7 };

// Per-track parameters of one segment: where its knots are, their widths, and the kernels' segment constants.
typedef struct sinewi_segment_params {
	const unsigned char *data; // bit stream start
	sinewi_cached_track *tracks; // [rotation batch] then [vector batch]
	float *rot;                // [SINEWI_ROT_ARRAYS * rotation_stride]
	float *vec;                // lo [vector batch * 4], then step
	uint32_t length;           // intervals in this segment
	uint32_t raw_count;        // tracks with raw float32 components (decoded one by one)
	uint32_t predicted_count;  // tracks with their odd knots stored apart (none: the plain unpack loops)
	uint32_t rebuilt_count;    // of these, tracks with midpoint residuals (none: the kernels skip the rebuild)
	uint32_t sels;             // bit `sel` set for each rounding mode * 4 + decimation some track uses
	uint32_t rows;             // format 3: a track's knots are at its columns of rows (pick_knots), not after each other
	// per decimation level: format 3, where its rows start, and the plain and residual row widths (while the tracks
	// are filled: the columns they take so far); formats 1, 2, plain knots of a predicted track (its residuals follow)
	uint64_t level_start[4];
	uint32_t row_bits[4], residual_row_bits[4];
} sinewi_segment_params;

// Per rounding mode in use and decimation level, indexed like a cached track's `sel` (mode * 4 +
// decimation): the knot pair and weight, for plain tracks [0] and split ones [1] (pick_knots).
typedef struct sinewi_knot_picks {
	uint64_t j[2][16], jn[2][16], jr[2][16];
	uint32_t mid[2][16];
	float alpha[16];
	uint32_t uniform_sel;  // the segment's one `sel`, when every track uses it and every track is split or none is
} sinewi_knot_picks;

// Fills `c` from a track descriptor (type 0..3, n stored components) of a segment of `length`
// intervals whose stream has the track at `bitpos`; returns where the next track starts, and the
// number of plain knots (all the knots, but for a track with midpoint residuals).
// Inlined where tracks are filled natively; one copy (context.c) in the wasm decoder, which counts bytes.
#if defined(__wasm__)
#define SINEWI_CACHE_TRACK_LINKAGE
uint64_t sinewi_cache_track(uint64_t desc, uint32_t type, uint32_t n, uint32_t rounding, uint32_t length, uint64_t bitpos,
                            sinewi_cached_track *c, uint32_t *plain_knots);
#else
#define SINEWI_CACHE_TRACK_LINKAGE static inline
#endif
#if !defined(__wasm__) || defined(SINEWI_CACHE_TRACK_HERE)
SINEWI_CACHE_TRACK_LINKAGE uint64_t sinewi_cache_track(uint64_t desc, uint32_t type, uint32_t n, uint32_t rounding, uint32_t length, uint64_t bitpos,
                            sinewi_cached_track *c, uint32_t *plain_knots) {
	uint32_t d = (uint32_t)(desc >> 20) & 3u;
	c->sel = (uint8_t)(rounding * 4u + d);
	c->bitpos = bitpos;
	uint32_t bits, residual, raw;
	sinewi_descriptor_slots(desc, type, n, c->width, c->rwidth, &raw, &bits, &residual);
	c->knot_bits = (uint8_t)bits;
	c->residual_bits = (uint8_t)residual;
	c->flags = (uint8_t)((raw ? SINEWI_TRACK_RAW : 0u) | (residual != bits ? SINEWI_TRACK_PREDICTED : 0u));
	c->residual_pos = 0;
	uint32_t knots = sinewi_knot_count(length, d);
	*plain_knots = knots - (residual != bits ? sinewi_predicted_knots(knots) : 0u);
	return bitpos + sinewi_track_bits(knots, bits, residual);
}
#endif

struct sinew_context {
	// The lines one pose reads first (a cold pose waits for them before anything else: every address it needs
	// is here, so the rest is fetched in one burst).
	sinewi_segment_params cur;     // single-entry mode: the parameters of the segment sampling reads (random access:
	                               // params[s])
	uint32_t cached_segment;       // single-entry mode: the segment in `cur`, UINT32_MAX for none
	uint32_t modes_used;           // bit r set when some animated track uses rounding mode r
	uint32_t rotation_count, vector_count; // animated tracks per batch
	uint32_t joint_vector_count;   // vector batch entries of joints (scalar tracks follow them)
	uint32_t rotation_stride;      // floats per array of the rotation batch's segment constants (its count)
	uint32_t vector_stride;        // the same for the vector batch (4 per entry)
	uint32_t joint_count, scalar_components;
	uint32_t segment_length, segment_count, last_sample; // stored samples - 1
	uint32_t track_count, scalar_count;
	uint32_t prefill_segment;      // single-entry mode: the segment in params[0], UINT32_MAX for none
	uint32_t prefill_track;        // its next track to fill
	uint8_t skip_defaults, random_access, paged, looping;
	float last_u;                  // local position of the previous call (playback speed estimate)
	double sample_rate;
	const unsigned char *time_map; // the view's (NULL: sample k at k / rate)
	const sinewi_kernel_table *kernel;
	const float *fit;              // Slerp_fit coefficients (sinewi_slerp_fit), or NULL: plain nlerp
	uint32_t *out_offsets;         // [rotation batch] then [vector batch]: first output float, joint * 10 (+ 4 translation,
	                               // + 7 scale); scalar tracks: the first float in the scalar output
	sinew_qvv *base_pose;          // [joints] identity/default/constant values (animated parts: identity)
	float *base_scalars;           // [scalar components]
	sinewi_curve_entry *curves;    // [track_count] curve clips; NULL otherwise (every call tests it: kept hot)

	sinewi_clip_view view;
	uint32_t segment_header; // bytes before a segment's bit stream
	sinewi_joint_entry *joints;
	sinewi_track_entry *tracks;
	sinewi_scalar_entry *scalars;
	uint32_t *batch_track;   // [rotation batch] then [vector batch]: track index of each batch entry
	// Segment parameters: one entry per segment in random-access mode (filled at init), else the next
	// segment playback heads to being filled in params[0] (and the direct one in params[1]).
	uint64_t prefill_bitpos;       // where the prefill's next track starts in its bit stream
	uint8_t prefill_sink;          // bytes read to warm the cache end up here (so the reads stay)
	uint8_t prefill_backward;      // params[0] is reached going backward (warm its last knots)
	sinewi_segment_params *params; // [segment_count], or [1 or 2]
	sinewi_segment_params *direct; // tracks of several rounding modes: the segment some need besides the cached one
	uint32_t direct_segment;       // the segment in `direct` (UINT32_MAX: none)
	// Paged clips: the bytes of each page (NULL while absent) and the page of each segment.
	const unsigned char **pages;   // [page_count]
	uint32_t *segment_page;        // [tier_count * segment_count]: tier t's page of segment s at t * segment_count + s
	uint32_t *page_tier;           // [page_count]
	uint32_t tiers;                // tiers sampling uses: the clip's, or fewer (sinew_context_options.tiers)
	uint32_t missing_page;         // the page the last sampling call lacked (UINT32_MAX: none)
	double duration;               // curve clips: the clip's duration (sampling clamps t to it)
};

// The quantized components of an interval's two knots (pick_knots' j, jn, jr, mid), one read per component (knots
// wider than one word's 57 bits; rare), predicted knots rebuilt: component k goes to a[k * stride] and b[k * stride].
void sinewi_unpack_wide(const sinewi_segment_params *p, const sinewi_cached_track *c, uint32_t n, uint64_t j, uint64_t jn,
                        uint64_t jr, uint32_t mid, uint32_t *a, uint32_t *b, size_t stride);
// First byte of segment s, or NULL when it is in a page that is not loaded.
const unsigned char *sinewi_segment_bytes(const sinew_context *ctx, uint32_t s);
// Random-access contexts: fills the parameters of segment s (present) in params[s].
void sinewi_fill_segment(sinew_context *ctx, uint32_t s);
// The parameters of present segment s for a call that needs them besides the cached segment (tracks of other
// rounding modes): params[s] in random-access contexts, else filled into ctx->direct.
const sinewi_segment_params *sinewi_segment_direct(sinew_context *ctx, uint32_t s);
// Key position (in samples, clamped) for time t, with the near-integer snap of docs/format.md.
double sinewi_key_for_time(const sinew_context *ctx, double t);
sinew_result sinewi_sample_key(sinew_context *ctx, double key, sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars);
// The next segment is prepared over the last calls before playback gets there: as few as fill at most
// SINEWI_PREFILL_TRACKS tracks each (a frame-time spike bounded), at most SINEWI_PREFILL_CALLS. Few: on a cold call
// each prefill adds lines of its own, several of them dependent (the track table, the segment's descriptors and
// ranges, the block it writes).
#define SINEWI_PREFILL_CALLS 16u
#define SINEWI_PREFILL_TRACKS 16u
// Parameters of segment s for sampling at local position u (filled now in single-entry mode when
// another segment is cached).
const sinewi_segment_params *sinewi_segment(sinew_context *ctx, uint32_t s, float u);
// Every kernel this CPU can run (scalar first); returns how many were written.
uint32_t sinewi_kernels_available(const sinewi_kernel_table **out, uint32_t capacity);
// The kernel table for `kernel` (sinew_kernel) on this CPU.
const sinewi_kernel_table *sinewi_select_kernel(int kernel);

#endif

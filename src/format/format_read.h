// sinew — see include/sinew.h for version and licence
// A validated view of one clip inside a blob (docs/format.md), for the decoder.
#ifndef SINEW_FORMAT_READ_H
#define SINEW_FORMAT_READ_H

#include "../core/base.h"
#include "../core/codec_math.h"
#include "../core/bits.h"

typedef struct sinewi_clip_view {
	const unsigned char *blob;
	size_t blob_size;
	uint32_t version;           // format version of the blob
	uint32_t total_size;        // Total_size of the header (> blob_size when only the resident part was given)
	uint32_t resident_size;     // bytes of the resident part (= total_size when the blob is not paged)
	uint32_t descriptor_size;   // bytes per joint and scalar descriptor: 2 (version 1) or 1
	uint32_t dropped_offset, dropped_shift; // where Constant_dropped sits in a joint descriptor (1, 4 / 0, 6)
	uint32_t rounding_stride;   // bytes between rounding entries (version 1: in the descriptors, 2)
	uint32_t segment_range_bytes; // bytes of segment ranges per segment (version 2 stores none for a lone segment)
	uint32_t rotation_range_components; // clip range components of a rotation: 4, or 3 (version 2, lone segment:
	                                    // the components other than the segment's Dropped, in order)
	uint32_t half_ranges;       // 1: clip range values are binary16 (Half_ranges), 0: f32
	uint32_t constant_size;     // bytes per value of a constant (kind 2): 4 (f32), or 3 (Short_constants: the
	                            // high 24 bits of one); a default's values are always f32
	uint32_t track_descriptor_size; // bytes per animated track in a segment header: 3, or 5 (Midpoint_knots)
	uint32_t page_count;        // paged clips: pages of every tier (else 0)
	uint32_t tier_count;        // quality tiers: 1, or 2.. for a tiered clip
	const unsigned char *tier_table; // tiered clips: the first tier entry (first page, bound, measured error)
	const unsigned char *rounding;   // rounding nibbles (low 4 bits), a joint's then a scalar track's, rounding_stride
	                                 // bytes apart; NULL: every track uses the clip's (version 2 without Track_rounding)
	const unsigned char *page_table; // paged clips: the first page entry
	const unsigned char *time_map;   // Time_map: the first mark (f32 time, u32 sample); NULL: sample k at k / rate
	uint32_t mark_count;
	const unsigned char *clip; // first byte of the clip
	uint32_t size, flags;
	double sample_rate, unit_scale;
	uint32_t sample_count, stored_sample_count;
	uint32_t joint_count, scalar_count, track_count;
	uint32_t segment_count, segment_length;
	uint32_t stored_components; // sum of stored components over animated tracks
	uint32_t scalar_components; // sum of components over scalar tracks
	const unsigned char *descriptors, *constants, *ranges, *segment_table, *metadata;
	uint32_t segments_offset;   // clip offset of the segment table, the page table, or (version 3) the lone segment
	// version 3 (docs/format.md §rig, §node map): the rig shared by every clip of the blob, and which nodes and
	// scalar tracks this clip lists (has descriptors for); NULL rig for versions 1 and 2
	const unsigned char *rig;
	uint32_t rig_flags, rig_size;
	bool rest_defaults;         // Blob_flags Rest_defaults: defaults and unlisted tracks play the rig's rest value
	const unsigned char *node_map, *scalar_map; // NULL: every node (scalar track) is listed
	uint32_t listed_joints, listed_scalars;     // descriptors of each (= joint_count, scalar_count without maps)
	const unsigned char *scalar_components_table; // rig: per scalar track, components - 1 (NULL: in the descriptors)
	const unsigned char *rig_parents, *rig_sources, *rig_rest, *rig_shells, *rig_scalar_sources, *rig_names,
	    *rig_scalar_rest; // the rig's parts (NULL when absent)
	uint32_t rig_strings_size, rig_clip_count; // Names: bytes of strings; clips the names table covers
	uint32_t mark_sample_size;  // version 3 time map: bytes per stored mark sample (0: every sample is a mark)
	// Curves (docs/format.md §curves): the curve block (NULL: the clip has segments), its first key time, its first
	// curve record and its bit stream
	const unsigned char *curves, *curve_times, *curve_records, *curve_bits;
	uint32_t curve_time_count;
} sinewi_clip_view;

// Rank of bit j in a node or scalar map: the number of set bits before it (the index of its descriptor).
static inline uint32_t sinewi_map_rank(const unsigned char *map, uint32_t j) {
	uint32_t rank = 0;
	for (uint32_t i = 0; i < j / 8; ++i) {
		uint32_t b = map[i];
		b = b - ((b >> 1) & 0x55u), b = (b & 0x33u) + ((b >> 2) & 0x33u), rank += (b + (b >> 4)) & 0x0Fu;
	}
	for (uint32_t k = j & ~7u; k < j; ++k) rank += (map[k / 8] >> (k % 8)) & 1u;
	return rank;
}
static inline bool sinewi_map_bit(const unsigned char *map, uint32_t j) {
	return !map || ((map[j / 8] >> (j % 8)) & 1u);
}

// Track descriptor `track` of a segment (docs/format.md §segment): 24 bits, or 40 with Midpoint_knots
// (the four 4-bit Shift values in bits 24-39).
static inline uint64_t sinewi_track_descriptor(const unsigned char *segment, uint32_t track, uint32_t size) {
	const unsigned char *p = segment + (size_t)track * size;
	uint64_t d = (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16);
	if (size == 5) d |= ((uint64_t)p[3] << 24) | ((uint64_t)p[4] << 32);
	return d;
}

// The slots of a track descriptor (type 0..3, n stored components): width codes and residual widths
// (width - Shift) of slots 0..3 (0 past n), whether a slot is raw, and the bits of one knot and of one
// predicted knot's residual: equal for a plain track (every Shift 0), 128 for a raw rotation.
static inline void sinewi_descriptor_slots(uint64_t d, uint32_t type, uint32_t n, uint8_t width[4], uint8_t rwidth[4],
                                           uint32_t *raw, uint32_t *knot_bits, uint32_t *residual_bits) {
	uint32_t bits = 0, residual = 0, any_raw = 0;
	for (uint32_t k = 0; k < 4; ++k) {
		const uint32_t w = k < n ? (uint32_t)(d >> (5 * k)) & 31u : 0u, shift = sinewi_descriptor_shift(d, k);
		width[k] = (uint8_t)w;
		rwidth[k] = (uint8_t)(sinewi_width_bits(w) - shift); // (validated: shift <= width, 0 for a slot not stored or raw)
		any_raw |= w == SINEWI_WIDTH_RAW;
		bits += sinewi_width_bits(w), residual += sinewi_width_bits(w) - shift;
	}
	if (type == 0 && (d & 31u) == SINEWI_WIDTH_RAW) bits = residual = 128; // x, y, z, w as float32
	*raw = any_raw, *knot_bits = bits, *residual_bits = residual;
}
// The bits of one knot and of one predicted knot's residual alone.
static inline void sinewi_descriptor_bits(uint64_t d, uint32_t type, uint32_t n, uint32_t *knot_bits, uint32_t *residual_bits) {
	uint8_t width[4], rwidth[4];
	uint32_t raw;
	sinewi_descriptor_slots(d, type, n, width, rwidth, &raw, knot_bits, residual_bits);
}

// Value i of constants or clip ranges: f32 (`size` 4) or the high 24 or 16 bits of one (`size` 3:
// Short_constants; 2: Half_ranges).
float sinewi_constant_value(const unsigned char *constants, uint32_t i, uint32_t size);

// Value i of a clip range table: f32, or (`half`, Half_ranges) the high 16 bits of one (bfloat16).
// Out of line: it is read when a segment is entered, not per sample, and the wasm decoder counts bytes.
float sinewi_range_value(const unsigned char *ranges, uint32_t i, uint32_t half);

// Time map (docs/format.md §time map): the key of time t (clamped to the samples, not snapped), and the
// time of a (fractional) key, for a uniform clip or one with a time map; the clip's duration.
double sinewi_view_key(const sinewi_clip_view *v, double t);
double sinewi_view_time(const sinewi_clip_view *v, double key);
double sinewi_view_duration(const sinewi_clip_view *v);

// Paged clips (format 2) can be compiled out where size matters more (the wasm decoder: -DSINEW_NO_PAGES);
// such a build rejects paged blobs with UNSUPPORTED.
#ifdef SINEW_NO_PAGES
#define SINEWI_PAGES 0
#else
#define SINEWI_PAGES 1
#endif
// Formats 1 and 2 can be compiled out as well (the wasm decoders, which count bytes: -DSINEW_NO_LEGACY);
// such a build refuses them with BAD_VERSION and says how to convert (docs/format.md §version).
#ifdef SINEW_NO_LEGACY
#define SINEWI_LEGACY 0
#else
#define SINEWI_LEGACY 1
#endif
// The rig parts a decoder never reads (hierarchy, sources, shells, names) are checked entry by entry natively;
// the wasm decoders leave that to web/sinew.mjs, which reads them (and checks their sizes and the tail).
#define SINEWI_CHECK_RIG_ENTRIES SINEWI_LEGACY

typedef struct sinewi_blob_header {
	uint32_t version, clip_count, total_size;
	uint32_t resident_size; // bytes the clips live in: the resident part of a paged blob, else total_size
	bool paged;             // version 2 or 3 with pages
	bool pages_given;       // the bytes given include the pages (the whole blob)
	uint32_t blob_flags;    // version 3 Blob_flags
	uint32_t table;         // blob offset of the clip offset table
	uint32_t clips_end;     // version 3: end of the last clip block
	uint32_t rig_offset;    // version 3: the rig (checked with the header)
} sinewi_blob_header;
// Reads and checks the blob header of either version.
sinew_result sinewi_read_blob_header(const unsigned char *blob, size_t size, bool check_checksum, sinewi_blob_header *h,
                                     sinew_error *error);
// Reads and checks the blob header (magic, version, sizes, reserved fields; checksum when
// `check_checksum`). Returns the clip count through *clip_count.
sinew_result sinewi_read_header(const unsigned char *blob, size_t size, bool check_checksum, uint32_t *clip_count,
                                sinew_error *error);
// Reads and checks the rig of a version-3 blob at blob offset `at` (before `limit`) into the view's rig fields,
// joint_count, scalar_count, scalar_components and unit_scale; *rig_end receives where it ends.
sinew_result sinewi_read_rig(const unsigned char *blob, uint32_t at, uint32_t limit, uint32_t clip_count,
                             sinewi_clip_view *v, uint32_t *rig_end, sinew_error *error);
// Reads clip `index` and checks every offset, count, width and reserved bit of it.
sinew_result sinewi_read_clip(const unsigned char *blob, size_t size, uint32_t index, sinewi_clip_view *view,
                              sinew_error *error);

// The type (0 rotation, 1 translation, 2 scale, 3 scalar) and components of each animated track, in track
// order, up to `capacity`; returns the track count.
uint32_t sinewi_track_types(const sinewi_clip_view *v, uint8_t *types, uint8_t *comps, uint32_t capacity);

// Pages of a paged clip: the page table entry of page p.
typedef struct sinewi_page_entry {
	uint32_t first_segment, segment_count, offset, size, checksum;
} sinewi_page_entry;
void sinewi_page_entry_of(const sinewi_clip_view *v, uint32_t page, sinewi_page_entry *out);
// Checks the bytes of page `page` of a paged clip: size, checksum (when `check_checksum`), segment
// offsets, every segment's descriptors and sizes, the zero tail. `types`/`comps` give each animated
// track's type (0 rotation, 1 translation, 2 scale, 3 scalar) and components, `stride` bytes apart.
sinew_result sinewi_check_page(const sinewi_clip_view *v, uint32_t page, const unsigned char *bytes, size_t size,
                               bool check_checksum, const uint8_t *types, const uint8_t *comps, size_t stride,
                               sinew_error *error);

// Descriptor fields (docs/format.md §descriptors), for every version. Version 3 lists some nodes and scalar
// tracks only: the others have the unlisted kinds (1 with Rest_defaults, else 0), no rounding byte, no
// constant. These accessors find a descriptor by rank (O(index / 8)); loops over every node keep a cursor
// instead (sinewi_listed_*).
#define SINEWI_KINDS_ALL(kind) ((kind) | ((kind) << 2) | ((kind) << 4))
static inline uint32_t sinewi_unlisted_kind(const sinewi_clip_view *v) {
	return v->rest_defaults ? 1u : 0u;
}
// Descriptor index of node j, or UINT32_MAX when it is not listed.
static inline uint32_t sinewi_joint_slot(const sinewi_clip_view *v, uint32_t j) {
	if (!v->node_map) return j;
	return sinewi_map_bit(v->node_map, j) ? sinewi_map_rank(v->node_map, j) : UINT32_MAX;
}
static inline uint32_t sinewi_scalar_slot(const sinewi_clip_view *v, uint32_t i) {
	if (!v->scalar_map) return i;
	return sinewi_map_bit(v->scalar_map, i) ? sinewi_map_rank(v->scalar_map, i) : UINT32_MAX;
}
static inline uint32_t sinewi_joint_kinds(const sinewi_clip_view *v, uint32_t j) { // rotation | translation << 2 | scale << 4
	const uint32_t k = sinewi_joint_slot(v, j);
	return k == UINT32_MAX ? SINEWI_KINDS_ALL(sinewi_unlisted_kind(v)) : v->descriptors[(size_t)v->descriptor_size * k] & 63u;
}
static inline uint32_t sinewi_joint_dropped(const sinewi_clip_view *v, uint32_t j) {
	const uint32_t k = sinewi_joint_slot(v, j);
	return k == UINT32_MAX ? 0u : (v->descriptors[(size_t)v->descriptor_size * k + v->dropped_offset] >> v->dropped_shift) & 3u;
}
static inline uint32_t sinewi_joint_rounding(const sinewi_clip_view *v, uint32_t j) { // nibble: 0..3 or 15 (the clip's)
	const uint32_t k = sinewi_joint_slot(v, j);
	return v->rounding && k != UINT32_MAX ? v->rounding[(size_t)v->rounding_stride * k] & 15u : 15u;
}
// Components of scalar track i: the rig's (version 3), or its descriptor's.
static inline uint32_t sinewi_scalar_components(const sinewi_clip_view *v, uint32_t i) {
	if (v->scalar_components_table) return (v->scalar_components_table[i] & 3u) + 1u;
	return ((v->descriptors[(size_t)v->descriptor_size * ((size_t)v->joint_count + i)] >> 2) & 3u) + 1u;
}
static inline uint32_t sinewi_scalar_desc(const sinewi_clip_view *v, uint32_t i) { // kind | (components - 1) << 2
	const uint32_t k = sinewi_scalar_slot(v, i);
	const uint32_t kind = k == UINT32_MAX ? sinewi_unlisted_kind(v)
	                                      : v->descriptors[(size_t)v->descriptor_size * ((size_t)v->listed_joints + k)] & 3u;
	return kind | ((sinewi_scalar_components(v, i) - 1u) << 2);
}
static inline uint32_t sinewi_scalar_rounding(const sinewi_clip_view *v, uint32_t i) {
	const uint32_t k = sinewi_scalar_slot(v, i);
	return v->rounding && k != UINT32_MAX ? v->rounding[(size_t)v->rounding_stride * (v->listed_joints + k)] & 15u : 15u;
}
// Whether a kind-1 sub-track stores its value with the constants (versions 1, 2, and 3 without Rest_defaults).
static inline bool sinewi_default_stored(const sinewi_clip_view *v) {
	return !v->rest_defaults;
}
// Clip offset where segment s starts (version 3: a lone segment has no table).
static inline uint32_t sinewi_segment_offset(const sinewi_clip_view *v, uint32_t s);

// Time map marks (docs/format.md §time map), for every version.
double sinewi_mark_time(const sinewi_clip_view *v, uint32_t m);
uint32_t sinewi_mark_sample(const sinewi_clip_view *v, uint32_t m);

// The rig of a version-3 blob read from a validated view: node j's parent (-1 root), source index (-1 none),
// rest pose, shell and precision, name; scalar track i's source node/target, rest value, precision, name.
// Absent parts give -1, identity, 0 and NULL. Names point into the blob.
int32_t sinewi_rig_parent(const sinewi_clip_view *v, uint32_t j);
int32_t sinewi_rig_source(const sinewi_clip_view *v, uint32_t j);
bool sinewi_rig_rest(const sinewi_clip_view *v, uint32_t j, float out[10]); // false: not stored (identity written)
void sinewi_rig_shell(const sinewi_clip_view *v, uint32_t j, float *shell, float *precision);
const char *sinewi_rig_name(const sinewi_clip_view *v, uint32_t j);
void sinewi_rig_scalar_source(const sinewi_clip_view *v, uint32_t i, int32_t *node, int32_t *target);
bool sinewi_rig_scalar_rest(const sinewi_clip_view *v, uint32_t i, float out[4]); // false: not stored (zeros written)
float sinewi_rig_scalar_precision(const sinewi_clip_view *v, uint32_t i);
const char *sinewi_rig_scalar_name(const sinewi_clip_view *v, uint32_t i);
const char *sinewi_rig_clip_name(const sinewi_clip_view *v, uint32_t clip);

// One curve record (docs/format.md §curves), and in a sampling context where its keys are.
typedef struct sinewi_curve_entry {
	const unsigned char *times; // (context) its first key time (f32)
	uint64_t first_bit;         // (context) key 0 in the curve bit stream
	uint32_t first, keys;       // its key times: Time[first .. first + keys - 1]
	uint32_t key_bits;          // in-tangent, value, out-tangent (value alone without CUBICSPLINE)
	uint8_t interpolation, n;   // 0 STEP, 1 LINEAR, 2 CUBICSPLINE; components (4 for a rotation)
	uint8_t bits[2];            // bits of a key's value [0] and of its in-tangent (and out-tangent) [1]
	uint8_t w[2][4];            // bits of each component's value [0] and tangents [1] (0..24; tangents 0 but for CUBICSPLINE)
	float lo[2][4], step[2][4]; // their Min (0 where not stored) and quantization step (sinewi_quant_step)
} sinewi_curve_entry;
// Reads the record of an n-component curve at p, at most `avail` bytes, ranges 16-bit with `half`, into *e (but times,
// first_bit); returns its size, or 0 when it exceeds `avail` or is malformed (no key; natively also interpolation 3, a
// reserved bit, a width above 24, tangent widths without CUBICSPLINE, a range that is not finite).
uint32_t sinewi_curve_record(const unsigned char *p, uint64_t avail, uint32_t n, uint32_t half, sinewi_curve_entry *e);

// Number of stored components of an animated track of `kind_type` (0 rot, 1 trans, 2 scale, 3 scalar).
static inline uint32_t sinewi_track_components(uint32_t type, uint32_t scalar_components) {
	return type == 3 ? scalar_components : 3u;
}

static inline uint32_t sinewi_segment_offset(const sinewi_clip_view *v, uint32_t s) {
	return v->segment_table ? sinewi_rd32(v->segment_table + 4 * s) : v->segments_offset;
}

#endif

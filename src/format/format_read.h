// sinew — see include/sinew.h for version and licence
// A validated view of one clip inside a blob (docs/format.md), for the decoder.
#ifndef SINEW_FORMAT_READ_H
#define SINEW_FORMAT_READ_H

#include "../core/base.h"
#include "../core/codec_math.h"

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
} sinewi_clip_view;

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
		rwidth[k] = (uint8_t)(w - shift); // (validated: shift <= width, 0 for a slot not stored)
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

typedef struct sinewi_blob_header {
	uint32_t version, clip_count, total_size;
	uint32_t resident_size; // bytes the clips live in: the resident part of a paged blob, else total_size
	bool paged;             // version 2 with pages
	bool pages_given;       // the bytes given include the pages (the whole blob)
} sinewi_blob_header;
// Reads and checks the blob header of either version.
sinew_result sinewi_read_blob_header(const unsigned char *blob, size_t size, bool check_checksum, sinewi_blob_header *h,
                                     sinew_error *error);
// Reads and checks the blob header (magic, version, sizes, reserved fields; checksum when
// `check_checksum`). Returns the clip count through *clip_count.
sinew_result sinewi_read_header(const unsigned char *blob, size_t size, bool check_checksum, uint32_t *clip_count,
                                sinew_error *error);
// Reads clip `index` and checks every offset, count, width and reserved bit of it.
sinew_result sinewi_read_clip(const unsigned char *blob, size_t size, uint32_t index, sinewi_clip_view *view,
                              sinew_error *error);

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

// Descriptor fields (docs/format.md §descriptors), for either version.
static inline uint32_t sinewi_joint_kinds(const sinewi_clip_view *v, uint32_t j) { // rotation | translation << 2 | scale << 4
	return v->descriptors[(size_t)v->descriptor_size * j] & 63u;
}
static inline uint32_t sinewi_joint_dropped(const sinewi_clip_view *v, uint32_t j) {
	return (v->descriptors[(size_t)v->descriptor_size * j + v->dropped_offset] >> v->dropped_shift) & 3u;
}
static inline uint32_t sinewi_joint_rounding(const sinewi_clip_view *v, uint32_t j) { // nibble: 0..3 or 15 (the clip's)
	return v->rounding ? v->rounding[(size_t)v->rounding_stride * j] & 15u : 15u;
}
static inline uint32_t sinewi_scalar_desc(const sinewi_clip_view *v, uint32_t i) { // kind | (components - 1) << 2
	return v->descriptors[(size_t)v->descriptor_size * ((size_t)v->joint_count + i)] & 15u;
}
static inline uint32_t sinewi_scalar_rounding(const sinewi_clip_view *v, uint32_t i) {
	return sinewi_joint_rounding(v, v->joint_count + i);
}

// Number of stored components of an animated track of `kind_type` (0 rot, 1 trans, 2 scale, 3 scalar).
static inline uint32_t sinewi_track_components(uint32_t type, uint32_t scalar_components) {
	return type == 3 ? scalar_components : 3u;
}

#endif

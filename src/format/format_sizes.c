// sinew — see include/sinew.h for version and licence
// sinew_blob_sizes: where every byte of a blob goes, by the parts of docs/format.md, so a clip's size
// can be explained (headers, descriptors, constants, ranges, segment overhead, knot bits by kind).
#include <string.h>

#include "../core/bits.h"
#include "../core/codec_math.h"
#include "../core/format_layout.h"
#include "format_read.h"

static void add(sinew_size_breakdown *to, const sinew_size_breakdown *from) {
	to->total += from->total, to->blob_header += from->blob_header, to->clip_headers += from->clip_headers;
	to->descriptors += from->descriptors, to->constants += from->constants, to->clip_ranges += from->clip_ranges;
	to->time_map += from->time_map;
	to->segment_table += from->segment_table, to->segment_descriptors += from->segment_descriptors;
	to->segment_ranges += from->segment_ranges, to->group_offsets += from->group_offsets;
	to->bits_rotation += from->bits_rotation, to->bits_translation += from->bits_translation;
	to->bits_scale += from->bits_scale, to->bits_scalar += from->bits_scalar, to->bit_padding += from->bit_padding;
	to->metadata += from->metadata, to->rig += from->rig, to->padding += from->padding;
	to->segments += from->segments, to->animated_tracks += from->animated_tracks, to->knots += from->knots;
	to->predicted_knots += from->predicted_knots;
	to->curve_times += from->curve_times, to->curve_tracks += from->curve_tracks;
}

// A curve clip's block (docs/format.md §curves): key times, curve records, and the keys' bits by track type.
static void curve_sizes(const sinewi_clip_view *v, const uint8_t *types, const uint8_t *comps, sinew_size_breakdown *out) {
	uint64_t *bits[4] = {&out->bits_rotation, &out->bits_translation, &out->bits_scale, &out->bits_scalar};
	out->curve_times = (uint64_t)(v->curve_records - v->curves);
	out->curve_tracks = (uint64_t)(v->curve_bits - v->curve_records);
	const unsigned char *p = v->curve_records;
	uint64_t all = 0;
	for (uint32_t t = 0; t < v->track_count; ++t) {
		sinewi_curve_entry e;
		p += sinewi_curve_record(p, UINT32_MAX, types[t] == 0 ? 4u : comps[t], v->half_ranges, &e);
		*bits[types[t]] += (uint64_t)e.keys * e.key_bits, all += (uint64_t)e.keys * e.key_bits;
		out->knots += e.keys;
	}
	out->bit_padding = (uint64_t)(v->clip + v->size - v->curve_bits) * 8 - all;
}

// Bits of one animated track in one segment (docs/format.md §segment): type 0..2 joint sub-track, 3 scalar.
// With Midpoint_knots, the predicted knots of a track with some Shift are residuals (version 3 stores those of
// a track without any whole, in the residual rows: they count as plain knots).
static uint64_t track_bits(const unsigned char *seg, uint32_t descriptor_size, uint32_t t, uint32_t type, uint32_t comps,
                           uint32_t length, uint32_t *knots, uint32_t *predicted) {
	uint64_t d = sinewi_track_descriptor(seg, t, descriptor_size);
	uint32_t knot_bits, residual_bits;
	sinewi_descriptor_bits(d, type, comps, &knot_bits, &residual_bits);
	*knots = sinewi_knot_count(length, (uint32_t)(d >> 20) & 3u);
	*predicted = residual_bits != knot_bits ? sinewi_predicted_knots(*knots) : 0u;
	return sinewi_track_bits(*knots, knot_bits, residual_bits);
}

static sinew_result clip_sizes(const unsigned char *blob, size_t size, uint32_t index, sinew_size_breakdown *out,
                               sinew_error *error) {
	sinewi_clip_view v;
	SINEWI_TRY(sinewi_read_clip(blob, size, index, &v, error));
	SINEWI_CHECK(!v.page_count || v.blob_size == v.total_size, error, SINEW_RESULT_PAGE_MISSING,
	             "blob_sizes: clip %u is paged and its pages were not given", index);
	memset(out, 0, sizeof *out);
	out->total = v.size;
	const uint64_t header = v.version >= 3 ? SINEW_FMT_V3_CLIP_HEADER_SIZE + ((v.flags & SINEW_FMT_FLAG_RATE_F64) ? 4u : 0u)
	                        : v.version >= 2 ? SINEW_FMT_CLIP_HEADER_SIZE_V2
	                                         : SINEW_FMT_CLIP_HEADER_SIZE;
	out->clip_headers = header;
	out->descriptors = (uint64_t)(v.constants - v.clip) - header; // (format 3: the maps too)
	out->constants = (uint64_t)(v.ranges - v.constants);
	const unsigned char *table = v.clip + v.segments_offset;
	const unsigned char *ranges_end = v.time_map ? v.time_map - 4 : table;
	out->clip_ranges = (uint64_t)(ranges_end - v.ranges);
	out->time_map = (uint64_t)(table - ranges_end);
	// the segment table (none for a format-3 lone segment), or the page table and each page's segment offsets
	out->segment_table = v.page_count      ? 4ull + (uint64_t)SINEW_FMT_PAGE_ENTRY_SIZE * v.page_count
	                     : v.segment_table ? 4ull * (v.segment_count + 1)
	                                       : 0u;
	for (uint32_t p = 0; p < v.page_count; ++p) {
		sinewi_page_entry e;
		sinewi_page_entry_of(&v, p, &e);
		out->total += e.size; // the pages belong to the clip
		out->segment_table += 4ull * (e.segment_count + 1);
	}
	out->segments = v.segment_count;
	out->animated_tracks = v.track_count;
	uint64_t *bits[4] = {&out->bits_rotation, &out->bits_translation, &out->bits_scale, &out->bits_scalar};
	const uint64_t groups = v.version >= 3 ? 0u : (v.track_count + SINEW_FMT_GROUP_TRACKS - 1) / SINEW_FMT_GROUP_TRACKS;
	uint8_t types_small[256], comps_small[256], *types = types_small, *comps = comps_small;
	sinewi_alloc al = sinewi_alloc_from(NULL);
	if (v.track_count > sizeof types_small) {
		types = (uint8_t *)sinewi_malloc(&al, (size_t)v.track_count * 2);
		SINEWI_CHECK(types, error, SINEW_RESULT_OUT_OF_MEMORY, "out of memory");
		comps = types + v.track_count;
	}
	sinewi_track_types(&v, types, comps, v.track_count);
	if (v.curves) curve_sizes(&v, types, comps, out);
	uint32_t page = 0;
	for (uint32_t s = 0; s < v.segment_count; ++s) {
		const unsigned char *seg, *offsets = v.segment_table;
		uint32_t k = s;
		if (v.page_count) { // the page holding s
			sinewi_page_entry e;
			sinewi_page_entry_of(&v, page, &e);
			if (s >= e.first_segment + e.segment_count) sinewi_page_entry_of(&v, ++page, &e);
			offsets = v.blob + e.offset, k = s - e.first_segment;
			seg = offsets + sinewi_rd32(offsets + 4 * k);
		} else {
			seg = v.clip + sinewi_segment_offset(&v, k);
		}
		uint32_t seg_size = v.page_count || v.segment_table ? sinewi_rd32(offsets + 4 * (k + 1)) - sinewi_rd32(offsets + 4 * k)
		                                                    : v.size - v.segments_offset;
		uint32_t first = s * v.segment_length, length = v.stored_sample_count - 1 - first;
		if (length > v.segment_length) length = v.segment_length;
		uint64_t head = (uint64_t)v.track_descriptor_size * v.track_count + v.segment_range_bytes + 4 * groups;
		out->segment_descriptors += (uint64_t)v.track_descriptor_size * v.track_count;
		out->segment_ranges += v.segment_range_bytes;
		out->group_offsets += 4 * groups;
		// animated tracks in stream order: each joint's rotation, translation, scale of kind 3, then scalars
		uint64_t seg_bits = 0;
		uint32_t knots = 0, predicted = 0;
		for (uint32_t t = 0; t < v.track_count; ++t) {
			uint64_t b = track_bits(seg, v.track_descriptor_size, t, types[t], comps[t], length, &knots, &predicted);
			*bits[types[t]] += b, seg_bits += b, out->knots += knots, out->predicted_knots += predicted;
		}
		out->bit_padding += (seg_size - head) * 8 - seg_bits; // read_clip checked seg_size = head + ceil(bits / 8)
	}
	if (types != types_small) sinewi_free(&al, types, (size_t)v.track_count * 2);
	if (v.metadata) out->metadata = (uint64_t)(v.clip + v.size - v.metadata);
	uint64_t stream_bytes = (out->bits_rotation + out->bits_translation + out->bits_scale + out->bits_scalar +
	                         out->bit_padding) / 8;
	out->padding = out->total - out->clip_headers - out->descriptors - out->constants - out->clip_ranges - out->time_map -
	               out->segment_table - out->segment_descriptors - out->segment_ranges - out->group_offsets -
	               stream_bytes - out->metadata - out->curve_times - out->curve_tracks;
	return SINEW_RESULT_OK;
}

sinew_result sinew_blob_sizes(const void *blob, size_t size, uint32_t clip, sinew_size_breakdown *out,
                              sinew_error *error) {
	SINEWI_CHECK(blob && out, error, SINEW_RESULT_INVALID_ARGUMENT, "blob_sizes: NULL argument");
	memset(out, 0, sizeof *out);
	const unsigned char *b = (const unsigned char *)blob;
	uint32_t count = 0;
	sinewi_blob_header h;
	SINEWI_TRY(sinewi_read_blob_header(b, size, false, &h, error));
	count = h.clip_count;
	if (clip != SINEW_ALL_CLIPS) {
		SINEWI_CHECK(clip < count, error, SINEW_RESULT_OUT_OF_RANGE, "blob_sizes: clip %u of %u", clip, count);
		return clip_sizes(b, size, clip, out, error);
	}
	for (uint32_t i = 0; i < count; ++i) {
		sinew_size_breakdown one;
		SINEWI_TRY(clip_sizes(b, size, i, &one, error));
		add(out, &one);
	}
	out->blob_header = h.table + 4ull * count;
	if (h.version >= 3) {
		sinewi_clip_view v;
		SINEWI_TRY(sinewi_read_clip(b, size, 0, &v, error));
		out->rig = v.rig_size;
	}
	out->padding += size - out->total - out->blob_header - out->rig; // clip alignment and the tail
	out->total = size;
	return SINEW_RESULT_OK;
}

// sinew — see include/sinew.h for version and licence
// Serializes the compressor's clips exactly as docs/format.md (version 2) describes: clip blocks,
// the resident part, pages and tiers, checksums.
#include "compress_internal.h"
#include "../core/bits.h"
#include "../core/codec_math.h"
#include "../core/hash.h"
#include "../core/format_layout.h"

#include <string.h>

typedef struct buffer {
	unsigned char *data;
	size_t size, capacity;
	bool failed;
	sinewi_alloc alloc;
	bool probe; // sizes only: segment bodies are reserved but not written (sinewi_serialized_clip_size)
	bool borrowed; // data is the caller's (not freed; the first growth copies it)
} buffer;

static size_t buffer_grow(buffer *b, size_t n) { // returns offset of n new bytes, not cleared
	if (b->failed) return 0;
	if (b->capacity - b->size < n) {
		size_t cap = b->capacity ? b->capacity : 4096;
		while (cap - b->size < n) {
			if (cap > SIZE_MAX / 2) {
				b->failed = true;
				return 0;
			}
			cap *= 2;
		}
		unsigned char *data = (unsigned char *)sinewi_malloc(&b->alloc, cap);
		if (!data) {
			b->failed = true;
			return 0;
		}
		if (b->size) memcpy(data, b->data, b->size);
		if (!b->borrowed) sinewi_free(&b->alloc, b->data, b->capacity);
		b->borrowed = false;
		b->data = data;
		b->capacity = cap;
	}
	size_t at = b->size;
	b->size += n;
	return at;
}

static size_t buffer_reserve(buffer *b, size_t n) { // returns offset of n new zeroed bytes
	size_t at = buffer_grow(b, n);
	if (!b->failed) memset(b->data + at, 0, n);
	return at;
}

static void buffer_align(buffer *b, size_t alignment) {
	size_t pad = (alignment - (b->size % alignment)) % alignment;
	if (pad) buffer_reserve(b, pad);
}

// The 16-bit range value of f, whose low 16 bits are zero (choose_half_ranges rounded the ranges).
static uint32_t float_to_half(float f) {
	uint32_t u;
	memcpy(&u, &f, 4);
	return u >> 16;
}

// A constant value: f32, or (size 3, Short_constants) the high 3 bytes of one, little-endian.
static void write_constant(unsigned char *p, float f, size_t size) {
	uint32_t u;
	memcpy(&u, &f, 4);
	if (size == 4) sinewi_wr32(p, u);
	else p[0] = (unsigned char)(u >> 8), p[1] = (unsigned char)(u >> 16), p[2] = (unsigned char)(u >> 24);
}

static uint32_t effective_rounding_nibble(uint8_t rounding) {
	return rounding == SINEW_ROUNDING_CLIP ? SINEW_FMT_ROUNDING_CLIP : rounding;
}

typedef struct string_table {
	buffer b;
} string_table;

static uint32_t add_string(string_table *t, const char *s) {
	if (!s) return SINEW_FMT_NO_STRING;
	size_t n = strlen(s) + 1;
	size_t at = buffer_reserve(&t->b, n);
	if (!t->b.failed) memcpy(t->b.data + at, s, n);
	return (uint32_t)at;
}

static void write_metadata(buffer *b, size_t clip_start, const sinewi_enc_clip *enc) {
	const sinew_clip *clip = enc->source;
	buffer_align(b, 4);
	size_t meta = b->size;
	(void)clip_start; // version 2: the metadata offset follows from the layout (4-aligned after the segments)
	string_table strings = {{NULL, 0, 0, false, b->alloc, false, false}};
	size_t fixed = SINEW_FMT_META_HEADER_SIZE + (size_t)clip->joint_count * SINEW_FMT_META_JOINT_SIZE +
	               (size_t)clip->scalar_track_count * SINEW_FMT_META_SCALAR_SIZE;
	buffer_reserve(b, fixed);
	if (b->failed) return;
	unsigned char *p = b->data + meta;
	uint32_t clip_name = add_string(&strings, clip->name);
	for (uint32_t j = 0; j < clip->joint_count; ++j) {
		const sinew_joint *joint = &clip->joints[j];
		unsigned char *q = p + SINEW_FMT_META_HEADER_SIZE + (size_t)j * SINEW_FMT_META_JOINT_SIZE;
		sinewi_wr32(q, (uint32_t)joint->parent);
		sinewi_wr32(q + 4, (uint32_t)joint->source_index);
		sinewi_wr32(q + 8, add_string(&strings, joint->name));
		sinewi_wrf32(q + 12, joint->shell_distance);
		sinewi_wrf32(q + 16, joint->precision);
		const float *v = joint->default_pose.rotation;
		for (int k = 0; k < 4; ++k) sinewi_wrf32(q + 20 + 4 * k, v[k]);
		for (int k = 0; k < 3; ++k) sinewi_wrf32(q + 36 + 4 * k, joint->default_pose.translation[k]);
		for (int k = 0; k < 3; ++k) sinewi_wrf32(q + 48 + 4 * k, joint->default_pose.scale[k]);
	}
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i) {
		const sinew_scalar_track *t = &clip->scalar_tracks[i];
		unsigned char *q = p + SINEW_FMT_META_HEADER_SIZE + (size_t)clip->joint_count * SINEW_FMT_META_JOINT_SIZE +
		                   (size_t)i * SINEW_FMT_META_SCALAR_SIZE;
		sinewi_wr32(q, add_string(&strings, t->name));
		sinewi_wr32(q + 4, (uint32_t)t->source_node);
		sinewi_wr32(q + 8, (uint32_t)t->source_target);
		sinewi_wrf32(q + 12, t->precision);
		for (int k = 0; k < 4; ++k) sinewi_wrf32(q + 16 + 4 * k, t->default_value[k]);
	}
	if (strings.b.failed) {
		b->failed = true;
		sinewi_free(&b->alloc, strings.b.data, strings.b.capacity);
		return;
	}
	size_t at = buffer_reserve(b, strings.b.size);
	if (!b->failed) {
		memcpy(b->data + at, strings.b.data, strings.b.size);
		p = b->data + meta;
		sinewi_wr32(p, (uint32_t)(b->size - meta));
		sinewi_wr32(p + 4, clip_name);
		sinewi_wr32(p + 8, (uint32_t)fixed);
		sinewi_wr32(p + 12, (uint32_t)strings.b.size);
	}
	sinewi_free(&b->alloc, strings.b.data, strings.b.capacity);
}

// Bits per knot: raw rotations store four float32 components (docs/format.md §segment data).
static uint32_t knot_bits(const sinewi_enc_track *t, const sinewi_enc_seg_track *st) {
	if (t->type == SINEWI_TRACK_ROTATION && st->width[0] == SINEWI_WIDTH_RAW) return 128;
	uint32_t bits = 0;
	for (uint32_t c = 0; c < t->components; ++c) bits += sinewi_width_bits(st->width[c]);
	return bits;
}

// Bits per predicted knot's residual (= knot_bits for a plain track).
static uint32_t residual_bits(const sinewi_enc_track *t, const sinewi_enc_seg_track *st) {
	uint32_t bits = knot_bits(t, st);
	for (uint32_t c = 0; c < t->components && bits != 128; ++c) bits -= st->shift[c];
	return bits;
}

// One segment; a lone segment stores no segment ranges (the encoder quantized it over the whole
// clip range, docs/format.md §segment). With Midpoint_knots, a track with shifts stores its plain
// knots, then the residuals of its predicted knots.
static void write_segment(buffer *b, const sinewi_enc_clip *enc, const sinewi_enc_segment *seg) {
	const uint32_t nt = enc->track_count;
	const uint32_t ds = enc->midpoint ? SINEW_FMT_TRACK_DESCRIPTOR_SIZE_MIDPOINT : SINEW_FMT_TRACK_DESCRIPTOR_SIZE;
	const bool with_ranges = enc->segment_count > 1;
	uint32_t stored_components = 0;
	for (uint32_t i = 0; i < nt; ++i) stored_components += enc->tracks[i].components;
	const uint32_t range_bytes = with_ranges ? stored_components * 2 : 0u;
	const uint32_t groups = (nt + SINEW_FMT_GROUP_TRACKS - 1) / SINEW_FMT_GROUP_TRACKS;
	size_t header = (size_t)nt * ds + (size_t)range_bytes + (size_t)groups * 4;
	uint64_t bits = 0;
	for (uint32_t i = 0; i < nt; ++i) {
		const sinewi_enc_seg_track *st = &seg->tracks[i];
		bits += sinewi_track_bits(st->knot_count, knot_bits(&enc->tracks[i], st), residual_bits(&enc->tracks[i], st));
	}
	if (header + (bits + 7) / 8 == 0) return; // no animated track: an empty segment
	size_t at = b->probe ? buffer_grow(b, header + (size_t)((bits + 7) / 8)) : buffer_reserve(b, header + (size_t)((bits + 7) / 8));
	if (b->failed || b->probe) return;
	unsigned char *p = b->data + at;
	unsigned char *ranges = p + (size_t)nt * ds;
	unsigned char *group_offsets = ranges + range_bytes;
	unsigned char *data = p + header;
	uint64_t pos = 0;
	for (uint32_t i = 0; i < nt; ++i) {
		const sinewi_enc_track *t = &enc->tracks[i];
		const sinewi_enc_seg_track *st = &seg->tracks[i];
		uint32_t field3 = t->type == SINEWI_TRACK_ROTATION ? st->dropped : st->width[3];
		uint32_t d = (uint32_t)st->width[0] | ((uint32_t)st->width[1] << 5) | ((uint32_t)st->width[2] << 10) |
		             (field3 << 15) | ((uint32_t)st->decimation << 20);
		unsigned char *dp = p + (size_t)i * ds;
		dp[0] = (unsigned char)d, dp[1] = (unsigned char)(d >> 8), dp[2] = (unsigned char)(d >> 16);
		if (ds == SINEW_FMT_TRACK_DESCRIPTOR_SIZE_MIDPOINT) {
			dp[3] = (unsigned char)(st->shift[0] | (st->shift[1] << 4));
			dp[4] = (unsigned char)(st->shift[2] | (st->shift[3] << 4));
		}
		for (uint32_t c = 0; c < t->components && with_ranges; ++c) {
			*ranges++ = st->range_min[c];
			*ranges++ = st->range_ext[c];
		}
		if (i % SINEW_FMT_GROUP_TRACKS == 0) sinewi_wr32(group_offsets + 4 * (i / SINEW_FMT_GROUP_TRACKS), (uint32_t)pos);
		bool raw_rotation = t->type == SINEWI_TRACK_ROTATION && st->width[0] == SINEWI_WIDTH_RAW;
		uint32_t n = raw_rotation ? 4u : t->components;
		const bool predicted = residual_bits(t, st) != knot_bits(t, st);
		const uint32_t last = st->knot_count - 1u;
		for (uint32_t k = 0; k < st->knot_count; ++k) // plain knots: all, or the even ones and the last
			if (!predicted || k % 2 == 0 || k == last)
				for (uint32_t c = 0; c < n; ++c)
					sinewi_write_bits(data, &pos, st->knots[k * n + c],
					                  sinewi_width_bits(raw_rotation ? SINEWI_WIDTH_RAW : st->width[c]));
		for (uint32_t k = 1; predicted && k < last; k += 2) // residuals: q - midpoint + 2^(rw - 1), rw bits
			for (uint32_t c = 0; c < n; ++c) {
				const uint32_t rw = st->width[c] - st->shift[c];
				const uint32_t mid = sinewi_midpoint(st->knots[(k - 1) * n + c], st->knots[(k + 1) * n + c]);
				sinewi_write_bits(data, &pos, st->knots[k * n + c] - mid + sinewi_residual_bias(rw), rw);
			}
	}
}

// Where a paged clip's segments go until the pages are written after the resident part. Tiers
// (docs/format.md §tiers) each have their own pages, the coarsest tier's first.
typedef struct clip_pages {
	buffer segments;      // every tier's segments, one after another
	size_t *seg_offset;   // [tiers * (segment_count + 1)] offsets in `segments`
	uint32_t *first, *count, *tier; // [tiers * segment_count] each page's first segment (of its tier), segments, tier
	uint32_t page_count;
	size_t table;         // blob offset of the clip's first page entry
} clip_pages;

static bool any_track_rounding(const sinew_clip *clip) {
	for (uint32_t j = 0; j < clip->joint_count; ++j)
		if (clip->joints[j].rounding != SINEW_ROUNDING_CLIP) return true;
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i)
		if (clip->scalar_tracks[i].rounding != SINEW_ROUNDING_CLIP) return true;
	return false;
}

// Bytes of a page holding `n` segments of `bytes` bytes in all: offsets, segments, zero tail.
static size_t page_size(uint32_t n, size_t bytes) {
	return (4u * ((size_t)n + 1) + bytes + SINEW_FMT_PAGE_TAIL + 3) & ~(size_t)3;
}

// Groups tier k's consecutive segments into pages under `target` bytes (a larger segment gets a
// page of its own), appended to the clip's page list.
static void plan_pages(clip_pages *cp, uint32_t tier, uint32_t segments, size_t target) {
	const size_t *off = cp->seg_offset + (size_t)tier * (segments + 1);
	for (uint32_t first = 0, end; first < segments; first = end) {
		end = first + 1;
		while (end < segments && page_size(end + 1 - first, off[end + 1] - off[first]) <= target) ++end;
		cp->first[cp->page_count] = first, cp->count[cp->page_count] = end - first, cp->tier[cp->page_count++] = tier;
	}
}

// One clip block (docs/format.md, version 2). With `pages`, the segments are kept aside in it
// and the clip holds a page table instead, filled when the pages are written.
static void write_clip(buffer *b, const sinewi_enc_clip *enc, bool metadata, clip_pages *pages, size_t page_target) {
	const sinew_clip *clip = enc->source;
	buffer_align(b, 4);
	size_t start = buffer_reserve(b, SINEW_FMT_CLIP_HEADER_SIZE_V2);
	const uint32_t nj = clip->joint_count, ns = clip->scalar_track_count;
	const bool rounding = any_track_rounding(clip);
	// descriptors, then the rounding bytes when some track has a rounding of its own
	size_t desc = buffer_reserve(b, (size_t)(nj + ns) * (rounding ? 2u : 1u));
	if (b->failed) return;
	for (uint32_t j = 0; j < nj; ++j) {
		const uint8_t *k = &enc->joint_kinds[(size_t)j * 3];
		uint32_t dropped = k[0] == SINEWI_KIND_DEFAULT || k[0] == SINEWI_KIND_CONSTANT ? enc->constant_dropped[j] : 0u;
		b->data[desc + j] = (unsigned char)(k[0] | (k[1] << 2) | (k[2] << 4) | (dropped << 6));
		if (rounding) b->data[desc + nj + ns + j] = (unsigned char)effective_rounding_nibble(clip->joints[j].rounding);
	}
	for (uint32_t i = 0; i < ns; ++i) {
		b->data[desc + nj + i] = (unsigned char)(enc->scalar_kinds[i] | ((clip->scalar_tracks[i].components - 1) << 2));
		if (rounding) b->data[desc + 2 * (size_t)nj + ns + i] = (unsigned char)effective_rounding_nibble(clip->scalar_tracks[i].rounding);
	}
	// constants: f32; with Short_constants a constant (not a default) takes the high 3 bytes of its
	// f32 (classification rounded it to such a value); padded to 4 bytes
	buffer_align(b, 4);
	const size_t constants_start = b->size;
	for (uint32_t j = 0; j < nj; ++j) {
		const uint8_t *kinds = &enc->joint_kinds[(size_t)j * 3];
		const sinew_qvv *v = &enc->constants[j];
		for (int sub = 0; sub < 3; ++sub) {
			if (kinds[sub] != SINEWI_KIND_DEFAULT && kinds[sub] != SINEWI_KIND_CONSTANT) continue;
			const float *src = sub == 0 ? v->rotation : (sub == 1 ? v->translation : v->scale);
			const size_t vs = enc->short_constants && kinds[sub] == SINEWI_KIND_CONSTANT ? 3u : 4u;
			size_t at = buffer_reserve(b, 3 * vs);
			if (b->failed) return;
			// rotations: the three components other than the rebuilt one, in order
			for (uint32_t c = 0, k = 0; c < (sub == 0 ? 4u : 3u); ++c)
				if (sub != 0 || c != enc->constant_dropped[j]) write_constant(b->data + at + vs * k++, src[c], vs);
		}
	}
	for (uint32_t i = 0; i < ns; ++i) {
		if (enc->scalar_kinds[i] != SINEWI_KIND_DEFAULT && enc->scalar_kinds[i] != SINEWI_KIND_CONSTANT) continue;
		uint32_t n = clip->scalar_tracks[i].components;
		const size_t vs = enc->short_constants && enc->scalar_kinds[i] == SINEWI_KIND_CONSTANT ? 3u : 4u;
		size_t at = buffer_reserve(b, (size_t)n * vs);
		if (b->failed) return;
		for (uint32_t c = 0; c < n; ++c) write_constant(b->data + at + vs * c, enc->scalar_constants[i][c], vs);
	}
	if ((b->size - constants_start) % 4) buffer_reserve(b, 4 - (b->size - constants_start) % 4);
	// clip ranges; with a lone segment a rotation's range leaves out the component it drops
	for (uint32_t i = 0; i < enc->track_count; ++i) {
		const sinewi_enc_track *t = &enc->tracks[i];
		const bool rotation = t->type == SINEWI_TRACK_ROTATION;
		// (the component every quantized encoding of the track drops: raw ones, whose Dropped is 0,
		// use no range; tiers share the choice)
		uint32_t dropped = 4u;
		if (rotation && enc->segment_count == 1) {
			dropped = 0;
			const uint32_t tiers = enc->tier_count > 1 ? enc->tier_count : 1;
			for (uint32_t k = 0; k < tiers; ++k) {
				const sinewi_enc_seg_track *st = &(tiers > 1 ? enc->tier_segments[k] : enc->segments)[0].tracks[i];
				if (st->width[0] != SINEWI_WIDTH_RAW) {
					dropped = st->dropped;
					break;
				}
			}
		}
		const uint32_t n = dropped < 4 ? 3u : t->range_components;
		size_t at = buffer_reserve(b, (size_t)n * (enc->half_ranges ? 4u : 8u));
		if (b->failed) return;
		for (uint32_t c = 0, k = 0; c < t->range_components; ++c) {
			if (c == dropped) continue;
			if (enc->half_ranges) { // the values are binary16 values already (choose_half_ranges)
				sinewi_wr16(b->data + at + 2 * k, float_to_half(t->clip_min[c]));
				sinewi_wr16(b->data + at + 2 * (n + k), float_to_half(t->clip_ext[c]));
			} else {
				sinewi_wrf32(b->data + at + 4 * k, t->clip_min[c]);
				sinewi_wrf32(b->data + at + 4 * (n + k), t->clip_ext[c]);
			}
			k++;
		}
	}
	// the time map of a clip sampled off a uniform grid (docs/format.md §time map)
	if (clip->time_mark_count) {
		size_t at = buffer_reserve(b, 4 + (size_t)clip->time_mark_count * SINEW_FMT_MARK_SIZE);
		if (b->failed) return;
		sinewi_wr32(b->data + at, clip->time_mark_count);
		for (uint32_t m = 0; m < clip->time_mark_count; ++m) {
			sinewi_wrf32(b->data + at + 4 + (size_t)m * SINEW_FMT_MARK_SIZE, clip->time_marks[m].time);
			sinewi_wr32(b->data + at + 8 + (size_t)m * SINEW_FMT_MARK_SIZE, clip->time_marks[m].sample);
		}
	}
	const uint32_t tiers = enc->tier_count > 1 ? enc->tier_count : 1;
	if (pages) {
		// segments aside, grouped into pages tier by tier; the page table's offsets, sizes and checksums
		// come later
		const uint32_t S = enc->segment_count;
		pages->page_count = 0;
		for (uint32_t k = 0; k < tiers; ++k) {
			const sinewi_enc_segment *segs = tiers > 1 ? enc->tier_segments[k] : enc->segments;
			size_t *off = pages->seg_offset + (size_t)k * (S + 1);
			for (uint32_t s = 0; s < S && !pages->segments.failed; ++s) {
				off[s] = pages->segments.size;
				write_segment(&pages->segments, enc, &segs[s]);
			}
			off[S] = pages->segments.size;
			plan_pages(pages, k, S, page_target);
		}
		if (pages->segments.failed) {
			b->failed = true;
			return;
		}
		size_t at = buffer_reserve(b, 4 + (size_t)pages->page_count * SINEW_FMT_PAGE_ENTRY_SIZE);
		if (b->failed) return;
		sinewi_wr32(b->data + at, pages->page_count);
		pages->table = at + 4;
		if (tiers > 1) { // the tier table: each tier's first page, its bound and the error the encoder measured
			size_t t = buffer_reserve(b, 4 + (size_t)tiers * SINEW_FMT_TIER_ENTRY_SIZE);
			if (b->failed) return;
			sinewi_wr32(b->data + t, tiers);
			for (uint32_t k = 0, p = 0; k < tiers; ++k) {
				while (pages->tier[p] != k) ++p;
				unsigned char *e = b->data + t + 4 + (size_t)k * SINEW_FMT_TIER_ENTRY_SIZE;
				sinewi_wr32(e, p);
				sinewi_wrf32(e + 4, (float)enc->tier_bound[k]);
				sinewi_wrf32(e + 8, (float)enc->tier_max_error[k]);
			}
		}
	} else {
		// segment table (segment_count + 1 offsets) then segments
		size_t table = buffer_reserve(b, ((size_t)enc->segment_count + 1) * 4);
		for (uint32_t s = 0; s < enc->segment_count && !b->failed; ++s) {
			sinewi_wr32(b->data + table + 4 * s, (uint32_t)(b->size - start));
			write_segment(b, enc, &enc->segments[s]);
		}
		if (b->failed) return;
		sinewi_wr32(b->data + table + 4 * enc->segment_count, (uint32_t)(b->size - start));
	}
	unsigned char *h = b->data + start;
	uint32_t clip_rounding = clip->rounding <= SINEW_ROUNDING_NEAREST ? clip->rounding : 0;
	uint32_t flags = (enc->looping ? SINEW_FMT_FLAG_LOOPING : 0u) | (enc->half_ranges ? SINEW_FMT_FLAG_HALF_RANGES : 0u) |
	                 (enc->short_constants ? SINEW_FMT_FLAG_SHORT_CONSTANTS : 0u) |
	                 (enc->midpoint ? SINEW_FMT_FLAG_MIDPOINT_KNOTS : 0u) | (clip_rounding << SINEW_FMT_FLAG_ROUNDING_SHIFT) |
	                 (metadata ? SINEW_FMT_FLAG_METADATA : 0u) |
	                 (enc->looping && enc->sample_count < clip->sample_count ? SINEW_FMT_FLAG_LAST_REPEATS_FIRST : 0u) |
	                 (pages ? SINEW_FMT_FLAG_PAGED : 0u) | (rounding ? SINEW_FMT_FLAG_TRACK_ROUNDING : 0u) |
	                 (pages && tiers > 1 ? SINEW_FMT_FLAG_TIERED : 0u) | (clip->time_mark_count ? SINEW_FMT_FLAG_TIME_MAP : 0u) |
	                 (enc->over_bound ? SINEW_FMT_FLAG_OVER_BOUND : 0u) | (enc->slerp_fit ? SINEW_FMT_FLAG_SLERP_FIT : 0u);
	sinewi_wr32(h + SINEW_FMT_CLIP_FLAGS, flags);
	sinewi_wrf64(h + SINEW_FMT_CLIP_SAMPLE_RATE, clip->sample_rate);
	sinewi_wrf64(h + SINEW_FMT_CLIP_UNIT_SCALE, clip->unit_scale);
	sinewi_wr32(h + SINEW_FMT_CLIP_SAMPLE_COUNT, enc->sample_count);
	sinewi_wr16(h + SINEW_FMT_V2_JOINT_COUNT, nj);
	sinewi_wr16(h + SINEW_FMT_V2_SCALAR_COUNT, ns);
	sinewi_wr16(h + SINEW_FMT_V2_SEGMENT_LENGTH, enc->segment_length);
	if (metadata) write_metadata(b, start, enc);
	if (b->failed) return;
	sinewi_wr32(b->data + start + SINEW_FMT_CLIP_SIZE, (uint32_t)(b->size - start));
}

// Appends the pages of a paged clip after the resident part and fills its page table.
static void write_pages(buffer *b, clip_pages *cp, uint32_t segment_count) {
	for (uint32_t p = 0; p < cp->page_count && !b->failed; ++p) {
		const size_t *off = cp->seg_offset + (size_t)cp->tier[p] * (segment_count + 1);
		uint32_t first = cp->first[p], n = cp->count[p];
		size_t bytes = off[first + n] - off[first];
		size_t size = page_size(n, bytes);
		size_t at = buffer_reserve(b, size); // zeroed: the tail stays zero
		if (b->failed) return;
		unsigned char *page = b->data + at;
		for (uint32_t k = 0; k <= n; ++k) sinewi_wr32(page + 4 * k, (uint32_t)(4u * (n + 1) + off[first + k] - off[first]));
		if (bytes) memcpy(page + 4 * ((size_t)n + 1), cp->segments.data + off[first], bytes); // (none: no animated track)
		unsigned char *e = b->data + cp->table + (size_t)p * SINEW_FMT_PAGE_ENTRY_SIZE;
		sinewi_wr32(e, first);
		sinewi_wr32(e + 4, n);
		sinewi_wr32(e + 8, (uint32_t)at);
		sinewi_wr32(e + 12, (uint32_t)size);
		sinewi_wr32(e + 16, sinewi_xxh32(page, size, p));
	}
}

uint32_t sinewi_enc_constant_count(const sinewi_enc_clip *enc) {
	const sinew_clip *clip = enc->source;
	uint32_t n = 0;
	for (size_t k = 0; k < (size_t)clip->joint_count * 3; ++k) n += enc->joint_kinds[k] == SINEWI_KIND_CONSTANT ? 3u : 0u;
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i)
		if (enc->scalar_kinds[i] == SINEWI_KIND_CONSTANT) n += clip->scalar_tracks[i].components;
	return n;
}

size_t sinewi_serialized_clip_size(const sinewi_enc_clip *enc, bool metadata, const sinew_allocator *allocator) {
	unsigned char local[4096]; // (a short clip's headers fit: no allocation)
	buffer probe = {local, 0, sizeof local, false, sinewi_alloc_from(allocator), true, true};
	write_clip(&probe, enc, metadata, NULL, 0);
	size_t size = probe.failed ? SIZE_MAX - 1 : probe.size;
	if (!probe.borrowed) sinewi_free(&probe.alloc, probe.data, probe.capacity);
	return size;
}

sinew_result sinewi_serialize(sinewi_enc_clip *const *encoded, uint32_t clip_count, bool metadata, uint32_t page_target,
                              sinewi_arena *arena, const sinew_allocator *allocator, void **out_blob, size_t *out_size,
                              sinew_error *error) {
	buffer b = {NULL, 0, 0, false, sinewi_alloc_from(allocator), false, false};
	clip_pages *pages = NULL;
	if (page_target) {
		pages = (clip_pages *)sinewi_arena_array(arena, clip_count, sizeof *pages);
		for (uint32_t i = 0; pages && i < clip_count; ++i) {
			size_t n = encoded[i]->segment_count, tiers = encoded[i]->tier_count > 1 ? encoded[i]->tier_count : 1;
			pages[i].segments = (buffer){NULL, 0, 0, false, sinewi_alloc_from(allocator), false, false};
			pages[i].seg_offset = (size_t *)sinewi_arena_array(arena, tiers * (n + 1), sizeof(size_t));
			pages[i].first = (uint32_t *)sinewi_arena_array(arena, 3 * tiers * n, sizeof(uint32_t));
			if (!pages[i].seg_offset || !pages[i].first) b.failed = true;
			else pages[i].count = pages[i].first + tiers * n, pages[i].tier = pages[i].count + tiers * n;
		}
		if (!pages) b.failed = true;
	}
	buffer_reserve(&b, SINEW_FMT_HEADER_SIZE + (size_t)clip_count * 4);
	for (uint32_t i = 0; i < clip_count && !b.failed; ++i) {
		buffer_align(&b, 4);
		sinewi_wr32(b.data + SINEW_FMT_HEADER_SIZE + 4 * i, (uint32_t)b.size);
		write_clip(&b, encoded[i], metadata, pages ? &pages[i] : NULL, page_target);
	}
	buffer_reserve(&b, SINEW_FMT_TAIL_PADDING);
	buffer_align(&b, 4);
	const size_t resident = b.size;
	for (uint32_t i = 0; pages && i < clip_count && !b.failed; ++i) write_pages(&b, &pages[i], encoded[i]->segment_count);
	for (uint32_t i = 0; pages && i < clip_count; ++i)
		sinewi_free(&pages[i].segments.alloc, pages[i].segments.data, pages[i].segments.capacity);
	if (b.failed || b.size > UINT32_MAX) {
		sinewi_free(&b.alloc, b.data, b.capacity);
		return sinewi_fail(error, b.failed ? SINEW_RESULT_OUT_OF_MEMORY : SINEW_RESULT_UNSUPPORTED,
		                   "compress: %s", b.failed ? "out of memory" : "result larger than 4 GiB");
	}
	memcpy(b.data, SINEW_FMT_MAGIC, 4);
	sinewi_wr16(b.data + SINEW_FMT_HDR_VERSION, SINEW_FMT_VERSION);
	sinewi_wr16(b.data + SINEW_FMT_HDR_HEADER_SIZE, SINEW_FMT_HEADER_SIZE);
	sinewi_wr32(b.data + SINEW_FMT_HDR_TOTAL_SIZE, (uint32_t)b.size);
	sinewi_wr32(b.data + SINEW_FMT_HDR_CLIP_COUNT, clip_count);
	if (pages) sinewi_wr32(b.data + SINEW_FMT_HDR_RESIDENT_SIZE, (uint32_t)resident);
	sinewi_wr32(b.data + SINEW_FMT_HDR_CHECKSUM, sinewi_xxh32(b.data + 16, (pages ? resident : b.size) - 16, 0));
	// hand the exact-size block to the caller: blob_free receives `size`
	unsigned char *blob = (unsigned char *)b.alloc.a.alloc(b.alloc.a.user, b.size, 16);
	if (!blob) {
		sinewi_free(&b.alloc, b.data, b.capacity);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "compress: out of memory");
	}
	memcpy(blob, b.data, b.size);
	sinewi_free(&b.alloc, b.data, b.capacity);
	*out_blob = blob;
	*out_size = b.size;
	return SINEW_RESULT_OK;
}

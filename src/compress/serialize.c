// sinew — see include/sinew.h for version and licence
// Serializes the compressor's clips exactly as docs/format.md (version 3) describes: clip blocks, the rig,
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
	// a name already in the table is used again (a pointer split over tracks of 4 floats names each of them)
	for (size_t at = 0; at + n <= t->b.size && !t->b.failed; at += strlen((const char *)t->b.data + at) + 1)
		if (memcmp(t->b.data + at, s, n) == 0) return (uint32_t)at;
	size_t at = buffer_reserve(&t->b, n);
	if (!t->b.failed) memcpy(t->b.data + at, s, n);
	return (uint32_t)at;
}

static void write_padded(buffer *b, const void *data, size_t n) {
	size_t at = buffer_reserve(b, n);
	if (!b->failed && n) memcpy(b->data + at, data, n);
	buffer_align(b, 4);
}

// A node or source index as u16 (0xFFFF none, 0xFFFE pointer) or, with wide sources, u32.
static void put_index(buffer *b, int32_t v, bool wide) {
	size_t at = buffer_reserve(b, wide ? 4u : 2u);
	if (b->failed) return;
	if (wide) sinewi_wr32(b->data + at, (uint32_t)v);
	else sinewi_wr16(b->data + at, v == -1 ? SINEW_FMT_NO_INDEX16 : v == SINEW_SOURCE_POINTER ? SINEW_FMT_POINTER16 : (uint32_t)v);
}

// Whether a scalar track extends the run of the track before it (docs/format.md §rig, Scalar_sources).
static bool same_run(const sinew_scalar_track *prev, const sinew_scalar_track *t) {
	return prev->source_node == t->source_node && (t->source_node == -1 || t->source_target == prev->source_target + (int32_t)prev->components);
}

// The rig (docs/format.md §rig) from the first clip's joints and scalar tracks (the clips share them): with
// SINEW_STRIP_NONE every part the clips have, with SINEW_STRIP_TO_SOURCES the source indices alone (a glTF
// document holds the rest, and its extension the pointers; pointer tracks keep their rest values, which the
// document may lack), with SINEW_STRIP_ALL the counts alone.
static void write_rig(buffer *b, sinewi_enc_clip *const *encoded, uint32_t clip_count, int mode) {
	const sinew_clip *clip = encoded[0]->source;
	const uint32_t n = clip->joint_count, s = clip->scalar_track_count;
	bool pointers = false, shells = false, wide = false, names = false, scalar_sources = false;
	for (uint32_t j = 0; j < n; ++j) {
		shells |= clip->joints[j].shell_distance != 0.0f || clip->joints[j].precision != 0.0f;
		wide |= clip->joints[j].source_index > 0xFFFD || clip->joints[j].source_index < -1;
		names |= clip->joints[j].name != NULL;
	}
	for (uint32_t i = 0; i < s; ++i) {
		const sinew_scalar_track *t = &clip->scalar_tracks[i];
		pointers |= t->source_node == SINEW_SOURCE_POINTER;
		shells |= t->precision != 0.0f;
		wide |= t->source_node > 0xFFFD || t->source_node < -2 || t->source_target > 0xFFFF || t->source_target < -1;
		names |= t->name != NULL;
		scalar_sources |= t->source_node != -1;
	}
	for (uint32_t c = 0; c < clip_count; ++c) names |= encoded[c]->source->name != NULL;
	uint32_t flags = 0;
	bool node_sources = false;
	for (uint32_t j = 0; j < n; ++j) node_sources |= clip->joints[j].source_index >= 0;
	if (mode == SINEW_STRIP_NONE) {
		bool parents = false;
		for (uint32_t j = 0; j < n; ++j) parents |= clip->joints[j].parent >= 0;
		flags = SINEW_FMT_RIG_REST | (parents ? SINEW_FMT_RIG_PARENTS : 0u) | (node_sources ? SINEW_FMT_RIG_NODE_SOURCES : 0u) |
		        (shells ? SINEW_FMT_RIG_SHELLS : 0u) | (scalar_sources ? SINEW_FMT_RIG_SCALAR_SOURCES : 0u) |
		        (names ? SINEW_FMT_RIG_NAMES : 0u);
	} else if (mode == SINEW_STRIP_TO_SOURCES) {
		flags = (node_sources ? SINEW_FMT_RIG_NODE_SOURCES : 0u) | (scalar_sources ? SINEW_FMT_RIG_SCALAR_SOURCES : 0u) |
		        (pointers ? SINEW_FMT_RIG_SCALAR_REST : 0u); // (the glTF extension lists the pointers)
	}
	if (wide && (flags & (SINEW_FMT_RIG_NODE_SOURCES | SINEW_FMT_RIG_SCALAR_SOURCES))) flags |= SINEW_FMT_RIG_WIDE_SOURCES;
	size_t at = buffer_reserve(b, SINEW_FMT_RIG_HEADER_SIZE);
	if (b->failed) return;
	sinewi_wr16(b->data + at, n), sinewi_wr16(b->data + at + 2, s), sinewi_wr16(b->data + at + 4, flags);
	sinewi_wrf64(b->data + at + 8, clip->unit_scale);
	for (uint32_t i = 0; i < s; ++i) {
		size_t c = buffer_reserve(b, 1);
		if (!b->failed) b->data[c] = (unsigned char)(clip->scalar_tracks[i].components - 1);
	}
	buffer_align(b, 4);
	if (flags & SINEW_FMT_RIG_PARENTS) {
		for (uint32_t j = 0; j < n; ++j) put_index(b, clip->joints[j].parent, false);
		buffer_align(b, 4);
	}
	if (flags & SINEW_FMT_RIG_NODE_SOURCES) {
		for (uint32_t j = 0; j < n; ++j) put_index(b, clip->joints[j].source_index, wide);
		buffer_align(b, 4);
	}
	if (flags & SINEW_FMT_RIG_REST) {
		for (uint32_t j = 0; j < n; ++j) write_padded(b, &clip->joints[j].default_pose, sizeof(sinew_qvv)); // 10 f32
		for (uint32_t i = 0; i < s; ++i) write_padded(b, clip->scalar_tracks[i].default_value, clip->scalar_tracks[i].components * sizeof(float));
	}
	if (flags & SINEW_FMT_RIG_SHELLS) {
		for (uint32_t j = 0; j < n; ++j) {
			const float v[2] = {clip->joints[j].shell_distance, clip->joints[j].precision};
			write_padded(b, v, sizeof v);
		}
		for (uint32_t i = 0; i < s; ++i) write_padded(b, &clip->scalar_tracks[i].precision, sizeof(float));
	}
	if (flags & SINEW_FMT_RIG_SCALAR_SOURCES) {
		size_t head = buffer_reserve(b, 4);
		uint32_t runs = 0;
		for (uint32_t i = 0, count = 0; i < s; ++i) {
			const sinew_scalar_track *t = &clip->scalar_tracks[i];
			count++;
			if (i + 1 < s && same_run(t, &clip->scalar_tracks[i + 1])) continue;
			const sinew_scalar_track *first = &clip->scalar_tracks[i + 1 - count];
			put_index(b, (int32_t)count, wide);
			put_index(b, first->source_node, wide);
			put_index(b, first->source_node == -1 ? 0 : first->source_target, wide);
			runs++, count = 0;
		}
		if (!b->failed) sinewi_wr16(b->data + head, runs);
		buffer_align(b, 4);
	}
	if (flags & SINEW_FMT_RIG_NAMES) {
		const bool all = mode == SINEW_STRIP_NONE;
		const uint32_t entries = n + s + clip_count;
		size_t head = buffer_reserve(b, 4 + 4 * (size_t)entries);
		string_table strings = {{NULL, 0, 0, false, b->alloc, false, false}};
		for (uint32_t e = 0; e < entries && !b->failed; ++e) {
			const char *name = e < n ? (all ? clip->joints[e].name : NULL)
			                   : e < n + s ? (all || clip->scalar_tracks[e - n].source_node == SINEW_SOURCE_POINTER ? clip->scalar_tracks[e - n].name : NULL)
			                               : (all ? encoded[e - n - s]->source->name : NULL);
			sinewi_wr32(b->data + head + 4 + 4 * (size_t)e, add_string(&strings, name));
		}
		if (strings.b.failed) b->failed = true;
		if (!b->failed) sinewi_wr32(b->data + head, (uint32_t)strings.b.size);
		write_padded(b, strings.b.data, strings.b.size);
		sinewi_free(&b->alloc, strings.b.data, strings.b.capacity);
	}
	if (flags & SINEW_FMT_RIG_SCALAR_REST)
		for (uint32_t i = 0; i < s; ++i) write_padded(b, clip->scalar_tracks[i].default_value, clip->scalar_tracks[i].components * sizeof(float));
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

// The bits of slot c of a knot: its width, or 32 for every slot of a raw rotation.
static uint32_t slot_bits(bool raw_rotation, const sinewi_enc_seg_track *st, uint32_t c) {
	return sinewi_width_bits(raw_rotation ? SINEWI_WIDTH_RAW : st->width[c]);
}

// One segment (docs/format.md §segment): descriptors, segment ranges (none for a lone segment: the encoder
// quantized it over the whole clip range), then the knots in rows per decimation level (§bit stream), one
// knot of every track of the level per row, in knot order: a pose reads a few neighbouring rows.
static void write_segment(buffer *b, const sinewi_enc_clip *enc, const sinewi_enc_segment *seg) {
	const uint32_t nt = enc->track_count;
	const uint32_t ds = enc->midpoint ? SINEW_FMT_TRACK_DESCRIPTOR_SIZE_MIDPOINT : SINEW_FMT_TRACK_DESCRIPTOR_SIZE;
	const bool with_ranges = enc->segment_count > 1;
	uint32_t stored_components = 0;
	for (uint32_t i = 0; i < nt; ++i) stored_components += enc->tracks[i].components;
	const uint32_t range_bytes = with_ranges ? stored_components * 2 : 0u;
	size_t header = (size_t)nt * ds + (size_t)range_bytes;
	uint64_t bits = 0;
	for (uint32_t i = 0; i < nt; ++i) {
		const sinewi_enc_seg_track *st = &seg->tracks[i];
		const uint32_t kb = knot_bits(&enc->tracks[i], st);
		bits += sinewi_track_bits(st->knot_count, kb, enc->midpoint ? residual_bits(&enc->tracks[i], st) : kb);
	}
	if (header + (bits + 7) / 8 == 0) return; // no animated track: an empty segment
	size_t at = b->probe ? buffer_grow(b, header + (size_t)((bits + 7) / 8)) : buffer_reserve(b, header + (size_t)((bits + 7) / 8));
	if (b->failed || b->probe) return;
	unsigned char *p = b->data + at;
	unsigned char *ranges = p + (size_t)nt * ds;
	unsigned char *data = p + header;
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
	}
	uint64_t pos = 0;
	for (uint32_t level = 0; level < 4; ++level) {
		uint32_t knots = 0;
		for (uint32_t i = 0; i < nt && !knots; ++i)
			if (seg->tracks[i].decimation == level) knots = seg->tracks[i].knot_count;
		if (!knots) continue; // no track at this decimation
		// row i holds knot i of every level track: a plain knot whole (every knot without Midpoint_knots; with it,
		// the even ones and the last), a predicted knot (odd, before the last) as q - midpoint + 2^(rw - 1),
		// modulo the slot's 2^width, in rw bits, or whole for a track without any Shift (nothing to rebuild)
		for (uint32_t k = 0; k < knots; ++k) {
			const bool predicted = enc->midpoint && (k & 1u) && k + 1 < knots;
			for (uint32_t i = 0; i < nt; ++i) {
				const sinewi_enc_seg_track *st = &seg->tracks[i];
				if (st->decimation != level) continue;
				const bool raw_rotation = enc->tracks[i].type == SINEWI_TRACK_ROTATION && st->width[0] == SINEWI_WIDTH_RAW;
				const uint32_t n = raw_rotation ? 4u : enc->tracks[i].components;
				if (!predicted || !(st->shift[0] | st->shift[1] | st->shift[2] | st->shift[3])) {
					for (uint32_t c = 0; c < n; ++c) sinewi_write_bits(data, &pos, st->knots[k * n + c], slot_bits(raw_rotation, st, c));
					continue;
				}
				for (uint32_t c = 0; c < n; ++c) {
					const uint32_t w = slot_bits(raw_rotation, st, c), rw = w - st->shift[c];
					const uint32_t mid = sinewi_midpoint(st->knots[(k - 1) * n + c], st->knots[(k + 1) * n + c]);
					const uint32_t mask = sinewi_width_mask(raw_rotation ? SINEWI_WIDTH_RAW : st->width[c]);
					sinewi_write_bits(data, &pos, (st->knots[k * n + c] - mid + sinewi_residual_bias(rw)) & mask, rw);
				}
			}
		}
	}
}

// The curve block of a curve clip (docs/format.md §curves): the key times (each distinct set of a curve's times once),
// a record per animated track (its interpolation and times, each component's widths, then its value range and,
// CUBICSPLINE, its tangent range), then the keys' bits, track after track, key after key (CUBICSPLINE: in-tangent,
// value, out-tangent); it ends the clip.
static uint32_t range_values(uint32_t w) { // a field's stored range values: Min, and Extent when it has bits
	return w ? 2u : 1u;
}
static void write_curves(buffer *b, const sinewi_enc_clip *enc) {
	const sinewi_enc_curves *cv = enc->curves;
	const size_t vb = enc->half_ranges ? 2u : 4u;
	size_t bytes = 2;
	for (uint32_t k = 0; k < cv->set_count; ++k) bytes += 4 * (size_t)cv->set_keys[k];
	uint64_t bits = 0;
	for (uint32_t i = 0; i < enc->track_count; ++i) {
		const sinewi_enc_curve *c = &cv->tracks[i];
		const bool cubic = c->interpolation == SINEW_CURVE_CUBICSPLINE;
		bytes += 6 + 2 * (size_t)c->n;
		for (uint32_t k = 0; k < c->n; ++k) {
			bits += (uint64_t)c->keys * (sinewi_width_bits(c->vw[k]) + (cubic ? 2u * sinewi_width_bits(c->tw[k]) : 0u));
			bytes += vb * (range_values(c->vw[k]) + (cubic ? range_values(c->tw[k]) : 0u));
		}
	}
	const size_t at = b->probe ? buffer_grow(b, bytes + (size_t)((bits + 7) / 8)) : buffer_reserve(b, bytes + (size_t)((bits + 7) / 8));
	if (b->failed || b->probe) return;
	unsigned char *p = b->data + at, *times = p + 2;
	uint32_t count = 0;
	for (uint32_t k = 0; k < cv->set_count; ++k)
		for (uint32_t e = 0; e < cv->set_keys[k]; ++e) sinewi_wrf32(times + 4 * (size_t)count++, cv->set_times[k][e]);
	sinewi_wr16(p, count);
	p = times + 4 * (size_t)count;
	for (uint32_t i = 0; i < enc->track_count; ++i) {
		const sinewi_enc_curve *c = &cv->tracks[i];
		const bool cubic = c->interpolation == SINEW_CURVE_CUBICSPLINE;
		uint32_t first = 0; // its set's first time
		for (uint32_t k = 0; k < c->set; ++k) first += cv->set_keys[k];
		sinewi_wr16(p, c->interpolation), sinewi_wr16(p + 2, first), sinewi_wr16(p + 4, c->keys);
		p += 6;
		for (uint32_t k = 0; k < c->n; ++k, p += 2) sinewi_wr16(p, (uint32_t)c->vw[k] | ((uint32_t)(cubic ? c->tw[k] : 0u) << 5));
		for (uint32_t k = 0; k < c->n; ++k) { // Min, and Extent when the field has bits
			const float r[4] = {c->vmin[k], c->vext[k], c->tmin[k], c->text[k]};
			for (uint32_t f = 0; f < (cubic ? 4u : 2u); ++f) {
				if (f % 2 >= range_values(f < 2 ? c->vw[k] : c->tw[k])) continue;
				if (vb == 2) sinewi_wr16(p, float_to_half(r[f]));
				else sinewi_wrf32(p, r[f]);
				p += vb;
			}
		}
	}
	uint64_t pos = 0;
	for (uint32_t i = 0; i < enc->track_count; ++i) {
		const sinewi_enc_curve *c = &cv->tracks[i];
		const uint32_t parts = c->interpolation == SINEW_CURVE_CUBICSPLINE ? 3u : 1u;
		for (uint32_t e = 0; e < c->keys; ++e)
			for (uint32_t f = 0; f < parts; ++f)
				for (uint32_t k = 0; k < c->n; ++k) {
					const uint32_t w = sinewi_width_bits(parts == 1 || f == 1 ? c->vw[k] : c->tw[k]);
					if (w) sinewi_write_bits(p, &pos, c->q[((size_t)e * parts + f) * c->n + k], w);
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

// The kinds of a node or scalar track a clip does not list (docs/format.md §node map): defaults with rest
// defaults, identity without.
static uint8_t unlisted_kind(bool rest_defaults) {
	return rest_defaults ? SINEWI_KIND_DEFAULT : SINEWI_KIND_IDENTITY;
}
// Listed: the nodes and scalar tracks the clip animates (has_track: in glTF, a channel of the animation
// targets them), and any other that does not play the unlisted kinds.
static bool joint_listed(const sinewi_enc_clip *enc, uint32_t j, bool rest_defaults) {
	const uint8_t *k = &enc->joint_kinds[(size_t)j * 3], u = unlisted_kind(rest_defaults);
	return enc->source->joints[j].has_track || k[0] != u || k[1] != u || k[2] != u;
}
static bool scalar_listed(const sinewi_enc_clip *enc, uint32_t i, bool rest_defaults) {
	return enc->source->scalar_tracks[i].has_track || enc->scalar_kinds[i] != unlisted_kind(rest_defaults);
}
// A kind-1 sub-track stores its value (without rest defaults), like a constant.
static bool stores_value(uint8_t kind, bool rest_defaults) {
	return kind == SINEWI_KIND_CONSTANT || (kind == SINEWI_KIND_DEFAULT && !rest_defaults);
}

static bool any_track_rounding(const sinewi_enc_clip *enc, bool rest_defaults) {
	const sinew_clip *clip = enc->source;
	for (uint32_t j = 0; j < clip->joint_count; ++j)
		if (clip->joints[j].rounding != SINEW_ROUNDING_CLIP && joint_listed(enc, j, rest_defaults)) return true;
	for (uint32_t i = 0; i < clip->scalar_track_count; ++i)
		if (clip->scalar_tracks[i].rounding != SINEW_ROUNDING_CLIP && scalar_listed(enc, i, rest_defaults)) return true;
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

// A node or scalar map (docs/format.md §node map): one bit per entry, set for those the clip lists.
static void write_map(buffer *b, const sinewi_enc_clip *enc, uint32_t count, bool joints, bool rest_defaults) {
	size_t at = buffer_reserve(b, (count + 7) / 8);
	for (uint32_t i = 0; i < count && !b->failed; ++i)
		if (joints ? joint_listed(enc, i, rest_defaults) : scalar_listed(enc, i, rest_defaults))
			b->data[at + i / 8] |= (unsigned char)(1u << (i % 8));
}

// The time map (docs/format.md §time map): the marks' times, then, unless every sample is a mark, the samples of
// the inner marks (u16 while the samples fit).
static void write_time_map(buffer *b, const sinew_clip *clip, uint32_t stored) {
	const uint32_t n = clip->time_mark_count, sample_bytes = n == stored ? 0u : stored <= 65536u ? 2u : 4u;
	size_t at = buffer_reserve(b, 4 + 4 * (size_t)n + (size_t)(n - 2) * sample_bytes);
	if (b->failed) return;
	sinewi_wr32(b->data + at, n);
	for (uint32_t m = 0; m < n; ++m) sinewi_wrf32(b->data + at + 4 + 4 * (size_t)m, clip->time_marks[m].time);
	for (uint32_t m = 1; sample_bytes && m + 1 < n; ++m) {
		unsigned char *q = b->data + at + 4 + 4 * (size_t)n + (size_t)(m - 1) * sample_bytes;
		if (sample_bytes == 2) sinewi_wr16(q, clip->time_marks[m].sample);
		else sinewi_wr32(q, clip->time_marks[m].sample);
	}
	buffer_align(b, 4);
}

// One clip block (docs/format.md, version 3). With `pages`, the segments are kept aside in it and the clip
// holds a page table instead, filled when the pages are written. With rest defaults, a default sub-track
// stores nothing, and nodes and scalar tracks at their defaults throughout are left out of the clip.
static void write_clip(buffer *b, const sinewi_enc_clip *enc, bool rest_defaults, clip_pages *pages, size_t page_target) {
	const sinew_clip *clip = enc->source;
	buffer_align(b, 4);
	const bool rate_f64 = (double)(float)clip->sample_rate != clip->sample_rate;
	size_t start = buffer_reserve(b, SINEW_FMT_V3_CLIP_HEADER_SIZE + (rate_f64 ? 4u : 0u));
	const uint32_t nj = clip->joint_count, ns = clip->scalar_track_count;
	const bool rounding = !enc->curves && any_track_rounding(enc, rest_defaults); // (a curve has its interpolation)
	uint32_t listed_joints = 0, listed_scalars = 0;
	for (uint32_t j = 0; j < nj; ++j) listed_joints += joint_listed(enc, j, rest_defaults);
	for (uint32_t i = 0; i < ns; ++i) listed_scalars += scalar_listed(enc, i, rest_defaults);
	// a map whenever the clip leaves some out (decoders then know which the clip animates)
	const uint32_t per_entry = rounding ? 2u : 1u;
	const bool node_map = listed_joints < nj, scalar_map = listed_scalars < ns;
	if (!node_map) listed_joints = nj;
	if (!scalar_map) listed_scalars = ns;
	if (node_map) write_map(b, enc, nj, true, rest_defaults);
	if (scalar_map) write_map(b, enc, ns, false, rest_defaults);
	// descriptors, then the rounding bytes when some listed track has a rounding of its own
	const uint32_t listed = listed_joints + listed_scalars;
	size_t desc = buffer_reserve(b, (size_t)listed * per_entry);
	if (b->failed) return;
	uint32_t d = 0;
	for (uint32_t j = 0; j < nj; ++j) {
		if (node_map && !joint_listed(enc, j, rest_defaults)) continue;
		const uint8_t *k = &enc->joint_kinds[(size_t)j * 3];
		uint32_t dropped = stores_value(k[0], rest_defaults) ? enc->constant_dropped[j] : 0u;
		b->data[desc + d] = (unsigned char)(k[0] | (k[1] << 2) | (k[2] << 4) | (dropped << 6));
		if (rounding) b->data[desc + listed + d] = (unsigned char)effective_rounding_nibble(clip->joints[j].rounding);
		d++;
	}
	for (uint32_t i = 0; i < ns; ++i) {
		if (scalar_map && !scalar_listed(enc, i, rest_defaults)) continue;
		b->data[desc + d] = (unsigned char)enc->scalar_kinds[i];
		if (rounding) b->data[desc + listed + d] = (unsigned char)effective_rounding_nibble(clip->scalar_tracks[i].rounding);
		d++;
	}
	// constants: f32; with Short_constants a constant (not a default) takes the high 3 bytes of its
	// f32 (classification rounded it to such a value); padded to 4 bytes
	buffer_align(b, 4);
	const size_t constants_start = b->size;
	for (uint32_t j = 0; j < nj; ++j) {
		const uint8_t *kinds = &enc->joint_kinds[(size_t)j * 3];
		const sinew_qvv *v = &enc->constants[j];
		for (int sub = 0; sub < 3; ++sub) {
			if (!stores_value(kinds[sub], rest_defaults)) continue;
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
		if (!stores_value(enc->scalar_kinds[i], rest_defaults)) continue;
		uint32_t n = clip->scalar_tracks[i].components;
		const size_t vs = enc->short_constants && enc->scalar_kinds[i] == SINEWI_KIND_CONSTANT ? 3u : 4u;
		size_t at = buffer_reserve(b, (size_t)n * vs);
		if (b->failed) return;
		for (uint32_t c = 0; c < n; ++c) write_constant(b->data + at + vs * c, enc->scalar_constants[i][c], vs);
	}
	if ((b->size - constants_start) % 4) buffer_reserve(b, 4 - (b->size - constants_start) % 4);
	// clip ranges; with a lone segment a rotation's range leaves out the component it drops (a curve clip has its
	// ranges in its curve records)
	for (uint32_t i = 0; i < enc->track_count && !enc->curves; ++i) {
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
	if (clip->time_mark_count) write_time_map(b, clip, enc->stored_sample_count);
	const uint32_t tiers = enc->tier_count > 1 ? enc->tier_count : 1;
	if (enc->curves) {
		write_curves(b, enc);
		if (b->failed) return;
	} else if (pages) {
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
	} else if (enc->segment_count == 1) { // a lone segment: no table, it ends the clip
		write_segment(b, enc, &enc->segments[0]);
		if (b->failed) return;
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
	uint32_t clip_rounding = clip->rounding <= SINEW_ROUNDING_NEAREST && !enc->curves ? clip->rounding : 0;
	uint32_t flags = (enc->looping ? SINEW_FMT_FLAG_LOOPING : 0u) | (enc->half_ranges ? SINEW_FMT_FLAG_HALF_RANGES : 0u) |
	                 (enc->short_constants ? SINEW_FMT_FLAG_SHORT_CONSTANTS : 0u) |
	                 (enc->midpoint ? SINEW_FMT_FLAG_MIDPOINT_KNOTS : 0u) | (clip_rounding << SINEW_FMT_FLAG_ROUNDING_SHIFT) |
	                 (rate_f64 ? SINEW_FMT_FLAG_RATE_F64 : 0u) |
	                 (enc->looping && enc->sample_count < clip->sample_count ? SINEW_FMT_FLAG_LAST_REPEATS_FIRST : 0u) |
	                 (pages ? SINEW_FMT_FLAG_PAGED : 0u) | (rounding ? SINEW_FMT_FLAG_TRACK_ROUNDING : 0u) |
	                 (pages && tiers > 1 ? SINEW_FMT_FLAG_TIERED : 0u) | (clip->time_mark_count ? SINEW_FMT_FLAG_TIME_MAP : 0u) |
	                 (enc->over_bound ? SINEW_FMT_FLAG_OVER_BOUND : 0u) | (enc->slerp_fit ? SINEW_FMT_FLAG_SLERP_FIT : 0u) |
	                 (node_map ? SINEW_FMT_FLAG_NODE_MAP : 0u) | (scalar_map ? SINEW_FMT_FLAG_SCALAR_MAP : 0u) |
	                 (enc->curves ? SINEW_FMT_FLAG_CURVES : 0u);
	sinewi_wr32(h + SINEW_FMT_CLIP_SIZE, (uint32_t)(b->size - start));
	sinewi_wr32(h + SINEW_FMT_CLIP_FLAGS, flags);
	sinewi_wr32(h + SINEW_FMT_V3_CLIP_SAMPLE_COUNT, enc->sample_count);
	sinewi_wr16(h + SINEW_FMT_V3_CLIP_SEGMENT_LENGTH, enc->segment_length);
	if (rate_f64) sinewi_wrf64(h + SINEW_FMT_V3_CLIP_SAMPLE_RATE, clip->sample_rate);
	else sinewi_wrf32(h + SINEW_FMT_V3_CLIP_SAMPLE_RATE, (float)clip->sample_rate);
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

size_t sinewi_serialized_clip_size(const sinewi_enc_clip *enc, bool rest_defaults, const sinew_allocator *allocator) {
	unsigned char local[4096]; // (a short clip's headers fit: no allocation)
	buffer probe = {local, 0, sizeof local, false, sinewi_alloc_from(allocator), true, true};
	write_clip(&probe, enc, rest_defaults, NULL, 0);
	size_t size = probe.failed ? SIZE_MAX - 1 : probe.size;
	if (!probe.borrowed) sinewi_free(&probe.alloc, probe.data, probe.capacity);
	return size;
}

sinew_result sinewi_serialize(sinewi_enc_clip *const *encoded, uint32_t clip_count, int rig, uint32_t page_target,
                              sinewi_arena *arena, const sinew_allocator *allocator, void **out_blob, size_t *out_size,
                              sinew_error *error) {
	buffer b = {NULL, 0, 0, false, sinewi_alloc_from(allocator), false, false};
	const bool rest_defaults = rig != SINEW_STRIP_ALL;
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
	const size_t header = SINEW_FMT_V3_HEADER_SIZE + (pages ? 4u : 0u);
	buffer_reserve(&b, header + (size_t)clip_count * 4);
	for (uint32_t i = 0; i < clip_count && !b.failed; ++i) {
		buffer_align(&b, 4);
		sinewi_wr32(b.data + header + 4 * i, (uint32_t)b.size);
		write_clip(&b, encoded[i], rest_defaults, pages ? &pages[i] : NULL, page_target);
	}
	// the rig, then zeros to at least 8 bytes past the clips (64-bit reads of the last segment stay inside)
	const size_t clips_end = b.size;
	buffer_align(&b, 4);
	if (!b.failed) write_rig(&b, encoded, clip_count, rig);
	if (b.size < clips_end + SINEW_FMT_TAIL_PADDING) buffer_reserve(&b, clips_end + SINEW_FMT_TAIL_PADDING - b.size);
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
	sinewi_wr16(b.data + SINEW_FMT_V3_HDR_BLOB_FLAGS,
	            (pages ? SINEW_FMT_BLOB_PAGED : 0u) | (rest_defaults ? SINEW_FMT_BLOB_REST_DEFAULTS : 0u));
	sinewi_wr32(b.data + SINEW_FMT_HDR_TOTAL_SIZE, (uint32_t)b.size);
	sinewi_wr32(b.data + SINEW_FMT_HDR_CLIP_COUNT, clip_count);
	if (pages) sinewi_wr32(b.data + SINEW_FMT_V3_HDR_RESIDENT_SIZE, (uint32_t)resident);
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

// sinew — see include/sinew.h for version and licence
// Context construction in caller memory: lookup tables, the constant pose, batch arrays for
// the kernels, and the per-segment cache (filled when sampling moves to another segment).
#include <string.h>

#include "../core/bits.h"
#include "../core/codec_math.h"
#include "../core/format_layout.h"
#define SINEWI_CACHE_TRACK_HERE // the wasm decoder's one copy of sinewi_cache_track
#include "context.h"

static size_t align16(size_t n) {
	return (n + 15) & ~(size_t)15;
}

// Floats of the rotation batch's segment constants: SINEWI_ROT_ARRAYS arrays of one float per rotation, back to back
// (a pose reads them all: no padding between them), then a kernel's widest lanes, which its last group reads past the
// last array (those lanes' results are dropped).
static size_t rotation_constants(uint32_t rotations) {
	return (size_t)rotations * SINEWI_ROT_ARRAYS + SINEWI_MAX_LANES;
}

// Counts of each batch from the listed descriptors alone, and whether the animated tracks use more than one
// rounding mode (tracks may then read two segments in one call: sample_direct).
static void count_batches(const sinewi_clip_view *v, uint32_t *rotations, uint32_t *vectors, bool *modes) {
	*rotations = *vectors = 0;
	uint32_t used = 0;
	const uint32_t clip_rounding = (v->flags & SINEW_FMT_FLAG_ROUNDING_MASK) >> SINEW_FMT_FLAG_ROUNDING_SHIFT;
	for (uint32_t d = 0; d < v->listed_joints + v->listed_scalars; ++d) {
		const uint32_t k = v->descriptors[(size_t)v->descriptor_size * d];
		uint32_t animated = 0;
		if (d < v->listed_joints) {
			*rotations += (k & 3u) == 3u;
			*vectors += (((k >> 2) & 3u) == 3u) + (((k >> 4) & 3u) == 3u);
			animated = (k & 3u) == 3u || ((k >> 2) & 3u) == 3u || ((k >> 4) & 3u) == 3u;
		} else {
			*vectors += (k & 3u) == 3u;
			animated = (k & 3u) == 3u;
		}
		const uint32_t r = v->rounding ? v->rounding[(size_t)v->rounding_stride * d] & 15u : 15u;
		if (animated) used |= 1u << (r == SINEW_FMT_ROUNDING_CLIP ? clip_rounding : r);
	}
	*modes = (used & (used - 1u)) != 0;
}

// One segment's per-track parameters: its cached tracks, then the batches' segment constants (in the order a pose reads them).
static size_t params_bytes(uint32_t rotations, uint32_t vectors) {
	return align16(((size_t)rotations + vectors) * sizeof(sinewi_cached_track)) +
	       align16(rotation_constants(rotations) * sizeof(float)) + align16((size_t)vectors * 8 * sizeof(float));
}

static size_t context_bytes(const sinewi_clip_view *v, bool random_access) {
	uint32_t r, n;
	bool modes;
	count_batches(v, &r, &n, &modes);
	size_t entries = random_access || v->segment_count < 2 ? v->segment_count : 2; // else current + prefill
	if (modes && !random_access && v->segment_count > 1) entries++;                // + the direct one
	// (random access never needs less than the default: its memory does for either)
	if (random_access && modes && v->segment_count == 2) entries = 3;
	// what a pose reads first, then what it never reads (only init, sample_joint and the slow paths do)
	return align16(sizeof(struct sinew_context)) + align16(((size_t)r + n) * sizeof(uint32_t)) +
	       align16((size_t)v->joint_count * sizeof(sinew_qvv)) + align16((size_t)v->scalar_components * sizeof(float)) +
	       entries * params_bytes(r, n) + align16((entries ? entries : 1u) * sizeof(sinewi_segment_params)) +
	       align16((size_t)v->joint_count * sizeof(sinewi_joint_entry)) + align16((size_t)v->track_count * sizeof(sinewi_track_entry)) +
	       align16((size_t)v->scalar_count * sizeof(sinewi_scalar_entry)) + align16(((size_t)r + n) * sizeof(uint32_t)) +
	       (v->curves ? align16((size_t)v->track_count * sizeof(sinewi_curve_entry)) : 0u) +
	       align16((size_t)v->page_count * sizeof(const unsigned char *)) +
	       (v->page_count ? align16((size_t)v->segment_count * v->tier_count * sizeof(uint32_t)) +
	                            align16((size_t)v->page_count * sizeof(uint32_t))
	                      : 0u);
}

size_t sinew_context_size_with(const void *blob, size_t size, uint32_t clip, const sinew_context_options *options) {
	sinewi_clip_view v;
	if (sinewi_read_clip((const unsigned char *)blob, size, clip, &v, NULL) != SINEW_RESULT_OK) return 0;
	return context_bytes(&v, options && options->random_access);
}

size_t sinew_context_size(const void *blob, size_t size, uint32_t clip) {
	return sinew_context_size_with(blob, size, clip, NULL);
}

// Curve clips (docs/format.md §curves): each animated track's key times, widths, ranges and first key, from the curve
// records (validated).
SINEWI_WASM_SMALL static void fill_curves(sinew_context *ctx, sinewi_curve_entry *entries) {
	const sinewi_clip_view *v = &ctx->view;
	const unsigned char *p = v->curve_records;
	uint64_t bit = 0;
	ctx->curves = entries;
	ctx->duration = sinewi_view_duration(v);
	for (uint32_t i = 0; i < v->track_count; ++i) {
		sinewi_curve_entry *e = &entries[i];
		p += sinewi_curve_record(p, UINT32_MAX, ctx->tracks[i].type == 0 ? 4u : ctx->tracks[i].components, v->half_ranges, e);
		e->times = v->curve_times + 4 * (size_t)e->first;
		e->first_bit = bit;
		bit += (uint64_t)e->keys * e->key_bits;
	}
}

static uint8_t resolve_rounding(uint32_t nibble, uint32_t clip_rounding) {
	return (uint8_t)(nibble == SINEW_FMT_ROUNDING_CLIP ? clip_rounding : nibble);
}

// n values of a stored kind-1/2 sub-track at byte offset `at` of the clip: f32, or 3 bytes each for a
// constant with Short_constants; returns their size
static uint32_t read_constants(const sinewi_clip_view *v, uint32_t at, uint32_t kind, float *out, uint32_t n) {
	const uint32_t size = kind == 1 ? 4u : v->constant_size;
	for (uint32_t i = 0; i < n; ++i) out[i] = sinewi_constant_value(v->clip + at, i, size);
	return n * size;
}

// Carves `bytes` (16-byte aligned) from the context memory.
static void *take(unsigned char **cursor, size_t bytes) {
	void *p = *cursor;
	*cursor += align16(bytes);
	return p;
}

const unsigned char *sinewi_segment_bytes(const sinew_context *ctx, uint32_t s) {
	const sinewi_clip_view *v = &ctx->view;
	if (!SINEWI_PAGES || !v->page_count) return v->clip + sinewi_segment_offset(v, s);
	// the finest tier whose page of s is present (tiers above ctx->tiers are not used)
	for (uint32_t t = ctx->tiers; t-- > 0;) {
		uint32_t page = ctx->segment_page[(size_t)t * v->segment_count + s];
		const unsigned char *bytes = ctx->pages[page];
		if (!bytes) continue;
		uint32_t first = sinewi_rd32(v->page_table + (size_t)page * SINEW_FMT_PAGE_ENTRY_SIZE);
		return bytes + sinewi_rd32(bytes + 4 * (s - first));
	}
	return NULL;
}

// Starts filling `p` with segment s (fill_tracks then fills its tracks in order); s is present.
static void begin_segment(const sinew_context *ctx, uint32_t s, sinewi_segment_params *p) {
	const sinewi_clip_view *v = &ctx->view;
	uint32_t first = s * v->segment_length;
	uint32_t length = v->stored_sample_count - 1 - first;
	const unsigned char *segment = sinewi_segment_bytes(ctx, s);
	p->data = segment + ctx->segment_header;
	p->length = length > v->segment_length ? v->segment_length : length;
	p->raw_count = 0;
	p->predicted_count = p->rebuilt_count = 0;
	p->sels = 0;
	p->rows = !SINEWI_LEGACY || v->version >= 3;
	for (uint32_t d = 0; d < 4; ++d) { // formats 1, 2: the plain knots of a track with residuals (they follow them)
		const uint32_t knots = sinewi_knot_count(p->length, d);
		p->row_bits[d] = p->rows ? 0u : knots - sinewi_predicted_knots(knots);
		p->residual_row_bits[d] = 0;
	}
}

// Format 3 stores the knots in rows per decimation level (docs/format.md §bit stream): while its tracks are
// filled, a track takes the next column of its level's plain and residual rows (the row widths grow), and once
// every track is, finish_rows places the levels (sampling adds a track's column to its rows' positions).
static void place_in_rows(sinewi_segment_params *p, sinewi_cached_track *c, uint32_t d, bool midpoint) {
	c->bitpos = p->row_bits[d];
	c->residual_pos = p->residual_row_bits[d];
	c->flags = (uint8_t)((c->flags & SINEWI_TRACK_RAW) | (midpoint ? SINEWI_TRACK_PREDICTED : 0u) |
	                     // no Shift: the predicted knots are stored as they are
	                     (midpoint && c->residual_bits == c->knot_bits ? SINEWI_TRACK_WHOLE : 0u));
	p->row_bits[d] += c->knot_bits, p->residual_row_bits[d] += c->residual_bits;
}

// Format 3, once every track is filled: where each level's rows start; with `warm` (1: forward, 2: backward) the
// cache lines of the rows the first poses read (the first three rows of each level, or the last three) are read.
static void finish_rows(const sinew_context *ctx, sinewi_segment_params *p, int warm, uint8_t *sink) {
	const bool midpoint = (ctx->view.flags & SINEW_FMT_FLAG_MIDPOINT_KNOTS) != 0;
	uint64_t at = 0;
	for (uint32_t d = 0; d < 4; ++d) {
		const uint32_t knots = sinewi_knot_count(p->length, d), predicted = midpoint ? sinewi_predicted_knots(knots) : 0u;
		const uint64_t start = at, wp = p->row_bits[d], wr = p->residual_row_bits[d];
		p->level_start[d] = at;
		at += (uint64_t)(knots - predicted) * wp + (uint64_t)predicted * wr;
		if (!warm || at == start) continue;
		const uint64_t span = 2 * wp + wr, from = warm == 2 && at - start > span ? at - span : start;
		const uint64_t to = from + span < at ? from + span : at;
		for (uint64_t bit = from; bit < to; bit += 512) *sink ^= p->data[bit >> 3];
		*sink ^= p->data[(to - 1) >> 3];
	}
}

// Formats 1, 2: warms the cache line of the first knot (warm 1) or the last (2) of track c.
static void warm_track(const sinewi_segment_params *p, const sinewi_cached_track *c, uint32_t plain, int warm, uint8_t *sink) {
	*sink ^= p->data[(c->bitpos + (warm == 2 ? (uint64_t)(plain - 1) * c->knot_bits : 0u)) >> 3];
}

// Fills tracks [from, to) of segment s into p; `bitpos` is where track `from` starts in the
// segment's bit stream (formats 1, 2). Returns where track `to` starts. With `warm` (1: first knot, 2: last
// knot) it also reads one byte of that knot of every track, so the cache lines the first samples of the
// segment need are loaded by then (a new segment's bit stream is otherwise cold: a frame spike).
static uint64_t fill_tracks(const sinew_context *ctx, uint32_t s, sinewi_segment_params *p, uint32_t from, uint32_t to,
                            uint64_t bitpos, int warm, uint8_t *sink) {
	const sinewi_clip_view *v = &ctx->view;
	const unsigned char *segment = sinewi_segment_bytes(ctx, s);
	const uint32_t ds = v->track_descriptor_size;
	const unsigned char *seg_ranges = segment + (size_t)v->track_count * ds;
	const bool ranges_stored = v->segment_range_bytes != 0; // else the whole clip range: 0 and 255
	const bool rows = p->rows, midpoint = (v->flags & SINEW_FMT_FLAG_MIDPOINT_KNOTS) != 0;
	const uint32_t length = p->length, rs = ctx->rotation_stride;
	for (uint32_t i = from; i < to; ++i) {
		const sinewi_track_entry *t = &ctx->tracks[i];
		sinewi_cached_track *c = &p->tracks[t->type == 0 ? t->batch : ctx->rotation_count + t->batch];
		uint64_t desc = sinewi_track_descriptor(segment, i, ds);
		uint32_t n = t->components, dropped = t->type == 0 ? (uint32_t)(desc >> 15) & 3u : 0u;
		uint32_t plain = 0;
		uint64_t next = sinewi_cache_track(desc, t->type, n, t->rounding, length, bitpos, c, &plain);
		if (rows) place_in_rows(p, c, (uint32_t)(desc >> 20) & 3u, midpoint);
		else if (warm) warm_track(p, c, plain, warm, sink);
		p->raw_count += (c->flags & SINEWI_TRACK_RAW) != 0;
		p->predicted_count += (c->flags & SINEWI_TRACK_PREDICTED) != 0;
		p->rebuilt_count += (c->flags & (SINEWI_TRACK_PREDICTED | SINEWI_TRACK_WHOLE)) == SINEWI_TRACK_PREDICTED;
		p->sels |= 1u << c->sel;
		bitpos = next;
		const unsigned char *q = seg_ranges + t->segment_ranges; // the segment range bytes of slot k: q[2k], q[2k + 1]
		if (t->type == 0) { // (three stored slots; the lanes of each go to their own arrays)
			const uint32_t b = t->batch, skip = v->rotation_range_components == 4 ? dropped : 3u; // range slot k or k + 1
			for (uint32_t k = 0; k < 3; ++k) {
				const uint32_t comp = k + (k >= skip);
				float lo, ext;
				sinewi_segment_range(t->range_min[comp], t->range_extent[comp], ranges_stored ? q[2 * k] : 0u,
				                     ranges_stored ? q[2 * k + 1] : 255u, &lo, &ext);
				p->rot[(SINEWI_ROT_LO + k) * (size_t)rs + b] = lo;
				p->rot[(SINEWI_ROT_STEP + k) * (size_t)rs + b] = c->width[k] == SINEWI_WIDTH_RAW ? 0.0f : sinewi_quant_step(c->width[k], ext);
			}
			c->flags = (uint8_t)(c->flags | dropped << SINEWI_TRACK_DROPPED_SHIFT);
			p->rot[SINEWI_ROT_DROPPED * (size_t)rs + b] = (float)dropped;
		} else {
			float *lo4 = p->vec + 4 * (size_t)t->batch, *step4 = p->vec + ctx->vector_stride + 4 * (size_t)t->batch;
			for (uint32_t k = 0; k < n; ++k) {
				float ext;
				sinewi_segment_range(t->range_min[k], t->range_extent[k], ranges_stored ? q[2 * k] : 0u,
				                     ranges_stored ? q[2 * k + 1] : 255u, &lo4[k], &ext);
				step4[k] = c->width[k] == SINEWI_WIDTH_RAW ? 0.0f : sinewi_quant_step(c->width[k], ext);
			}
		}
	}
	if (rows && to == v->track_count) finish_rows(ctx, p, warm, sink);
	return bitpos;
}

static void fill_segment(const sinew_context *ctx, uint32_t s, sinewi_segment_params *p) {
	begin_segment(ctx, s, p);
	fill_tracks(ctx, s, p, 0, ctx->view.track_count, 0, 0, NULL);
}

void sinewi_fill_segment(sinew_context *ctx, uint32_t s) {
	fill_segment(ctx, s, &ctx->params[s]);
}

const sinewi_segment_params *sinewi_segment_direct(sinew_context *ctx, uint32_t s) {
	if (ctx->random_access) return &ctx->params[s];
	if (ctx->direct_segment != s) fill_segment(ctx, s, ctx->direct);
	ctx->direct_segment = s;
	return ctx->direct;
}

// The rest value of node j (docs/format.md §rest pose): the rig's, else the caller's; false when neither has one.
static bool rest_of(const sinewi_clip_view *v, const sinew_context_options *options, uint32_t j, float out[10]) {
	if (sinewi_rig_rest(v, j, out)) return true;
	if (!options || !options->rest_pose) return false;
	const sinew_qvv *x = &options->rest_pose[j];
	memcpy(out, x->rotation, 4 * sizeof(float)), memcpy(out + 4, x->translation, 3 * sizeof(float));
	memcpy(out + 7, x->scale, 3 * sizeof(float));
	return true;
}

sinew_result sinew_context_init(void *memory, size_t memory_size, const void *blob, size_t size, uint32_t clip,
                                const sinew_context_options *options, sinew_context **out, sinew_error *error) {
	SINEWI_CHECK(memory && out, error, SINEW_RESULT_INVALID_ARGUMENT, "context_init: NULL argument");
	SINEWI_CHECK(((uintptr_t)memory & 15u) == 0, error, SINEW_RESULT_INVALID_ARGUMENT, "context memory is not 16-byte aligned");
	sinewi_clip_view v;
	SINEWI_TRY(sinewi_read_clip((const unsigned char *)blob, size, clip, &v, error));
	const bool random_access = options && options->random_access;
	const bool skip = options && options->skip_defaults;
	// Rest_defaults without the rest pose in the rig: the caller's (a packed glTF's document), unless it fills defaults
	const bool rest_given = v.rig_rest || (options && options->rest_pose);
	const bool scalar_rest_given = v.rig_rest || v.rig_scalar_rest || (options && options->rest_scalars);
	SINEWI_CHECK(!v.rest_defaults || skip || ((rest_given || !v.joint_count) && (scalar_rest_given || !v.scalar_count)), error,
	             SINEW_RESULT_INVALID_ARGUMENT,
	             "this blob's defaults play a rest pose its rig does not store (a packed glTF's blob: its document has it); "
	             "pass sinew_context_options.rest_pose%s, or skip_defaults", v.scalar_count ? " and rest_scalars" : "");
	size_t need = context_bytes(&v, random_access);
	SINEWI_CHECK(memory_size >= need, error, SINEW_RESULT_BUFFER_TOO_SMALL, "context needs %zu bytes, got %zu", need,
	             memory_size);
	memset(memory, 0, need);
	unsigned char *m = (unsigned char *)memory;
	sinew_context *ctx = (sinew_context *)take(&m, sizeof *ctx);
	ctx->view = v;
	ctx->skip_defaults = skip;
	ctx->kernel = sinewi_select_kernel(options ? options->kernel : SINEW_KERNEL_AUTO);
	bool modes;
	count_batches(&v, &ctx->rotation_count, &ctx->vector_count, &modes);
	const uint32_t nr = ctx->rotation_count, nv = ctx->vector_count;
	ctx->rotation_stride = nr, ctx->vector_stride = 4 * nv;
	ctx->joint_count = v.joint_count, ctx->scalar_components = v.scalar_components, ctx->track_count = v.track_count;
	ctx->scalar_count = v.scalar_count;
	ctx->segment_length = v.segment_length, ctx->segment_count = v.segment_count, ctx->last_sample = v.stored_sample_count - 1;
	ctx->paged = SINEWI_PAGES && v.page_count != 0, ctx->looping = (v.flags & SINEW_FMT_FLAG_LOOPING) != 0;
	ctx->sample_rate = v.sample_rate;
	ctx->time_map = v.mark_count ? v.time_map : NULL;
	ctx->fit = (v.flags & SINEW_FMT_FLAG_SLERP_FIT) ? sinewi_slerp_fit : NULL; // docs/format.md step 5
	// what a pose reads, in the order it reads it, then the tables only init, sample_joint and the slow paths read
	ctx->out_offsets = (uint32_t *)take(&m, ((size_t)nr + nv) * sizeof(uint32_t));
	ctx->base_pose = (sinew_qvv *)take(&m, (size_t)v.joint_count * sizeof(sinew_qvv));
	ctx->base_scalars = (float *)take(&m, (size_t)v.scalar_components * sizeof(float));
	ctx->random_access = random_access;
	// single-entry mode: the current segment in `cur`, the next one playback heads to in params[0], and the direct one
	const uint32_t entries = random_access || v.segment_count < 2 ? v.segment_count : 2;
	const bool direct = modes && !random_access && v.segment_count > 1;
	const uint32_t blocks = entries + (direct ? 1u : 0u), headers = random_access ? entries : blocks - (blocks ? 1u : 0u);
	unsigned char *block = m;
	m += (size_t)blocks * params_bytes(nr, nv);
	ctx->params = (sinewi_segment_params *)take(&m, (size_t)(headers ? headers : 1u) * sizeof(sinewi_segment_params));
	for (uint32_t e = 0; e < blocks; ++e, block += params_bytes(nr, nv)) {
		sinewi_segment_params *p = random_access ? &ctx->params[e] : e == 0 ? &ctx->cur : &ctx->params[e - 1];
		p->tracks = (sinewi_cached_track *)(void *)block;
		p->rot = (float *)(void *)(block + align16(((size_t)nr + nv) * sizeof(sinewi_cached_track)));
		p->vec = p->rot + align16(rotation_constants(nr) * sizeof(float)) / sizeof(float);
	}
	ctx->joints = (sinewi_joint_entry *)take(&m, (size_t)v.joint_count * sizeof(sinewi_joint_entry));
	ctx->tracks = (sinewi_track_entry *)take(&m, (size_t)v.track_count * sizeof(sinewi_track_entry));
	ctx->scalars = (sinewi_scalar_entry *)take(&m, (size_t)v.scalar_count * sizeof(sinewi_scalar_entry));
	ctx->batch_track = (uint32_t *)take(&m, ((size_t)nr + nv) * sizeof(uint32_t));
	ctx->direct = direct ? &ctx->params[1] : NULL;
	ctx->direct_segment = UINT32_MAX;
	if (SINEWI_PAGES && v.page_count) {
		ctx->pages = (const unsigned char **)take(&m, (size_t)v.page_count * sizeof(const unsigned char *));
		ctx->segment_page = (uint32_t *)take(&m, (size_t)v.segment_count * v.tier_count * sizeof(uint32_t));
		ctx->page_tier = (uint32_t *)take(&m, (size_t)v.page_count * sizeof(uint32_t));
		const bool given = v.blob_size == v.total_size; // the whole blob: every page is present (and was checked)
		for (uint32_t p = 0, tier = 0; p < v.page_count; ++p) {
			if (tier + 1 < v.tier_count && p == sinewi_rd32(v.tier_table + (size_t)(tier + 1) * SINEW_FMT_TIER_ENTRY_SIZE))
				tier++;
			sinewi_page_entry e;
			sinewi_page_entry_of(&v, p, &e);
			ctx->pages[p] = given ? v.blob + e.offset : NULL;
			ctx->page_tier[p] = tier;
			for (uint32_t k = 0; k < e.segment_count; ++k)
				ctx->segment_page[(size_t)tier * v.segment_count + e.first_segment + k] = p;
		}
	}
	ctx->missing_page = UINT32_MAX;
	ctx->tiers = v.tier_count;
	if (options && options->tiers && options->tiers < ctx->tiers) ctx->tiers = options->tiers;
	ctx->cached_segment = UINT32_MAX;
	ctx->prefill_segment = UINT32_MAX;

	const uint32_t clip_rounding = (v.flags & SINEW_FMT_FLAG_ROUNDING_MASK) >> SINEW_FMT_FLAG_ROUNDING_SHIFT;
	uint32_t constants = (uint32_t)(v.constants - v.clip), ranges = (uint32_t)(v.ranges - v.clip);
	uint32_t track = 0, seg_ranges = 0, rotations = 0, vectors = 0;
	static const float identity[10] = {0, 0, 0, 1, 0, 0, 0, 1, 1, 1};
	const uint32_t unlisted = SINEWI_KINDS_ALL(sinewi_unlisted_kind(&v));
	const bool stored = sinewi_default_stored(&v); // kind 1 values are in the constants (else the rest pose)
	for (uint32_t j = 0, slot = 0; j < v.joint_count; ++j) {
		sinewi_joint_entry *e = &ctx->joints[j];
		// a node the clip does not list has no descriptor, rounding byte or constant (docs/format.md §node map)
		const bool listed = sinewi_map_bit(v.node_map, j);
		const uint32_t d = listed ? slot++ : UINT32_MAX;
		uint32_t k = listed ? v.descriptors[(size_t)v.descriptor_size * d] & 63u : unlisted;
		const uint32_t rb = listed && v.rounding ? v.rounding[(size_t)v.rounding_stride * d] & 15u : SINEW_FMT_ROUNDING_CLIP;
		e->rounding = resolve_rounding(rb, clip_rounding);
		e->dropped = listed ? (uint8_t)((v.descriptors[(size_t)v.descriptor_size * d + v.dropped_offset] >> v.dropped_shift) & 3u) : 0u;
		e->constants = constants;
		sinew_qvv *base = &ctx->base_pose[j];
		float rest[10];
		memcpy(base, identity, sizeof identity);
		if (!stored && !rest_of(&v, options, j, rest)) memcpy(rest, identity, sizeof identity); // (skip_defaults)
		float *dst[3] = {base->rotation, base->translation, base->scale};
		for (uint32_t sub = 0; sub < 3; ++sub) {
			uint32_t kind = (k >> (2 * sub)) & 3u;
			e->kinds[sub] = (uint8_t)kind;
			e->track[sub] = -1;
			if (kind == 1 && !stored) { // the rest value (docs/format.md §rest pose)
				memcpy(dst[sub], rest + (sub == 0 ? 0 : sub == 1 ? 4 : 7), (sub == 0 ? 4 : 3) * sizeof(float));
			} else if (kind == 1 || kind == 2) {
				if (sub == 0) {
					float values[3];
					constants += read_constants(&v, constants, kind, values, 3);
					sinewi_quat_from_three(values, e->dropped, dst[0]);
				} else {
					constants += read_constants(&v, constants, kind, dst[sub], 3);
				}
			}
			if (kind == 3) {
				sinewi_track_entry *t = &ctx->tracks[track];
				t->type = (uint8_t)sub;
				t->components = 3;
				t->rounding = e->rounding;
				t->owner = j;
				t->ranges = ranges;
				t->segment_ranges = seg_ranges;
				t->batch = sub == 0 ? rotations++ : vectors++;
				ctx->batch_track[(sub == 0 ? 0u : nr) + t->batch] = track;
				ctx->out_offsets[(sub == 0 ? 0u : nr) + t->batch] = j * 10u + (sub == 0 ? 0u : sub == 1 ? 4u : 7u);
				ranges += (8u >> v.half_ranges) * (sub == 0 ? v.rotation_range_components : 3u);
				seg_ranges += 6;
				e->track[sub] = (int32_t)track++;
			}
		}
	}
	ctx->joint_vector_count = vectors;
	uint32_t output = 0;
	for (uint32_t i = 0, slot = 0; i < v.scalar_count; ++i) {
		sinewi_scalar_entry *e = &ctx->scalars[i];
		const bool listed = sinewi_map_bit(v.scalar_map, i);
		const uint32_t d = listed ? v.listed_joints + slot++ : UINT32_MAX;
		e->kind = (uint8_t)(listed ? v.descriptors[(size_t)v.descriptor_size * d] & 3u : sinewi_unlisted_kind(&v));
		e->components = (uint8_t)sinewi_scalar_components(&v, i);
		const uint32_t rb = listed && v.rounding ? v.rounding[(size_t)v.rounding_stride * d] & 15u : SINEW_FMT_ROUNDING_CLIP;
		e->rounding = resolve_rounding(rb, clip_rounding);
		e->constants = constants;
		e->output = output;
		e->track = -1;
		if (e->kind == 1 && !stored) { // the rest value: the rig's, else the caller's (zeros with skip_defaults)
			float rest[4];
			if (!sinewi_rig_scalar_rest(&v, i, rest) && options && options->rest_scalars)
				memcpy(rest, options->rest_scalars + output, e->components * sizeof(float));
			memcpy(ctx->base_scalars + output, rest, e->components * sizeof(float));
		} else if (e->kind == 1 || e->kind == 2) {
			constants += read_constants(&v, constants, e->kind, ctx->base_scalars + output, e->components);
		}
		output += e->components;
		if (e->kind == 3) {
			sinewi_track_entry *t = &ctx->tracks[track];
			t->type = 3;
			t->components = e->components;
			t->rounding = e->rounding;
			t->owner = i;
			t->ranges = ranges;
			t->segment_ranges = seg_ranges;
			t->batch = vectors++;
			ctx->batch_track[nr + t->batch] = track;
			ctx->out_offsets[nr + t->batch] = e->output;
			ranges += (8u >> v.half_ranges) * e->components;
			seg_ranges += 2u * e->components;
			e->track = (int32_t)track++;
		}
	}
	if (v.curves) fill_curves(ctx, (sinewi_curve_entry *)take(&m, (size_t)v.track_count * sizeof(sinewi_curve_entry)));
	for (uint32_t i = 0; i < v.track_count && !v.curves; ++i) {
		sinewi_track_entry *t = &ctx->tracks[i];
		ctx->modes_used |= 1u << t->rounding;
		const uint32_t components = t->type == 0 ? v.rotation_range_components : t->components;
		for (uint32_t c = 0; c < components; ++c) {
			t->range_min[c] = sinewi_range_value(v.clip + t->ranges, c, v.half_ranges);
			t->range_extent[c] = sinewi_range_value(v.clip + t->ranges, components + c, v.half_ranges);
		}
	}
	// versions 1 and 2: a bit offset per group of 8 tracks ends the segment header
	uint32_t groups = v.version >= 3 ? 0u : (v.track_count + SINEW_FMT_GROUP_TRACKS - 1) / SINEW_FMT_GROUP_TRACKS;
	ctx->segment_header = v.track_count * v.track_descriptor_size + v.segment_range_bytes + groups * 4;
	if (random_access)
		for (uint32_t e = 0; e < v.segment_count; ++e)
			if (sinewi_segment_bytes(ctx, e)) fill_segment(ctx, e, &ctx->params[e]);
	*out = ctx;
	return SINEW_RESULT_OK;
}

const char *sinew_context_kernel(const sinew_context *context) {
	return context ? context->kernel->name : "none";
}


// Fills up to `tracks` more tracks of the segment being prefilled into params[0] (and warms the
// cache lines of the knots it starts with).
static void prefill(sinew_context *ctx, uint32_t tracks) {
	uint32_t count = ctx->track_count, from = ctx->prefill_track;
	if (ctx->prefill_segment == UINT32_MAX || from >= count) return;
	uint32_t to = count - from > tracks ? from + tracks : count;
	int warm = ctx->prefill_backward ? 2 : 1; // heading backward, playback enters it at its end
	ctx->prefill_bitpos = fill_tracks(ctx, ctx->prefill_segment, &ctx->params[0], from, to, ctx->prefill_bitpos, warm,
	                                  &ctx->prefill_sink);
	ctx->prefill_track = to;
}

// The segment after s in playback order (before it when going backward; looping clips wrap), or
// UINT32_MAX for none.
static uint32_t neighbour(const sinew_context *ctx, uint32_t s, bool forward) {
	const uint32_t count = ctx->segment_count;
	if (count < 2) return UINT32_MAX;
	if (forward) return s + 1 < count ? s + 1 : ctx->looping ? 0 : UINT32_MAX;
	return s > 0 ? s - 1 : ctx->looping ? count - 1 : UINT32_MAX;
}

// Whether segment s can be prepared: present (a paged clip may lack its page), or UINT32_MAX for none.
static uint32_t present(const sinew_context *ctx, uint32_t s) {
	return s != UINT32_MAX && ctx->paged && !sinewi_segment_bytes(ctx, s) ? UINT32_MAX : s;
}

// Starts preparing segment `next` in params[0] (UINT32_MAX: nothing), reached going `forward`.
static void start_prefill(sinew_context *ctx, uint32_t next, bool forward) {
	next = present(ctx, next);
	ctx->prefill_segment = next;
	ctx->prefill_backward = !forward;
	ctx->prefill_track = 0;
	ctx->prefill_bitpos = 0;
	if (next != UINT32_MAX) begin_segment(ctx, next, &ctx->params[0]);
}

// Single-entry contexts keep the current segment in `cur` and fill the one playback heads to into
// params[0] during the last calls before it gets there (estimated from how far each call moves;
// warming the cache any earlier is wasted on large clips, whose other data evicts it), so moving on
// costs a swap instead of a whole fill and cold reads (a frame-time spike on large clips). A jump
// elsewhere fills at once. While the segment stays, a call reads nothing but the context's first lines.
const sinewi_segment_params *sinewi_segment(sinew_context *ctx, uint32_t s, float u) {
	if (ctx->random_access) return &ctx->params[s];
	if (ctx->cached_segment == s) {
		float step = u - ctx->last_u, length = (float)ctx->cur.length;
		ctx->last_u = u;
		if (step == 0.0f) return &ctx->cur;
		uint32_t next = neighbour(ctx, s, step > 0.0f);
		if (next != ctx->prefill_segment) { // direction changed (or was unknown), or its page is not loaded (yet)
			next = present(ctx, next);
			if (next != ctx->prefill_segment) start_prefill(ctx, next, step > 0.0f);
		}
		uint32_t left = ctx->track_count - ctx->prefill_track;
		if (next == UINT32_MAX || left == 0) return &ctx->cur;
		float calls = (step > 0.0f ? length - u : u) / (step > 0.0f ? step : -step);
		const uint32_t window = 1u + (ctx->track_count + SINEWI_PREFILL_TRACKS - 1u) / SINEWI_PREFILL_TRACKS;
		if (!(calls <= (float)(window < SINEWI_PREFILL_CALLS ? window : SINEWI_PREFILL_CALLS))) return &ctx->cur; // not yet
		uint32_t spread = calls >= 2.0f ? (uint32_t)calls - 1u : 1u;  // finish a call early
		prefill(ctx, (left + spread - 1) / spread);
		return &ctx->cur;
	}
	if (ctx->prefill_segment == s) {
		prefill(ctx, UINT32_MAX);
		sinewi_segment_params swap = ctx->cur;
		ctx->cur = ctx->params[0];
		ctx->params[0] = swap;
	} else {
		fill_segment(ctx, s, &ctx->cur);
	}
	// guess the way on from the way here (forward after a jump); later calls correct it
	uint32_t previous = ctx->cached_segment;
	bool forward = previous == UINT32_MAX || neighbour(ctx, previous, true) == s || neighbour(ctx, previous, false) != s;
	ctx->cached_segment = s;
	ctx->last_u = u;
	start_prefill(ctx, neighbour(ctx, s, forward), forward);
	return &ctx->cur;
}

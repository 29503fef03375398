// sinew — see include/sinew.h for version and licence
// The scalar reference kernel and the sampling context. Seek (docs/format.md §sampling):
// key = t * rate (or from the time map) clamped to [0, stored samples - 1] and snapped onto a sample (two
// tolerances, codec_math.h);
// the segment is chosen by floor(key);
// each track rounds the key by its own mode, then interpolates its knots directly.
#include "context.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bits.h"
#include "../core/codec_math.h"
#include "../core/format_layout.h"

double sinewi_key_for_time(const sinew_context *ctx, double t) {
	// t * rate, or through the time map (docs/format.md §time map), clamped to the samples
	double key = sinewi_view_key(&ctx->view, t);
	return sinewi_snap_key(key, SINEWI_SNAP_INTERPOLATED); // t = k / rate lands on sample k
}

// Where a segment's pieces are, for one sampling call. Each rounding mode rounds the key
// first; the segment is the one holding floor(rounded key) (the last segment for the last
// sample), so a given sample always decodes from the same segment whatever the mode.
typedef struct seek_mode {
	const unsigned char *segment; // segment start
	const unsigned char *data;    // bit stream start
	uint32_t length;              // intervals in this segment
	uint32_t index;               // segment index
	float u;                      // local position
} seek_mode;

typedef struct seek {
	seek_mode m[4];   // per sinew_rounding mode
	bool one_segment; // every mode landed in the same segment (the usual case)
} seek;

SINEWI_WASM_SMALL static void seek_one(const sinew_context *ctx, double key, seek_mode *sm) {
	const sinewi_clip_view *v = &ctx->view;
	uint32_t k0 = (uint32_t)key;
	uint32_t s = k0 / v->segment_length;
	if (s >= v->segment_count) s = v->segment_count - 1;
	uint32_t first = s * v->segment_length;
	uint32_t length = v->stored_sample_count - 1 - first;
	if (length > v->segment_length) length = v->segment_length;
	sm->segment = SINEWI_PAGES ? sinewi_segment_bytes(ctx, s) : v->clip + sinewi_rd32(v->segment_table + 4 * s);
	sm->data = SINEWI_PAGES && !sm->segment ? NULL : sm->segment + ctx->segment_header; // NULL: page not loaded
	sm->length = length;
	sm->index = s;
	sm->u = (float)(key - (double)first);
}

// Locates `key` for every rounding mode; false (and ctx->missing_page set) when a segment some
// track needs is in a page that is not loaded.
static bool do_seek(sinew_context *ctx, double key, seek *sk) {
	double last = (double)(ctx->view.stored_sample_count - 1);
	seek_one(ctx, key, &sk->m[SINEW_ROUNDING_NONE]);
	if (ctx->modes_used & 14u) { // the rounding modes some track uses (only theirs are read below)
		double step = sinewi_snap_key(key, SINEWI_SNAP_ROUNDED);
		double ceil_key = ceil(step), near_key = floor(step + 0.5);
		if (ctx->modes_used & (1u << SINEW_ROUNDING_FLOOR)) seek_one(ctx, floor(step), &sk->m[SINEW_ROUNDING_FLOOR]);
		if (ctx->modes_used & (1u << SINEW_ROUNDING_CEIL))
			seek_one(ctx, ceil_key > last ? last : ceil_key, &sk->m[SINEW_ROUNDING_CEIL]);
		if (ctx->modes_used & (1u << SINEW_ROUNDING_NEAREST))
			seek_one(ctx, near_key > last ? last : near_key, &sk->m[SINEW_ROUNDING_NEAREST]);
	}
	sk->one_segment = true;
	for (int r = 1; r < 4; ++r)
		if ((ctx->modes_used >> r) & 1u) sk->one_segment &= sk->m[r].segment == sk->m[SINEW_ROUNDING_NONE].segment;
	if (!(ctx->modes_used & 1u)) { // NONE unused: compare against the first mode in use
		for (int r = 1; r < 4; ++r)
			if ((ctx->modes_used >> r) & 1u) {
				for (int q = r + 1; q < 4; ++q)
					if ((ctx->modes_used >> q) & 1u) sk->one_segment &= sk->m[q].segment == sk->m[r].segment;
				break;
			}
		sk->one_segment = sk->one_segment || ctx->modes_used == 0;
	}
	if (!SINEWI_PAGES || !ctx->view.page_count) return true;
	for (uint32_t r = 0; r < 4; ++r)
		if (((ctx->modes_used >> r) & 1u) && !sk->m[r].segment) {
			ctx->missing_page = ctx->segment_page[sk->m[r].index]; // the base tier's page
			return false;
		}
	return true;
}

static uint64_t read_descriptor(const sinew_context *ctx, const unsigned char *segment, uint32_t track) {
	return sinewi_track_descriptor(segment, track, ctx->view.track_descriptor_size);
}

// Which stored knots an interval (k0, k1) of a track with midpoint residuals needs (docs/format.md
// §midpoint knots): plain slots j and jn, and `mid` 1 when k0 is the predicted knot (rebuilt from
// them and residual slot j), 2 when k1 is, 0 when both are plain.
SINEWI_WASM_SMALL static void midpoint_pick(uint32_t k0, uint32_t k1, uint32_t knots, uint32_t *j, uint32_t *jn, uint32_t *mid) {
	const uint32_t last = knots - 1u;
	if ((k0 & 1u) && k0 < last) *j = k0 >> 1, *jn = *j + 1u, *mid = 1u;      // k1 = k0 + 1 is plain
	else if ((k1 & 1u) && k1 < last) *j = k0 >> 1, *jn = *j + 1u, *mid = 2u; // k0 = k1 - 1 is plain
	else *j = sinewi_plain_slot(k0), *jn = sinewi_plain_slot(k1), *mid = 0u;
}

// The quantized components of plain slots j and jn (a plain track: knots j and jn) into qa and qb,
// one read per component; with `mid`, the predicted knot replaces qa (1) or qb (2).
SINEWI_WASM_SMALL static void read_pair(const unsigned char *data, const sinewi_cached_track *c, uint32_t n, uint32_t j, uint32_t jn,
                      uint32_t mid, uint32_t qa[4], uint32_t qb[4]) {
	uint64_t p0 = c->bitpos + (uint64_t)j * c->knot_bits, p1 = c->bitpos + (uint64_t)jn * c->knot_bits;
	uint64_t pr = c->residual_pos + (uint64_t)j * c->residual_bits;
	for (uint32_t k = 0; k < n; ++k) {
		uint32_t w = sinewi_width_bits(c->width[k]);
		qa[k] = w ? sinewi_read_bits(data, p0, w) : 0u, qb[k] = w ? sinewi_read_bits(data, p1, w) : 0u;
		p0 += w, p1 += w;
		if (mid) {
			uint32_t rw = c->rwidth[k], m = sinewi_midpoint_value(qa[k], qb[k], rw ? sinewi_read_bits(data, pr, rw) : 0u, rw);
			pr += rw;
			if (mid == 1u) qa[k] = m;
			else qb[k] = m;
		}
	}
}

// Decodes track `ti` whose bit stream starts at `bitpos`; returns the track's size in bits.
SINEWI_WASM_SMALL static uint64_t decode_track(const sinew_context *ctx, const seek *seeks, uint32_t ti, uint64_t bitpos,
                                                float out[4]) {
	const sinewi_track_entry *t = &ctx->tracks[ti];
	const seek_mode *sk = &seeks->m[t->rounding];
	uint64_t desc = read_descriptor(ctx, sk->segment, ti);
	uint32_t n = t->components, d = (uint32_t)(desc >> 20) & 3u;
	uint32_t dropped = t->type == 0 ? (uint32_t)(desc >> 15) & 3u : 0u;
	sinewi_cached_track c;
	uint32_t plain;
	uint64_t end = sinewi_cache_track(desc, t->type, n, t->rounding, sk->length, bitpos, &c, &plain);
	uint32_t knots = sinewi_knot_count(sk->length, d);
	uint32_t k0, j, jn, mid = 0;
	float alpha;
	sinewi_knot_locate(sk->u, sk->length, d, &k0, &alpha);
	uint32_t k1 = k0 + 1 < knots ? k0 + 1 : k0;
	if (c.predicted) midpoint_pick(k0, k1, knots, &j, &jn, &mid);
	else j = k0, jn = k1;
	const unsigned char *ranges = sk->segment + (size_t)ctx->view.track_count * ctx->view.track_descriptor_size + t->segment_ranges;
	const bool ranges_stored = ctx->view.segment_range_bytes != 0; // else the whole clip range: 0 and 255
	const uint32_t rrc = ctx->view.rotation_range_components;
	float a[4], b[4];
	if (c.knot_bits == 128 && t->type == 0) { // raw rotation
		uint64_t p0 = bitpos + (uint64_t)j * 128u, p1 = bitpos + (uint64_t)jn * 128u;
		for (uint32_t k = 0; k < 4; ++k) {
			a[k] = sinewi_dequantize(sinewi_read_bits(sk->data, p0 + 32 * k, 32), SINEWI_WIDTH_RAW, 0.0f, 0.0f);
			b[k] = sinewi_dequantize(sinewi_read_bits(sk->data, p1 + 32 * k, 32), SINEWI_WIDTH_RAW, 0.0f, 0.0f);
		}
		if (alpha == 0.0f) memcpy(out, a, sizeof a); // a raw knot decodes as stored (docs/format.md)
		else sinewi_quat_nlerp(a, b, alpha, out);
		return end - bitpos;
	}
	uint32_t qa[4], qb[4];
	read_pair(sk->data, &c, n, j, jn, mid, qa, qb);
	for (uint32_t k = 0; k < n; ++k) {
		uint32_t comp = t->type == 0 && rrc == 4 ? sinewi_stored_component(k, dropped) : k; // range slot
		float lo, ext;
		sinewi_segment_range(t->range_min[comp], t->range_extent[comp], ranges_stored ? ranges[2 * k] : 0u, ranges_stored ? ranges[2 * k + 1] : 255u, &lo, &ext);
		a[k] = sinewi_dequantize(qa[k], c.width[k], lo, ext);
		b[k] = sinewi_dequantize(qb[k], c.width[k], lo, ext);
	}
	if (t->type == 0)
		sinewi_interp_rotation(a, b, dropped, alpha, out);
	else
		sinewi_interp_values(a, b, n, alpha, out);
	return end - bitpos;
}

// Non-animated parts of joint j from the constant pose; with skip_defaults, identity and
// default sub-tracks are left as the caller filled them.
static void write_constants(const sinew_context *ctx, uint32_t j, sinew_qvv *x, bool skip_defaults) {
	const sinew_qvv *b = &ctx->base_pose[j];
	if (!skip_defaults) {
		*x = *b;
		return;
	}
	const uint8_t *kinds = ctx->joints[j].kinds;
	if (kinds[0] == 2) memcpy(x->rotation, b->rotation, sizeof x->rotation);
	if (kinds[1] == 2) memcpy(x->translation, b->translation, sizeof x->translation);
	if (kinds[2] == 2) memcpy(x->scale, b->scale, sizeof x->scale);
}

static void write_scalar_constants(const sinew_context *ctx, float *out, bool skip_defaults) {
	if (!skip_defaults) {
		memcpy(out, ctx->base_scalars, ctx->view.scalar_components * sizeof(float));
		return;
	}
	for (uint32_t i = 0; i < ctx->view.scalar_count; ++i) {
		const sinewi_scalar_entry *e = &ctx->scalars[i];
		if (e->kind == 2) memcpy(out + e->output, ctx->base_scalars + e->output, e->components * sizeof(float));
	}
}

// Writes a decoded animated track to its place in the outputs.
static void write_track(const sinew_context *ctx, uint32_t ti, const float value[4], sinew_qvv *out_pose,
                        const uint32_t *remap, float *out_scalars) {
	const sinewi_track_entry *t = &ctx->tracks[ti];
	if (t->type == 3) {
		if (out_scalars) memcpy(out_scalars + ctx->scalars[t->owner].output, value, t->components * sizeof(float));
		return;
	}
	uint32_t dst = remap ? remap[t->owner] : t->owner;
	if (!out_pose || dst == 0xFFFFFFFFu) return;
	if (t->type == 0) memcpy(out_pose[dst].rotation, value, 4 * sizeof(float));
	else memcpy(t->type == 1 ? out_pose[dst].translation : out_pose[dst].scale, value, 3 * sizeof(float));
}

// Bit offset of track `ti` in the segment: its group's checkpoint plus at most 7 track sizes.
SINEWI_WASM_SMALL static uint64_t track_bit_offset(const sinew_context *ctx, const seek *seeks, uint32_t ti) {
	const seek_mode *sk = &seeks->m[ctx->tracks[ti].rounding];
	uint32_t group = ti / SINEW_FMT_GROUP_TRACKS;
	const unsigned char *offsets =
	    sk->segment + (size_t)ctx->view.track_count * ctx->view.track_descriptor_size + ctx->view.segment_range_bytes;
	uint64_t pos = sinewi_rd32(offsets + 4 * group);
	for (uint32_t i = group * SINEW_FMT_GROUP_TRACKS; i < ti; ++i) {
		const sinewi_track_entry *t = &ctx->tracks[i];
		sinewi_cached_track c;
		uint32_t plain;
		pos = sinewi_cache_track(read_descriptor(ctx, sk->segment, i), t->type, t->components, t->rounding, sk->length, pos,
		                         &c, &plain);
	}
	return pos;
}

// Every track located on its own (tracks whose rounding modes land in different segments).
SINEWI_WASM_SMALL static void sample_direct(sinew_context *ctx, const seek *sk, sinew_qvv *out_pose, const uint32_t *remap,
                          float *out_scalars, bool animated_only) {
	const sinewi_clip_view *v = &ctx->view;
	for (uint32_t j = 0; out_pose && !animated_only && j < v->joint_count; ++j) {
		uint32_t dst = remap ? remap[j] : j;
		if (dst != 0xFFFFFFFFu) write_constants(ctx, j, &out_pose[dst], ctx->skip_defaults != 0);
	}
	if (out_scalars && !animated_only) write_scalar_constants(ctx, out_scalars, ctx->skip_defaults != 0);
	for (uint32_t ti = 0; ti < v->track_count; ++ti) {
		float value[4];
		decode_track(ctx, sk, ti, track_bit_offset(ctx, sk, ti), value);
		write_track(ctx, ti, value, out_pose, remap, out_scalars);
	}
}

// Per rounding mode in use and decimation level, indexed like a cached track's `sel` (mode * 4 +
// decimation): the knot pair and weight, and for tracks with midpoint residuals the plain slots and
// which knot is predicted (midpoint_pick).
typedef struct knot_picks {
	uint32_t j[2][16], jn[2][16], mid[2][16]; // [0]: plain tracks (knots k0, k1), [1]: predicted tracks
	float alpha[16];
} knot_picks;

// Where track c's interval starts and ends: plain slots (plain tracks: knots) and `mid`; in a segment
// without residuals (`residuals` false, a constant where the unpack loops are specialized) every track is plain.
static inline void pick_of(const sinewi_cached_track *c, const knot_picks *kp, bool residuals, uint32_t *j, uint32_t *jn,
                           uint32_t *mid) {
	const uint32_t sel = c->sel, p = residuals ? c->predicted : 0u;
	*j = kp->j[p][sel], *jn = kp->jn[p][sel], *mid = kp->mid[p][sel];
}

// The quantized components of an interval's two knots, one read per component (knots wider than
// one word's 57 bits; rare, kept out of line), predicted knots rebuilt: component k goes to
// a[k * stride] and b[k * stride].
SINEWI_NOINLINE static void unpack_wide(const unsigned char *data, const sinewi_cached_track *c, uint32_t n, uint32_t j,
                                        uint32_t jn, uint32_t mid, uint32_t *a, uint32_t *b, size_t stride) {
	uint32_t qa[4], qb[4];
	read_pair(data, c, n, j, jn, mid, qa, qb);
	for (uint32_t k = 0; k < n; ++k) a[k * stride] = qa[k], b[k * stride] = qb[k];
}

// Masks of a field's low bits for each 5-bit width code (a table: computing one takes a variable
// shift). Codes above 24 only reach the unpack loops for raw components, which are replaced later.
static const uint32_t field_mask[32] = {
    0x0u,      0x1u,      0x3u,      0x7u,       0xfu,       0x1fu,      0x3fu,      0x7fu,
    0xffu,     0x1ffu,    0x3ffu,    0x7ffu,     0xfffu,     0x1fffu,    0x3fffu,    0x7fffu,
    0xffffu,   0x1ffffu,  0x3ffffu,  0x7ffffu,   0xfffffu,   0x1fffffu,  0x3fffffu,  0x7fffffu,
    0xffffffu, 0x1ffffffu, 0x3ffffffu, 0x7ffffffu, 0xfffffffu, 0x1fffffffu, 0x3fffffffu, 0x7fffffffu};

// Three fields of width codes w0..w2 from the low bits of a word.
#define SPLIT3(word, w0, w1, w2, x) \
	do {                           \
		uint64_t v_ = (word);      \
		x[0] = (uint32_t)v_ & field_mask[w0], v_ >>= (w0); \
		x[1] = (uint32_t)v_ & field_mask[w1], v_ >>= (w1); \
		x[2] = (uint32_t)v_ & field_mask[w2];              \
	} while (0)

// (inlined in the unpack loops natively; one out-of-line copy in the wasm decoder, which counts bytes)
#if defined(__wasm__)
#define UNPACK3_INLINE SINEWI_NOINLINE static
#else
#define UNPACK3_INLINE static inline
#endif
// The quantized x, y, z of plain slots j and jn (a plain track: knots j and jn) of a 3-component
// track whose knots fit one word: one load per knot; with `mid`, one more for the residual fields
// of the predicted knot between them (they fit one word too).
UNPACK3_INLINE void unpack3(const unsigned char *data, const sinewi_cached_track *c, uint32_t j, uint32_t jn, uint32_t mid,
                            uint32_t a[3], uint32_t b[3], uint32_t r[3]) {
	SPLIT3(sinewi_read_word(data, c->bitpos + (uint64_t)j * c->knot_bits), c->width[0], c->width[1], c->width[2], a);
	SPLIT3(sinewi_read_word(data, c->bitpos + (uint64_t)jn * c->knot_bits), c->width[0], c->width[1], c->width[2], b);
	if (mid) SPLIT3(sinewi_read_word(data, c->residual_pos + (uint64_t)j * c->residual_bits), c->rwidth[0], c->rwidth[1], c->rwidth[2], r);
}
// The predicted knot (mid 1: a, 2: b) rebuilt from its plain neighbours a, b and residual fields r.
static inline void rebuild3(const sinewi_cached_track *c, uint32_t mid, uint32_t a[3], uint32_t b[3], const uint32_t r[3]) {
	uint32_t *m = mid == 1u ? a : b;
	for (int k = 0; k < 3; ++k) m[k] = sinewi_midpoint_value(a[k], b[k], r[k], c->rwidth[k]);
}

// The unpack loops, specialized natively for segments with and without midpoint residuals (the
// plain copy skips the picks and the residual branch); the wasm decoder, which counts bytes, keeps
// the general one.
#if defined(__GNUC__) && !defined(__wasm__)
#define UNPACK_LOOP static inline __attribute__((always_inline))
#else
#define UNPACK_LOOP static
#endif

// Unpacks the two knots of every quantized rotation into the kernel batch: one load per knot when
// its components fit in 57 bits (nearly always), else one per component. Natively a predicted
// knot is left to the kernel (its plain neighbours, residual fields and which knot it is); the
// wasm decoder rebuilds it here (bytes).
UNPACK_LOOP void unpack_rotations(sinew_context *ctx, const sinewi_segment_params *seg, const knot_picks *kp, const bool residuals) {
#if SINEWI_KERNEL_MIDPOINTS
	static const float mid_value[3] = {0.0f, 1.0f, 2.0f};
#endif
	const unsigned char *data = seg->data;
	const sinewi_cached_track *tracks = seg->rot_tracks;
	uint32_t *restrict qa0 = ctx->rot.qa[0], *restrict qa1 = ctx->rot.qa[1], *restrict qa2 = ctx->rot.qa[2];
	uint32_t *restrict qb0 = ctx->rot.qb[0], *restrict qb1 = ctx->rot.qb[1], *restrict qb2 = ctx->rot.qb[2];
#if SINEWI_KERNEL_MIDPOINTS
	uint32_t *restrict qr0 = ctx->rot.qr[0], *restrict qr1 = ctx->rot.qr[1], *restrict qr2 = ctx->rot.qr[2];
	float *restrict out_mid = ctx->rot.mid;
#endif
	float *restrict out_alpha = ctx->rot.alpha;
	const size_t stride = (size_t)(ctx->rot.qa[1] - ctx->rot.qa[0]); // qa[k], qb[k] are evenly spaced arrays
	const uint32_t count = ctx->rotation_count;
	for (uint32_t b = 0; b < count; ++b) {
		const sinewi_cached_track *c = &tracks[b];
		uint32_t j, jn, mid;
		pick_of(c, kp, residuals, &j, &jn, &mid);
		out_alpha[b] = kp->alpha[c->sel];
		if (c->knot_bits <= 57) { // raw knots (128 bits) take the other branch and are replaced later
			uint32_t x[3], y[3], r[3];
			unpack3(data, c, j, jn, residuals ? mid : 0u, x, y, r);
#if SINEWI_KERNEL_MIDPOINTS
			if (residuals) {
				out_mid[b] = mid_value[mid];
				if (mid) qr0[b] = r[0], qr1[b] = r[1], qr2[b] = r[2];
			}
#else
			if (residuals && mid) rebuild3(c, mid, x, y, r);
#endif
			qa0[b] = x[0], qa1[b] = x[1], qa2[b] = x[2];
			qb0[b] = y[0], qb1[b] = y[1], qb2[b] = y[2];
		} else if (!c->raw) {
			unpack_wide(data, c, 3, j, jn, mid, qa0 + b, qb0 + b, stride);
#if SINEWI_KERNEL_MIDPOINTS
			if (residuals) out_mid[b] = 0.0f; // rebuilt already
#endif
		}
	}
}

// Same for translations and scales (3 components) and scalar tracks (4; missing ones have width
// 0), which follow the joints' vectors in the batch; their predicted knots are rebuilt here.
UNPACK_LOOP void unpack_vectors(sinew_context *ctx, const sinewi_segment_params *seg, const knot_picks *kp, const bool residuals) {
	const unsigned char *data = seg->data;
	const sinewi_cached_track *tracks = seg->vec_tracks;
	uint32_t *restrict qa = ctx->vec.qa, *restrict qb = ctx->vec.qb;
	float *restrict out_alpha = ctx->vec.alpha;
	const uint32_t count = ctx->vector_count, joint_vectors = ctx->joint_vector_count;
	for (uint32_t b = 0; b < joint_vectors; ++b) {
		const sinewi_cached_track *c = &tracks[b];
		uint32_t j, jn, mid;
		pick_of(c, kp, residuals, &j, &jn, &mid);
		uint32_t *a4 = qa + 4 * (size_t)b, *b4 = qb + 4 * (size_t)b;
		out_alpha[b] = kp->alpha[c->sel];
		if (c->knot_bits <= 57) {
			uint32_t x[3], y[3], r[3];
			unpack3(data, c, j, jn, residuals ? mid : 0u, x, y, r);
			if (residuals && mid) rebuild3(c, mid, x, y, r);
			a4[0] = x[0], a4[1] = x[1], a4[2] = x[2];
			b4[0] = y[0], b4[1] = y[1], b4[2] = y[2];
		} else if (!c->raw) {
			unpack_wide(data, c, 3, j, jn, mid, a4, b4, 1);
		}
	}
	for (uint32_t b = joint_vectors; b < count; ++b) {
		const sinewi_cached_track *c = &tracks[b];
		uint32_t j, jn, mid;
		pick_of(c, kp, residuals, &j, &jn, &mid);
		out_alpha[b] = kp->alpha[c->sel];
		if (!c->raw) unpack_wide(data, c, 4, j, jn, mid, qa + 4 * (size_t)b, qb + 4 * (size_t)b, 1);
	}
}

// Writes the kernels' results to the outputs (remapped joints; scalar tracks follow the joints'
// vectors in the batch).
static void scatter(const sinew_context *ctx, sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars) {
	const uint32_t rotations = ctx->rotation_count, joint_vectors = ctx->joint_vector_count;
	if (out_pose) {
		float *restrict pose = (float *)(void *)out_pose;
		const float *o0 = ctx->rot.out[0], *o1 = ctx->rot.out[1], *o2 = ctx->rot.out[2], *o3 = ctx->rot.out[3];
		const float *vo = ctx->vec.out;
		const uint32_t *rot_out = ctx->rot_out, *vec_out = ctx->vec_out;
		if (!remap) {
			for (uint32_t b = 0; b < rotations; ++b) {
				float *q = pose + rot_out[b];
				q[0] = o0[b], q[1] = o1[b], q[2] = o2[b], q[3] = o3[b];
			}
			for (uint32_t b = 0; b < joint_vectors; ++b) {
				float *x = pose + vec_out[b];
				x[0] = vo[4 * b], x[1] = vo[4 * b + 1], x[2] = vo[4 * b + 2];
			}
		} else {
			for (uint32_t b = 0; b < rotations; ++b) {
				uint32_t dst = remap[rot_out[b] / 10u];
				if (dst == 0xFFFFFFFFu) continue;
				float *q = pose + (size_t)dst * 10u;
				q[0] = o0[b], q[1] = o1[b], q[2] = o2[b], q[3] = o3[b];
			}
			for (uint32_t b = 0; b < joint_vectors; ++b) {
				uint32_t dst = remap[vec_out[b] / 10u];
				if (dst == 0xFFFFFFFFu) continue;
				float *x = pose + (size_t)dst * 10u + vec_out[b] % 10u;
				x[0] = vo[4 * b], x[1] = vo[4 * b + 1], x[2] = vo[4 * b + 2];
			}
		}
	}
	if (out_scalars)
		for (uint32_t b = joint_vectors; b < ctx->vector_count; ++b)
			memcpy(out_scalars + ctx->vec_out[b], ctx->vec.out + 4 * (size_t)b,
			       ctx->tracks[ctx->vec_track[b]].components * sizeof(float));
}

// A track with raw float32 components, decoded and written on its own.
SINEWI_WASM_SMALL static void decode_raw(const sinew_context *ctx, const seek *sk, uint32_t ti, uint64_t bitpos, sinew_qvv *out_pose,
                       const uint32_t *remap, float *out_scalars) {
	float value[4];
	decode_track(ctx, sk, ti, bitpos, value);
	write_track(ctx, ti, value, out_pose, remap, out_scalars);
}

static sinew_result sample_key(sinew_context *ctx, double key, sinew_qvv *out_pose, const uint32_t *remap,
                               float *out_scalars, bool animated_only) {
	seek sk;
	if (!do_seek(ctx, key, &sk)) return SINEW_RESULT_PAGE_MISSING; // nothing written
	if (!sk.one_segment || ctx->view.track_count == 0) { // (no animated track: no segment to read, loaded or not)
		sample_direct(ctx, &sk, out_pose, remap, out_scalars, animated_only);
		return SINEW_RESULT_OK;
	}
	const sinewi_clip_view *v = &ctx->view;
	uint32_t first_mode = 0;
	while (first_mode < 3 && !((ctx->modes_used >> first_mode) & 1u)) ++first_mode;
	const sinewi_segment_params *seg = sinewi_segment(ctx, sk.m[first_mode].index, sk.m[first_mode].u);
	for (int k = 0; k < 3; ++k) ctx->rot.lo[k] = seg->rot_lo[k], ctx->rot.step[k] = seg->rot_step[k];
	for (int k = 0; k < 3; ++k) ctx->rot.bias[k] = seg->rot_bias[k];
	ctx->rot.dropped = seg->rot_dropped;
	ctx->rot.residuals = SINEWI_KERNEL_MIDPOINTS && seg->predicted_count != 0;
	ctx->vec.lo = seg->vec_lo, ctx->vec.step = seg->vec_step;
	// knot pair and weight per rounding mode in use and decimation level, indexed like a cached
	// track's `sel` (mode * 4 + decimation)
	_Static_assert(SINEWI_MAX_DECIMATION == 3, "sel packs the decimation in two bits");
	knot_picks kp; // filled for the (rounding mode, decimation) pairs the segment's tracks use, the only ones they select
	for (uint32_t i = 0; seg->sels >> i; ++i) {
		if (!((seg->sels >> i) & 1u)) continue;
		const uint32_t r = i >> 2, d = i & 3u, knots = sinewi_knot_count(seg->length, d);
		sinewi_knot_locate(sk.m[r].u, seg->length, d, &kp.j[0][i], &kp.alpha[i]);
		kp.jn[0][i] = kp.j[0][i] + 1 < knots ? kp.j[0][i] + 1 : kp.j[0][i];
		kp.mid[0][i] = 0; // plain tracks read their two knots as they are
		if (seg->predicted_count) midpoint_pick(kp.j[0][i], kp.jn[0][i], knots, &kp.j[1][i], &kp.jn[1][i], &kp.mid[1][i]);
	}
	const bool skip = ctx->skip_defaults != 0;
	if (out_pose && !animated_only) {
		if (!remap && !skip) {
			memcpy(out_pose, ctx->base_pose, v->joint_count * sizeof(sinew_qvv));
		} else {
			for (uint32_t j = 0; j < v->joint_count; ++j) {
				uint32_t dst = remap ? remap[j] : j;
				if (dst != 0xFFFFFFFFu) write_constants(ctx, j, &out_pose[dst], skip);
			}
		}
	}
	if (out_scalars && !animated_only) write_scalar_constants(ctx, out_scalars, skip);
	// the unpack loop's copy for segments with residuals or without (the wasm decoder has one)
#if defined(__wasm__)
#define UNPACK(loop) loop(ctx, seg, &kp, true)
#else
#define UNPACK(loop) (seg->predicted_count ? loop(ctx, seg, &kp, true) : loop(ctx, seg, &kp, false))
#endif
	if (out_pose) { // rotations only go to the pose
		UNPACK(unpack_rotations);
		ctx->kernel->rotations(&ctx->rot, ctx->rotation_count);
	}
	UNPACK(unpack_vectors);
#undef UNPACK
	ctx->kernel->vectors(&ctx->vec, ctx->vector_count);
	scatter(ctx, out_pose, remap, out_scalars);
	if (seg->raw_count) { // raw float32 components, the rare last resort: decoded one by one over the kernels' slots
		for (uint32_t b = 0; b < ctx->rotation_count; ++b)
			if (seg->rot_tracks[b].raw) decode_raw(ctx, &sk, ctx->rot_track[b], seg->rot_tracks[b].bitpos, out_pose, remap, out_scalars);
		for (uint32_t b = 0; b < ctx->vector_count; ++b)
			if (seg->vec_tracks[b].raw) decode_raw(ctx, &sk, ctx->vec_track[b], seg->vec_tracks[b].bitpos, out_pose, remap, out_scalars);
	}
	return SINEW_RESULT_OK;
}

sinew_result sinewi_sample_key(sinew_context *ctx, double key, sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars) {
	return sample_key(ctx, key, out_pose, remap, out_scalars, false);
}

sinew_result sinew_sample_pose(sinew_context *context, double t, sinew_qvv *out_pose, const uint32_t *remap,
                               float *out_scalars) {
	return sample_key(context, sinewi_key_for_time(context, t), out_pose, remap, out_scalars, false);
}

sinew_result sinew_sample_pose_animated(sinew_context *context, double t, sinew_qvv *out_pose, const uint32_t *remap,
                                        float *out_scalars) {
	return sample_key(context, sinewi_key_for_time(context, t), out_pose, remap, out_scalars, true);
}

SINEWI_WASM_SMALL sinew_result sinew_sample_joint(sinew_context *context, double t, uint32_t joint, sinew_qvv *out) {
	if (!context || !out || joint >= context->view.joint_count) return SINEW_RESULT_INVALID_ARGUMENT;
	seek sk;
	if (!do_seek(context, sinewi_key_for_time(context, t), &sk)) return SINEW_RESULT_PAGE_MISSING;
	const sinewi_joint_entry *e = &context->joints[joint];
	write_constants(context, joint, out, false);
	float value[4];
	for (int sub = 0; sub < 3; ++sub) {
		if (e->track[sub] < 0) continue;
		uint32_t ti = (uint32_t)e->track[sub];
		decode_track(context, &sk, ti, track_bit_offset(context, &sk, ti), value);
		if (sub == 0) memcpy(out->rotation, value, 4 * sizeof(float));
		else memcpy(sub == 1 ? out->translation : out->scale, value, 3 * sizeof(float));
	}
	return SINEW_RESULT_OK;
}

SINEWI_WASM_SMALL sinew_result sinew_sample_scalar(sinew_context *context, double t, uint32_t track, float *out) {
	if (!context || !out || track >= context->view.scalar_count) return SINEW_RESULT_INVALID_ARGUMENT;
	const sinewi_scalar_entry *e = &context->scalars[track];
	if (e->track >= 0) {
		seek sk;
		if (!do_seek(context, sinewi_key_for_time(context, t), &sk)) return SINEW_RESULT_PAGE_MISSING;
		float value[4];
		decode_track(context, &sk, (uint32_t)e->track, track_bit_offset(context, &sk, (uint32_t)e->track), value);
		memcpy(out, value, e->components * sizeof(float));
	} else if (e->kind == 0) {
		memset(out, 0, e->components * sizeof(float));
	} else {
		for (uint32_t c = 0; c < e->components; ++c)
			out[c] = sinewi_constant_value(context->view.clip + e->constants, c, e->kind == 1 ? 4u : context->view.constant_size);
	}
	return SINEW_RESULT_OK;
}

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
	sm->segment = SINEWI_PAGES ? sinewi_segment_bytes(ctx, s) : v->clip + sinewi_segment_offset(v, s);
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

// Where the knots an interval (k0, k1) of decimation level d needs are (docs/format.md §midpoint knots, §bit
// stream): `mid` 1 when k0 is a predicted knot (rebuilt from its plain neighbours j, jn and residual jr), 2 when k1
// is, 0 when both are plain (j, jn). A `split` track (Midpoint_knots) stores its predicted knots apart. j, jn
// and jr are, in format 3, the bit positions of their rows in the segment's stream (a track adds its column);
// in formats 1 and 2, plain slot and residual indices (a track multiplies them by its knot and residual bits).
#if defined(__wasm__)
SINEWI_WASM_SMALL static void
#else
static SINEWI_ALWAYS_INLINE void
#endif
pick_knots(const sinewi_segment_params *p, uint32_t d, uint32_t k0, uint32_t k1, uint32_t knots, bool split, uint64_t *j,
           uint64_t *jn, uint64_t *jr, uint32_t *mid) {
	uint32_t a = k0, b = k1, r = k0, m = 0; // knots: the plain pair, the predicted one
	if (split && (k0 & 1u) && k0 + 1u < knots) m = 1, r = k0, a = k0 - 1u;       // k1 = k0 + 1 is plain
	else if (split && (k1 & 1u) && k1 + 1u < knots) m = 2, r = k1, b = k1 + 1u; // k0 = k1 - 1 is plain
	*mid = m;
	if (!SINEWI_LEGACY || p->rows) { // row i starts after ceil(i / 2) plain rows and floor(i / 2) residual rows (Wr = Wp without them)
		const uint64_t L = p->level_start[d], wp = p->row_bits[d], wr = p->residual_row_bits[d];
		*j = L + ((a + 1u) >> 1) * wp + (a >> 1) * wr;
		*jn = L + ((b + 1u) >> 1) * wp + (b >> 1) * wr;
		*jr = L + ((r + 1u) >> 1) * wp + (r >> 1) * wr;
	} else if (split) {
		*j = sinewi_plain_slot(a), *jn = sinewi_plain_slot(b), *jr = r >> 1;
	} else {
		*j = a, *jn = b, *jr = 0;
	}
}

// Where the two knots of an interval start (pick_knots gave j, jn, jr), but that a track storing its predicted
// knots whole (format 3, no Shift) reads the predicted one (`mid`) from row jr, and then has nothing to rebuild.
// `rows` (format 3, a constant where the unpack loops are specialized): the strides are 1.
static inline void knot_positions(const sinewi_cached_track *c, uint64_t j, uint64_t jn, uint64_t jr, uint32_t *mid, bool rows,
                                  uint64_t *pa, uint64_t *pb) {
	*pa = c->bitpos + (rows ? j : j * c->stride), *pb = c->bitpos + (rows ? jn : jn * c->stride);
	if (*mid && c->whole) {
		const uint64_t pr = c->residual_pos + (rows ? jr : jr * c->rstride);
		if (*mid == 1u) *pa = pr;
		else *pb = pr;
		*mid = 0;
	}
}

// The quantized components of the interval's knots (pick_knots) into qa and qb, one read per component; with
// `mid`, the predicted knot replaces qa (1) or qb (2). A raw rotation (128-bit knots) is read as its four
// float32 components.
SINEWI_WASM_SMALL static void read_pair(const unsigned char *data, const sinewi_cached_track *c, uint32_t n, uint64_t j, uint64_t jn,
                      uint64_t jr, uint32_t mid, uint32_t qa[4], uint32_t qb[4]) {
	uint64_t p0, p1;
	knot_positions(c, j, jn, jr, &mid, false, &p0, &p1);
	uint64_t pr = c->residual_pos + jr * c->rstride;
	for (uint32_t k = 0; k < n; ++k) {
		const uint32_t code = c->knot_bits == 128 ? SINEWI_WIDTH_RAW : c->width[k], w = sinewi_width_bits(code);
		qa[k] = w ? sinewi_read_bits(data, p0, w) : 0u, qb[k] = w ? sinewi_read_bits(data, p1, w) : 0u;
		p0 += w, p1 += w;
		if (mid) {
			uint32_t rw = c->knot_bits == 128 ? 32u : c->rwidth[k];
			uint32_t m = sinewi_midpoint_value(qa[k], qb[k], rw ? sinewi_read_bits(data, pr, rw) : 0u, rw, sinewi_width_mask(code));
			pr += rw;
			if (mid == 1u) qa[k] = m;
			else qb[k] = m;
		}
	}
}

// Decodes animated track `ti` at local position `u` of the segment whose parameters are `p` (cached or
// filled for this call: every track of the segment is located there).
SINEWI_WASM_SMALL static void decode_track(const sinew_context *ctx, const sinewi_segment_params *p, float u, uint32_t ti,
                                           float out[4]) {
	const sinewi_track_entry *t = &ctx->tracks[ti];
	const uint32_t b = t->batch, n = t->components;
	const sinewi_cached_track *c = t->type == 0 ? &p->rot_tracks[b] : &p->vec_tracks[b];
	const uint32_t d = c->sel & 3u, knots = sinewi_knot_count(p->length, d);
	uint32_t k0, mid;
	uint64_t j, jn, jr;
	float alpha;
	sinewi_knot_locate(u, p->length, d, &k0, &alpha);
	pick_knots(p, d, k0, k0 + 1 < knots ? k0 + 1 : k0, knots, c->predicted, &j, &jn, &jr, &mid);
	float a[4], bv[4], qa4[4], qb4[4];
	uint32_t qa[4], qb[4];
	if (c->knot_bits == 128 && t->type == 0) { // raw rotation
		read_pair(p->data, c, 4, j, jn, jr, mid, qa, qb);
		for (uint32_t k = 0; k < 4; ++k) {
			qa4[k] = sinewi_dequantize(qa[k], SINEWI_WIDTH_RAW, 0.0f, 0.0f);
			qb4[k] = sinewi_dequantize(qb[k], SINEWI_WIDTH_RAW, 0.0f, 0.0f);
		}
		if (alpha == 0.0f) { // a raw knot decodes as stored (docs/format.md)
			memcpy(out, qa4, sizeof qa4);
			return;
		}
	} else {
		read_pair(p->data, c, n, j, jn, jr, mid, qa, qb);
		for (uint32_t k = 0; k < n; ++k) {
			const float lo = t->type == 0 ? p->rot_lo[k][b] : p->vec_lo[4 * (size_t)b + k];
			const float step = t->type == 0 ? p->rot_step[k][b] : p->vec_step[4 * (size_t)b + k];
			a[k] = c->width[k] == SINEWI_WIDTH_RAW ? sinewi_dequantize(qa[k], SINEWI_WIDTH_RAW, 0.0f, 0.0f) : lo + (float)(int32_t)qa[k] * step;
			bv[k] = c->width[k] == SINEWI_WIDTH_RAW ? sinewi_dequantize(qb[k], SINEWI_WIDTH_RAW, 0.0f, 0.0f) : lo + (float)(int32_t)qb[k] * step;
		}
		if (t->type != 0) {
			sinewi_interp_values(a, bv, n, alpha, out);
			return;
		}
		const uint32_t dropped = (uint32_t)p->rot_dropped[b];
		sinewi_quat_from_three(a, dropped, qa4);
		sinewi_quat_from_three(bv, dropped, qb4);
	}
	// one interpolation for raw and quantized rotations (one copy of the fitted nlerp in the wasm module)
	sinewi_quat_nlerp_fit(qa4, qb4, alpha, ctx->rot.fit, out);
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

// The parameters of the segment rounding mode r reads: the cached segment's for the first mode in use, and
// for another mode in another segment those filled for it (sinewi_segment_direct).
static const sinewi_segment_params *mode_params(sinew_context *ctx, const seek *sk, uint32_t r) {
	uint32_t first = 0;
	while (first < 3 && !((ctx->modes_used >> first) & 1u)) ++first;
	const sinewi_segment_params *p = sinewi_segment(ctx, sk->m[first].index, sk->m[first].u);
	return sk->m[r].index == sk->m[first].index ? p : sinewi_segment_direct(ctx, sk->m[r].index);
}

// Every track decoded on its own (tracks whose rounding modes land in different segments).
SINEWI_WASM_SMALL static void sample_direct(sinew_context *ctx, const seek *sk, sinew_qvv *out_pose, const uint32_t *remap,
                          float *out_scalars, bool animated_only) {
	const sinewi_clip_view *v = &ctx->view;
	for (uint32_t j = 0; out_pose && !animated_only && j < v->joint_count; ++j) {
		uint32_t dst = remap ? remap[j] : j;
		if (dst != 0xFFFFFFFFu) write_constants(ctx, j, &out_pose[dst], ctx->skip_defaults != 0);
	}
	if (out_scalars && !animated_only) write_scalar_constants(ctx, out_scalars, ctx->skip_defaults != 0);
	const sinewi_segment_params *params[4] = {NULL, NULL, NULL, NULL};
	for (uint32_t r = 0; r < 4; ++r)
		if ((ctx->modes_used >> r) & 1u) params[r] = mode_params(ctx, sk, r);
	for (uint32_t ti = 0; ti < v->track_count; ++ti) {
		const uint32_t r = ctx->tracks[ti].rounding;
		float value[4];
		decode_track(ctx, params[r], sk->m[r].u, ti, value);
		write_track(ctx, ti, value, out_pose, remap, out_scalars);
	}
}

// Per rounding mode in use and decimation level, indexed like a cached track's `sel` (mode * 4 +
// decimation): the knot pair and weight, for plain tracks [0] and split ones [1] (pick_knots).
typedef struct knot_picks {
	uint64_t j[2][16], jn[2][16], jr[2][16];
	uint32_t mid[2][16];
	float alpha[16];
} knot_picks;

// Where track c's interval starts and ends (pick_knots); in a segment without split tracks (`residuals` false, a
// constant where the unpack loops are specialized) every track is plain.
static inline void pick_of(const sinewi_cached_track *c, const knot_picks *kp, bool residuals, uint64_t *j, uint64_t *jn,
                           uint64_t *jr, uint32_t *mid) {
	const uint32_t sel = c->sel, p = residuals ? c->predicted : 0u;
	*j = kp->j[p][sel], *jn = kp->jn[p][sel], *jr = kp->jr[p][sel], *mid = kp->mid[p][sel];
}

// The quantized components of an interval's two knots, one read per component (knots wider than
// one word's 57 bits; rare, kept out of line), predicted knots rebuilt: component k goes to
// a[k * stride] and b[k * stride].
SINEWI_NOINLINE static void unpack_wide(const unsigned char *data, const sinewi_cached_track *c, uint32_t n, uint64_t j,
                                        uint64_t jn, uint64_t jr, uint32_t mid, uint32_t *a, uint32_t *b, size_t stride) {
	uint32_t qa[4], qb[4];
	read_pair(data, c, n, j, jn, jr, mid, qa, qb);
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
// A track storing its odd knots whole reads them like plain ones, and `mid` becomes 0.
UNPACK3_INLINE void unpack3(const unsigned char *data, const sinewi_cached_track *c, uint64_t j, uint64_t jn, uint64_t jr,
                            uint32_t *mid, bool rows, uint32_t a[3], uint32_t b[3], uint32_t r[3]) {
	uint64_t pa, pb;
	knot_positions(c, j, jn, jr, mid, rows, &pa, &pb);
	SPLIT3(sinewi_read_word(data, pa), c->width[0], c->width[1], c->width[2], a);
	SPLIT3(sinewi_read_word(data, pb), c->width[0], c->width[1], c->width[2], b);
	if (*mid) SPLIT3(sinewi_read_word(data, c->residual_pos + (rows ? jr : jr * c->rstride)), c->rwidth[0], c->rwidth[1], c->rwidth[2], r);
}
// The predicted knot (mid 1: a, 2: b) rebuilt from its plain neighbours a, b and residual fields r.
static inline void rebuild3(const sinewi_cached_track *c, uint32_t mid, uint32_t a[3], uint32_t b[3], const uint32_t r[3]) {
	uint32_t *m = mid == 1u ? a : b;
	for (int k = 0; k < 3; ++k) m[k] = sinewi_midpoint_value(a[k], b[k], r[k], c->rwidth[k], field_mask[c->width[k]]);
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
UNPACK_LOOP void unpack_rotations(sinew_context *ctx, const sinewi_segment_params *seg, const knot_picks *kp, const bool residuals,
                                  const bool rows) {
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
		uint64_t j, jn, jr;
		uint32_t mid;
		pick_of(c, kp, residuals, &j, &jn, &jr, &mid);
		out_alpha[b] = kp->alpha[c->sel];
		if (c->knot_bits <= 57) { // raw knots (128 bits) take the other branch and are replaced later
			uint32_t x[3], y[3], r[3];
			if (!residuals) mid = 0;
			unpack3(data, c, j, jn, jr, &mid, rows, x, y, r);
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
			unpack_wide(data, c, 3, j, jn, jr, mid, qa0 + b, qb0 + b, stride);
#if SINEWI_KERNEL_MIDPOINTS
			if (residuals) out_mid[b] = 0.0f; // rebuilt already
#endif
		}
	}
}

// Same for translations and scales (3 components) and scalar tracks (4; missing ones have width
// 0), which follow the joints' vectors in the batch; their predicted knots are rebuilt here.
UNPACK_LOOP void unpack_vectors(sinew_context *ctx, const sinewi_segment_params *seg, const knot_picks *kp, const bool residuals,
                                const bool rows) {
	const unsigned char *data = seg->data;
	const sinewi_cached_track *tracks = seg->vec_tracks;
	uint32_t *restrict qa = ctx->vec.qa, *restrict qb = ctx->vec.qb;
	float *restrict out_alpha = ctx->vec.alpha;
	const uint32_t count = ctx->vector_count, joint_vectors = ctx->joint_vector_count;
	for (uint32_t b = 0; b < joint_vectors; ++b) {
		const sinewi_cached_track *c = &tracks[b];
		uint64_t j, jn, jr;
		uint32_t mid;
		pick_of(c, kp, residuals, &j, &jn, &jr, &mid);
		uint32_t *a4 = qa + 4 * (size_t)b, *b4 = qb + 4 * (size_t)b;
		out_alpha[b] = kp->alpha[c->sel];
		if (c->knot_bits <= 57) {
			uint32_t x[3], y[3], r[3];
			if (!residuals) mid = 0;
			unpack3(data, c, j, jn, jr, &mid, rows, x, y, r);
			if (residuals && mid) rebuild3(c, mid, x, y, r);
			a4[0] = x[0], a4[1] = x[1], a4[2] = x[2];
			b4[0] = y[0], b4[1] = y[1], b4[2] = y[2];
		} else if (!c->raw) {
			unpack_wide(data, c, 3, j, jn, jr, mid, a4, b4, 1);
		}
	}
	for (uint32_t b = joint_vectors; b < count; ++b) {
		const sinewi_cached_track *c = &tracks[b];
		uint64_t j, jn, jr;
		uint32_t mid;
		pick_of(c, kp, residuals, &j, &jn, &jr, &mid);
		out_alpha[b] = kp->alpha[c->sel];
		if (!c->raw) unpack_wide(data, c, 4, j, jn, jr, mid, qa + 4 * (size_t)b, qb + 4 * (size_t)b, 1);
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
SINEWI_WASM_SMALL static void decode_raw(const sinew_context *ctx, const sinewi_segment_params *p, const seek *sk, uint32_t ti,
                                         sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars) {
	float value[4];
	decode_track(ctx, p, sk->m[ctx->tracks[ti].rounding].u, ti, value);
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
	for (int k = 0; k < 3; ++k) ctx->rot.bias[k] = seg->rot_bias[k], ctx->rot.mask[k] = seg->rot_mask[k];
	ctx->rot.dropped = seg->rot_dropped;
	ctx->rot.residuals = SINEWI_KERNEL_MIDPOINTS && seg->rebuilt_count != 0;
	ctx->vec.lo = seg->vec_lo, ctx->vec.step = seg->vec_step;
	// knot pair and weight per rounding mode in use and decimation level, indexed like a cached
	// track's `sel` (mode * 4 + decimation)
	_Static_assert(SINEWI_MAX_DECIMATION == 3, "sel packs the decimation in two bits");
	knot_picks kp; // filled for the (rounding mode, decimation) pairs the segment's tracks use, the only ones they select
	for (uint32_t i = 0; seg->sels >> i; ++i) {
		if (!((seg->sels >> i) & 1u)) continue;
		const uint32_t r = i >> 2, d = i & 3u, knots = sinewi_knot_count(seg->length, d);
		uint32_t k0;
		sinewi_knot_locate(sk.m[r].u, seg->length, d, &k0, &kp.alpha[i]);
		const uint32_t k1 = k0 + 1 < knots ? k0 + 1 : k0;
		if (seg->predicted_count < v->track_count)
			pick_knots(seg, d, k0, k1, knots, false, &kp.j[0][i], &kp.jn[0][i], &kp.jr[0][i], &kp.mid[0][i]);
		if (seg->predicted_count) pick_knots(seg, d, k0, k1, knots, true, &kp.j[1][i], &kp.jn[1][i], &kp.jr[1][i], &kp.mid[1][i]);
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
	// the unpack loop's copy for segments with residuals or without, in rows or not (the wasm decoder has one)
#if defined(__wasm__)
#define UNPACK(loop) loop(ctx, seg, &kp, true, !SINEWI_LEGACY || seg->rows)
#else
#define UNPACK(loop)                                                                                    \
	(!SINEWI_LEGACY || seg->rows                                                                        \
	     ? (seg->predicted_count ? loop(ctx, seg, &kp, true, true) : loop(ctx, seg, &kp, false, true))   \
	     : (seg->predicted_count ? loop(ctx, seg, &kp, true, false) : loop(ctx, seg, &kp, false, false)))
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
			if (seg->rot_tracks[b].raw) decode_raw(ctx, seg, &sk, ctx->rot_track[b], out_pose, remap, out_scalars);
		for (uint32_t b = 0; b < ctx->vector_count; ++b)
			if (seg->vec_tracks[b].raw) decode_raw(ctx, seg, &sk, ctx->vec_track[b], out_pose, remap, out_scalars);
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
	const sinewi_segment_params *p = e->track[0] >= 0 || e->track[1] >= 0 || e->track[2] >= 0 ? mode_params(context, &sk, e->rounding) : NULL;
	for (int sub = 0; sub < 3; ++sub) {
		if (e->track[sub] < 0) continue;
		uint32_t ti = (uint32_t)e->track[sub];
		decode_track(context, p, sk.m[e->rounding].u, ti, value);
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
		decode_track(context, mode_params(context, &sk, e->rounding), sk.m[e->rounding].u, (uint32_t)e->track, value);
		memcpy(out, value, e->components * sizeof(float));
	} else { // identity, stored or rest values: the constant pose has them
		memcpy(out, context->base_scalars + e->output, e->components * sizeof(float));
	}
	return SINEW_RESULT_OK;
}

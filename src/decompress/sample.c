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
#if defined(__SSE2__) && !defined(__wasm__)
#include <emmintrin.h>
#endif

double sinewi_key_for_time(const sinew_context *ctx, double t) {
	// t * rate, or through the time map (docs/format.md §time map), clamped to the samples
	double key = t * ctx->sample_rate;
	if (ctx->time_map) key = sinewi_view_key(&ctx->view, t);
	else key = !(key > 0.0) ? 0.0 : key > (double)ctx->last_sample ? (double)ctx->last_sample : key; // NaN gives 0
	return sinewi_snap_key(key, SINEWI_SNAP_INTERPOLATED); // t = k / rate lands on sample k
}

// Where a segment's pieces are, for one sampling call. Each rounding mode rounds the key
// first; the segment is the one holding floor(rounded key) (the last segment for the last
// sample), so a given sample always decodes from the same segment whatever the mode.
typedef struct seek_mode {
	uint32_t index;               // segment index
	float u;                      // local position
} seek_mode;

typedef struct seek {
	seek_mode m[4];   // per sinew_rounding mode
	bool one_segment; // every mode landed in the same segment (the usual case)
} seek;

// (the segment's bytes are not read: its parameters are cached, or filled when sampling needs them)
SINEWI_WASM_SMALL static void seek_one(const sinew_context *ctx, double key, seek_mode *sm) {
	uint32_t k0 = (uint32_t)key;
	uint32_t s = k0 / ctx->segment_length;
	if (s >= ctx->segment_count) s = ctx->segment_count - 1;
	sm->index = s;
	sm->u = (float)(key - (double)(s * ctx->segment_length));
}

// Locates `key` for every rounding mode; false (and ctx->missing_page set) when a segment some
// track needs is in a page that is not loaded.
static bool do_seek(sinew_context *ctx, double key, seek *sk) {
	double last = (double)ctx->last_sample;
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
		if ((ctx->modes_used >> r) & 1u) sk->one_segment &= sk->m[r].index == sk->m[SINEW_ROUNDING_NONE].index;
	if (!(ctx->modes_used & 1u)) { // NONE unused: compare against the first mode in use
		for (int r = 1; r < 4; ++r)
			if ((ctx->modes_used >> r) & 1u) {
				for (int q = r + 1; q < 4; ++q)
					if ((ctx->modes_used >> q) & 1u) sk->one_segment &= sk->m[q].index == sk->m[r].index;
				break;
			}
		sk->one_segment = sk->one_segment || ctx->modes_used == 0;
	}
	if (!SINEWI_PAGES || !ctx->paged) return true;
	for (uint32_t r = 0; r < 4; ++r)
		if (((ctx->modes_used >> r) & 1u) && !sinewi_segment_bytes(ctx, sk->m[r].index)) {
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

#include "unpack.h"

// The quantized components of the interval's knots (pick_knots) into qa and qb, one read per component; with
// `mid`, the predicted knot replaces qa (1) or qb (2). A raw rotation (128-bit knots) is read as its four
// float32 components.
SINEWI_WASM_SMALL static void read_pair(const sinewi_segment_params *p, const sinewi_cached_track *c, uint32_t n, uint64_t j,
                                        uint64_t jn, uint64_t jr, uint32_t mid, uint32_t qa[4], uint32_t qb[4]) {
	const unsigned char *data = p->data;
	uint64_t p0, p1, pr;
	knot_positions(c, j, jn, jr, &mid, p->rows, p->row_bits[c->sel & 3u], &p0, &p1, &pr);
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
	const sinewi_cached_track *c = &p->tracks[t->type == 0 ? b : ctx->rotation_count + b];
	const uint32_t d = c->sel & 3u, knots = sinewi_knot_count(p->length, d);
	uint32_t k0, mid;
	uint64_t j, jn, jr;
	float alpha;
	sinewi_knot_locate(u, p->length, d, &k0, &alpha);
	pick_knots(p, d, k0, k0 + 1 < knots ? k0 + 1 : k0, knots, (c->flags & SINEWI_TRACK_PREDICTED) != 0, &j, &jn, &jr, &mid);
	float a[4], bv[4], qa4[4], qb4[4];
	uint32_t qa[4], qb[4];
	const bool raw_rotation = c->knot_bits == 128 && t->type == 0; // its 4 components as raw float32
	const uint32_t m = raw_rotation ? 4u : n;
	read_pair(p, c, m, j, jn, jr, mid, qa, qb);
	for (uint32_t k = 0; k < m; ++k) {
		if (raw_rotation || c->width[k] == SINEWI_WIDTH_RAW) {
			a[k] = sinewi_dequantize(qa[k], SINEWI_WIDTH_RAW, 0.0f, 0.0f);
			bv[k] = sinewi_dequantize(qb[k], SINEWI_WIDTH_RAW, 0.0f, 0.0f);
			continue;
		}
		const size_t rs = ctx->rotation_stride;
		const float lo = t->type == 0 ? p->rot[(SINEWI_ROT_LO + k) * rs + b] : p->vec[4 * (size_t)b + k];
		const float step = t->type == 0 ? p->rot[(SINEWI_ROT_STEP + k) * rs + b] : p->vec[ctx->vector_stride + 4 * (size_t)b + k];
		a[k] = lo + (float)(int32_t)qa[k] * step;
		bv[k] = lo + (float)(int32_t)qb[k] * step;
	}
	if (raw_rotation) {
		if (alpha == 0.0f) { // a raw knot decodes as stored (docs/format.md)
			memcpy(out, a, sizeof a);
			return;
		}
		memcpy(qa4, a, sizeof a), memcpy(qb4, bv, sizeof bv);
	} else if (t->type != 0) {
		sinewi_interp_values(a, bv, n, alpha, out);
		return;
	} else {
		const uint32_t dropped = (uint32_t)c->flags >> SINEWI_TRACK_DROPPED_SHIFT;
		sinewi_quat_from_three(a, dropped, qa4);
		sinewi_quat_from_three(bv, dropped, qb4);
	}
	// one interpolation for raw and quantized rotations (one copy of the fitted nlerp in the wasm module)
	sinewi_quat_nlerp_fit(qa4, qb4, alpha, ctx->fit, out);
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

// The constant pose: every joint's identity, default and constant values (the animated parts are written after;
// one copy in the wasm modules).
SINEWI_WASM_SMALL static void write_constant_pose(const sinew_context *ctx, sinew_qvv *out_pose, const uint32_t *remap, bool skip) {
	if (!remap && !skip) {
		memcpy(out_pose, ctx->base_pose, ctx->joint_count * sizeof(sinew_qvv));
		return;
	}
	for (uint32_t j = 0; j < ctx->joint_count; ++j) {
		uint32_t dst = remap ? remap[j] : j;
		if (dst != 0xFFFFFFFFu) write_constants(ctx, j, &out_pose[dst], skip);
	}
}

static void write_scalar_constants(const sinew_context *ctx, float *out, bool skip_defaults) {
	if (!skip_defaults) {
		memcpy(out, ctx->base_scalars, ctx->scalar_components * sizeof(float));
		return;
	}
	for (uint32_t i = 0; i < ctx->scalar_count; ++i) {
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

// Animated track ti of a curve clip at time t (clamped to the clip): its key, or the interval between two keys.
SINEWI_WASM_SMALL static void curve_track(const sinew_context *ctx, uint32_t ti, double t, float out[4]) {
	const sinewi_curve_entry *e = &ctx->curves[ti];
	float s, td, v[4][4] = {{0}}; // key i's value and out-tangent, key i + 1's in-tangent and value (0 but what is read)
	const uint32_t i = sinewi_curve_locate(e->times, e->keys, e->interpolation, t, &s, &td);
	// they follow each other from key i's value on (a held key reads its value alone; no tangents but CUBICSPLINE's)
	uint64_t pos = e->first_bit + (uint64_t)i * e->key_bits + e->bits[1];
	for (uint32_t f = 0; f < (s >= 0.0f ? 4u : 1u); ++f) {
		const uint32_t g = f == 1 || f == 2; // a tangent
		for (uint32_t c = 0; c < e->n; ++c) {
			const uint32_t w = e->w[g][c];
			v[f][c] = e->lo[g][c] + (float)(int32_t)(w ? sinewi_read_bits(ctx->view.curve_bits, pos, w) : 0u) * e->step[g][c];
			pos += w;
		}
	}
	sinewi_curve_value(e->interpolation, ctx->tracks[ti].type == 0, e->n, ctx->fit, s, td, v[0], v[1], v[3], v[2], out);
}

// The time a curve clip plays for t: clamped to [0, duration], NaN gives 0.
static double curve_time(const sinew_context *ctx, double t) {
	return !(t > 0.0) ? 0.0 : t > ctx->duration ? ctx->duration : t;
}

// Every track decoded on its own (tracks whose rounding modes land in different segments, and curve clips: `t`, the
// time, clamped).
SINEWI_WASM_SMALL static sinew_result sample_direct(sinew_context *ctx, const seek *sk, double t, sinew_qvv *out_pose,
                                                    const uint32_t *remap, float *out_scalars, bool animated_only) {
	const sinewi_clip_view *v = &ctx->view;
	if (out_pose && !animated_only) write_constant_pose(ctx, out_pose, remap, ctx->skip_defaults != 0);
	if (out_scalars && !animated_only) write_scalar_constants(ctx, out_scalars, ctx->skip_defaults != 0);
	const sinewi_segment_params *params[4] = {NULL, NULL, NULL, NULL};
	for (uint32_t r = 0; r < 4 && !ctx->curves; ++r)
		if ((ctx->modes_used >> r) & 1u) params[r] = mode_params(ctx, sk, r);
	if (ctx->curves) t = curve_time(ctx, t);
	for (uint32_t ti = 0; ti < v->track_count; ++ti) {
		const uint32_t r = ctx->tracks[ti].rounding;
		float value[4];
		if (ctx->curves) curve_track(ctx, ti, t, value);
		else decode_track(ctx, params[r], sk->m[r].u, ti, value);
		write_track(ctx, ti, value, out_pose, remap, out_scalars);
	}
	return SINEW_RESULT_OK;
}


// (rare: out of line)
SINEWI_NOINLINE void sinewi_unpack_wide(const sinewi_segment_params *p, const sinewi_cached_track *c, uint32_t n, uint64_t j,
                                        uint64_t jn, uint64_t jr, uint32_t mid, uint32_t *a, uint32_t *b, size_t stride) {
	uint32_t qa[4], qb[4];
	read_pair(p, c, n, j, jn, jr, mid, qa, qb);
	for (uint32_t k = 0; k < n; ++k) a[k * stride] = qa[k], b[k * stride] = qb[k];
}

// Writes rotations [first, first + count) of the batch, the kernel's results in `rb`, to the pose (remapped joints).
static void scatter_rotations(const sinew_context *ctx, const sinewi_rotation_batch *rb, uint32_t first, uint32_t count,
                              sinew_qvv *out_pose, const uint32_t *remap) {
	float *restrict pose = (float *)(void *)out_pose;
	const float *o0 = rb->out[0], *o1 = rb->out[1], *o2 = rb->out[2], *o3 = rb->out[3];
	const uint32_t *out = ctx->out_offsets + first;
	uint32_t b = 0;
#if defined(__SSE2__) && !defined(__wasm__)
	if (!remap) // four quaternions at a time: the kernel's x, y, z, w lanes transposed
		for (; b + 4 <= count; b += 4) {
			__m128 x = _mm_loadu_ps(o0 + b), y = _mm_loadu_ps(o1 + b), z = _mm_loadu_ps(o2 + b), w = _mm_loadu_ps(o3 + b);
			_MM_TRANSPOSE4_PS(x, y, z, w);
			_mm_storeu_ps(pose + out[b], x), _mm_storeu_ps(pose + out[b + 1], y);
			_mm_storeu_ps(pose + out[b + 2], z), _mm_storeu_ps(pose + out[b + 3], w);
		}
#endif
	for (; b < count; ++b) {
		uint32_t at = out[b];
		if (remap) {
			const uint32_t dst = remap[at / 10u];
			if (dst == 0xFFFFFFFFu) continue;
			at = dst * 10u;
		}
		float *q = pose + at;
		q[0] = o0[b], q[1] = o1[b], q[2] = o2[b], q[3] = o3[b];
	}
}

// Writes vector batch entries [first, first + count) to the pose (joints' vectors) and the scalar output
// (scalar tracks follow the joints' vectors in the batch).
static void scatter_vectors(const sinew_context *ctx, const sinewi_vector_batch *vb, uint32_t first, uint32_t count,
                            sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars) {
	const uint32_t end = first + count, joints_end = ctx->joint_vector_count < end ? ctx->joint_vector_count : end;
	const uint32_t *out = ctx->out_offsets + ctx->rotation_count;
	uint32_t b = first;
	if (out_pose) {
		float *restrict pose = (float *)(void *)out_pose;
		for (; b < joints_end; ++b) {
			uint32_t at = out[b];
			if (remap) {
				const uint32_t dst = remap[at / 10u];
				if (dst == 0xFFFFFFFFu) continue;
				at = dst * 10u + at % 10u;
			}
			float *x = pose + at;
			const float *v = vb->out + 4 * (size_t)(b - first);
			x[0] = v[0], x[1] = v[1], x[2] = v[2];
		}
	}
	if (out_scalars)
		for (b = joints_end > first ? joints_end : first; b < end; ++b)
			memcpy(out_scalars + out[b], vb->out + 4 * (size_t)(b - first),
			       ctx->tracks[ctx->batch_track[ctx->rotation_count + b]].components * sizeof(float));
}

#if defined(__GNUC__) && !defined(__wasm__)
// Asks for the cache lines of [p, p + bytes): on a cold call every address a pose reads is known once the context's
// first lines are in, so its lines are fetched together instead of one miss after another.
static inline void prefetch_span(const void *p, size_t bytes) {
	const char *a = (const char *)((uintptr_t)p & ~(uintptr_t)63), *end = (const char *)p + bytes;
	for (; a < end; a += 128) __builtin_prefetch(a), __builtin_prefetch(a + 64); // (a line past the span at most)
}
#define SINEWI_PREFETCH 1
#else
#define SINEWI_PREFETCH 0
static inline void prefetch_span(const void *p, size_t bytes) {
	(void)p, (void)bytes;
}
#endif

// The lines of a segment's parameters a pose reads (its tracks, then the kernels' constants).
static inline void prefetch_params(const sinew_context *ctx, const sinewi_segment_params *p) {
	prefetch_span(p->tracks, (size_t)((const unsigned char *)(p->vec + 2 * (size_t)ctx->vector_stride) - (const unsigned char *)p->tracks));
}
// The lines of the output offsets a pose reads.
static inline void prefetch_out_offsets(const sinew_context *ctx) {
	prefetch_span(ctx->out_offsets, ((size_t)ctx->rotation_count + ctx->vector_count) * sizeof(uint32_t));
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
	if (SINEWI_PREFETCH && out_pose && !animated_only) { // the constant pose's first lines (the streamer takes the rest)
		const char *bp = (const char *)ctx->base_pose;
		__builtin_prefetch(bp), __builtin_prefetch(bp + 64), __builtin_prefetch(bp + 128), __builtin_prefetch(bp + 192);
	}
	// single-entry contexts: the cached segment's parameters (its tracks, then the kernels' constants) and the output
	// offsets, asked for as soon as the context's first line is in (the segment sampled is that one but when playback
	// moves on: then sinewi_segment swaps in another block, asked for below)
	const sinewi_cached_track *asked = NULL;
	if (SINEWI_PREFETCH && !ctx->random_access) {
		asked = ctx->cur.tracks;
		prefetch_params(ctx, &ctx->cur);
		prefetch_out_offsets(ctx);
	}
	if (!do_seek(ctx, key, &sk)) return SINEW_RESULT_PAGE_MISSING; // nothing written
	if (!sk.one_segment || ctx->track_count == 0) { // (no animated track: no segment to read, loaded or not)
		return sample_direct(ctx, &sk, 0.0, out_pose, remap, out_scalars, animated_only);
	}
	uint32_t first_mode = 0;
	while (first_mode < 3 && !((ctx->modes_used >> first_mode) & 1u)) ++first_mode;
	const sinewi_segment_params *seg = sinewi_segment(ctx, sk.m[first_mode].index, sk.m[first_mode].u);
	// knot pair and weight per rounding mode in use and decimation level, indexed like a cached
	// track's `sel` (mode * 4 + decimation)
	_Static_assert(SINEWI_MAX_DECIMATION == 3, "sel packs the decimation in two bits");
	sinewi_knot_picks kp; // filled for the (rounding mode, decimation) pairs the segment's tracks use, the only ones they select
	const bool rows = !SINEWI_LEGACY || seg->rows;
	for (uint32_t i = 0; seg->sels >> i; ++i) {
		if (!((seg->sels >> i) & 1u)) continue;
		const uint32_t r = i >> 2, d = i & 3u, knots = sinewi_knot_count(seg->length, d);
		uint32_t k0;
		sinewi_knot_locate(sk.m[r].u, seg->length, d, &k0, &kp.alpha[i]);
		const uint32_t k1 = k0 + 1 < knots ? k0 + 1 : k0;
		if (seg->predicted_count < ctx->track_count)
			pick_knots(seg, d, k0, k1, knots, false, &kp.j[0][i], &kp.jn[0][i], &kp.jr[0][i], &kp.mid[0][i]);
		if (seg->predicted_count) pick_knots(seg, d, k0, k1, knots, true, &kp.j[1][i], &kp.jn[1][i], &kp.jr[1][i], &kp.mid[1][i]);
		if (SINEWI_PREFETCH && rows) { // the rows this level's tracks read: from the first pick's to the end of the last
			const uint32_t p = seg->predicted_count ? 1u : 0u;
			const uint64_t from = kp.j[p][i], to = (kp.mid[p][i] ? kp.jr[p][i] : kp.jn[p][i]) + seg->row_bits[d] + 64u;
			prefetch_span(seg->data + (from >> 3), (size_t)((to >> 3) - (from >> 3)));
		}
	}
	const bool skip = ctx->skip_defaults != 0, constants = out_pose && !animated_only;
	if (SINEWI_PREFETCH && seg->tracks != asked) { // (random access, or another segment's block)
		prefetch_params(ctx, seg);
		if (!asked) prefetch_out_offsets(ctx);
	}
	if (constants) write_constant_pose(ctx, out_pose, remap, skip);
	if (out_scalars && !animated_only) write_scalar_constants(ctx, out_scalars, skip);
	// the unpack loop's copy for segments with residuals or without, in rows or not (the wasm decoder has one)
#if defined(__wasm__)
#define UNPACK(loop, ...) loop(seg, &kp, true, rows, false, __VA_ARGS__)
#else
	// the picks every track shares (the usual segment: one mode and decimation, every track split or none)
	const bool uniform = (seg->sels & (seg->sels - 1u)) == 0 && (seg->predicted_count == 0 || seg->predicted_count == ctx->track_count);
	kp.uniform_sel = uniform ? (uint32_t)__builtin_ctz(seg->sels) : 0u;
#define UNPACK(loop, ...)                                                                                         \
	(rows ? (seg->predicted_count ? (uniform ? loop(seg, &kp, true, true, true, __VA_ARGS__)                      \
	                                         : loop(seg, &kp, true, true, false, __VA_ARGS__))                    \
	                              : (uniform ? loop(seg, &kp, false, true, true, __VA_ARGS__)                     \
	                                         : loop(seg, &kp, false, true, false, __VA_ARGS__)))                  \
	      : (seg->predicted_count ? loop(seg, &kp, true, false, false, __VA_ARGS__)                               \
	                              : loop(seg, &kp, false, false, false, __VA_ARGS__)))
#endif
#if !defined(__wasm__)
	const uint32_t unpack_flags = (seg->predicted_count != 0 ? 1u : 0u) | (uniform ? 2u : 0u);
#endif
	union { // the kernels' batch, a chunk at a time
		sinewi_rotation_batch r;
		sinewi_vector_batch v;
	} batch;
	const size_t rs = ctx->rotation_stride;
	if (out_pose) { // rotations only go to the pose
		sinewi_rotation_batch *rb = &batch.r;
		rb->residuals = SINEWI_KERNEL_MIDPOINTS && seg->rebuilt_count != 0;
		rb->fit = ctx->fit;
#if !defined(__wasm__) // (the wasm kernel's results are scattered)
		rb->pose = !remap && ctx->kernel->writes_pose ? (float *)(void *)out_pose : NULL; // (else scatter_rotations)
#endif
		for (uint32_t first = 0; first < ctx->rotation_count; first += SINEWI_CHUNK) {
			const uint32_t n = ctx->rotation_count - first < SINEWI_CHUNK ? ctx->rotation_count - first : SINEWI_CHUNK;
			const float *constants_at = seg->rot + first;
			for (int k = 0; k < 3; ++k)
				rb->lo[k] = constants_at + (SINEWI_ROT_LO + k) * rs, rb->step[k] = constants_at + (SINEWI_ROT_STEP + k) * rs;
			rb->dropped = constants_at + SINEWI_ROT_DROPPED * rs;
#if !defined(__wasm__)
			if (rows && ctx->kernel->unpack_rotations) ctx->kernel->unpack_rotations(seg, &kp, unpack_flags, first, n, rb); // (zeroes the lanes past n itself)
			else
#endif
			{
				UNPACK(unpack_rotations, first, n, rb);
				// the lanes past the chunk's end hold no garbage the float units would take a slow path on (subnormals)
				for (uint32_t b = n, end = (n + ctx->kernel->lanes - 1u) & ~(ctx->kernel->lanes - 1u); b < end; ++b) {
					rb->alpha[b] = 0.0f;
#if SINEWI_KERNEL_MIDPOINTS
					rb->mid[b] = 0.0f;
#endif
				}
			}
#if defined(__wasm__)
			ctx->kernel->rotations(rb, n);
			scatter_rotations(ctx, rb, first, n, out_pose, remap);
#else
			rb->out_offsets = ctx->out_offsets + first;
			ctx->kernel->rotations(rb, n);
			if (!rb->pose) scatter_rotations(ctx, rb, first, n, out_pose, remap);
#endif
		}
	}
	sinewi_vector_batch *vb = &batch.v;
	const sinewi_cached_track *vec_tracks = seg->tracks + ctx->rotation_count;
	for (uint32_t first = 0; first < ctx->vector_count; first += SINEWI_CHUNK) {
		const uint32_t n = ctx->vector_count - first < SINEWI_CHUNK ? ctx->vector_count - first : SINEWI_CHUNK;
		vb->lo = seg->vec + 4 * (size_t)first, vb->step = seg->vec + ctx->vector_stride + 4 * (size_t)first;
#if !defined(__wasm__)
		if (rows && ctx->kernel->unpack_vectors)
			ctx->kernel->unpack_vectors(seg, &kp, unpack_flags, vec_tracks, first, n, ctx->joint_vector_count, vb);
		else
#endif
			UNPACK(unpack_vectors, vec_tracks, first, n, ctx->joint_vector_count, vb);
		ctx->kernel->vectors(vb, n);
		scatter_vectors(ctx, vb, first, n, out_pose, remap, out_scalars);
	}
#undef UNPACK
	if (seg->raw_count) { // raw float32 components, the rare last resort: decoded one by one over the kernels' slots
		for (uint32_t b = 0; b < ctx->rotation_count + ctx->vector_count; ++b)
			if (seg->tracks[b].flags & SINEWI_TRACK_RAW) decode_raw(ctx, seg, &sk, ctx->batch_track[b], out_pose, remap, out_scalars);
	}
	return SINEW_RESULT_OK;
}

sinew_result sinewi_sample_key(sinew_context *ctx, double key, sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars) {
	if (ctx->curves) return sample_direct(ctx, NULL, sinewi_view_time(&ctx->view, key), out_pose, remap, out_scalars, false);
	return sample_key(ctx, key, out_pose, remap, out_scalars, false);
}

// The pose at time t: a curve clip's curves, or the samples around key t. (Not for size in wasm: sample_key, inlined
// here, is the sampling path.)
static sinew_result sample_time(sinew_context *context, double t, sinew_qvv *out_pose, const uint32_t *remap, float *out_scalars,
                                bool animated_only) {
	if (context->curves) return sample_direct(context, NULL, t, out_pose, remap, out_scalars, animated_only);
	return sample_key(context, sinewi_key_for_time(context, t), out_pose, remap, out_scalars, animated_only);
}

sinew_result sinew_sample_pose(sinew_context *context, double t, sinew_qvv *out_pose, const uint32_t *remap,
                               float *out_scalars) {
	return sample_time(context, t, out_pose, remap, out_scalars, false);
}

sinew_result sinew_sample_pose_animated(sinew_context *context, double t, sinew_qvv *out_pose, const uint32_t *remap,
                                        float *out_scalars) {
	return sample_time(context, t, out_pose, remap, out_scalars, true);
}

SINEWI_WASM_SMALL sinew_result sinew_sample_joint(sinew_context *context, double t, uint32_t joint, sinew_qvv *out) {
	if (!context || !out || joint >= context->view.joint_count) return SINEW_RESULT_INVALID_ARGUMENT;
	if (context->curves) {
		const sinewi_joint_entry *e = &context->joints[joint];
		write_constants(context, joint, out, false);
		float value[4];
		float *dst[3] = {out->rotation, out->translation, out->scale};
		for (int sub = 0; sub < 3; ++sub)
			if (e->track[sub] >= 0)
				curve_track(context, (uint32_t)e->track[sub], curve_time(context, t), value), memcpy(dst[sub], value, (sub ? 3 : 4) * sizeof(float));
		return SINEW_RESULT_OK;
	}
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
	if (e->track >= 0 && context->curves) {
		float value[4];
		curve_track(context, (uint32_t)e->track, curve_time(context, t), value);
		memcpy(out, value, e->components * sizeof(float));
	} else if (e->track >= 0) {
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

// sinew — see include/sinew.h for version and licence
// The unpack loops: the quantized fields of the two knots (and a predicted knot's residual) of each track of a
// segment, from its bit stream into the kernels' batch (docs/format.md §bit stream, §midpoint knots). Included by
// sample.c (every build) and by kernel_avx2.c with SINEWI_UNPACK_BMI2, inside functions compiled for BMI2, where
// a shift or a mask of variable width is one instruction (its rotations take unpack_avx2.h's loop, built on these
// helpers).
#ifndef SINEW_DECOMPRESS_UNPACK_H
#define SINEW_DECOMPRESS_UNPACK_H

#include "context.h"

#ifndef SINEWI_UNPACK_BMI2
#define SINEWI_UNPACK_BMI2 0
#endif

// Where the two knots of an interval start (pa, pb) and the predicted one's residual (pr), from pick_knots' j, jn,
// jr; but that a track storing its predicted knots whole (format 3, no Shift) reads the predicted one (`mid`) at
// pr, and then has nothing to rebuild. `rows` (format 3; a constant where the unpack loops are specialized): j, jn
// and jr are rows' positions; else (formats 1, 2) knot and residual indices, the track's residuals after its
// `plain` plain knots.
static inline void knot_positions(const sinewi_cached_track *c, uint64_t j, uint64_t jn, uint64_t jr, uint32_t *mid, bool rows,
                                  uint32_t plain, uint64_t *pa, uint64_t *pb, uint64_t *pr) {
	if (!SINEWI_LEGACY || rows) {
		*pa = c->bitpos + j, *pb = c->bitpos + jn, *pr = c->residual_pos + jr;
	} else {
		*pa = c->bitpos + j * c->knot_bits, *pb = c->bitpos + jn * c->knot_bits;
		*pr = c->bitpos + (uint64_t)plain * c->knot_bits + jr * c->residual_bits;
	}
	if (*mid && (c->flags & SINEWI_TRACK_WHOLE)) {
		if (*mid == 1u) *pa = *pr;
		else *pb = *pr;
		*mid = 0;
	}
}

// Where track c's interval starts and ends (pick_knots); in a segment without split tracks (`residuals` false, a
// constant where the unpack loops are specialized) every track is plain.
static inline void pick_of(const sinewi_cached_track *c, const sinewi_knot_picks *kp, bool residuals, uint64_t *j, uint64_t *jn,
                           uint64_t *jr, uint32_t *mid) {
	const uint32_t sel = c->sel, p = residuals ? (c->flags & SINEWI_TRACK_PREDICTED) >> 1 : 0u;
	*j = kp->j[p][sel], *jn = kp->jn[p][sel], *jr = kp->jr[p][sel], *mid = kp->mid[p][sel];
}

// The picks every track of a segment shares when it is `uniform` (one rounding mode and decimation, and every
// track split or none: the usual segment), taken once before the loops (sinewi_knot_picks.uniform).
#define UNIFORM_PICKS(kp, residuals)                                                                                  \
	const uint32_t sel0_ = (kp)->uniform_sel, p0_ = (residuals) ? 1u : 0u;                                           \
	const uint64_t j0_ = (kp)->j[p0_][sel0_], jn0_ = (kp)->jn[p0_][sel0_], jr0_ = (kp)->jr[p0_][sel0_];               \
	const uint32_t mid0_ = (kp)->mid[p0_][sel0_];                                                                     \
	const float alpha0_ = (kp)->alpha[sel0_]
#define PICK(c, kp, residuals, uniform, j, jn, jr, mid)                                                               \
	do {                                                                                                              \
		if (uniform) j = j0_, jn = jn0_, jr = jr0_, mid = mid0_;                                                      \
		else pick_of(c, kp, residuals, &j, &jn, &jr, &mid);                                                           \
	} while (0)
#define ALPHA(c, kp, uniform) ((uniform) ? alpha0_ : (kp)->alpha[(c)->sel])

// Masks of a field's low bits for each 5-bit width code (a table: computing one takes a variable
// shift, but for BMI2's one instruction). Codes above 24 only reach the unpack loops for raw components, which
// are replaced later.
#if SINEWI_UNPACK_BMI2
#define FIELD_MASK(w) _bzhi_u32(~0u, (w))
#define RESIDUAL_BIAS(rw) ((uint32_t)((1ull << (rw)) >> 1))
#else
#define FIELD_MASK(w) field_mask[w]
#define RESIDUAL_BIAS(rw) residual_bias[rw]
static const uint32_t field_mask[32] = {
    0x0u,      0x1u,      0x3u,      0x7u,       0xfu,       0x1fu,      0x3fu,      0x7fu,
    0xffu,     0x1ffu,    0x3ffu,    0x7ffu,     0xfffu,     0x1fffu,    0x3fffu,    0x7fffu,
    0xffffu,   0x1ffffu,  0x3ffffu,  0x7ffffu,   0xfffffu,   0x1fffffu,  0x3fffffu,  0x7fffffu,
    0xffffffu, 0x1ffffffu, 0x3ffffffu, 0x7ffffffu, 0xfffffffu, 0x1fffffffu, 0x3fffffffu, 0x7fffffffu};

#if SINEWI_KERNEL_MIDPOINTS
// sinewi_residual_bias for each residual width 0..32 (a table: computing one takes two variable shifts).
static const uint32_t residual_bias[33] = {
    0x0u,      0x1u,      0x2u,      0x4u,      0x8u,      0x10u,      0x20u,      0x40u,
    0x80u,     0x100u,    0x200u,    0x400u,    0x800u,    0x1000u,    0x2000u,    0x4000u,
    0x8000u,   0x10000u,  0x20000u,  0x40000u,  0x80000u,  0x100000u,  0x200000u,  0x400000u,
    0x800000u, 0x1000000u, 0x2000000u, 0x4000000u, 0x8000000u, 0x10000000u, 0x20000000u, 0x40000000u, 0x80000000u};
#endif
#endif

// The field of width code w at bit s of a word: with BMI2 a shift and one bzhi, without it a shift and a mask.
#if SINEWI_UNPACK_BMI2
#define FIELD(v, s, w) ((uint32_t)_bzhi_u64((v) >> (s), (w)))
#else
#define FIELD(v, s, w) ((uint32_t)((v) >> (s)) & FIELD_MASK(w))
#endif

// Three fields of width codes w0..w2 from the low bits of a word.
#define SPLIT3(word, w0, w1, w2, x) \
	do {                           \
		uint64_t v_ = (word);      \
		x[0] = (uint32_t)v_ & FIELD_MASK(w0), v_ >>= (w0); \
		x[1] = (uint32_t)v_ & FIELD_MASK(w1), v_ >>= (w1); \
		x[2] = (uint32_t)v_ & FIELD_MASK(w2);              \
	} while (0)

// The wasm runtime modules (format 3 only) unpack with unpack3_to; the other builds (the wasm compressor's decoder reads
// every format) with unpack3 and rebuild3.
#if defined(__wasm__) && !SINEWI_LEGACY
#define SINEWI_UNPACK3_TO 1
#else
#define SINEWI_UNPACK3_TO 0
#endif
#if !SINEWI_UNPACK3_TO
// (inlined in the unpack loops natively; one out-of-line copy in the wasm compressor)
#if defined(__wasm__)
#define UNPACK3_INLINE SINEWI_NOINLINE static
#else
#define UNPACK3_INLINE static inline
#endif
// The quantized x, y, z of plain slots j and jn (a plain track: knots j and jn) of a 3-component
// track whose knots fit one word: one load per knot; with `mid`, one more for the residual fields
// of the predicted knot between them (they fit one word too).
// A track storing its odd knots whole reads them like plain ones, and `mid` becomes 0.
UNPACK3_INLINE void unpack3(const sinewi_segment_params *p, const sinewi_cached_track *c, uint64_t j, uint64_t jn, uint64_t jr,
                            uint32_t *mid, bool rows, uint32_t a[3], uint32_t b[3], uint32_t r[3]) {
	const unsigned char *data = p->data;
	uint64_t pa, pb, pr;
	knot_positions(c, j, jn, jr, mid, rows, rows ? 0u : p->row_bits[c->sel & 3u], &pa, &pb, &pr);
	SPLIT3(sinewi_read_word(data, pa), c->width[0], c->width[1], c->width[2], a);
	SPLIT3(sinewi_read_word(data, pb), c->width[0], c->width[1], c->width[2], b);
	if (*mid) SPLIT3(sinewi_read_word(data, pr), c->rwidth[0], c->rwidth[1], c->rwidth[2], r);
}
// The predicted knot (mid 1: a, 2: b) rebuilt from its plain neighbours a, b and residual fields r.
static inline void rebuild3(const sinewi_cached_track *c, uint32_t mid, uint32_t a[3], uint32_t b[3], const uint32_t r[3]) {
	uint32_t *m = mid == 1u ? a : b;
	for (int k = 0; k < 3; ++k) m[k] = sinewi_midpoint_value(a[k], b[k], r[k], c->rwidth[k], FIELD_MASK(c->width[k]));
}
#else
// unpack3 and rebuild3 in one for the wasm runtime modules: inlined in the unpack loops, every field a value,
// written once to a[0], a[stride], a[2 * stride] and b[...]. (Out of line, with arrays for the fields and a rebuilt knot
// written through a pointer chosen at run time, its fields went through linear memory: stored and loaded again for every
// track; this way the loops are 1.2x faster and the module smaller.)
static inline __attribute__((always_inline)) void unpack3_to(const unsigned char *data, const sinewi_cached_track *c, uint64_t j,
                                                             uint64_t jn, uint64_t jr, uint32_t mid, uint32_t *a, uint32_t *b,
                                                             size_t stride) {
	uint64_t pa = c->bitpos + j, pb = c->bitpos + jn;
	const uint64_t pr = c->residual_pos + jr;
	if (mid && (c->flags & SINEWI_TRACK_WHOLE)) { // the predicted knot stored whole (knot_positions)
		if (mid == 1u) pa = pr;
		else pb = pr;
		mid = 0;
	}
	const uint32_t w0 = c->width[0], w1 = c->width[1], w2 = c->width[2], w01 = w0 + w1;
	const uint64_t va = sinewi_read_word(data, pa), vb = sinewi_read_word(data, pb);
	uint32_t a0 = FIELD(va, 0, w0), a1 = FIELD(va, w0, w1), a2 = FIELD(va, w01, w2);
	uint32_t b0 = FIELD(vb, 0, w0), b1 = FIELD(vb, w0, w1), b2 = FIELD(vb, w01, w2);
	if (mid) {
		const uint32_t r0 = c->rwidth[0], r1 = c->rwidth[1], r2 = c->rwidth[2];
		const uint64_t vr = sinewi_read_word(data, pr);
		const uint32_t m0 = sinewi_midpoint_value(a0, b0, FIELD(vr, 0, r0), r0, FIELD_MASK(w0));
		const uint32_t m1 = sinewi_midpoint_value(a1, b1, FIELD(vr, r0, r1), r1, FIELD_MASK(w1));
		const uint32_t m2 = sinewi_midpoint_value(a2, b2, FIELD(vr, r0 + r1, r2), r2, FIELD_MASK(w2));
		if (mid == 1u) a0 = m0, a1 = m1, a2 = m2;
		else b0 = m0, b1 = m1, b2 = m2;
	}
	a[0] = a0, a[stride] = a1, a[2 * stride] = a2;
	b[0] = b0, b[stride] = b1, b[2 * stride] = b2;
}
#endif

// The unpack loops, specialized natively for segments with and without midpoint residuals (the
// plain copy skips the picks and the residual branch); the wasm decoder, which counts bytes, keeps
// the general one.
#if defined(__GNUC__) && !defined(__wasm__)
#define UNPACK_LOOP static inline __attribute__((always_inline))
#else
#define UNPACK_LOOP static
#endif

// Unpacks the two knots of quantized rotations [first, first + count) of the batch into the kernel batch `rb`:
// one load per knot when its components fit in 57 bits (nearly always), else one per component. Natively a
// predicted knot is left to the kernel (its plain neighbours, residual fields less their bias, and which knot it
// is); the wasm decoder rebuilds it here (bytes).
UNPACK_LOOP void unpack_rotations(const sinewi_segment_params *seg, const sinewi_knot_picks *kp, const bool residuals, const bool rows,
                                  const bool uniform, uint32_t first, uint32_t count, sinewi_rotation_batch *restrict rb) {
	const sinewi_cached_track *tracks = seg->tracks + first;
	UNIFORM_PICKS(kp, residuals);
#if SINEWI_KERNEL_MIDPOINTS
	static const float mid_value[3] = {0.0f, 1.0f, 2.0f};
	const unsigned char *data = seg->data;
	for (uint32_t b = 0; b < count; ++b) { // (fields straight to the batch: no copy through a local array)
		const sinewi_cached_track *c = &tracks[b];
		uint64_t j, jn, jr;
		uint32_t mid;
		PICK(c, kp, residuals, uniform, j, jn, jr, mid);
		rb->alpha[b] = ALPHA(c, kp, uniform);
		if (c->knot_bits <= 57) { // raw knots (128 bits) take the other branch and are replaced later
			if (!residuals) mid = 0;
			uint64_t pa, pb, pr;
			knot_positions(c, j, jn, jr, &mid, rows, rows ? 0u : seg->row_bits[c->sel & 3u], &pa, &pb, &pr);
			const uint32_t w0 = c->width[0], w1 = c->width[1], w2 = c->width[2], w01 = w0 + w1;
			const uint64_t va = sinewi_read_word(data, pa), vb = sinewi_read_word(data, pb);
			rb->qa[0][b] = FIELD(va, 0, w0), rb->qa[1][b] = FIELD(va, w0, w1), rb->qa[2][b] = FIELD(va, w01, w2);
			rb->qb[0][b] = FIELD(vb, 0, w0), rb->qb[1][b] = FIELD(vb, w0, w1), rb->qb[2][b] = FIELD(vb, w01, w2);
			if (residuals) {
				rb->mid[b] = mid_value[mid];
				if (mid) { // the residual fields less their bias, and the slots' masks (the kernel wraps with them)
					const uint32_t r0 = c->rwidth[0], r1 = c->rwidth[1], r2 = c->rwidth[2];
					const uint64_t vr = sinewi_read_word(data, pr);
					rb->qr[0][b] = FIELD(vr, 0, r0) - RESIDUAL_BIAS(r0);
					rb->qr[1][b] = FIELD(vr, r0, r1) - RESIDUAL_BIAS(r1);
					rb->qr[2][b] = FIELD(vr, r0 + r1, r2) - RESIDUAL_BIAS(r2);
					rb->mask[0][b] = FIELD_MASK(w0), rb->mask[1][b] = FIELD_MASK(w1), rb->mask[2][b] = FIELD_MASK(w2);
				}
			}
		} else if (!(c->flags & SINEWI_TRACK_RAW)) {
			sinewi_unpack_wide(seg, c, 3, j, jn, jr, mid, &rb->qa[0][b], &rb->qb[0][b], SINEWI_CHUNK);
			if (residuals) rb->mid[b] = 0.0f; // rebuilt already
		}
	}
#else
	for (uint32_t b = 0; b < count; ++b) {
		const sinewi_cached_track *c = &tracks[b];
		uint64_t j, jn, jr;
		uint32_t mid;
		PICK(c, kp, residuals, uniform, j, jn, jr, mid);
		rb->alpha[b] = ALPHA(c, kp, uniform);
		if (c->knot_bits <= 57) { // raw knots (128 bits) take the other branch and are replaced later
#if SINEWI_UNPACK3_TO
			(void)rows;
			unpack3_to(seg->data, c, j, jn, jr, residuals ? mid : 0u, &rb->qa[0][b], &rb->qb[0][b], SINEWI_CHUNK);
#else
			uint32_t x[3], y[3], r[3];
			if (!residuals) mid = 0;
			unpack3(seg, c, j, jn, jr, &mid, rows, x, y, r);
			if (residuals && mid) rebuild3(c, mid, x, y, r);
			rb->qa[0][b] = x[0], rb->qa[1][b] = x[1], rb->qa[2][b] = x[2];
			rb->qb[0][b] = y[0], rb->qb[1][b] = y[1], rb->qb[2][b] = y[2];
#endif
		} else if (!(c->flags & SINEWI_TRACK_RAW)) {
			sinewi_unpack_wide(seg, c, 3, j, jn, jr, mid, &rb->qa[0][b], &rb->qb[0][b], SINEWI_CHUNK);
		}
	}
#endif
}

// Same for vector batch entries [first, first + count) (`tracks`: the vector batch's): translations and scales
// (3 components), then scalar tracks (4; missing ones have width 0) from `joint_vectors` on; their predicted
// knots are rebuilt here.
UNPACK_LOOP void unpack_vectors(const sinewi_segment_params *seg, const sinewi_knot_picks *kp, const bool residuals, const bool rows,
                                const bool uniform, const sinewi_cached_track *tracks, uint32_t first, uint32_t count,
                                uint32_t joint_vectors, sinewi_vector_batch *restrict vb) {
	UNIFORM_PICKS(kp, residuals);
	const uint32_t end = first + count, joints_end = joint_vectors < end ? joint_vectors : end;
	uint32_t b = first;
	for (; b < joints_end; ++b) {
		const sinewi_cached_track *c = &tracks[b];
		uint64_t j, jn, jr;
		uint32_t mid;
		PICK(c, kp, residuals, uniform, j, jn, jr, mid);
		uint32_t *a4 = vb->qa + 4 * (size_t)(b - first), *b4 = vb->qb + 4 * (size_t)(b - first);
		vb->alpha[b - first] = ALPHA(c, kp, uniform);
		if (c->knot_bits <= 57) {
#if SINEWI_UNPACK3_TO
			(void)rows;
			unpack3_to(seg->data, c, j, jn, jr, residuals ? mid : 0u, a4, b4, 1);
#else
			uint32_t x[3], y[3], r[3];
			if (!residuals) mid = 0;
			unpack3(seg, c, j, jn, jr, &mid, rows, x, y, r);
			if (residuals && mid) rebuild3(c, mid, x, y, r);
			a4[0] = x[0], a4[1] = x[1], a4[2] = x[2];
			b4[0] = y[0], b4[1] = y[1], b4[2] = y[2];
#endif
		} else if (!(c->flags & SINEWI_TRACK_RAW)) {
			sinewi_unpack_wide(seg, c, 3, j, jn, jr, mid, a4, b4, 1);
		}
	}
	for (; b < end; ++b) {
		const sinewi_cached_track *c = &tracks[b];
		uint64_t j, jn, jr;
		uint32_t mid;
		PICK(c, kp, residuals, uniform, j, jn, jr, mid);
		vb->alpha[b - first] = ALPHA(c, kp, uniform);
		if (!(c->flags & SINEWI_TRACK_RAW))
			sinewi_unpack_wide(seg, c, 4, j, jn, jr, mid, vb->qa + 4 * (size_t)(b - first), vb->qb + 4 * (size_t)(b - first), 1);
	}
}

#endif

// sinew — see include/sinew.h for version and licence
// The rotation unpack loop for AVX2 (included by kernel_avx2.c, inside its AVX2+BMI2 target region, after unpack.h):
// a scalar pass reads each track's knot words (each already shifted to its first field) and its widths; AVX2's
// per-lane shifts then cut the nine fields of eight tracks at a time, and the residuals' biases and the slots' masks
// come from the widths in the same lanes. The same integers as unpack.h's loop (the kernels-agree tests compare them),
// in about half the instructions: the scalar loop cut every field with its own shift and bzhi.
#ifndef SINEW_DECOMPRESS_UNPACK_AVX2_H
#define SINEW_DECOMPRESS_UNPACK_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <string.h>

#include "unpack.h"

_Static_assert(offsetof(sinewi_cached_track, rwidth) == offsetof(sinewi_cached_track, width) + 4, "one 8-byte read takes both");

// Eight 64-bit lanes (lo: batch entries 0..3, hi: 4..7), the low 32 bits of each, as eight 32-bit lanes in order.
static inline __m256i pack_low32(__m256i lo, __m256i hi) {
	const __m256 t = _mm256_shuffle_ps(_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi), _MM_SHUFFLE(2, 0, 2, 0));
	return _mm256_permute4x64_epi64(_mm256_castps_si256(t), _MM_SHUFFLE(3, 1, 2, 0)); // [lo0 lo1 hi0 hi1 | lo2 ...]
}

#define LOAD4(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STORE8(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

// The fields of eight tracks, from their words (each shifted to its first field: wa, wb, and wr, the residual's) and
// their width bytes (a cached track's width[4], rwidth[4]), to the batch at entry i: knot a's and b's three fields, and
// with `split` the residual's three less their bias and the three slot masks. Field by field, in 64-bit lanes (four
// tracks a vector: lo holds entries i..i + 3, hi the next four), each stored as soon as it is cut (AVX2 has 16 registers).
static inline __attribute__((always_inline)) void cut_fields8(const uint64_t *widths, const uint64_t *wa, const uint64_t *wb,
                                                              const uint64_t *wr, bool split, uint32_t i, sinewi_rotation_batch *restrict rb) {
	const __m256i byte = _mm256_set1_epi64x(0xff), ones = _mm256_set1_epi64x(-1);
	const __m256i w_lo = LOAD4(widths + i), w_hi = LOAD4(widths + i + 4);
	const __m256i a_lo = LOAD4(wa + i), a_hi = LOAD4(wa + i + 4), b_lo = LOAD4(wb + i), b_hi = LOAD4(wb + i + 4);
	__m256i s_lo = _mm256_setzero_si256(), s_hi = s_lo; // the field's first bit
	for (int k = 0; k < 3; ++k) {
		const __m256i n_lo = _mm256_and_si256(_mm256_srli_epi64(w_lo, 8 * k), byte), n_hi = _mm256_and_si256(_mm256_srli_epi64(w_hi, 8 * k), byte);
		const __m256i h_lo = _mm256_sllv_epi64(ones, n_lo), h_hi = _mm256_sllv_epi64(ones, n_hi); // ones above the width
		STORE8(rb->qa[k] + i, pack_low32(_mm256_andnot_si256(h_lo, _mm256_srlv_epi64(a_lo, s_lo)),
		                                 _mm256_andnot_si256(h_hi, _mm256_srlv_epi64(a_hi, s_hi))));
		STORE8(rb->qb[k] + i, pack_low32(_mm256_andnot_si256(h_lo, _mm256_srlv_epi64(b_lo, s_lo)),
		                                 _mm256_andnot_si256(h_hi, _mm256_srlv_epi64(b_hi, s_hi))));
		if (split) STORE8(rb->mask[k] + i, pack_low32(_mm256_xor_si256(h_lo, ones), _mm256_xor_si256(h_hi, ones)));
		s_lo = _mm256_add_epi64(s_lo, n_lo), s_hi = _mm256_add_epi64(s_hi, n_hi);
	}
	if (!split) return;
	const __m256i one = _mm256_set1_epi64x(1), r_lo = LOAD4(wr + i), r_hi = LOAD4(wr + i + 4);
	s_lo = _mm256_setzero_si256(), s_hi = s_lo;
	for (int k = 0; k < 3; ++k) {
		const __m256i n_lo = _mm256_and_si256(_mm256_srli_epi64(w_lo, 32 + 8 * k), byte);
		const __m256i n_hi = _mm256_and_si256(_mm256_srli_epi64(w_hi, 32 + 8 * k), byte);
		// the field less its bias, (1 << width) >> 1 (RESIDUAL_BIAS)
		const __m256i f_lo = _mm256_sub_epi64(_mm256_andnot_si256(_mm256_sllv_epi64(ones, n_lo), _mm256_srlv_epi64(r_lo, s_lo)),
		                                      _mm256_srli_epi64(_mm256_sllv_epi64(one, n_lo), 1));
		const __m256i f_hi = _mm256_sub_epi64(_mm256_andnot_si256(_mm256_sllv_epi64(ones, n_hi), _mm256_srlv_epi64(r_hi, s_hi)),
		                                      _mm256_srli_epi64(_mm256_sllv_epi64(one, n_hi), 1));
		STORE8(rb->qr[k] + i, pack_low32(f_lo, f_hi));
		s_lo = _mm256_add_epi64(s_lo, n_lo), s_hi = _mm256_add_epi64(s_hi, n_hi);
	}
}
#undef LOAD4
#undef STORE8

// unpack_rotations (unpack.h) for a format-3 segment, the fields cut in AVX2 lanes. The scalar pass keeps its words in
// the batch's `words` (the kernel's second pass reuses that space), so the loop addresses everything from the batch.
enum { W_A, W_B, W_R, W_WIDTHS };
#if !SINEWI_KERNEL_TWO_PASS || !SINEWI_KERNEL_MIDPOINTS
#error "unpack_avx2.h: the batch's words are the two-pass kernel's space, and its residuals are the kernel's"
#endif
// The scalar pass of unpack_rotations_lanes: each track's weight (unless uniform) and predicted knot, and its words and
// width bytes into the batch's `words`; true when some track's knots are wider than a word.
// `cut`: the residuals are cut (when uniform, every track's picks have a predicted knot).
static inline __attribute__((always_inline)) bool read_words(const sinewi_segment_params *seg, const sinewi_knot_picks *kp,
                                                             const bool residuals, const bool uniform, const bool cut, uint32_t first,
                                                             uint32_t count, sinewi_rotation_batch *restrict rb) {
	static const float mid_value[3] = {0.0f, 1.0f, 2.0f};
	const sinewi_cached_track *tracks = seg->tracks + first;
	const unsigned char *data = seg->data;
	uint64_t(*restrict w)[SINEWI_CHUNK] = rb->words;
	UNIFORM_PICKS(kp, residuals);
	(void)alpha0_;
	bool wide = false;
	for (uint32_t b = 0; b < count; ++b) {
		const sinewi_cached_track *c = &tracks[b];
		uint64_t j, jn, jr;
		uint32_t mid;
		PICK(c, kp, residuals, uniform, j, jn, jr, mid);
		if (!uniform) rb->alpha[b] = kp->alpha[c->sel];
		if (c->knot_bits <= 57) { // raw knots (128 bits) take the other branch and are replaced later
			uint64_t pa = c->bitpos + j, pb = c->bitpos + jn;
			memcpy(&w[W_WIDTHS][b], (const unsigned char *)c + offsetof(sinewi_cached_track, width), 8); // width[4], rwidth[4]
			if (cut) {
				uint64_t r = 0;
				if (uniform || mid) { // (uniform and cut: the picks have one)
					const uint64_t pr = c->residual_pos + jr;
					if (c->flags & SINEWI_TRACK_WHOLE) { // the predicted knot stored whole (knot_positions)
						if (mid == 1u) pa = pr;
						else pb = pr;
						mid = 0;
					} else {
						r = sinewi_read_word(data, pr);
					}
				}
				w[W_R][b] = r;
				if (!uniform || mid == 0) rb->mid[b] = mid_value[mid];
			}
			w[W_A][b] = sinewi_read_word(data, pa), w[W_B][b] = sinewi_read_word(data, pb);
		} else { // (rare: read after the lanes, one component at a time)
			w[W_WIDTHS][b] = w[W_A][b] = w[W_B][b] = w[W_R][b] = 0u;
			if (residuals) rb->mid[b] = 0.0f;
			wide = true;
		}
	}
	return wide;
}

static inline __attribute__((always_inline)) void unpack_rotations_lanes(const sinewi_segment_params *seg, const sinewi_knot_picks *kp,
                                                                         const bool residuals, const bool uniform, uint32_t first,
                                                                         uint32_t count, sinewi_rotation_batch *restrict rb) {
	static const float mid_value[3] = {0.0f, 1.0f, 2.0f};
	const sinewi_cached_track *tracks = seg->tracks + first;
	uint64_t(*restrict w)[SINEWI_CHUNK] = rb->words;
	UNIFORM_PICKS(kp, residuals);
	// residuals to cut: a split segment's, unless every track shares picks without a predicted knot
	const bool cut_residuals = residuals && (!uniform || mid0_ != 0);
	const uint32_t lanes = (count + 7u) & ~7u;
	if (count & 7u) { // the last group's lanes past `count`: zero words (they cut zeros), and zero floats for the kernel
		for (int k = 0; k < 4; ++k) _mm256_storeu_si256((__m256i *)(void *)(w[k] + lanes - 8), _mm256_setzero_si256()),
		                            _mm256_storeu_si256((__m256i *)(void *)(w[k] + lanes - 4), _mm256_setzero_si256());
		_mm256_storeu_ps(rb->alpha + lanes - 8, _mm256_setzero_ps());
		_mm256_storeu_ps(rb->mid + lanes - 8, _mm256_setzero_ps());
	}
	if (uniform) { // the shared weight and predicted knot, eight lanes a store (a track storing its odd knots whole has none)
		const __m256 alpha = _mm256_set1_ps(alpha0_), mid = _mm256_set1_ps(mid_value[mid0_]);
		uint32_t b = 0;
		for (; b + 8 <= count; b += 8) {
			_mm256_storeu_ps(rb->alpha + b, alpha);
			if (residuals) _mm256_storeu_ps(rb->mid + b, mid);
		}
		if (b < count) { // (the lanes up to `count` only)
			const __m256i in = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count - b)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
			_mm256_maskstore_ps(rb->alpha + b, in, alpha);
			if (residuals) _mm256_maskstore_ps(rb->mid + b, in, mid);
		}
	}
	// (the loop copied for segments with residuals to cut or not: a constant inside)
	const bool wide = cut_residuals ? read_words(seg, kp, residuals, uniform, true, first, count, rb)
	                                 : read_words(seg, kp, residuals, uniform, false, first, count, rb);
	for (uint32_t i = 0; i < lanes; i += 8) cut_fields8(w[W_WIDTHS], w[W_A], w[W_B], w[W_R], cut_residuals, i, rb);
	if (wide)
		for (uint32_t b = 0; b < count; ++b) {
			const sinewi_cached_track *c = &tracks[b];
			if (c->knot_bits <= 57 || (c->flags & SINEWI_TRACK_RAW)) continue;
			uint64_t j, jn, jr;
			uint32_t mid;
			PICK(c, kp, residuals, uniform, j, jn, jr, mid);
			sinewi_unpack_wide(seg, c, 3, j, jn, jr, residuals ? mid : 0u, &rb->qa[0][b], &rb->qb[0][b], SINEWI_CHUNK);
		}
}

#endif

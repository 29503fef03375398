// sinew — see include/sinew.h for version and licence
// Per-segment bit-rate search. Each animated track gets, per segment, a decimation d (knots
// every 2^d samples, linear in between) and a bit width per component derived from one
// precision step; the cheapest pair whose error fits the joint's budget wins. Then the whole
// segment is decoded, composed in object space and checked against the threshold at every
// sample; joints on chains that exceed it get tighter budgets until everything fits.
#include "../core/codec_math.h"
#include "../core/metric.h"
#include "../clip/clip_internal.h"
#include "segment_search.h"

#include <math.h>
#include <string.h>




static void seg_lo_ext(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint32_t c, float *lo, float *ext) {
	uint32_t comp = sinewi_slot_component(t, st, c);
	sinewi_segment_range(t->clip_min[comp], t->clip_ext[comp], st->range_min[c], st->range_ext[c], lo, ext);
}


// Segment ranges: 8-bit fractions of the clip range that cover every sample of the segment; with the
// track's stored samples in td->values and the slots' quantization ranges.
static void segment_data(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                         sinewi_enc_seg_track *st, track_data *td) {
	float *values = (float *)td->values;
	for (uint32_t u = 0; u <= seg->length; ++u) sinewi_stored_value(w, t, st->dropped, seg->first_sample + u, values + 4 * u);
	for (uint32_t c = 0; c < t->components; ++c) {
		uint32_t comp = sinewi_slot_component(t, st, c);
		float lo = INFINITY, hi = -INFINITY;
		for (uint32_t u = 0; u <= seg->length; ++u) {
			const float *v = values + 4 * u;
			if (v[comp] < lo) lo = v[comp];
			if (v[comp] > hi) hi = v[comp];
		}
		float cmin = t->clip_min[comp], cext = t->clip_ext[comp];
		int qmin = 0, qmax = 0;
		if (w->enc->segment_count == 1) { // format 2 stores no ranges for a lone segment: the whole clip range
			st->range_min[c] = 0;
			st->range_ext[c] = 255;
			continue;
		}
		if (cext > 0.0f) {
			qmin = (int)floor(((double)lo - cmin) / cext * 255.0);
			qmax = (int)ceil(((double)hi - cmin) / cext * 255.0);
			qmin = qmin < 0 ? 0 : (qmin > 255 ? 255 : qmin);
			qmax = qmax < qmin ? qmin : (qmax > 255 ? 255 : qmax);
			float flo, fext;
			// float rounding may leave the ends just inside the samples: widen until covered
			for (;;) {
				sinewi_segment_range(cmin, cext, (uint32_t)qmin, (uint32_t)(qmax - qmin), &flo, &fext);
				if (flo > lo && qmin > 0) --qmin;
				else if (flo + fext < hi && qmax < 255) ++qmax;
				else break;
			}
		}
		st->range_min[c] = (uint8_t)qmin;
		st->range_ext[c] = (uint8_t)(qmax - qmin);
	}
	td->knot_only = true;
	td->widths_known = 0;
	for (uint32_t c = 0; c < t->components; ++c) {
		seg_lo_ext(t, st, c, &td->lo[c], &td->ext[c]);
		td->knot_only = td->knot_only && fabsf(td->lo[c]) < 1e37f && td->ext[c] < 1e37f;
	}
	// sinewi_quantize's (v - lo) / ext of every sample, once: each width then only scales it
	for (uint32_t c = 0; c < t->components; ++c) {
		const uint32_t comp = sinewi_slot_component(t, st, c);
		const double lo = td->lo[c], ext = td->ext[c];
		for (uint32_t u = 0; u <= seg->length; ++u) td->unit[4 * u + c] = ext > 0.0 ? ((double)values[4 * u + comp] - lo) / ext : 0.0;
	}
	if (t->type == SINEWI_TRACK_ROTATION) {
		double *source = (double *)td->source;
		const uint32_t nj = w->joint_count;
		for (uint32_t u = 0; u <= seg->length; ++u) {
			const float *q = w->poses[(size_t)(seg->first_sample + u) * nj + t->index].rotation;
			double *x = source + 4 * u;
			x[0] = q[0], x[1] = q[1], x[2] = q[2], x[3] = q[3];
			sinewi_quat_normalize_d(x);
		}
	}
}

// Widths for precision level k: the widest component gets k bits; every component gets the
// fewest bits whose step is no coarser than the widest one's. The extents are the segment's
// (td->ext: the chosen dropped component's slots, which st has whenever k is below LEVEL_RAW).
static void widths_for_level(const sinewi_enc_track *t, const track_data *td, uint32_t k, uint8_t width[4]);

void sinewi_widths_for_level(const sinewi_enc_track *t, track_data *td, uint32_t k, uint8_t width[4]) {
	if (k >= SINEWI_LEVEL_RAW) {
		for (uint32_t c = 0; c < 4; ++c) width[c] = (uint8_t)(c < t->components ? SINEWI_WIDTH_RAW : 0);
		return;
	}
	if (!(td->widths_known >> k & 1u)) {
		widths_for_level(t, td, k, td->widths[k]);
		td->widths_known |= 1u << k;
	}
	memcpy(width, td->widths[k], 4);
}

static void widths_for_level(const sinewi_enc_track *t, const track_data *td, uint32_t k, uint8_t width[4]) {
	const float *ext = td->ext;
	float emax = 0.0f;
	for (uint32_t c = 0; c < t->components; ++c)
		if (ext[c] > emax) emax = ext[c];
	for (uint32_t c = 0; c < 4; ++c) width[c] = 0;
	if (k == 0 || !(emax > 0.0f)) return;
	double steps = (double)((1u << k) - 1u);
	for (uint32_t c = 0; c < t->components; ++c) {
		const double need = (double)ext[c] / (double)emax * steps - 1e-9; // intervals needed at the common step
		// the fewest bits (at most k) with 2^bits - 1 >= need: from the bit length of its integer part
		uint32_t bits = 0;
		if (need > 0.0) {
			const uint32_t m = need < (double)(1u << 30) ? (uint32_t)need : (1u << 30);
#if defined(__GNUC__) || defined(__clang__)
			bits = m ? 32u - (uint32_t)__builtin_clz(m) : 0u;
#else
			for (uint32_t r = m; r; r >>= 1) ++bits;
#endif
			if (bits > k) bits = k;
			while (bits > 0 && (double)((1u << (bits - 1)) - 1u) >= need) --bits;
			while (bits < k && (double)((1u << bits) - 1u) < need) ++bits;
		}
		width[c] = (uint8_t)bits;
	}
}

// sinewi_quantize(v, width, lo, ext) from f = ((double)v - lo) / ext (track_data.unit) and top =
// 2^width - 1 (0 where sinewi_quantize returns 0: width 0 or no extent): n = f * top as there, then
// clamped to [0, top] (a NaN to 0) and rounded, without branches. The same integer (not for
// SINEWI_WIDTH_RAW: raw components keep their floats' bits).
static inline uint32_t quantize_unit(double f, double top) {
	double n = f * top;
	n = n > 0.0 ? n : 0.0;
	n = n < top ? n : top;
	return (uint32_t)(n + 0.5);
}

// Quantizes the knots of `st` (widths/decimation already set) from the source samples.
void sinewi_quantize_knots(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                           sinewi_enc_seg_track *st, const track_data *td) {
	st->knot_count = sinewi_knot_count(seg->length, st->decimation);
	if (sinewi_raw_rotation(t, st)) { // raw rotation: the source's own quaternion bits (only its sign may flip, exactly)
		for (uint32_t i = 0; i < st->knot_count; ++i) {
			uint32_t p = i << st->decimation;
			if (p > seg->length) p = seg->length;
			float v[4];
			sinewi_stored_value(w, t, st->dropped, seg->first_sample + p, v);
			uint32_t s = seg->first_sample + p;
			const sinew_clip *clip = w->clip;
			uint32_t src = (s >= clip->sample_count || (w->enc->looping && s == w->enc->sample_count)) ? 0 : s;
			const float *q = clip->transforms[(size_t)src * clip->joint_count + t->index].rotation;
			float sign = (double)q[0] * v[0] + (double)q[1] * v[1] + (double)q[2] * v[2] + (double)q[3] * v[3] < 0.0 ? -1.0f : 1.0f;
			for (uint32_t c = 0; c < 4; ++c) st->knots[i * 4 + c] = sinewi_quantize(q[c] * sign, SINEWI_WIDTH_RAW, 0.0f, 0.0f);
		}
		return;
	}
	uint32_t comp[4];
	double top[4];
	bool raw = false;
	for (uint32_t c = 0; c < t->components; ++c) {
		comp[c] = sinewi_slot_component(t, st, c);
		raw = raw || st->width[c] == SINEWI_WIDTH_RAW;
		top[c] = st->width[c] >= 1 && st->width[c] <= SINEWI_MAX_WIDTH && td->ext[c] > 0.0f ? (double)((1u << st->width[c]) - 1u) : 0.0;
	}
	const uint32_t n = t->components;
#if defined(__SSE2__)
	if (!raw && n == 3) { // the common case (a rotation's three slots, a translation), two slots and one at a time
		const __m128d t01 = _mm_loadu_pd(&top[0]), t2 = _mm_set_sd(top[2]), zero = _mm_setzero_pd(), half = _mm_set1_pd(0.5);
		uint32_t *q = st->knots;
		for (uint32_t i = 0; i < st->knot_count; ++i, q += 3) {
			uint32_t p = i << st->decimation;
			if (p > seg->length) p = seg->length;
			const double *f = td->unit + 4 * (size_t)p;
			const __m128d x = _mm_min_pd(_mm_max_pd(_mm_mul_pd(_mm_loadu_pd(f), t01), zero), t01);
			_mm_storel_epi64((__m128i *)(void *)q, _mm_cvttpd_epi32(_mm_add_pd(x, half)));
			const __m128d y = _mm_min_sd(_mm_max_sd(_mm_mul_sd(_mm_load_sd(f + 2), t2), zero), t2);
			q[2] = (uint32_t)_mm_cvttsd_si32(_mm_add_sd(y, half));
		}
		return;
	}
#endif
	for (uint32_t i = 0; i < st->knot_count; ++i) {
		uint32_t p = i << st->decimation;
		if (p > seg->length) p = seg->length;
		const double *f = td->unit + 4 * (size_t)p;
		const float *v = td->values + 4 * (size_t)p;
		uint32_t *q = st->knots + (size_t)i * n;
		if (raw) {
			for (uint32_t c = 0; c < n; ++c)
				q[c] = st->width[c] == SINEWI_WIDTH_RAW ? sinewi_quantize(v[comp[c]], SINEWI_WIDTH_RAW, 0.0f, 0.0f) : quantize_unit(f[c], top[c]);
			continue;
		}
		uint32_t c = 0;
#if defined(__SSE2__)
		// two slots at a time, as quantize_unit does: maxpd gives its second operand (0) for a NaN or a zero,
		// minpd its second (top) unless n < top, and the truncation is the conversion's (n + 0.5 < 2^31)
		for (; c + 2 <= n; c += 2) {
			const __m128d tp = _mm_loadu_pd(&top[c]);
			const __m128d x = _mm_min_pd(_mm_max_pd(_mm_mul_pd(_mm_loadu_pd(&f[c]), tp), _mm_setzero_pd()), tp);
			_mm_storel_epi64((__m128i *)(void *)&q[c], _mm_cvttpd_epi32(_mm_add_pd(x, _mm_set1_pd(0.5))));
		}
#endif
		for (; c < n; ++c) q[c] = quantize_unit(f[c], top[c]);
	}
}

// sinewi_decode_track_sample with the quantization ranges of the slots given (td->lo, td->ext).
static void decode_sample(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint32_t length, float u,
                          const float *fit, const track_data *td, float out[4]) {
	uint32_t k0;
	float alpha;
	sinewi_knot_locate(u, length, st->decimation, &k0, &alpha);
	uint32_t k1 = k0 + 1 < st->knot_count ? k0 + 1 : k0;
	float a[4], b[4];
	if (sinewi_raw_rotation(t, st)) {
		for (uint32_t c = 0; c < 4; ++c) {
			a[c] = sinewi_dequantize(st->knots[k0 * 4 + c], SINEWI_WIDTH_RAW, 0.0f, 0.0f);
			b[c] = sinewi_dequantize(st->knots[k1 * 4 + c], SINEWI_WIDTH_RAW, 0.0f, 0.0f);
		}
		// raw rotations are the lossless fallback: a knot decodes as stored (docs/format.md)
		if (alpha == 0.0f) memcpy(out, a, sizeof a);
		else sinewi_quat_nlerp_fit(a, b, alpha, fit, out);
		return;
	}
	for (uint32_t c = 0; c < t->components; ++c)
		a[c] = sinewi_dequantize(st->knots[k0 * t->components + c], st->width[c], td->lo[c], td->ext[c]);
	// On a knot of finite ranges, interpolating with weight 0 adds +-0 to each of the knot's components
	// (the fitted weight of 0 is +0, the other knot is finite): where none is zero, that is the knot
	// itself (normalized, for a rotation), and the other knot need not be decoded.
	if (alpha == 0.0f && td->knot_only) {
		float q[4];
		const float *v = a;
		if (t->type == SINEWI_TRACK_ROTATION) sinewi_quat_from_three(a, st->dropped, q), v = q;
		const uint32_t n = t->type == SINEWI_TRACK_ROTATION ? 4u : t->components;
		bool nonzero = true;
		for (uint32_t c = 0; c < n; ++c) nonzero = nonzero && v[c] != 0.0f;
		if (nonzero) {
			memcpy(out, v, n * sizeof(float));
			if (t->type == SINEWI_TRACK_ROTATION) sinewi_quat_normalize(out);
			return;
		}
	}
	for (uint32_t c = 0; c < t->components; ++c)
		b[c] = sinewi_dequantize(st->knots[k1 * t->components + c], st->width[c], td->lo[c], td->ext[c]);
	if (t->type == SINEWI_TRACK_ROTATION)
		sinewi_interp_rotation(a, b, st->dropped, alpha, fit, out);
	else
		sinewi_interp_values(a, b, t->components, alpha, out);
}

void sinewi_decode_track_sample(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint32_t length, float u,
                                const float *fit, float out[4]) {
	track_data td;
	memset(&td, 0, sizeof td); // knot_only false: the general path
	for (uint32_t c = 0; c < t->components; ++c) seg_lo_ext(t, st, c, &td.lo[c], &td.ext[c]);
	decode_sample(t, st, length, u, fit, &td, out);
}

// Check position c of the current segment as joint j's rounding mode plays it.
static float check_u(const sinewi_work *w, const seg_scratch *sc, uint32_t j, uint32_t c) {
	return w->rounding_mode[j] == SINEW_ROUNDING_NONE ? sc->check_u[c] : sc->check_u_step[c];
}

// Error of a track at local sample u of the segment in its budget's unit (object-space model for
// transforms, multiples of the precision for scalars; exact zeros must stay zero); v is the decoded value.
static double sample_error(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                           const track_data *td, uint32_t u, const float v[4]) {
	const uint32_t nj = w->joint_count;
	uint32_t s = seg->first_sample + u;
	double e;
	if (t->type == SINEWI_TRACK_SCALAR) {
		const sinew_scalar_track *src = &w->clip->scalar_tracks[t->index];
		double precision = src->precision > 0.0f ? src->precision : 1e-4;
		const float *ref = &w->scalars[t->index][(size_t)s * t->components];
		e = 0.0;
		for (uint32_t c = 0; c < t->components; ++c) {
			// non-negative curves (morph weights): a zero must decode as exactly zero
			if (ref[c] == 0.0f && v[c] != 0.0f && t->clip_min[c] == 0.0f) return INFINITY;
			double d = fabs((double)ref[c] - v[c]) / precision;
			if (d > e) e = d;
		}
		return e;
	}
	const sinew_qvv *x = &w->poses[(size_t)s * nj + t->index];
	const uint32_t j = t->index;
	if (t->type == SINEWI_TRACK_ROTATION) {
		e = sinewi_rotation_chord_n(td->source + 4 * (size_t)u, v) * w->lever[j] * w->max_scale[j]; // x, normalized
	} else if (t->type == SINEWI_TRACK_TRANSLATION) {
		double dx = (double)x->translation[0] - v[0], dy = (double)x->translation[1] - v[1], dz = (double)x->translation[2] - v[2];
		e = sqrt(dx * dx + dy * dy + dz * dz);
	} else {
		e = 0.0;
		for (int c = 0; c < 3; ++c) {
			double d = fabs((double)x->scale[c] - v[c]);
			if (d > e) e = d;
		}
		e *= w->lever[j];
	}
	return e * w->parent_gain[j];
}

// The decoded value at sample u for measuring its error: on a knot, the knot alone (what interpolating
// with weight 0 gives, but for the sign of a zero, which no error sees); elsewhere decode_sample.
static void decode_error_sample(const sinewi_enc_track *t, const sinewi_enc_seg_track *st, uint32_t length, uint32_t u,
                                const float *fit, const track_data *td, float out[4]) {
	uint32_t k0;
	float alpha;
	sinewi_knot_locate((float)u, length, st->decimation, &k0, &alpha);
	if (alpha != 0.0f || !td->knot_only || sinewi_raw_rotation(t, st)) {
		decode_sample(t, st, length, (float)u, fit, td, out);
		return;
	}
	float a[4];
	for (uint32_t c = 0; c < t->components; ++c)
		a[c] = sinewi_dequantize(st->knots[k0 * t->components + c], st->width[c], td->lo[c], td->ext[c]);
	if (t->type == SINEWI_TRACK_ROTATION) {
		sinewi_quat_from_three(a, st->dropped, out);
		sinewi_quat_normalize(out);
	} else {
		memcpy(out, a, t->components * sizeof(float));
	}
}

// Does the track stay within `budget` at every sample of the segment? Starts at *start (where the
// last test of this track failed: the worst sample moves little between widths) and stops at the
// first sample over, which it leaves in *start. The answer does not depend on the order.
//
// A rotation or translation sample whose error is surely within budget passes without the square
// roots of sample_error (rotations: sinewi_chord_surely_within; a translation compares its squared
// distance with (budget / parent_gain)^2, less 1e-9). Anything closer is measured exactly: the answer
// is the same.
static bool track_fits(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                       const sinewi_enc_seg_track *st, const track_data *td, double budget, uint32_t *start, double *miss) {
	const uint32_t n = seg->length + 1, first = *start < n ? *start : 0;
	const uint32_t j = t->index;
	double sure2 = -1.0; // rotations: sinewi_chord_sure2; translations: squared distance surely within budget
	if (t->type == SINEWI_TRACK_ROTATION) {
		sure2 = sinewi_chord_sure2(budget, w->lever[j] * w->max_scale[j] * w->parent_gain[j]);
	} else if (t->type == SINEWI_TRACK_TRANSLATION) {
		const double gain = w->parent_gain[j];
		if (gain > 0.0 && gain < INFINITY && budget > 0.0 && budget < INFINITY) {
			const double k = budget / gain * (1.0 - 1e-9);
			if (k > 0.0) sure2 = k * k;
		}
	}
	const sinew_qvv *pose = &w->poses[(size_t)seg->first_sample * w->joint_count + j];
	// every sample a knot (decimation 0, quantized, finite ranges): decode_error_sample's knot path with
	// the steps computed once (knot u is sample u)
	bool knots_only = st->decimation == 0 && td->knot_only;
	float step[4] = {0.0f, 0.0f, 0.0f, 0.0f};
	for (uint32_t c = 0; c < t->components; ++c) {
		knots_only = knots_only && st->width[c] <= SINEWI_MAX_WIDTH;
		step[c] = sinewi_quant_step(st->width[c], td->ext[c]);
	}
	for (uint32_t k = 0; k < n; ++k) {
		uint32_t u = first + k < n ? first + k : first + k - n;
		float v[4];
		if (knots_only) {
			const uint32_t *q = st->knots + (size_t)u * t->components;
			float a[4];
			for (uint32_t c = 0; c < t->components; ++c) a[c] = td->lo[c] + (float)(int32_t)q[c] * step[c]; // sinewi_dequantize
			if (t->type == SINEWI_TRACK_ROTATION) {
				sinewi_quat_from_three(a, st->dropped, v);
				sinewi_quat_normalize(v);
			} else {
				memcpy(v, a, t->components * sizeof(float));
			}
		} else {
			decode_error_sample(t, st, seg->length, u, w->fit, td, v);
		}
		if (sure2 > 0.0) {
			if (t->type == SINEWI_TRACK_ROTATION) {
				if (sinewi_chord_surely_within(td->source + 4 * (size_t)u, v, sure2)) continue;
			} else {
				const float *x = pose[(size_t)u * w->joint_count].translation;
				const double dx = (double)x[0] - v[0], dy = (double)x[1] - v[1], dz = (double)x[2] - v[2];
				if (dx * dx + dy * dy + dz * dz <= sure2) continue;
			}
		}
		const double e = sample_error(w, t, seg, td, u, v);
		if (!(e <= budget)) {
			*start = u, *miss = e;
			return false;
		}
	}
	return true;
}

// What the clip's searches learnt of one sub-track's fit (track_fits) in one segment, for its later
// searches with other budgets (the clip's other constant encoding, the plain run, another attempt): at
// decimation d and level k it fits every budget from `fits` up (no sample's error is larger) and misses
// every budget below `misses` (a sample's error). The knots, and so each sample's error, depend only on
// the key (the segment, the stored dropped component and the slots' ranges) besides d and k; floats
// rounded outwards. Kept for short clips searched on one thread (prep->fits).
#define FIT_ENTRIES 24 // (enough for every probe of decimations 0 to 3)
typedef struct fit_entry {
	uint8_t d, level;
	float fits, misses;
} fit_entry;

struct sinewi_fit_memo {
	uint32_t first_sample, length;
	uint8_t dropped, count;
	float lo[4], ext[4];
	fit_entry e[FIT_ENTRIES];
};

// Track t's memo, keyed to the segment and ranges it is searched with now (NULL: none kept).
static struct sinewi_fit_memo *fit_memo(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                                        const sinewi_enc_seg_track *st, const track_data *td) {
	if (!w->fits || w->jobs || t->type == SINEWI_TRACK_SCALAR) return NULL;
	struct sinewi_fit_memo **slot = &w->fits[(size_t)t->index * 3 + t->type];
	struct sinewi_fit_memo *m = *slot;
	if (!m && !(m = *slot = (struct sinewi_fit_memo *)sinewi_arena_alloc(w->arena, sizeof *m))) return NULL;
	const size_t slots = t->components * sizeof(float); // (the slots past them are unset)
	if (m->count == 0 || m->first_sample != seg->first_sample || m->length != seg->length || m->dropped != st->chosen_dropped ||
	    memcmp(m->lo, td->lo, slots) != 0 || memcmp(m->ext, td->ext, slots) != 0) {
		m->first_sample = seg->first_sample, m->length = seg->length, m->dropped = st->chosen_dropped, m->count = 0;
		memcpy(m->lo, td->lo, slots);
		memcpy(m->ext, td->ext, slots);
	}
	return m;
}

// track_fits at level k (st at decimation d): from the memo where it knows, else st's knots are
// quantized at that level and tested (the widths are set either way).
static bool fits_learnt(const sinewi_work *w, const sinewi_enc_track *t, const sinewi_enc_segment *seg, sinewi_enc_seg_track *st,
                        track_data *td, double budget, uint32_t *start, struct sinewi_fit_memo *m, uint32_t d, uint32_t k) {
	sinewi_widths_for_level(t, td, k, st->width);
	fit_entry *e = NULL;
	for (uint32_t i = 0; m && i < m->count && !e; ++i)
		if (m->e[i].d == d && m->e[i].level == k) e = &m->e[i];
	if (e && (budget >= e->fits || budget < e->misses)) {
		w->enc->fits_learnt++;
		return budget >= e->fits;
	}
	double miss = 0.0;
	sinewi_quantize_knots(w, t, seg, st, td);
	const bool fits = track_fits(w, t, seg, st, td, budget, start, &miss);
	if (!e && m && m->count < FIT_ENTRIES) e = &m->e[m->count++], *e = (fit_entry){(uint8_t)d, (uint8_t)k, INFINITY, -INFINITY};
	if (!e) return fits;
	if (fits) {
		float f = (float)budget;
		if ((double)f < budget) f = sinewi_next_up(f);
		if (f < e->fits) e->fits = f;
	} else {
		float f = miss == miss ? (float)miss : INFINITY; // (a NaN error misses every budget)
		if ((double)f > miss) f = -sinewi_next_up(-f);
		if (f > e->misses) e->misses = f;
	}
	return fits;
}

// Largest error of a track over the segment (sample_error); with `decoded`, the decoded values of
// every position go there.
static double track_error(const sinewi_work *w, const seg_scratch *sc, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                          const sinewi_enc_seg_track *st, const track_data *td, float *decoded) {
	double worst = 0.0;
	for (uint32_t u = 0; u <= seg->length; ++u) {
		float v[4] = {0.0f, 0.0f, 0.0f, 0.0f}; // (a 3-component track leaves the fourth: search_joint compares all four)
		decode_sample(t, st, seg->length, (float)u, w->fit, td, v);
		if (decoded) memcpy(decoded + 4 * u, v, sizeof v);
		double e = sample_error(w, t, seg, td, u, v);
		if (!(e <= worst)) worst = e;
	}
// Check positions between samples (source key times and midpoints) are decoded for the
	// object-space verification only; the per-track model looks at samples.
	if (decoded && t->type != SINEWI_TRACK_SCALAR)
		for (uint32_t c = 0; c < sc->check_n; ++c)
			decode_sample(t, st, seg->length, sinewi_rounded_u(w, t->index, check_u(w, sc, t->index, c), seg->length), w->fit, td,
			              decoded + 4 * (seg->length + 1 + c));
	return worst;
}

// Bits of a candidate whose knots are quantized: with midpoint residuals where they save bits
// (sinewi_choose_midpoint decides for the whole clip later), so the search weighs decimation against
// dense knots that predict well; *plain gets the bits without residuals.
static uint32_t candidate_cost(const sinewi_work *w, const sinewi_enc_track *t, sinewi_enc_seg_track *st, uint32_t length,
                               uint32_t *plain) {
	uint32_t bits = 0;
	if (sinewi_raw_rotation(t, st)) bits = 128;
	else
		for (uint32_t c = 0; c < t->components; ++c) bits += sinewi_width_bits(st->width[c]);
	st->knot_count = sinewi_knot_count(length, st->decimation);
	*plain = st->knot_count * bits;
	return *plain - (w->settings->midpoint ? (uint32_t)sinewi_track_shifts(t, st) : 0u);
}

// Sets track t's knots in the segment to level best_k at decimation best_d; returns the error reached.
static SINEWI_ALWAYS_INLINE double take_choice(const sinewi_work *w, seg_scratch *sc, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                          sinewi_enc_seg_track *st, track_data *td, uint8_t dropped, uint32_t best_k, uint32_t best_d,
                          float *decoded, uint8_t *level) {
	st->decimation = (uint8_t)best_d;
	// raw rotations keep all four components and drop none (docs/format.md)
	st->dropped = best_k == SINEWI_LEVEL_RAW && t->type == SINEWI_TRACK_ROTATION ? 0 : dropped;
	sinewi_widths_for_level(t, td, best_k, st->width);
	sinewi_quantize_knots(w, t, seg, st, td);
	if (level) *level = (uint8_t)best_k;
	return track_error(w, sc, t, seg, st, td, decoded);
}

// Chooses decimation and widths for one track in one segment; returns the error reached.
static double search_track(const sinewi_work *w, seg_scratch *sc, uint32_t ti, const sinewi_enc_segment *seg,
                           sinewi_enc_seg_track *st, double budget, bool force_max, float *decoded, uint8_t *level) {
	const sinewi_enc_track *t = &w->enc->tracks[ti];
	track_data *td = &sc->td[ti - sc->t0];
	int max_d = w->settings->max_decimation;
	uint32_t best_cost = UINT32_MAX, best_k = SINEWI_LEVEL_RAW, best_d = 0;
	uint32_t plain_cost = UINT32_MAX, plain_k = SINEWI_LEVEL_RAW, plain_d = 0; // the choice without midpoint residuals
	const uint8_t dropped = st->chosen_dropped;
	st->dropped = dropped;
	uint32_t start = 0; // where the last test failed
	struct sinewi_fit_memo *memo = force_max ? NULL : fit_memo(w, t, seg, st, td);
	if (!force_max) {
		for (int d = 0; d <= max_d; ++d) {
			if (d > 0 && (1u << d) > seg->length) break;
			st->decimation = (uint8_t)d;
			if (!fits_learnt(w, t, seg, st, td, budget, &start, memo, (uint32_t)d, SINEWI_MAX_WIDTH)) break; // coarser knots only get worse
			uint32_t lo = 0, hi = SINEWI_MAX_WIDTH;
			while (lo < hi) {
				uint32_t mid = (lo + hi) / 2;
				if (fits_learnt(w, t, seg, st, td, budget, &start, memo, (uint32_t)d, mid))
					hi = mid;
				else
					lo = mid + 1;
			}
			sinewi_widths_for_level(t, td, lo, st->width);
			if (w->settings->midpoint) sinewi_quantize_knots(w, t, seg, st, td); // the residuals of exactly these knots
			uint32_t plain;
			uint32_t cost = candidate_cost(w, t, st, seg->length, &plain);
			if (cost < best_cost) best_cost = cost, best_k = lo, best_d = (uint32_t)d;
			if (plain < plain_cost) plain_cost = plain, plain_k = lo, plain_d = (uint32_t)d;
		}
	}
	// a search without midpoint knots differs from this one only in these choices (compress.c reuses
	// this one for it when none differed, and its first choices where some did)
	if (best_k != plain_k || best_d != plain_d) sc->plain_differs = true;
	st->plain_choice = (uint8_t)(plain_k | plain_d << 5);
	return take_choice(w, sc, t, seg, st, td, dropped, best_k, best_d, decoded, level);
}

// The search of a track whose first choice is known (sinewi_work.replay): level k, decimation d.
static double replay_track(const sinewi_work *w, seg_scratch *sc, uint32_t ti, const sinewi_enc_segment *seg,
                           sinewi_enc_seg_track *st, uint8_t choice, float *decoded, uint8_t *level) {
	const sinewi_enc_track *t = &w->enc->tracks[ti];
	const uint32_t k = choice & 31u, d = choice >> 5;
	st->plain_choice = choice;
	return take_choice(w, sc, t, seg, st, &sc->td[ti - sc->t0], st->chosen_dropped, k, d, decoded, level);
}


static bool scratch_alloc(const sinewi_work *w, uint32_t length, sinewi_arena *a, seg_scratch *sc) {
	const uint32_t nj = sc->nj ? sc->nj : 1, nt = sc->nt ? sc->nt : 1;
	const size_t np = (size_t)length + 1 + sc->check_n;
	sc->positions = (uint32_t)np;
	sc->explicit_start = length + 1 + sc->mid_n;
	sc->decoded = (float **)sinewi_arena_array_uninit(a, nt, sizeof(float *));
	sc->raw = (sinewi_shell_frame_d *)sinewi_arena_array_uninit(a, np * nj, sizeof(sinewi_shell_frame_d));
	sc->pose = (sinew_qvv *)sinewi_arena_array_uninit(a, nj, sizeof(sinew_qvv));
	sc->rho = (double *)sinewi_arena_array_uninit(a, nj, sizeof(double));
	sc->err = (double *)sinewi_arena_array_uninit(a, nj, sizeof(double));
	sc->dirty = (uint8_t *)sinewi_arena_array_uninit(a, nj, 1);
	sc->forced = (uint8_t *)sinewi_arena_array_uninit(a, nj, 1);
	sc->level = (uint8_t *)sinewi_arena_array_uninit(a, nt, 1);
	sc->obj = (sinewi_affine_d *)sinewi_arena_array_uninit(a, np * nj, sizeof(sinewi_affine_d));
	sc->trial = (sinewi_affine_d *)sinewi_arena_array_uninit(a, np * nj, sizeof(sinewi_affine_d));
	sc->mark = (uint8_t *)sinewi_arena_array_uninit(a, nj, 1);
	sc->subtree_end = (uint32_t *)sinewi_arena_array_uninit(a, nj, sizeof(uint32_t));
	sc->descendants = (uint32_t *)sinewi_arena_array(a, nj, sizeof(uint32_t));
	sc->room_limit = (double *)sinewi_arena_array_uninit(a, nj, sizeof(double));
	sc->trial_decoded = (float *)sinewi_arena_array_uninit(a, np * 4, sizeof(float));
	sc->saved_knots = (uint32_t *)sinewi_arena_array_uninit(a, (size_t)(length + 1) * 4, sizeof(uint32_t));
	sc->local = (sinewi_affine_d *)sinewi_arena_array_uninit(a, np * nj, sizeof(sinewi_affine_d));
	sc->trial_local = (sinewi_affine_d *)sinewi_arena_array_uninit(a, np, sizeof(sinewi_affine_d));
	sc->fail_position = (uint32_t *)sinewi_arena_array_uninit(a, nt, sizeof(uint32_t));
	sc->rejected_at = (uint32_t *)sinewi_arena_array_uninit(a, nt, sizeof(uint32_t));
	sc->changed_at = (uint32_t *)sinewi_arena_array_uninit(a, nj, sizeof(uint32_t));
	sc->td = (track_data *)sinewi_arena_array_uninit(a, nt, sizeof(track_data));
	sc->error_bound = (double *)sinewi_arena_array_uninit(a, np * nj, sizeof(double));
	sc->stale = (uint8_t *)sinewi_arena_array_uninit(a, np * nj, 1);
	sc->scale_max = (double *)sinewi_arena_array_uninit(a, np * nj, sizeof(double));
	sc->reach = (double *)sinewi_arena_array_uninit(a, np * nj, sizeof(double));
	sc->gain = (double *)sinewi_arena_array_uninit(a, np * nj, sizeof(double));
	sc->trial_error = (double *)sinewi_arena_array_uninit(a, np * nj, sizeof(double));
	sc->delta = (double *)sinewi_arena_array_uninit(a, np, sizeof(double));
	sc->child_start = (uint32_t *)sinewi_arena_array(a, (size_t)nj + 1, sizeof(uint32_t));
	sc->children = (uint32_t *)sinewi_arena_array_uninit(a, nj, sizeof(uint32_t));
	sc->path = (uint32_t *)sinewi_arena_array_uninit(a, nj, sizeof(uint32_t));
	sc->redo = (uint8_t *)sinewi_arena_array_uninit(a, nj, 1);
	if (!sc->decoded || !sc->raw || !sc->pose || !sc->rho || !sc->err || !sc->dirty || !sc->forced || !sc->level ||
	    !sc->obj || !sc->trial || !sc->mark || !sc->subtree_end || !sc->trial_decoded || !sc->saved_knots || !sc->local ||
	    !sc->trial_local || !sc->fail_position || !sc->rejected_at || !sc->changed_at || !sc->td || !sc->error_bound ||
	    !sc->stale || !sc->scale_max || !sc->reach || !sc->gain || !sc->trial_error || !sc->delta || !sc->child_start ||
	    !sc->children || !sc->path || !sc->redo || !sc->descendants || !sc->room_limit)
		return false;
	// children of each joint of the group, in index order (CSR, global indices; the group holds every parent)
	const sinew_joint *joints = w->clip->joints;
	const uint32_t j0 = sc->j0, n = sc->nj;
	for (uint32_t i = 0; i < n; ++i)
		if (sinewi_has_parent(joints, j0 + i)) sc->child_start[joints[j0 + i].parent - (int32_t)j0 + 1]++;
	for (uint32_t i = 0; i < n; ++i) sc->child_start[i + 1] += sc->child_start[i];
	for (uint32_t i = 0; i < n; ++i) sc->path[i] = sc->child_start[i]; // fill cursors
	for (uint32_t i = 0; i < n; ++i)
		if (sinewi_has_parent(joints, j0 + i)) sc->children[sc->path[joints[j0 + i].parent - (int32_t)j0]++] = j0 + i;
	// parents come before children, so one backward pass carries each subtree's end (global) up to its root
	for (uint32_t i = 0; i < n; ++i) sc->subtree_end[i] = j0 + i + 1;
	for (uint32_t i = n; i-- > 0;) {
		if (!sinewi_has_parent(joints, j0 + i)) continue;
		uint32_t p = (uint32_t)joints[j0 + i].parent - j0;
		if (sc->subtree_end[i] > sc->subtree_end[p]) sc->subtree_end[p] = sc->subtree_end[i];
		sc->descendants[p] += sc->descendants[i] + 1;
	}
	for (uint32_t i = 0; i < sc->nt; ++i) {
		sc->decoded[i] = (float *)sinewi_arena_array(a, np * 4, sizeof(float)); // (slots past a track's components stay 0)
		sc->td[i].values = (const float *)sinewi_arena_array_uninit(a, (size_t)(length + 1) * 4, sizeof(float));
		sc->td[i].unit = (double *)sinewi_arena_array_uninit(a, (size_t)(length + 1) * 4, sizeof(double));
		if (!sc->td[i].unit) return false;
		sc->td[i].source = (const double *)sinewi_arena_array_uninit(a, (size_t)(length + 1) * 4, sizeof(double));
		if (!sc->decoded[i] || !sc->td[i].values || !sc->td[i].source) return false;
	}
	return true;
}

// The time of position u of the current segment (a sample, a sample midpoint or a clip check point).
static double position_time(const sinewi_work *w, const seg_scratch *sc, const sinewi_enc_segment *seg, uint32_t u) {
	if (u <= seg->length) return sinew_clip_sample_time(w->clip, (double)(seg->first_sample + u));
	if (u < sc->explicit_start) return sinew_clip_sample_time(w->clip, (double)(seg->first_sample + u - seg->length - 1) + 0.5);
	return w->clip->check_times[sc->check_first + u - sc->explicit_start];
}

// Object-space error of every joint of the group at every position of the segment (samples, then check
// points); returns the largest ratio error / threshold.
static double verify_segment(const sinewi_work *w, seg_scratch *sc, bool full) {
	const uint32_t nj = sc->nj, j0 = sc->j0;
	const sinew_joint *joints = w->clip->joints;
	const uint32_t samples = sc->positions - sc->check_n;
	// the joints whose decoded transforms changed (dirty), and their descendants, are composed again (all
	// with `full`): local, obj and error_bound keep the decoded pose's local and object-space transforms
	// and its errors between calls (and for sinewi_refine_segment, which keeps them exact)
	for (uint32_t i = 0; i < nj; ++i) {
		const bool parent_redone = sinewi_has_parent(joints, j0 + i) && sc->redo[joints[j0 + i].parent - (int32_t)j0];
		sc->redo[i] = full || sc->dirty[i] || parent_redone;
	}
	// a joint's local transform is built again only where its own tracks changed (a joint redone for its
	// parent keeps it), and once for a joint without animated tracks (the same at every position)
	const sinewi_enc_clip *enc = w->enc;
	for (uint32_t u = 0; u < sc->positions; ++u) {
		const size_t row = (size_t)u * nj;
		sinewi_affine_d *obj = sc->obj + row;
		const sinewi_shell_frame_d *raw = sc->raw + row;
		for (uint32_t i = 0; i < nj; ++i) {
			if (!sc->redo[i]) continue;
			const uint32_t j = j0 + i;
			sinewi_affine_d *local = &sc->local[row + i];
			if (full || sc->dirty[i]) {
				const bool animated = enc->joint_track[0][j] >= 0 || enc->joint_track[1][j] >= 0 || enc->joint_track[2][j] >= 0;
				if (u > 0 && !animated) {
					*local = sc->local[i];
				} else {
					sinew_qvv x;
					sinewi_decoded_local(w, sc, j, u, -1, NULL, &x);
					sinewi_affine_from_qvv_d(&x, local); // as sinewi_compose_pose_d composes
				}
			}
			if (sinewi_has_parent(joints, j)) sinewi_affine_mul_d(&obj[joints[j].parent - (int32_t)j0], local, &obj[i]);
			else obj[i] = *local;
			sc->error_bound[row + i] = sinewi_shell_error_frame_d(&raw[i], &obj[i], w->shell_off + 3 * (size_t)j);
		}
	}
	// The samples first: when one is over, the positions between them do not count (the search
	// tightens and verifies again).
	double worst_ratio = 0.0;
	for (uint32_t i = 0; i < nj; ++i) sc->err[i] = 0.0;
	sc->worst_joint = sc->worst_position = 0;
	for (uint32_t u = 0; u < sc->positions; ++u) {
		if (u == samples && worst_ratio > 1.0) break;
		const double *e = sc->error_bound + (size_t)u * nj;
		for (uint32_t i = 0; i < nj; ++i) {
			if (e[i] > sc->err[i]) sc->err[i] = e[i];
			double r = e[i] / w->threshold[j0 + i];
			if (!(r <= worst_ratio)) worst_ratio = r, sc->worst_joint = j0 + i, sc->worst_position = u;
		}
	}
	return worst_ratio;
}

// The positions of segment `seg` verified besides its samples, as local positions in sc->check_u:
// the midpoint of every sample interval (clip->check_midpoints), then the clip's check points strictly
// inside the segment (decoder's key arithmetic: docs/format.md §sampling).
static bool segment_checks(const sinewi_work *w, const sinewi_enc_segment *seg, sinewi_arena *arena, seg_scratch *sc) {
	const sinew_clip *clip = w->clip;
	const bool explicit_checks = clip->check_count && clip->check_times && clip->check_transforms;
	sc->check_n = sc->mid_n = 0;
	sc->check_first = 0;
	sc->check_u = sc->check_u_step = NULL;
	if (sc->nj == 0 || (!explicit_checks && !clip->check_midpoints)) return true;
	const uint32_t mids = clip->check_midpoints ? seg->length : 0;
	const double lo = seg->first_sample, hi = (double)seg->first_sample + seg->length;
	const double last = (double)(w->stored - 1);
	uint32_t a = 0, b = explicit_checks ? clip->check_count : 0; // first check with key > lo
	while (a < b) {
		uint32_t m = a + (b - a) / 2;
		if (sinewi_clip_key(clip, clip->check_times[m]) <= lo) a = m + 1;
		else b = m;
	}
	uint32_t end = a; // one past the last check inside the segment
	while (explicit_checks && end < clip->check_count) {
		double key = sinewi_clip_key(clip, clip->check_times[end]);
		if (key >= hi || key > last) break;
		++end;
	}
	const size_t max_n = (size_t)mids + (end - a) + 1;
	sc->check_u = (float *)sinewi_arena_array_uninit(arena, max_n, sizeof(float));
	sc->check_u_step = (float *)sinewi_arena_array_uninit(arena, max_n, sizeof(float));
	if (!sc->check_u || !sc->check_u_step) return false;
	for (uint32_t k = 0; k < mids; ++k) sc->check_u[sc->check_n] = sc->check_u_step[sc->check_n] = (float)k + 0.5f, sc->check_n++;
	sc->mid_n = sc->check_n;
	sc->check_first = a;
	for (uint32_t c = a; c < end; ++c) {
		double key = sinewi_clip_key(clip, clip->check_times[c]); // t * rate, or through the time map
		// the context snaps keys this close to a sample onto it (two tolerances: codec_math.h); keep the
		// run contiguous (check_first + index): a snapped key checks its sample again
		sc->check_u[sc->check_n] = (float)(sinewi_snap_key(key, SINEWI_SNAP_INTERPOLATED) - lo);
		sc->check_u_step[sc->check_n++] = (float)(sinewi_snap_key(key, SINEWI_SNAP_ROUNDED) - lo);
	}
	return true;
}

// Source sample of stored sample s (the wrap sample of a looping clip is source sample 0).
static uint32_t source_sample(const sinewi_work *w, uint32_t s) {
	return (s >= w->clip->sample_count || (w->enc->looping && s == w->enc->sample_count)) ? 0 : s;
}

// Searches joint j's tracks with its current share of the threshold; true when a decoded value changed
// (always without `compare`: the first search).
static bool search_joint(const sinewi_work *w, uint32_t j, const sinewi_enc_segment *seg, seg_scratch *sc, bool compare) {
	const sinewi_enc_clip *enc = w->enc;
	const uint32_t i = j - sc->j0;
	uint32_t animated = 0;
	for (int sub = 0; sub < 3; ++sub) animated += enc->joint_track[sub][j] >= 0;
	if (!animated) return false;
	double budget = w->threshold[j] * sc->rho[i] - w->const_error[j];
	if (budget < w->threshold[j] * sc->rho[i] * 0.1) budget = w->threshold[j] * sc->rho[i] * 0.1;
	budget /= animated;
	const size_t bytes = (size_t)sc->positions * 4 * sizeof(float);
	bool changed = false;
	for (int sub = 0; sub < 3; ++sub) {
		int32_t ti = enc->joint_track[sub][j];
		if (ti < 0) continue;
		const uint32_t k = (uint32_t)ti - sc->t0;
		if (compare) memcpy(sc->trial_decoded, sc->decoded[k], bytes);
		if (w->replay && !compare)
			replay_track(w, sc, (uint32_t)ti, seg, &seg->tracks[ti], w->replay->segments[0].tracks[ti].plain_choice, sc->decoded[k],
			             &sc->level[k]);
		else
			search_track(w, sc, (uint32_t)ti, seg, &seg->tracks[ti], budget, sc->forced[i] != 0, sc->decoded[k], &sc->level[k]);
		changed = changed || !compare || memcmp(sc->trial_decoded, sc->decoded[k], bytes) != 0;
	}
	return changed;
}

void sinewi_decode_position(const sinewi_work *w, const seg_scratch *sc, const sinewi_enc_track *t, const sinewi_enc_segment *seg,
                            const sinewi_enc_seg_track *st, const track_data *td, uint32_t u, float out[4]) {
	if (u <= seg->length) decode_sample(t, st, seg->length, (float)u, w->fit, td, out);
	else
		decode_sample(t, st, seg->length, sinewi_rounded_u(w, t->index, check_u(w, sc, t->index, u - seg->length - 1), seg->length),
		              w->fit, td, out);
}

// The search of one group in one segment once its scratch is ready.
static void search_group(const sinewi_work *w, const sinewi_enc_segment *seg, seg_scratch *sc, sinewi_segment_result *res) {
	const sinewi_enc_clip *enc = w->enc;
	const uint32_t nj = sc->nj, j0 = sc->j0;
	const sinew_joint *joints = w->clip->joints;
	for (uint32_t k = 0; k < sc->nt; ++k) segment_data(w, &enc->tracks[sc->t0 + k], seg, &seg->tracks[sc->t0 + k], &sc->td[k]);
	// scalar tracks: independent, no hierarchy
	for (uint32_t k = 0; k < sc->nt; ++k) {
		const uint32_t ti = sc->t0 + k;
		if (enc->tracks[ti].type != SINEWI_TRACK_SCALAR) continue;
		double e = search_track(w, sc, ti, seg, &seg->tracks[ti], 1.0, false, NULL, NULL);
		if (!(e <= 1.0)) e = search_track(w, sc, ti, seg, &seg->tracks[ti], 1.0, true, NULL, NULL);
		if (e > res->max_scalar_error) res->max_scalar_error = e;
		if (!(e <= 1.0)) {
			res->status = SINEWI_SEGMENT_OVER;
			return;
		}
	}
	if (nj == 0) return; // scalar tracks only
	// The reference is the source clip itself (not the normalized working copy), so the bound
	// holds for exactly what sinew_measure_error compares; the wrap sample is source sample 0.
	// Sample midpoints compare with the source samples interpolated (DESIGN §4 sampling semantics),
	// check points with the source's own evaluation at their times.
	const uint32_t all = w->joint_count;
	// the same positions as a search of an earlier encoding (a lone segment, one group of joints): its frames
	sinewi_raw_cache *cache = w->raw_cache;
	const bool cacheable = cache && !w->jobs && w->enc->segment_count == 1 && w->group_count == 2;
	const bool hit = cacheable && cache->frames && cache->first_sample == seg->first_sample && cache->length == seg->length &&
	                 cache->j0 == j0 && cache->nj == nj && cache->positions == sc->positions;
	sinewi_shell_frame_d *kept = NULL; // frames this search measures for the next ones
	sc->extent = hit ? cache->extent : -1.0;
	if (hit) sc->raw = cache->frames;
	else if (cacheable && (kept = (sinewi_shell_frame_d *)sinewi_arena_array_uninit(w->arena, (size_t)sc->positions * nj, sizeof *kept)))
		sc->raw = kept;
	for (uint32_t u = 0; !hit && u < sc->positions; ++u) {
		const sinew_qvv *ref;
		if (u <= seg->length) {
			ref = &w->clip->transforms[(size_t)source_sample(w, seg->first_sample + u) * all];
		} else if (u <= seg->length + sc->mid_n) {
			uint32_t k = u - seg->length - 1;
			const sinew_qvv *pa = &w->clip->transforms[(size_t)source_sample(w, seg->first_sample + k) * all];
			const sinew_qvv *pb = &w->clip->transforms[(size_t)source_sample(w, seg->first_sample + k + 1) * all];
			for (uint32_t i = 0; i < nj; ++i) sinewi_qvv_halfway(&pa[j0 + i], &pb[j0 + i], w->rounding_mode[j0 + i], &sc->pose[i]);
			ref = NULL; // the group's pose in sc->pose
		} else {
			ref = &w->clip->check_transforms[(size_t)(sc->check_first + u - seg->length - 1 - sc->mid_n) * all];
		}
		sinewi_affine_d *obj = sc->obj + (size_t)u * nj; // free until verify_segment
		for (uint32_t i = 0; i < nj; ++i) {
			const uint32_t j = j0 + i;
			sinewi_affine_d local;
			sinewi_affine_from_qvv_d(ref ? &ref[j] : &sc->pose[i], &local); // as sinewi_compose_pose_d composes
			if (sinewi_has_parent(joints, j)) sinewi_affine_mul_d(&obj[joints[j].parent - (int32_t)j0], &local, &obj[i]);
			else obj[i] = local;
			sinewi_shell_frame_from_d(&obj[i], w->shell_off + 3 * (size_t)j, &sc->raw[(size_t)u * nj + i]);
		}
	}
	if (kept) *cache = (sinewi_raw_cache){seg->first_sample, seg->length, j0, nj, sc->positions, kept, -1.0};
	for (uint32_t i = 0; i < nj; ++i) {
		sc->rho[i] = w->rho[j0 + i];
		sc->dirty[i] = 1;
		sc->forced[i] = 0;
	}
	const int max_iter = w->settings->level >= SINEW_LEVEL_HIGH ? 40 : (w->settings->level == SINEW_LEVEL_FAST ? 8 : 20);
	for (int iter = 0; iter <= max_iter + 1; ++iter) {
		// dirty now means: decoded differently than at the last verification
		for (uint32_t i = 0; i < nj; ++i)
			if (sc->dirty[i]) sc->dirty[i] = search_joint(w, j0 + i, seg, sc, iter > 0);
		double ratio = verify_segment(w, sc, iter == 0);
		memset(sc->dirty, 0, nj);
		if (ratio <= 1.0) {
			int passes = w->settings->level == SINEW_LEVEL_FAST || w->skip_refine ? 0 : (w->settings->level >= SINEW_LEVEL_HIGH ? 24 : 8);
			if (passes) {
				sinewi_refine_guide guide;
				sinewi_refine_guide_start(w, seg, sc, passes, &guide);
				sinewi_refine_segment(w, seg, sc, passes, guide.record || guide.follow ? &guide : NULL);
				verify_segment(w, sc, false);
			}
			for (uint32_t i = 0; i < nj; ++i)
				if (sc->err[i] > res->max_error) res->max_error = sc->err[i];
			return;
		}
		if (iter > max_iter) { // even full precision is over (resampling took more than the bound at check points)
			for (uint32_t i = 0; i < nj; ++i)
				if (sc->err[i] > res->max_error) res->max_error = sc->err[i];
			res->status = SINEWI_SEGMENT_OVER;
			res->over_joint = sc->worst_joint;
			res->over_error = sc->err[sc->worst_joint - j0];
			res->over_time = position_time(w, sc, seg, sc->worst_position);
			return;
		}
		// Tighten every joint on the chain of each joint over its threshold; after max_iter
		// rounds, chains still over go to full precision.
		for (uint32_t v = 0; v < nj; ++v) {
			if (sc->err[v] <= w->threshold[j0 + v]) continue;
			double f = w->threshold[j0 + v] / sc->err[v] * 0.9;
			f = f < 0.3 ? 0.3 : (f > 0.95 ? 0.95 : f);
			for (int32_t a = (int32_t)(j0 + v); a >= 0; a = joints[a].parent) {
				const uint32_t ia = (uint32_t)a - j0;
				if (iter == max_iter) sc->forced[ia] = 1;
				else if (sc->rho[ia] * f < sc->rho[ia]) sc->rho[ia] *= f;
				sc->dirty[ia] = 1;
			}
		}
	}
}

void sinewi_search_segment(const sinewi_work *w, uint32_t s, const sinewi_group *group, sinewi_arena *scratch,
                           sinewi_segment_result *res) {
	const sinewi_enc_segment *seg = &w->enc->segments[s];
	memset(res, 0, sizeof *res);
	// the caller's scratch (rewound), else an arena of the search's own (the allocator must be thread-safe
	// when searches run in parallel)
	sinewi_arena own, *arena = scratch ? scratch : &own;
	if (arena == &own) sinewi_arena_init(&own, &w->arena->alloc.a);
	else sinewi_arena_rewind(arena);
	seg_scratch sc;
	memset(&sc, 0, sizeof sc);
	sc.j0 = group->first_joint, sc.nj = group->joint_count;
	sc.t0 = group->first_track, sc.nt = group->track_count;
	if (!segment_checks(w, seg, arena, &sc) || !scratch_alloc(w, seg->length, arena, &sc)) res->status = SINEWI_SEGMENT_NO_MEMORY;
	else search_group(w, seg, &sc, res);
	res->plain_differs = sc.plain_differs;
	if (arena == &own) sinewi_arena_free(&own);
}

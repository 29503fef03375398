// sinew — see include/sinew.h for version and licence
// Dequantization and interpolation shared by the compressor (which simulates the decoder to
// measure its error) and the decoder. Both must produce the same floats bit for bit, so every
// formula here is the one docs/format.md states, in the same operation order.
#ifndef SINEW_CORE_CODEC_MATH_H
#define SINEW_CORE_CODEC_MATH_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bits.h"

#define SINEWI_MAX_WIDTH 24          // bits per quantized component (docs/format.md §segment data)
#define SINEWI_MAX_DECIMATION 3      // knots every 2^d samples
#define SINEWI_RANGE_STEPS 255.0f    // segment ranges are 8-bit fractions of the clip range
#define SINEWI_WIDTH_RAW 31u         // width code: the component is a raw float32 (32 bits), no range

// Bits a component of width code `code` occupies.
static inline uint32_t sinewi_width_bits(uint32_t code) {
	return code == SINEWI_WIDTH_RAW ? 32u : code;
}

// The divisions the format defines: (float)q / 255.0f and 1.0f / (float)(2^w - 1). Decoders use
// exact tables so they never divide; builds where 1 KB of table weighs more than a division per
// segment component (the wasm decoder: -DSINEW_DIVIDE) divide instead, which gives the same
// correctly rounded binary32 quotients.
#ifdef SINEW_DIVIDE
static inline float sinewi_fraction_255(uint32_t q) {
	return (float)(q & 255u) / 255.0f;
}
static inline float sinewi_inverse_steps(uint32_t width) {
	return 1.0f / (float)((1u << width) - 1u);
}
#else
extern const float sinewi_range_fraction[256];
extern const float sinewi_width_inverse[25];
static inline float sinewi_fraction_255(uint32_t q) {
	return sinewi_range_fraction[q & 255u];
}
static inline float sinewi_inverse_steps(uint32_t width) {
	return sinewi_width_inverse[width];
}
#endif

// Segment range of one component: lo = cmin + cext * (qmin / 255), ext = cext * (qext / 255).
static inline void sinewi_segment_range(float cmin, float cext, uint32_t qmin, uint32_t qext, float *lo, float *ext) {
	*lo = cmin + cext * sinewi_fraction_255(qmin);
	*ext = cext * sinewi_fraction_255(qext);
}

// Distance between quantization levels: ext / (2^w - 1), computed as ext * (1 / (2^w - 1));
// 0 for width 0 (the value is then lo + 0).
static inline float sinewi_quant_step(uint32_t width, float ext) {
	return width == 0 || width > SINEWI_MAX_WIDTH ? 0.0f : ext * sinewi_inverse_steps(width);
}

// Value of a `width`-bit quantized component in [lo, lo + ext]: lo + q * step (docs/format.md).
static inline float sinewi_dequantize(uint32_t q, uint32_t width, float lo, float ext) {
	if (width == SINEWI_WIDTH_RAW) {
		float f;
		memcpy(&f, &q, 4);
		return f;
	}
	return lo + (float)(int32_t)q * sinewi_quant_step(width, ext); // (signed: a hostile predicted q, docs/format.md)
}

// Quantizes v into `width` bits over [lo, lo + ext] (round to nearest, clamped).
static inline uint32_t sinewi_quantize(float v, uint32_t width, float lo, float ext) {
	if (width == SINEWI_WIDTH_RAW) {
		uint32_t u;
		memcpy(&u, &v, 4);
		return u;
	}
	if (width == 0 || !(ext > 0.0f)) return 0;
	uint32_t max = (1u << width) - 1u;
	double n = ((double)v - (double)lo) / (double)ext * (double)max;
	if (!(n > 0.0)) return 0;
	if (n >= (double)max) return max;
	return (uint32_t)(n + 0.5);
}

// Number of knots of a segment with `length` intervals at decimation d: ceil(length / 2^d) + 1.
static inline uint32_t sinewi_knot_count(uint32_t length, uint32_t d) {
	uint32_t stride = 1u << d;
	return (length + stride - 1u) / stride + 1u;
}

// Midpoint knots (docs/format.md §midpoint knots). Of a track's K knots, the odd ones before the
// last, floor((K - 1) / 2) of them, are *predicted*: stored as residuals from the midpoint of their
// two neighbours when the track's descriptor has a non-zero Shift; the others are *plain*. A plain
// track has residual bits = knot bits, so the bit count below holds for both.
static inline uint32_t sinewi_predicted_knots(uint32_t knots) {
	return (knots - 1u) / 2u;
}
static inline uint64_t sinewi_track_bits(uint32_t knots, uint32_t knot_bits, uint32_t residual_bits) {
	uint32_t p = sinewi_predicted_knots(knots);
	return (uint64_t)(knots - p) * knot_bits + (uint64_t)p * residual_bits;
}
// Plain slot of plain knot i (even, or the last): (i + 1) / 2; predicted knot 2g + 1 has residual slot g
// between plain slots g and g + 1.
static inline uint32_t sinewi_plain_slot(uint32_t knot) {
	return (knot + 1u) >> 1;
}
// A predicted component: the rounded-up midpoint of its neighbours' quantized values plus the residual
// `r` of `rw` bits, biased by 2^(rw - 1), modulo 2^width (docs/format.md §midpoint knots; rw = width - Shift,
// written branch-free, 0 for rw = 0). Predicted slots are 24 bits at most (a raw slot is never predicted), so
// a + b + 1 does not overflow; the sum wraps, then `mask` (the slot's sinewi_width_mask) keeps the slot's
// bits, so a residual of Shift 0 holds any value of the slot.
static inline uint32_t sinewi_midpoint(uint32_t a, uint32_t b) {
	return (a + b + 1u) >> 1;
}
static inline uint32_t sinewi_residual_bias(uint32_t rw) {
	return (uint32_t)((1ull << rw) >> 1); // (rw 0..32: a raw slot's whole knots ask too, and ignore it)
}
static inline uint32_t sinewi_width_mask(uint32_t code) {
	return code == SINEWI_WIDTH_RAW ? 0xFFFFFFFFu : (1u << code) - 1u; // (code 0..24 or raw)
}
static inline uint32_t sinewi_midpoint_value(uint32_t a, uint32_t b, uint32_t r, uint32_t rw, uint32_t mask) {
	return (sinewi_midpoint(a, b) + r - sinewi_residual_bias(rw)) & mask;
}
// Shift of stored slot k in a 40-bit track descriptor (0 in a 24-bit one).
static inline uint32_t sinewi_descriptor_shift(uint64_t descriptor, uint32_t k) {
	return (uint32_t)(descriptor >> (24u + 4u * k)) & 15u;
}

// Sampling semantics step 1 (docs/format.md): a key this close to a sample (relative to the sample's
// index) is that sample. Interpolating tracks snap only what double rounding of t = k / rate leaves
// (1e-12), since every wider snap moves them in time: 1e-6 of 60 s is 60 us, 0.03 cm for a hand at
// 5 m/s. Tracks that round (floor, ceil, nearest) snap within 1e-6, so a float32 key time (a glTF
// STEP key) still selects its own sample.
#define SINEWI_SNAP_INTERPOLATED 1e-12
#define SINEWI_SNAP_ROUNDED 1e-6
static inline double sinewi_snap_key(double key, double tolerance) {
	double nearest = floor(key + 0.5);
	return fabs(key - nearest) <= tolerance * (nearest > 1.0 ? nearest : 1.0) ? nearest : key;
}

// Time map (docs/format.md §time map): between two marks (time t0 at sample s0, t1 at s1, t0 < t1,
// s0 < s1) the samples are evenly spaced. The key of time t in [t0, t1], and the time of key k in
// [s0, s1], in binary64 in this order.
static inline double sinewi_map_key(double t, double t0, double t1, uint32_t s0, uint32_t s1) {
	return (double)s0 + (t - t0) * (double)(s1 - s0) / (t1 - t0);
}
static inline double sinewi_map_time(double key, double t0, double t1, uint32_t s0, uint32_t s1) {
	return t0 + (key - (double)s0) * (t1 - t0) / (double)(s1 - s0);
}

// Knot pair and weight for local sample position u in [0, length] at decimation d.
static inline void sinewi_knot_locate(float u, uint32_t length, uint32_t d, uint32_t *k0, float *alpha) {
	if (length == 0) {
		*k0 = 0;
		*alpha = 0.0f;
		return;
	}
	uint32_t stride = 1u << d;
	if (u >= (float)length) { // on the last knot: that knot exactly (no rounding through a lerp)
		*k0 = sinewi_knot_count(length, d) - 1u;
		*alpha = 0.0f;
		return;
	}
	uint32_t last = sinewi_knot_count(length, d) - 2u; // index of the last interval
	// dividing by a power of two is multiplying by its exact inverse: the same float, without a division
	static const float inverse_stride[4] = {1.0f, 0.5f, 0.25f, 0.125f};
	const float inverse = inverse_stride[d & 3u];
	float fk = u * inverse;
	uint32_t i = (uint32_t)fk;
	if (i > last) i = last;
	float p0 = (float)(i * stride);
	uint32_t p1i = (i + 1u) * stride;
	float a = p1i <= length ? (u - p0) * inverse : (u - p0) / ((float)length - p0); // the last interval may be shorter
	*k0 = i;
	*alpha = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
}

// Rebuilds a unit quaternion from its three stored components and the index of the dropped
// (largest, non-negative) one.
static inline void sinewi_quat_from_three(const float stored[3], uint32_t dropped, float q[4]) {
	float a = stored[0], b = stored[1], c = stored[2];
	float rest = 1.0f - (a * a + b * b + c * c);
	float m = sqrtf(rest > 0.0f ? rest : 0.0f);
	switch (dropped & 3u) {
	case 0: q[0] = m, q[1] = a, q[2] = b, q[3] = c; break;
	case 1: q[0] = a, q[1] = m, q[2] = b, q[3] = c; break;
	case 2: q[0] = a, q[1] = b, q[2] = m, q[3] = c; break;
	default: q[0] = a, q[1] = b, q[2] = c, q[3] = m; break;
	}
}

// Component index of stored slot `slot` (0..2) when component `dropped` is left out.
static inline uint32_t sinewi_stored_component(uint32_t slot, uint32_t dropped) {
	return slot + (slot >= dropped ? 1u : 0u);
}

// Interpolation between two decoded knots, exactly as the decoder does it.
#include "quat.h"

// Slerp_fit (docs/format.md §sampling semantics, step 5): nlerp on a corrected parameter, which follows the
// slerp within 2e-8 rad for turns up to 0.3 rad between knots and 6e-8 rad up to 0.8 rad (plain nlerp: 1.1e-4 and
// 2.1e-3 rad): alpha' = alpha + alpha (alpha - 1/2) (alpha - 1) (A(d) (alpha - 1/2)^2 + B(d)), d = |dot(a, b)|,
// A and B cubics in d (a least-squares fit of the exact alpha' = sin(alpha W) / (sin(alpha W) + sin((1 - alpha) W)),
// cos W = d, over d in [0.7, 1]; monotone in alpha over all of [0, 1]). Clips without the flag pass NULL: plain
// nlerp, bit for bit as before.
extern const float sinewi_slerp_fit[8]; // A's then B's coefficients, constant term first
static inline float sinewi_fit_alpha(float t, float d, const float c[8]) {
	float h = t - 0.5f, g = (t * h) * (t - 1.0f);
	float A = c[0] + d * (c[1] + d * (c[2] + d * c[3]));
	float B = c[4] + d * (c[5] + d * (c[6] + d * c[7]));
	return t + g * (A * (h * h) + B);
}
// The same in double (the importer's model of playback).
static inline double sinewi_fit_alpha_d(double t, double d) {
	const float *c = sinewi_slerp_fit;
	double h = t - 0.5, g = (t * h) * (t - 1.0);
	double A = c[0] + d * (c[1] + d * (c[2] + d * (double)c[3]));
	double B = c[4] + d * (c[5] + d * (c[6] + d * (double)c[7]));
	return t + g * (A * (h * h) + B);
}
// nlerp on the shortest arc at the fitted parameter (c: sinewi_slerp_fit), or at t itself (c NULL: sinewi_quat_nlerp).
static inline void sinewi_quat_nlerp_fit(const float a[4], const float b[4], float t, const float *c, float r[4]) {
	float dot = sinewi_quat_dot(a, b);
	float u = c ? sinewi_fit_alpha(t, dot < 0.0f ? -dot : dot, c) : t;
	float s = dot < 0.0f ? -u : u, w = 1.0f - u;
	r[0] = a[0] * w + b[0] * s;
	r[1] = a[1] * w + b[1] * s;
	r[2] = a[2] * w + b[2] * s;
	r[3] = a[3] * w + b[3] * s;
	sinewi_quat_normalize(r);
}

static inline void sinewi_interp_rotation(const float k0[3], const float k1[3], uint32_t dropped, float alpha, const float *fit,
                                          float out[4]) {
	float a[4], b[4];
	sinewi_quat_from_three(k0, dropped, a);
	sinewi_quat_from_three(k1, dropped, b);
	sinewi_quat_nlerp_fit(a, b, alpha, fit, out);
}

static inline void sinewi_interp_values(const float *k0, const float *k1, uint32_t n, float alpha, float *out) {
	for (uint32_t c = 0; c < n; ++c) out[c] = k0[c] + (k1[c] - k0[c]) * alpha;
}

// Curves (docs/format.md §curves), shared by the decoder and the encoder that simulates it. Where time t (clamped to the
// clip) falls in a key time set of n f32 times at `times` (little-endian bytes): the key i whose value is held (returns
// *s = -1: before the first key, at or after the last, STEP), or the interval from key i to key i + 1 with *s its
// parameter and *td its length (binary64 arithmetic, rounded to binary32). STEP reaches a key up to 1e-6 s (relative,
// beyond 1 s) before its time: a sample at a float32 key's time, rounded, is that key's.
#define SINEWI_CURVE_STEP_REACH 1e-6
static inline uint32_t sinewi_curve_locate(const unsigned char *times, uint32_t n, uint32_t interpolation, double t, float *s,
                                           float *td) {
	const double u = interpolation == 0 ? t + SINEWI_CURVE_STEP_REACH * (t > 1.0 ? t : 1.0) : t;
	uint32_t lo = 0, hi = n; // the last key at or before u: times[lo] <= u < times[hi] (hi = n: none after)
	*s = -1.0f, *td = 0.0f;
	if (!(u >= (double)sinewi_rdf32(times))) return 0;
	while (hi - lo > 1) {
		const uint32_t mid = lo + (hi - lo) / 2;
		if ((double)sinewi_rdf32(times + 4 * (size_t)mid) <= u) lo = mid;
		else hi = mid;
	}
	if (interpolation == 0 || lo + 1 >= n) return lo;
	const double t0 = sinewi_rdf32(times + 4 * (size_t)lo), t1 = sinewi_rdf32(times + 4 * (size_t)lo + 4);
	*s = (float)((t - t0) / (t1 - t0));
	*td = (float)(t1 - t0);
	return lo;
}

// The curve's value (docs/format.md §curves) from key i's value v0 and out-tangent m0 and key i + 1's value v1 and
// in-tangent m1 (dequantized; m0 = m1 = 0 but for CUBICSPLINE, v1 = m0 = m1 = 0 when held), at parameter s (< 0: held) and
// interval td from sinewi_curve_locate. A LINEAR rotation is the nlerp of step 5 (sinewi_quat_nlerp_fit); the other
// curves ((a0 v0 + b0 m0) + a1 v1) + b1 m1 in binary32, with the weights of a held key (1, 0, 0, 0), of a lerp
// (1 - s, 0, s, 0) or of glTF's Hermite spline, rotations then normalized.
static inline void sinewi_curve_value(uint32_t interpolation, bool rotation, uint32_t n, const float *fit, float s, float td,
                                      const float *v0, const float *m0, const float *v1, const float *m1, float *out) {
	float w[4] = {1.0f, 0.0f, 0.0f, 0.0f}; // for v0, m0, v1, m1
	if (s >= 0.0f && interpolation != 2) {
		if (rotation) {
			sinewi_quat_nlerp_fit(v0, v1, s, fit, out);
			return;
		}
		w[0] = 1.0f - s, w[2] = s;
	} else if (s >= 0.0f) {
		const float s2 = s * s, s3 = s2 * s, a = 2.0f * s3, b = 3.0f * s2;
		w[0] = (a - b) + 1.0f, w[1] = ((s3 - 2.0f * s2) + s) * td, w[2] = b - a, w[3] = (s3 - s2) * td;
	}
	for (uint32_t c = 0; c < n; ++c) out[c] = ((w[0] * v0[c] + w[1] * m0[c]) + w[2] * v1[c]) + w[3] * m1[c];
	if (rotation) sinewi_quat_normalize(out);
}

#endif

// sinew — see include/sinew.h for version and licence
// Quaternion / vector / QVV operations. Float versions are what the codec runs; the double
// versions (suffix _d) are used by the error metric and as references in tests.
// Quaternions are (x, y, z, w); rotation of v by q is q * v * conj(q).
#ifndef SINEW_CORE_QUAT_H
#define SINEW_CORE_QUAT_H

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sinew.h"

static inline float sinewi_quat_dot(const float a[4], const float b[4]) {
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

static inline float sinewi_quat_length(const float q[4]) {
	return sqrtf(sinewi_quat_dot(q, q));
}

static inline void sinewi_quat_normalize(float q[4]) {
	float len2 = sinewi_quat_dot(q, q);
	if (len2 > 0.0f) {
		float inv = 1.0f / sqrtf(len2);
		q[0] *= inv, q[1] *= inv, q[2] *= inv, q[3] *= inv;
	} else {
		q[0] = q[1] = q[2] = 0.0f, q[3] = 1.0f;
	}
}

// r = a * b (apply b first, then a)
static inline void sinewi_quat_mul(const float a[4], const float b[4], float r[4]) {
	float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
	r[0] = x, r[1] = y, r[2] = z, r[3] = w;
}

static inline void sinewi_quat_rotate(const float q[4], const float v[3], float r[3]) {
	// v' = v + 2w (u x v) + 2 u x (u x v), u = q.xyz
	float tx = 2.0f * (q[1] * v[2] - q[2] * v[1]);
	float ty = 2.0f * (q[2] * v[0] - q[0] * v[2]);
	float tz = 2.0f * (q[0] * v[1] - q[1] * v[0]);
	r[0] = v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
	r[1] = v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
	r[2] = v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
}

// Normalized lerp on the shortest arc (DESIGN §4).
static inline void sinewi_quat_nlerp(const float a[4], const float b[4], float t, float r[4]) {
	float s = sinewi_quat_dot(a, b) < 0.0f ? -t : t;
	float u = 1.0f - t;
	r[0] = a[0] * u + b[0] * s;
	r[1] = a[1] * u + b[1] * s;
	r[2] = a[2] * u + b[2] * s;
	r[3] = a[3] * u + b[3] * s;
	sinewi_quat_normalize(r);
}

static inline void sinewi_vec3_lerp(const float a[3], const float b[3], float t, float r[3]) {
	r[0] = a[0] + (b[0] - a[0]) * t;
	r[1] = a[1] + (b[1] - a[1]) * t;
	r[2] = a[2] + (b[2] - a[2]) * t;
}

static inline void sinewi_qvv_identity(sinew_qvv *t) {
	t->rotation[0] = t->rotation[1] = t->rotation[2] = 0.0f;
	t->rotation[3] = 1.0f;
	t->translation[0] = t->translation[1] = t->translation[2] = 0.0f;
	t->scale[0] = t->scale[1] = t->scale[2] = 1.0f;
}

static inline void sinewi_qvv_lerp(const sinew_qvv *a, const sinew_qvv *b, float t, sinew_qvv *r) {
	sinewi_quat_nlerp(a->rotation, b->rotation, t, r->rotation);
	sinewi_vec3_lerp(a->translation, b->translation, t, r->translation);
	sinewi_vec3_lerp(a->scale, b->scale, t, r->scale);
}

/* ---- double precision ---- */

static inline double sinewi_quat_dot_d(const double a[4], const double b[4]) {
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

static inline void sinewi_quat_normalize_d(double q[4]) {
	double len2 = sinewi_quat_dot_d(q, q);
	if (len2 > 0.0) {
		double inv = 1.0 / sqrt(len2);
		q[0] *= inv, q[1] *= inv, q[2] *= inv, q[3] *= inv;
	} else {
		q[0] = q[1] = q[2] = 0.0, q[3] = 1.0;
	}
}

static inline void sinewi_quat_mul_d(const double a[4], const double b[4], double r[4]) {
	double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
	double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
	double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
	double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
	r[0] = x, r[1] = y, r[2] = z, r[3] = w;
}

static inline void sinewi_quat_rotate_d(const double q[4], const double v[3], double r[3]) {
	double tx = 2.0 * (q[1] * v[2] - q[2] * v[1]);
	double ty = 2.0 * (q[2] * v[0] - q[0] * v[2]);
	double tz = 2.0 * (q[0] * v[1] - q[1] * v[0]);
	r[0] = v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
	r[1] = v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
	r[2] = v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
}

// Rotation matrix of a quaternion (normalized first), row-major m[row][col].
static inline void sinewi_quat_to_matrix_d(const double qin[4], double m[3][3]) {
	double q[4] = {qin[0], qin[1], qin[2], qin[3]};
	sinewi_quat_normalize_d(q);
	double x = q[0], y = q[1], z = q[2], w = q[3];
	m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y - z * w), m[0][2] = 2 * (x * z + y * w);
	m[1][0] = 2 * (x * y + z * w), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z - x * w);
	m[2][0] = 2 * (x * z - y * w), m[2][1] = 2 * (y * z + x * w), m[2][2] = 1 - 2 * (x * x + y * y);
}

// Affine 3x4 transform: p' = M p + t, row-major.
typedef struct sinewi_affine_d {
	double m[3][3];
	double t[3];
} sinewi_affine_d;

// Local QVV as an affine transform: M = R * diag(S).
static inline void sinewi_affine_from_qvv_d(const sinew_qvv *x, sinewi_affine_d *a) {
	double q[4] = {x->rotation[0], x->rotation[1], x->rotation[2], x->rotation[3]};
	double r[3][3];
	sinewi_quat_to_matrix_d(q, r);
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) a->m[i][j] = r[i][j] * (double)x->scale[j];
		a->t[i] = x->translation[i];
	}
}

// out = parent * local. SSE2 (every x86-64) takes two columns at a time, with the same products and
// sums in the same order as the scalar loop: the result is the same to the bit (the compressor's
// output must not depend on the machine; the wasm compressor runs the scalar loop). Adding -0.0 to
// the third column is exact for every value, -0 included. out must be neither operand (it is written
// row by row).
static inline void sinewi_affine_mul_d(const sinewi_affine_d *restrict p, const sinewi_affine_d *restrict l,
                                       sinewi_affine_d *restrict out) {
	sinewi_affine_d *r = out; // (written in place: out is neither operand)
#if defined(__SSE2__)
	const __m128d a0 = _mm_loadu_pd(&l->m[0][0]), a1 = _mm_loadu_pd(&l->m[1][0]), a2 = _mm_loadu_pd(&l->m[2][0]);
	const __m128d b0 = _mm_loadh_pd(_mm_load_sd(&l->m[0][2]), &l->t[0]), b1 = _mm_loadh_pd(_mm_load_sd(&l->m[1][2]), &l->t[1]);
	const __m128d b2 = _mm_loadh_pd(_mm_load_sd(&l->m[2][2]), &l->t[2]);
	for (int i = 0; i < 3; ++i) {
		const __m128d p0 = _mm_set1_pd(p->m[i][0]), p1 = _mm_set1_pd(p->m[i][1]), p2 = _mm_set1_pd(p->m[i][2]);
		const __m128d ra = _mm_add_pd(_mm_add_pd(_mm_mul_pd(p0, a0), _mm_mul_pd(p1, a1)), _mm_mul_pd(p2, a2));
		__m128d rb = _mm_add_pd(_mm_add_pd(_mm_mul_pd(p0, b0), _mm_mul_pd(p1, b1)), _mm_mul_pd(p2, b2));
		rb = _mm_add_pd(rb, _mm_set_pd(p->t[i], -0.0));
		_mm_storeu_pd(&r->m[i][0], ra);
		_mm_store_sd(&r->m[i][2], rb);
		_mm_storeh_pd(&r->t[i], rb);
	}
#else
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) r->m[i][j] = p->m[i][0] * l->m[0][j] + p->m[i][1] * l->m[1][j] + p->m[i][2] * l->m[2][j];
		r->t[i] = p->m[i][0] * l->t[0] + p->m[i][1] * l->t[1] + p->m[i][2] * l->t[2] + p->t[i];
	}
#endif
}

#endif

#ifndef SINEW_CORE_QUAT_CHORD
#define SINEW_CORE_QUAT_CHORD
// 2 sin(angle / 2) of the rotation between a and b (a point at distance r moves by r times
// this). Computed from |a - b| in double: 1 - dot^2 loses everything to rounding near dot = 1.
static inline double sinewi_rotation_chord(const float a[4], const float b[4]) {
	double x[4] = {a[0], a[1], a[2], a[3]}, y[4] = {b[0], b[1], b[2], b[3]};
	sinewi_quat_normalize_d(x);
	sinewi_quat_normalize_d(y);
	double s = sinewi_quat_dot_d(x, y) < 0.0 ? -1.0 : 1.0, d2 = 0.0;
	for (int i = 0; i < 4; ++i) {
		double d = x[i] - s * y[i];
		d2 += d * d;
	}
	// |a - b| = 2 sin(angle / 4); 2 sin(angle / 2) = 2 |a - b| sqrt(1 - |a - b|^2 / 4)
	double r = 1.0 - d2 * 0.25;
	return 2.0 * sqrt(d2) * sqrt(r > 0.0 ? r : 0.0);
}

// The same with a already normalized in double (sinewi_quat_normalize_d of a float quaternion): the
// same value, for callers that measure many rotations against one.
static inline double sinewi_rotation_chord_n(const double x[4], const float b[4]) {
	double y[4] = {b[0], b[1], b[2], b[3]};
	sinewi_quat_normalize_d(y);
	double s = sinewi_quat_dot_d(x, y) < 0.0 ? -1.0 : 1.0, d2 = 0.0;
	for (int i = 0; i < 4; ++i) {
		double d = x[i] - s * y[i];
		d2 += d * d;
	}
	double r = 1.0 - d2 * 0.25;
	return 2.0 * sqrt(d2) * sqrt(r > 0.0 ? r : 0.0);
}
#endif

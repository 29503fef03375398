// sinew — see include/sinew.h for version and licence
// Pieces of the error metric (DESIGN §4) for stages that evaluate it incrementally.
#ifndef SINEW_CORE_METRIC_H
#define SINEW_CORE_METRIC_H

#include "base.h"
#include "quat.h"

#include <math.h>

// Object-space affine transforms of one pose; parents come before children.
void sinewi_compose_pose_d(const sinew_joint *joints, uint32_t joint_count, const sinew_qvv *pose, sinewi_affine_d *out);
// Shell offsets (DESIGN §4): joint j's shell points sit at local offsets +-off[3j + k] along its local
// axis k, off = d / sigma_k with sigma_k the length of column k of its rest object-space map (the
// default poses composed), so they lie d scene units from it at rest and move with every animated
// transform, its own scale included. A degenerate rest axis (sigma_k below SINEWI_REST_DEGENERATE of
// the largest length M_k the column reaches over the clip's poses, a zero rest scale among them) takes
// sigma_k = M_k instead; an axis that is zero throughout has offset 0 (its points stay on the origin).
#define SINEWI_REST_DEGENERATE 1e-3
// Fills off[joint_count * 3] from the joints' default poses and shell distances (0 = default_shell).
// `poses` [pose_count * joint_count] and `more` [more_count * joint_count] are the clip's poses, read
// only when a rest axis may be degenerate. Returns false when out of memory.
bool sinewi_shell_offsets(const sinew_joint *joints, uint32_t joint_count, double default_shell, const sinew_qvv *poses,
                          size_t pose_count, const sinew_qvv *more, size_t more_count, const sinewi_alloc *alloc,
                          double *off);

// A node's origin and its three shell vectors in scene space: shell vector k is off_k times column k
// of its object-space linear map, so its shell points are o +- u_k. Stored as the map is, u[i][k]
// = component i of u_k (columns side by side: two axes per SSE2 register).
typedef struct sinewi_shell_frame_d {
	double t[3];
	double u[3][3]; // u[component][axis]
} sinewi_shell_frame_d;

static inline void sinewi_shell_frame_from_d(const sinewi_affine_d *a, const double off[3], sinewi_shell_frame_d *out) {
	for (int i = 0; i < 3; ++i)
		for (int axis = 0; axis < 3; ++axis) out->u[i][axis] = a->m[i][axis] * off[axis];
	for (int i = 0; i < 3; ++i) out->t[i] = a->t[i];
}

// Largest distance between the images of the origin and the six shell points o +- u_k under two
// frames. Per axis max(|dt + du|^2, |dt - du|^2) = |dt|^2 + |du|^2 + 2 |dt . du|, which is never below
// |dt|^2: the origin needs no test of its own. (b's shell vectors are given as its map's columns m and
// the offsets: du_k = a.u_k - m_k off_k.) SSE2 computes axes 0 and 1 side by side with the scalar
// loop's operations in its order: the same result to the bit.
static inline double sinewi_shell_error_parts_d(const sinewi_shell_frame_d *a, const double bt[3], const double bm[3][3],
                                                const double off[3]) {
	double dt[3] = {a->t[0] - bt[0], a->t[1] - bt[1], a->t[2] - bt[2]};
	double t2 = dt[0] * dt[0] + dt[1] * dt[1] + dt[2] * dt[2], worst = 0.0;
	double e2[3];
#if defined(__SSE2__)
	const __m128d o01 = _mm_loadu_pd(off);
	__m128d du[3];
	for (int i = 0; i < 3; ++i) du[i] = _mm_sub_pd(_mm_loadu_pd(&a->u[i][0]), _mm_mul_pd(_mm_loadu_pd(&bm[i][0]), o01));
	const __m128d u2 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(du[0], du[0]), _mm_mul_pd(du[1], du[1])), _mm_mul_pd(du[2], du[2]));
	const __m128d tu = _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_set1_pd(dt[0]), du[0]), _mm_mul_pd(_mm_set1_pd(dt[1]), du[1])),
	                              _mm_mul_pd(_mm_set1_pd(dt[2]), du[2]));
	const __m128d abs_tu = _mm_andnot_pd(_mm_set1_pd(-0.0), tu);
	const __m128d e01 = _mm_add_pd(u2, _mm_mul_pd(_mm_set1_pd(2.0), abs_tu));
	_mm_storeu_pd(e2, e01);
	{
		const double d0 = a->u[0][2] - bm[0][2] * off[2], d1 = a->u[1][2] - bm[1][2] * off[2], d2 = a->u[2][2] - bm[2][2] * off[2];
		e2[2] = d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * fabs(dt[0] * d0 + dt[1] * d1 + dt[2] * d2);
	}
#else
	for (int axis = 0; axis < 3; ++axis) {
		const double d0 = a->u[0][axis] - bm[0][axis] * off[axis], d1 = a->u[1][axis] - bm[1][axis] * off[axis];
		const double d2 = a->u[2][axis] - bm[2][axis] * off[axis];
		e2[axis] = d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * fabs(dt[0] * d0 + dt[1] * d1 + dt[2] * d2);
	}
#endif
	for (int axis = 0; axis < 3; ++axis)
		if (e2[axis] > worst) worst = e2[axis];
	return sqrt(t2 + worst);
}

// The error of one node (sinewi_shell_error_parts_d) with a's frame precomputed.
static inline double sinewi_shell_error_frame_d(const sinewi_shell_frame_d *a, const sinewi_affine_d *b, const double off[3]) {
	return sinewi_shell_error_parts_d(a, b->t, b->m, off);
}

// DESIGN §4 error of one node: the largest distance between the images, under a and b, of its
// origin and its six shell points (local offsets `off`, sinewi_shell_offsets).
double sinewi_shell_error_d(const sinewi_affine_d *a, const sinewi_affine_d *b, const double off[3]);

// The pose halfway between two samples as sampling plays it (DESIGN §4): lerp, nlerp on the shortest arc,
// in double; a joint rounded floor holds a, ceil/nearest take b. `mode` is the joint's sinew_rounding.
static inline void sinewi_qvv_halfway(const sinew_qvv *a, const sinew_qvv *b, uint8_t mode, sinew_qvv *out) {
	if (mode != SINEW_ROUNDING_NONE) {
		*out = mode == SINEW_ROUNDING_FLOOR ? *a : *b;
		return;
	}
	double q[4], dot = 0.0;
	for (int k = 0; k < 4; ++k) dot += (double)a->rotation[k] * b->rotation[k];
	double sb = dot < 0.0 ? -0.5 : 0.5;
	for (int k = 0; k < 4; ++k) q[k] = 0.5 * a->rotation[k] + sb * b->rotation[k];
	sinewi_quat_normalize_d(q);
	for (int k = 0; k < 4; ++k) out->rotation[k] = (float)q[k];
	for (int k = 0; k < 3; ++k) {
		out->translation[k] = (float)(0.5 * ((double)a->translation[k] + b->translation[k]));
		out->scale[k] = (float)(0.5 * ((double)a->scale[k] + b->scale[k]));
	}
}

// A rotation error surely within budget without its square roots (the compressor's track_fits). The
// error is sinewi_rotation_chord_n(x, y) * gain, gain = lever x max_scale x parent gain, and the chord
// is 2 sin(angle) = 2 sqrt(1 - c^2) with c^2 = (x.y)^2 / (y.y) for unit x: 4 ((y.y) - (x.y)^2) <=
// k^2 (y.y) bounds it by k. k is budget / gain less 1e-9 of itself and 1e-14 (the rounding of either
// formula, both ways, is below 1e-14 of a unit chord), and k^2 less 1e-13 more (|x| = 1 and the dot
// products to their last bits). sinewi_chord_sure2 gives k^2 less that (-1: no shortcut).
static inline double sinewi_chord_sure2(double budget, double gain) {
	if (!(gain > 0.0 && gain < INFINITY && budget > 0.0 && budget < INFINITY)) return -1.0;
	const double k = budget / gain * (1.0 - 1e-9) - 1e-14;
	return k > 0.0 ? k * k - 1e-13 : -1.0;
}

static inline bool sinewi_chord_surely_within(const double x[4], const float y[4], double sure2) {
	const double yy = (double)y[0] * y[0] + (double)y[1] * y[1] + (double)y[2] * y[2] + (double)y[3] * y[3];
	const double xy = x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3];
	return sure2 > 0.0 && yy > 0.0 && 4.0 * (yy - xy * xy) <= sure2 * yy;
}

// k-th smallest (0-based) of v[0..n), n > 0; reorders v.
double sinewi_select_kth(double *v, size_t n, size_t k);

#endif

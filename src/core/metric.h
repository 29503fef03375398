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

// A node's origin and its three shell vectors in scene space: u[k] = off_k times column k of its
// object-space linear map, so its shell points are o +- u[k].
typedef struct sinewi_shell_frame_d {
	double t[3];
	double u[3][3]; // u[axis]
} sinewi_shell_frame_d;

static inline void sinewi_shell_frame_from_d(const sinewi_affine_d *a, const double off[3], sinewi_shell_frame_d *out) {
	for (int axis = 0; axis < 3; ++axis)
		for (int i = 0; i < 3; ++i) out->u[axis][i] = a->m[i][axis] * off[axis];
	for (int i = 0; i < 3; ++i) out->t[i] = a->t[i];
}

// Largest distance between the images of the origin and the six shell points o +- u_k under two
// frames. Per axis max(|dt + du|^2, |dt - du|^2) = |dt|^2 + |du|^2 + 2 |dt . du|, which is never below
// |dt|^2: the origin needs no test of its own.
static inline double sinewi_shell_error_frames_d(const sinewi_shell_frame_d *a, const sinewi_shell_frame_d *b) {
	double dt[3] = {a->t[0] - b->t[0], a->t[1] - b->t[1], a->t[2] - b->t[2]};
	double t2 = dt[0] * dt[0] + dt[1] * dt[1] + dt[2] * dt[2], worst = 0.0;
	for (int axis = 0; axis < 3; ++axis) {
		double du[3] = {a->u[axis][0] - b->u[axis][0], a->u[axis][1] - b->u[axis][1], a->u[axis][2] - b->u[axis][2]};
		double u2 = du[0] * du[0] + du[1] * du[1] + du[2] * du[2], tu = dt[0] * du[0] + dt[1] * du[1] + dt[2] * du[2];
		double e2 = u2 + 2.0 * fabs(tu);
		if (e2 > worst) worst = e2;
	}
	return sqrt(t2 + worst);
}

// The error of one node (sinewi_shell_error_frames_d) with a's frame precomputed.
static inline double sinewi_shell_error_frame_d(const sinewi_shell_frame_d *a, const sinewi_affine_d *b, const double off[3]) {
	sinewi_shell_frame_d fb;
	sinewi_shell_frame_from_d(b, off, &fb);
	return sinewi_shell_error_frames_d(a, &fb);
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

// k-th smallest (0-based) of v[0..n), n > 0; reorders v.
double sinewi_select_kth(double *v, size_t n, size_t k);

#endif

// sinew — see include/sinew.h for version and licence
// Pieces of the error metric (DESIGN §4) for stages that evaluate it incrementally.
#ifndef SINEW_CORE_METRIC_H
#define SINEW_CORE_METRIC_H

#include "quat.h"

// Object-space affine transforms of one pose; parents come before children.
void sinewi_compose_pose_d(const sinew_joint *joints, uint32_t joint_count, const sinew_qvv *pose, sinewi_affine_d *out);
// A node's origin and unit axes in scene space (normalized columns of its object-space map).
typedef struct sinewi_shell_frame_d {
	double t[3];
	double u[3][3]; // u[axis]: unit vector, or zero for a degenerate axis
} sinewi_shell_frame_d;
void sinewi_shell_frame_from_d(const sinewi_affine_d *a, sinewi_shell_frame_d *out);
// DESIGN §4 error of one node: the largest distance between the images, under a and b, of its
// origin and the six shell points o +- d u_i (d in scene units, whatever the ancestors' scale).
double sinewi_shell_error_d(const sinewi_affine_d *a, const sinewi_affine_d *b, double d);
// Same with a's frame precomputed (a reference pose checked many times).
double sinewi_shell_error_frame_d(const sinewi_shell_frame_d *a, const sinewi_affine_d *b, double d);
double sinewi_shell_error_frames_d(const sinewi_shell_frame_d *a, const sinewi_shell_frame_d *b, double d);

// k-th smallest (0-based) of v[0..n), n > 0; reorders v.
double sinewi_select_kth(double *v, size_t n, size_t k);

#endif

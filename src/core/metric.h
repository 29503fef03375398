// sinew — see include/sinew.h for version and licence
// Pieces of the error metric (DESIGN §4) for stages that evaluate it incrementally.
#ifndef SINEW_CORE_METRIC_H
#define SINEW_CORE_METRIC_H

#include "quat.h"

// Object-space affine transforms of one pose; parents come before children.
void sinewi_compose_pose_d(const sinew_joint *joints, uint32_t joint_count, const sinew_qvv *pose, sinewi_affine_d *out);
// Largest distance between the images of (d,0,0), (0,d,0), (0,0,d) under a and b.
double sinewi_shell_error_d(const sinewi_affine_d *a, const sinewi_affine_d *b, double d);

#endif

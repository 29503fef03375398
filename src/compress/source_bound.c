// sinew — see include/sinew.h for version and licence
// A clip whose samples are already off its source by more than the threshold (an importer's resampling,
// clip->resample_error at its check points) cannot be compressed within the bound: at full precision the
// compressor plays the samples back, no closer. It is refused before any work, with the node, the time and
// why (DESIGN §4: never silently over the bound), instead of after a full search (the 64-deep spinning
// chain of assimp's anims_with_full_rotations_between_keys.DAE failed after 12 s and 270 MB, with a
// message whose figure was under the threshold it named).
#include "compress_internal.h"

#include "../core/metric.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// float32's own error on the source, under which resampling is float noise (gltf_resample.c FLOAT_NOISE).
#define FLOAT_NOISE 3.0

sinew_result sinewi_check_source_bound(const sinew_clip *clip, const sinewi_compress_settings *settings,
                                       const sinew_allocator *allocator, sinew_error *error) {
	if (settings->allow_over_bound || !(clip->resample_error > 0.0) || clip->joint_count == 0) return SINEW_RESULT_OK;
	const uint32_t j = clip->resample_joint < clip->joint_count ? clip->resample_joint : 0;
	const sinew_joint *joint = &clip->joints[j];
	const double to_cm = 100.0 / clip->unit_scale;
	const double threshold = joint->precision > 0.0f ? joint->precision : sinewi_cm_to_units(settings->error_cm, clip->unit_scale);
	if (!(clip->resample_error > threshold)) return SINEW_RESULT_OK;
	char node[96];
	if (joint->name) snprintf(node, sizeof node, "node '%.80s'", joint->name);
	else snprintf(node, sizeof node, "joint %u", j);
	char head[320];
	snprintf(head, sizeof head, "clip '%.40s': %s is %.3g cm off the source at t = %.6g s before any compression (threshold %.3g cm)",
	         clip->name ? clip->name : "", node, clip->resample_error * to_cm, clip->resample_time, threshold * to_cm);
	if (clip->float_error > 0.0 && clip->resample_error <= FLOAT_NOISE * clip->float_error) {
		// how far out and how deep: what makes float32 too coarse there
		uint32_t chain = 0;
		for (int32_t a = (int32_t)j; a >= 0 && (uint32_t)a < clip->joint_count; a = clip->joints[a].parent) chain += clip->joints[a].has_track != 0;
		double metres = NAN;
		sinewi_alloc al = sinewi_alloc_from(allocator);
		const size_t bytes = (size_t)clip->joint_count * sizeof(sinewi_affine_d);
		sinewi_affine_d *obj = (sinewi_affine_d *)sinewi_malloc(&al, bytes);
		if (obj) {
			sinewi_compose_pose_d(clip->joints, clip->joint_count, clip->transforms, obj);
			metres = sqrt(obj[j].t[0] * obj[j].t[0] + obj[j].t[1] * obj[j].t[1] + obj[j].t[2] * obj[j].t[2]) / clip->unit_scale;
			sinewi_free(&al, obj, bytes);
		}
		// a file whose unit is not the one assumed (a COLLADA <unit> saying metre beside name="centimeter", a CSM
		// in millimetres read as metres: 1703 m out) is too far out for float32: its real unit fixes it. (The
		// CLI adds --allow-over-bound: the message has 255 characters.)
		return sinewi_fail(error, SINEW_RESULT_OVER_BOUND,
		                   "%s: float32 alone is %.3g cm off %.4g m out under %u animated node%s; unit taken as %g cm "
		                   "(--unit-cm 1: cm, 0.1: mm)",
		                   head, clip->float_error * to_cm, metres, chain, chain == 1 ? "" : "s", to_cm);
	}
	return sinewi_fail(error, SINEW_RESULT_OVER_BOUND,
	                   "%s: samples cannot follow its curves closer (key intervals cut up to 4096 times); --allow-over-bound "
	                   "writes it anyway",
	                   head);
}

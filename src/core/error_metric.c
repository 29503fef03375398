// sinew — see include/sinew.h for version and licence
// The error metric of DESIGN §4, implemented once: the compressor, the CLI and the tests use
// these functions. Double precision so the metric itself adds no error worth measuring, even
// for world-space clips at 1e5 units.
#include "base.h"
#include "metric.h"
#include "quat.h"

#include <math.h>
#include <string.h>

size_t sinew_pose_error_scratch_size(uint32_t joint_count) {
	return 2u * (size_t)joint_count * sizeof(sinewi_affine_d);
}

// Object-space affine transforms of one pose (parents come before children).
void sinewi_compose_pose_d(const sinew_joint *joints, uint32_t joint_count, const sinew_qvv *pose, sinewi_affine_d *out) {
	for (uint32_t j = 0; j < joint_count; ++j) {
		sinewi_affine_d local;
		sinewi_affine_from_qvv_d(&pose[j], &local);
		int32_t p = joints[j].parent;
		if (p >= 0 && (uint32_t)p < j)
			sinewi_affine_mul_d(&out[p], &local, &out[j]);
		else
			out[j] = local;
	}
}

double sinewi_shell_error_d(const sinewi_affine_d *a, const sinewi_affine_d *b, double d) {
	sinewi_shell_frame_d fa;
	sinewi_shell_frame_from_d(a, &fa);
	return sinewi_shell_error_frame_d(&fa, b, d);
}

void sinew_pose_error(const sinew_joint *joints, uint32_t joint_count, const sinew_qvv *reference, const sinew_qvv *test,
                      const float *shell_distances, double default_shell, void *scratch, double *out_errors) {
	sinewi_affine_d *ra = (sinewi_affine_d *)scratch;
	sinewi_affine_d *ta = ra + joint_count;
	sinewi_compose_pose_d(joints, joint_count, reference, ra);
	sinewi_compose_pose_d(joints, joint_count, test, ta);
	for (uint32_t j = 0; j < joint_count; ++j) {
		double d = shell_distances ? (double)shell_distances[j] : default_shell;
		out_errors[j] = sinewi_shell_error_d(&ra[j], &ta[j], d);
	}
}

// k-th smallest (0-based) of v[0..n), reorders v.
double sinewi_select_kth(double *v, size_t n, size_t k) {
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot) ++i;
			while (v[j] > pivot) --j;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j], v[j] = t;
				++i;
				if (j == 0) break;
				--j;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

sinew_result sinew_measure_error(const sinew_clip *reference, const sinew_clip *test, const sinew_metric_options *options,
                                 const sinew_allocator *allocator, sinew_error_stats *out_stats, sinew_error *error) {
	SINEWI_CHECK(reference && test && out_stats, error, SINEW_RESULT_INVALID_ARGUMENT, "measure_error: NULL argument");
	SINEWI_CHECK(reference->joint_count == test->joint_count, error, SINEW_RESULT_BAD_COUNT,
	             "measure_error: joint counts differ (%u vs %u)", reference->joint_count, test->joint_count);
	SINEWI_CHECK(reference->sample_count == test->sample_count, error, SINEW_RESULT_BAD_COUNT,
	             "measure_error: sample counts differ (%u vs %u)", reference->sample_count, test->sample_count);
	SINEWI_CHECK(reference->scalar_track_count == test->scalar_track_count, error, SINEW_RESULT_BAD_COUNT,
	             "measure_error: scalar track counts differ (%u vs %u)", reference->scalar_track_count,
	             test->scalar_track_count);
	for (uint32_t i = 0; i < reference->scalar_track_count; ++i)
		SINEWI_CHECK(reference->scalar_tracks[i].components == test->scalar_tracks[i].components, error,
		             SINEW_RESULT_BAD_COUNT, "measure_error: scalar track %u component counts differ", i);

	const uint32_t nj = reference->joint_count, ns = reference->sample_count;
	double unit = reference->unit_scale > 0.0 ? reference->unit_scale : 1.0;
	double default_shell = options && options->shell_distance > 0.0 ? options->shell_distance
	                                                                  : sinewi_cm_to_units(SINEW_DEFAULT_SHELL_CM, unit);
	double default_threshold = options && options->threshold > 0.0 ? options->threshold
	                                                                : sinewi_cm_to_units(SINEW_DEFAULT_ERROR_CM, unit);

	memset(out_stats, 0, sizeof *out_stats);
	sinewi_alloc al = sinewi_alloc_from(allocator);
	size_t pairs;
	SINEWI_CHECK(sinewi_mul_size(nj, ns, &pairs), error, SINEW_RESULT_OUT_OF_MEMORY, "measure_error: too many samples");
	size_t scratch_size = sinew_pose_error_scratch_size(nj);
	size_t alloc_size = scratch_size + (pairs + nj) * sizeof(double) + nj * sizeof(float) + 64;
	unsigned char *mem = (unsigned char *)sinewi_malloc(&al, alloc_size);
	SINEWI_CHECK(mem, error, SINEW_RESULT_OUT_OF_MEMORY, "measure_error: out of memory (%zu bytes)", alloc_size);
	void *scratch = mem;
	double *all = (double *)(void *)(mem + scratch_size); // scratch_size is a multiple of 8
	double *joint_err = all + pairs;
	float *shells = (float *)(joint_err + nj);
	for (uint32_t j = 0; j < nj; ++j)
		shells[j] = reference->joints[j].shell_distance > 0.0f ? reference->joints[j].shell_distance : (float)default_shell;

	double sum = 0.0;
	size_t k = 0;
	for (uint32_t s = 0; s < ns; ++s) {
		sinew_pose_error(reference->joints, nj, reference->transforms + (size_t)s * nj, test->transforms + (size_t)s * nj,
		                 shells, default_shell, scratch, joint_err);
		for (uint32_t j = 0; j < nj; ++j) {
			double e = joint_err[j];
			double thr = reference->joints[j].precision > 0.0f ? reference->joints[j].precision : default_threshold;
			if (!(e <= thr)) out_stats->samples_over_threshold++;
			if (!(e <= out_stats->max_error)) { // NaN counts as worst
				out_stats->max_error = e;
				out_stats->worst_joint = j;
				out_stats->worst_sample = s;
				out_stats->worst_time = (double)s / reference->sample_rate;
			}
			sum += e;
			all[k++] = e;
		}
	}
	out_stats->measured = pairs;
	if (pairs > 0) {
		out_stats->mean_error = sum / (double)pairs;
		size_t idx = (size_t)ceil(0.99 * (double)pairs) - 1;
		out_stats->p99_error = sinewi_select_kth(all, pairs, idx);
	}

	for (uint32_t i = 0; i < reference->scalar_track_count; ++i) {
		const sinew_scalar_track *ra = &reference->scalar_tracks[i], *ta = &test->scalar_tracks[i];
		double precision = ra->precision > 0.0f ? ra->precision : 1e-4;
		size_t n = (size_t)ns * ra->components;
		for (size_t v = 0; v < n; ++v) {
			double e = fabs((double)ra->values[v] - (double)ta->values[v]);
			if (!(e <= precision)) out_stats->scalar_over_precision++;
			double rel = e / precision;
			if (!(rel <= out_stats->max_scalar_error)) out_stats->max_scalar_error = rel;
		}
	}
	sinewi_free(&al, mem, alloc_size);
	return SINEW_RESULT_OK;
}

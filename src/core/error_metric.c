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
	return 2u * (size_t)joint_count * sizeof(sinewi_affine_d) + 6u * (size_t)joint_count * sizeof(double);
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

static double column_length(const sinewi_affine_d *a, int k) {
	return sqrt(a->m[0][k] * a->m[0][k] + a->m[1][k] * a->m[1][k] + a->m[2][k] * a->m[2][k]);
}

// Raises maxcol[3j + k] to the column lengths of every pose of `poses`.
static void max_columns(const sinew_joint *joints, uint32_t nj, const sinew_qvv *poses, size_t count,
                        sinewi_affine_d *obj, double *maxcol) {
	for (size_t s = 0; s < count; ++s) {
		sinewi_compose_pose_d(joints, nj, poses + s * nj, obj);
		for (uint32_t j = 0; j < nj; ++j)
			for (int k = 0; k < 3; ++k) {
				double len = column_length(&obj[j], k);
				if (len > maxcol[3 * j + k]) maxcol[3 * j + k] = len;
			}
	}
}

// The offsets from rest lengths `sigma` (overwritten) and, where given, the clip's largest lengths.
static void finish_offsets(const sinew_joint *joints, uint32_t nj, double default_shell, double *sigma,
                           const double *maxcol, double *off) {
	for (uint32_t j = 0; j < nj; ++j) {
		double d = joints[j].shell_distance > 0.0f ? (double)joints[j].shell_distance : default_shell;
		for (int k = 0; k < 3; ++k) {
			double s = sigma[3 * j + k];
			if (maxcol && !(s >= SINEWI_REST_DEGENERATE * maxcol[3 * j + k])) s = maxcol[3 * j + k];
			off[3 * j + k] = s > 1e-30 ? d / s : 0.0;
		}
	}
}

// Rest lengths into sigma[3j + k]; returns whether an axis may be degenerate: its rest length is below
// SINEWI_REST_DEGENERATE of an upper bound of what the poses can reach (the product of the largest
// scale components along its chain). Clips without such an axis skip composing every pose.
static bool rest_lengths(const sinew_joint *joints, uint32_t nj, const sinew_qvv *poses, size_t pose_count,
                         const sinew_qvv *more, size_t more_count, sinewi_affine_d *obj, double *sigma, double *bound) {
	for (uint32_t j = 0; j < nj; ++j) {
		sinewi_affine_d local;
		sinewi_affine_from_qvv_d(&joints[j].default_pose, &local); // normalizes the rotation (in double)
		int32_t p = joints[j].parent;
		if (p >= 0 && (uint32_t)p < j) sinewi_affine_mul_d(&obj[p], &local, &obj[j]);
		else obj[j] = local;
		for (int k = 0; k < 3; ++k) sigma[3 * j + k] = column_length(&obj[j], k);
	}
	// bound[j]: the largest |scale component| over the poses and the rest pose, multiplied along the chain
	// (|A x| <= |A| |x| for each factor, rotations preserving length), bounds every column length of j.
	for (uint32_t j = 0; j < nj; ++j) {
		double m = 0.0;
		for (int c = 0; c < 3; ++c) m = sinewi_fmax(m, fabs((double)joints[j].default_pose.scale[c]));
		for (int pass = 0; pass < 2; ++pass) {
			const sinew_qvv *list = pass ? more : poses;
			size_t n = pass ? more_count : pose_count;
			for (size_t s = 0; list && s < n; ++s)
				for (int c = 0; c < 3; ++c) m = sinewi_fmax(m, fabs((double)list[s * nj + j].scale[c]));
		}
		int32_t p = joints[j].parent;
		bound[j] = (p >= 0 && (uint32_t)p < j ? bound[p] : 1.0) * m;
	}
	bool maybe = false;
	for (uint32_t j = 0; j < nj && !maybe; ++j)
		for (int k = 0; k < 3; ++k)
			if (!(sigma[3 * j + k] >= SINEWI_REST_DEGENERATE * bound[j])) maybe = true;
	return maybe;
}

bool sinewi_shell_offsets(const sinew_joint *joints, uint32_t nj, double default_shell, const sinew_qvv *poses,
                          size_t pose_count, const sinew_qvv *more, size_t more_count, const sinewi_alloc *alloc,
                          double *off) {
	if (nj == 0) return true;
	size_t bytes = (size_t)nj * (sizeof(sinewi_affine_d) + 7 * sizeof(double));
	unsigned char *mem = (unsigned char *)sinewi_malloc(alloc, bytes);
	if (!mem) return false;
	sinewi_affine_d *obj = (sinewi_affine_d *)(void *)mem;
	double *sigma = (double *)(void *)(obj + nj), *maxcol = sigma + 3 * (size_t)nj, *bound = maxcol + 3 * (size_t)nj;
	bool maybe = rest_lengths(joints, nj, poses, pose_count, more, more_count, obj, sigma, bound);
	if (maybe) {
		memset(maxcol, 0, 3 * (size_t)nj * sizeof(double));
		if (poses) max_columns(joints, nj, poses, pose_count, obj, maxcol);
		if (more) max_columns(joints, nj, more, more_count, obj, maxcol);
	}
	finish_offsets(joints, nj, default_shell, sigma, maybe ? maxcol : NULL, off);
	sinewi_free(alloc, mem, bytes);
	return true;
}

double sinewi_shell_error_d(const sinewi_affine_d *a, const sinewi_affine_d *b, const double off[3]) {
	sinewi_shell_frame_d fa;
	sinewi_shell_frame_from_d(a, off, &fa);
	return sinewi_shell_error_frame_d(&fa, b, off);
}

// One pose, no allocation: the degenerate rule (sinewi_shell_offsets) sees the reference pose only.
void sinew_pose_error(const sinew_joint *joints, uint32_t joint_count, const sinew_qvv *reference, const sinew_qvv *test,
                      const float *shell_distances, double default_shell, void *scratch, double *out_errors) {
	sinewi_affine_d *ra = (sinewi_affine_d *)scratch;
	sinewi_affine_d *ta = ra + joint_count;
	double *off = (double *)(void *)(ta + joint_count), *maxcol = off + 3 * (size_t)joint_count;
	// rest lengths first (into off), the reference pose's lengths for the degenerate rule (into maxcol)
	rest_lengths(joints, joint_count, NULL, 0, NULL, 0, ra, off, maxcol);
	memset(maxcol, 0, 3 * (size_t)joint_count * sizeof(double));
	max_columns(joints, joint_count, reference, 1, ra, maxcol);
	for (uint32_t j = 0; j < joint_count; ++j) {
		double d = shell_distances ? (double)shell_distances[j] : default_shell;
		for (int k = 0; k < 3; ++k) {
			double s = off[3 * j + k];
			if (!(s >= SINEWI_REST_DEGENERATE * maxcol[3 * j + k])) s = maxcol[3 * j + k];
			off[3 * j + k] = s > 1e-30 ? d / s : 0.0;
		}
	}
	sinewi_compose_pose_d(joints, joint_count, reference, ra);
	sinewi_compose_pose_d(joints, joint_count, test, ta);
	for (uint32_t j = 0; j < joint_count; ++j) out_errors[j] = sinewi_shell_error_d(&ra[j], &ta[j], off + 3 * j);
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
	// shell offsets of the whole clip (the degenerate rule looks at every reference sample), then per pose
	// the two object-space transforms
	const size_t njx = nj ? nj : 1;
	size_t alloc_size = (2 * njx) * sizeof(sinewi_affine_d) + (pairs + nj + 3 * (size_t)nj) * sizeof(double) + 64;
	unsigned char *mem = (unsigned char *)sinewi_malloc(&al, alloc_size);
	SINEWI_CHECK(mem, error, SINEW_RESULT_OUT_OF_MEMORY, "measure_error: out of memory (%zu bytes)", alloc_size);
	sinewi_affine_d *ra = (sinewi_affine_d *)(void *)mem, *ta = ra + njx;
	double *all = (double *)(void *)(ta + njx);
	double *joint_err = all + pairs, *off = joint_err + nj;
	if (!sinewi_shell_offsets(reference->joints, nj, default_shell, reference->transforms, ns, NULL, 0, &al, off)) {
		sinewi_free(&al, mem, alloc_size);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "measure_error: out of memory");
	}

	double sum = 0.0;
	size_t k = 0;
	for (uint32_t s = 0; s < ns; ++s) {
		sinewi_compose_pose_d(reference->joints, nj, reference->transforms + (size_t)s * nj, ra);
		sinewi_compose_pose_d(reference->joints, nj, test->transforms + (size_t)s * nj, ta);
		for (uint32_t j = 0; j < nj; ++j) joint_err[j] = sinewi_shell_error_d(&ra[j], &ta[j], off + 3 * j);
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
	out_stats->max_error_cm = out_stats->max_error * 100.0 / unit;
	out_stats->p99_error_cm = out_stats->p99_error * 100.0 / unit;

	for (uint32_t i = 0; i < reference->scalar_track_count; ++i) {
		const sinew_scalar_track *rt = &reference->scalar_tracks[i], *tt = &test->scalar_tracks[i];
		double precision = rt->precision > 0.0f ? rt->precision : 1e-4;
		size_t n = (size_t)ns * rt->components;
		for (size_t v = 0; v < n; ++v) {
			double e = fabs((double)rt->values[v] - (double)tt->values[v]);
			if (!(e <= precision)) out_stats->scalar_over_precision++;
			double rel = e / precision;
			if (!(rel <= out_stats->max_scalar_error)) out_stats->max_scalar_error = rel;
		}
	}
	sinewi_free(&al, mem, alloc_size);
	return SINEW_RESULT_OK;
}

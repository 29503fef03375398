// sinew — see include/sinew.h for version and licence
// sinew_measure_blob_error: the guarantee measured the way a user sees it, through the real
// decoder at the source's sample times, sample midpoints and check times (DESIGN §4).
#include <math.h>
#include <string.h>

#include "../core/metric.h"
#include "../clip/clip_internal.h"
#include "context.h"

sinew_result sinew_measure_blob_error(const sinew_clip *source, const void *blob, size_t size, uint32_t clip,
                                      const sinew_metric_options *options, const sinew_allocator *allocator,
                                      sinew_error_stats *out_stats, sinew_error *error) {
	SINEWI_CHECK(source && blob && out_stats, error, SINEW_RESULT_INVALID_ARGUMENT, "measure_blob_error: NULL argument");
	memset(out_stats, 0, sizeof *out_stats);
	sinew_clip_info info;
	SINEWI_TRY(sinew_blob_clip_info(blob, size, clip, &info, error));
	const uint32_t nj = source->joint_count, ns = source->sample_count;
	uint32_t scalar_values = 0;
	for (uint32_t i = 0; i < source->scalar_track_count; ++i) scalar_values += source->scalar_tracks[i].components;
	SINEWI_CHECK(info.joint_count == nj && info.sample_count == ns && info.scalar_track_count == source->scalar_track_count,
	             error, SINEW_RESULT_BAD_COUNT,
	             "measure_blob_error: clip %u has %u joints, %u samples, %u scalar tracks; the source %u, %u, %u", clip,
	             info.joint_count, info.sample_count, info.scalar_track_count, nj, ns, source->scalar_track_count);
	const double unit = source->unit_scale > 0.0 ? source->unit_scale : 1.0;
	const double default_shell = options && options->shell_distance > 0.0 ? options->shell_distance
	                                                                        : sinewi_cm_to_units(SINEW_DEFAULT_SHELL_CM, unit);
	const double default_threshold = options && options->threshold > 0.0 ? options->threshold
	                                                                      : sinewi_cm_to_units(SINEW_DEFAULT_ERROR_CM, unit);
	const uint32_t mids = source->check_midpoints && ns > 1 ? ns - 1 : 0;
	const uint32_t checks = source->check_times && source->check_transforms ? source->check_count : 0;
	const size_t positions = (size_t)ns + mids + checks;
	size_t pairs;
	SINEWI_CHECK(sinewi_mul_size(positions, nj, &pairs), error, SINEW_RESULT_OUT_OF_MEMORY, "measure_blob_error: too large");

	sinewi_alloc al = sinewi_alloc_from(allocator);
	sinew_context_options co = {0};
	co.tiers = options ? options->tiers : 0u;
	size_t ctx_size = (sinew_context_size_with(blob, size, clip, &co) + 15) & ~(size_t)15;
	SINEWI_CHECK(ctx_size > 0, error, SINEW_RESULT_CORRUPT, "measure_blob_error: clip %u is invalid", clip);
	const size_t njx = nj ? nj : 1;
	size_t bytes = ctx_size + (pairs + 3 * njx) * sizeof(double) + 4 * njx * sizeof(sinewi_affine_d) +
	               2 * njx * sizeof(sinew_qvv) + 2 * ((size_t)scalar_values + 1) * sizeof(float) + 64;
	unsigned char *mem = (unsigned char *)sinewi_malloc(&al, bytes);
	SINEWI_CHECK(mem, error, SINEW_RESULT_OUT_OF_MEMORY, "measure_blob_error: out of memory (%zu bytes)", bytes);
	// a blob whose defaults play a rest pose its rig does not store (a packed glTF's) plays the source's: the
	// joints' default poses and the scalar tracks' default values (its document's)
	sinew_rig_info rig;
	sinew_result rr = sinew_blob_rig(blob, size, &rig, error);
	if (rr != SINEW_RESULT_OK) {
		sinewi_free(&al, mem, bytes);
		return rr;
	}
	sinew_qvv *rest = NULL;
	float *rest_scalars = NULL;
	if (rig.rest_defaults && (!rig.has_rest || !rig.has_scalar_rest)) {
		rest = (sinew_qvv *)sinewi_malloc(&al, (size_t)(nj ? nj : 1) * sizeof(sinew_qvv));
		rest_scalars = (float *)sinewi_malloc(&al, ((size_t)scalar_values + 1) * sizeof(float));
		if (!rest || !rest_scalars) {
			sinewi_free(&al, rest, (size_t)(nj ? nj : 1) * sizeof(sinew_qvv));
			sinewi_free(&al, rest_scalars, ((size_t)scalar_values + 1) * sizeof(float));
			sinewi_free(&al, mem, bytes);
			return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "measure_blob_error: out of memory");
		}
		for (uint32_t j = 0; j < nj; ++j) rest[j] = source->joints[j].default_pose;
		for (uint32_t i = 0, o = 0; i < source->scalar_track_count; o += source->scalar_tracks[i++].components)
			memcpy(rest_scalars + o, source->scalar_tracks[i].default_value, source->scalar_tracks[i].components * sizeof(float));
		co.rest_pose = rest, co.rest_scalars = rest_scalars;
	}
	sinew_context *ctx = NULL;
	sinew_result r = sinew_context_init(mem, ctx_size, blob, size, clip, &co, &ctx, error);
	sinewi_free(&al, rest, (size_t)(nj ? nj : 1) * sizeof(sinew_qvv)); // (the context copied them)
	sinewi_free(&al, rest_scalars, ((size_t)scalar_values + 1) * sizeof(float));
	if (r != SINEW_RESULT_OK) {
		sinewi_free(&al, mem, bytes);
		return r;
	}
	double *all = (double *)(void *)(mem + ctx_size), *off = all + pairs;
	sinewi_affine_d *ref_obj = (sinewi_affine_d *)(void *)(off + 3 * njx), *dec_obj = ref_obj + njx;
	sinew_qvv *half = (sinew_qvv *)(void *)(dec_obj + njx), *decoded = half + njx;
	float *ref_scalars = (float *)(void *)(decoded + njx), *dec_scalars = ref_scalars + scalar_values + 1;

	// the shell of every joint, fixed at its rest pose (the degenerate rule looks at every source pose)
	if (!sinewi_shell_offsets(source->joints, nj, default_shell, source->transforms, ns, checks ? source->check_transforms : NULL,
	                          checks, &al, off)) {
		sinewi_free(&al, mem, bytes);
		return sinewi_fail(error, SINEW_RESULT_OUT_OF_MEMORY, "measure_blob_error: out of memory");
	}
	double sum = 0.0;
	size_t n = 0;
	for (size_t p = 0; p < positions; ++p) {
		double t;
		uint32_t floor_sample;
		const sinew_qvv *ref;
		bool scalars = true;
		if (p < ns) { // samples
			floor_sample = (uint32_t)p;
			t = sinew_clip_sample_time(source, (double)p);
			ref = &source->transforms[p * nj];
			sinewi_clip_halfway(source, floor_sample, floor_sample, NULL, ref_scalars);
		} else if (p < (size_t)ns + mids) { // sample midpoints
			floor_sample = (uint32_t)(p - ns);
			t = sinew_clip_sample_time(source, (double)floor_sample + 0.5);
			sinewi_clip_halfway(source, floor_sample, floor_sample + 1, half, ref_scalars);
			// a clip stored as curves plays the source's curves between samples: they are the reference there
			if (info.curves) sinewi_clip_curves_at(source, t, half, ref_scalars);
			ref = half;
		} else { // the source's own evaluation at its check times
			size_t c = p - ns - mids;
			t = source->check_times[c];
			double k = floor(sinewi_clip_key(source, t));
			floor_sample = k <= 0.0 ? 0 : k >= (double)(ns - 1) ? ns - 1 : (uint32_t)k;
			ref = &source->check_transforms[c * nj];
			scalars = false;
		}
		sinew_sample_pose(ctx, t, decoded, NULL, scalars ? dec_scalars : NULL);
		sinewi_compose_pose_d(source->joints, nj, ref, ref_obj);
		sinewi_compose_pose_d(source->joints, nj, decoded, dec_obj);
		for (uint32_t j = 0; j < nj; ++j) {
			const sinew_joint *joint = &source->joints[j];
			double e = sinewi_shell_error_d(&ref_obj[j], &dec_obj[j], off + 3 * j);
			double thr = joint->precision > 0.0f ? joint->precision : default_threshold;
			if (!(e <= thr)) out_stats->samples_over_threshold++;
			if (!(e <= out_stats->max_error)) { // NaN counts as worst
				out_stats->max_error = e;
				out_stats->worst_joint = j;
				out_stats->worst_sample = floor_sample;
				out_stats->worst_time = t;
			}
			sum += e;
			all[n++] = e;
		}
		if (!scalars) continue;
		uint32_t v = 0;
		for (uint32_t i = 0; i < source->scalar_track_count; ++i) {
			const sinew_scalar_track *st = &source->scalar_tracks[i];
			double precision = st->precision > 0.0f ? st->precision : 1e-4;
			for (uint32_t k = 0; k < st->components; ++k, ++v) {
				double e = fabs((double)ref_scalars[v] - (double)dec_scalars[v]);
				if (!(e <= precision)) out_stats->scalar_over_precision++;
				double rel = e / precision;
				if (!(rel <= out_stats->max_scalar_error)) out_stats->max_scalar_error = rel;
			}
		}
	}
	out_stats->measured = n;
	if (n > 0) {
		out_stats->mean_error = sum / (double)n;
		out_stats->p99_error = sinewi_select_kth(all, n, (size_t)ceil(0.99 * (double)n) - 1);
	}
	out_stats->max_error_cm = out_stats->max_error * 100.0 / unit;
	out_stats->p99_error_cm = out_stats->p99_error * 100.0 / unit;
	sinewi_free(&al, mem, bytes);
	return SINEW_RESULT_OK;
}

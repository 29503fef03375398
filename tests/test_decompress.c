// sinew — see include/sinew.h for version and licence
// decompress: sampling semantics (DESIGN §4) against a straightforward reference built from the
// decoded samples: clamping, interpolation between samples, rounding modes, looping wrap,
// single-joint and single-track sampling, remapping, skipping defaults.
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "core/quat.h"
#include "decompress/context.h"

typedef struct fixture {
	sinew_clip_set *set, *dec;
	void *blob, *mem;
	size_t size;
	sinew_context *ctx;
} fixture;

static bool setup(fixture *f, uint8_t rounding, bool looping, uint32_t samples, int kernel) {
	memset(f, 0, sizeof *f);
	if (sinew_clip_set_create(&f->set, NULL) != SINEW_RESULT_OK) return false;
	uint32_t comps[2] = {1, 3};
	sinew_clip_desc desc = {"semantics", 24, samples, 6, 2, comps};
	sinew_clip *c = NULL;
	if (sinew_clip_set_add_clip(f->set, &desc, &c) != SINEW_RESULT_OK) return false;
	c->unit_scale = 100;
	c->looping = looping;
	c->rounding = rounding;
	for (uint32_t j = 0; j < 6; ++j) c->joints[j].parent = j ? (int32_t)(j - 1) / 2 : -1;
	c->joints[5].default_pose.translation[2] = 7.0f; // joint 5 sits at its default translation
	for (uint32_t s = 0; s < samples; ++s)
		for (uint32_t j = 0; j < 6; ++j) {
			sinew_qvv *x = &c->transforms[s * 6 + j];
			double a = 0.9 * sin(0.31 * s + j), b = 0.5 * cos(0.17 * s * (j + 1));
			float qa[4] = {(float)sin(a / 2), 0, 0, (float)cos(a / 2)}, qb[4] = {0, (float)sin(b / 2), 0, (float)cos(b / 2)};
			sinewi_quat_mul(qa, qb, x->rotation);
			x->translation[0] = (float)(j * 5.0 + (j == 0 ? 3.0 * s : 0.0));
			if (j == 5) x->translation[0] = 0.0f, x->translation[2] = 7.0f;
			if (j == 2) x->scale[1] = (float)(1.0 + 0.2 * sin(0.1 * s));
		}
	for (uint32_t s = 0; s < samples; ++s) {
		c->scalar_tracks[0].values[s] = (float)(s % 7) / 7.0f;
		for (int k = 0; k < 3; ++k) c->scalar_tracks[1].values[s * 3 + k] = (float)(k - 1) * (float)s;
	}
	sinew_error err = {0};
	if (sinew_compress(f->set, NULL, NULL, &f->blob, &f->size, &err) != SINEW_RESULT_OK) return false;
	if (sinew_decompress_clips(f->blob, f->size, NULL, &f->dec, &err) != SINEW_RESULT_OK) return false;
	size_t need = sinew_context_size(f->blob, f->size, 0);
	f->mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
	sinew_context_options co = {.kernel = kernel};
	return sinew_context_init(f->mem, need, f->blob, f->size, 0, &co, &f->ctx, &err) == SINEW_RESULT_OK;
}

static void teardown(fixture *f) {
	sinew_clip_set_free(f->set);
	sinew_clip_set_free(f->dec);
	sinew_blob_free(f->blob, f->size, NULL);
	free(f->mem);
}

// Reference: lerp/nlerp between the decoded samples around key k (what DESIGN §4 describes).
static void reference_pose(const sinew_clip *d, double key, uint32_t last, sinew_qvv *out, uint32_t wrap_to_first) {
	uint32_t k0 = (uint32_t)floor(key);
	if (k0 > last) k0 = last;
	uint32_t k1 = k0 < last ? k0 + 1 : last;
	float a = (float)(key - k0);
	for (uint32_t j = 0; j < d->joint_count; ++j) {
		const sinew_qvv *x0 = &d->transforms[(size_t)(k0 == wrap_to_first ? 0 : k0) * d->joint_count + j];
		const sinew_qvv *x1 = &d->transforms[(size_t)(k1 == wrap_to_first ? 0 : k1) * d->joint_count + j];
		sinewi_qvv_lerp(x0, x1, a, &out[j]);
	}
}

static void test_sample_at_samples_matches_decompressed_clip(void) {
	fixture f;
	CHECK(setup(&f, SINEW_ROUNDING_NONE, false, 75, 0));
	sinew_qvv pose[6];
	float scalars[4];
	const sinew_clip *d = f.dec->clips[0];
	for (uint32_t s = 0; s < 75; ++s) {
		sinew_sample_pose(f.ctx, s / 24.0, pose, NULL, scalars);
		CHECK_MSG(memcmp(pose, &d->transforms[s * 6], sizeof pose) == 0, "sample %u differs", s);
		CHECK(scalars[0] == d->scalar_tracks[0].values[s]);
	}
	teardown(&f);
}

// Between samples the stored knots are interpolated directly (docs/format.md §sampling); the
// result must stay close to the source's own lerp/nlerp between samples: within twice the
// threshold in object space (each neighbouring sample is within the threshold).
static double worst_between(fixture *f, double step, double last, uint32_t wrap) {
	const sinew_clip *src = f->set->clips[0];
	sinew_qvv pose[6], ref[6];
	double errors[6], worst = 0;
	unsigned char scratch[4096];
	for (double key = 0; key <= last; key += step) {
		sinew_sample_pose(f->ctx, key / 24.0, pose, NULL, NULL);
		reference_pose(src, key, (uint32_t)last, ref, wrap);
		sinew_pose_error(src->joints, 6, ref, pose, NULL, 3.0, scratch, errors);
		for (int j = 0; j < 6; ++j)
			if (errors[j] > worst) worst = errors[j];
	}
	return worst;
}

static void test_sample_between_samples_interpolates(void) {
	fixture f;
	CHECK(setup(&f, SINEW_ROUNDING_NONE, false, 75, 0));
	double worst = worst_between(&f, 0.137, 74, UINT32_MAX);
	printf("    worst object-space error between samples: %.5f cm (threshold 0.01)\n", worst);
	CHECK(worst <= 0.02);
	teardown(&f);
}

static void test_sample_clamps_time(void) {
	fixture f;
	CHECK(setup(&f, SINEW_ROUNDING_NONE, false, 30, 0));
	sinew_qvv a[6], b[6];
	const sinew_clip *d = f.dec->clips[0];
	sinew_sample_pose(f.ctx, -5.0, a, NULL, NULL);
	CHECK(memcmp(a, &d->transforms[0], sizeof a) == 0);
	sinew_sample_pose(f.ctx, 1e9, b, NULL, NULL);
	CHECK(memcmp(b, &d->transforms[29 * 6], sizeof b) == 0);
	sinew_sample_pose(f.ctx, NAN, a, NULL, NULL);
	CHECK(memcmp(a, &d->transforms[0], sizeof a) == 0);
	teardown(&f);
}

// Step 1 of the sampling semantics: interpolating tracks snap onto a sample only within 1e-12 (double
// rounding of k / rate), rounding tracks within 1e-6. A key 3e-5 past sample 40 (inside the wide window,
// 40e-6) interpolates joint 0's ramp (3 cm per sample: 9e-5 cm, a dozen float ulps at 120 cm) with
// rounding none, and selects sample 41 at 3e-5 before it with floor.
static void test_sample_snaps_only_rounded_tracks_widely(void) {
	fixture f;
	CHECK(setup(&f, SINEW_ROUNDING_NONE, false, 50, 0));
	const sinew_clip *d = f.dec->clips[0];
	sinew_qvv pose[6];
	const double eps = 3e-5;
	CHECK(sinew_sample_pose(f.ctx, (40.0 + eps) / 24.0, pose, NULL, NULL) == SINEW_RESULT_OK);
	double a = d->transforms[40 * 6].translation[0], b = d->transforms[41 * 6].translation[0];
	CHECK_MSG(fabs(pose[0].translation[0] - (a + (b - a) * eps)) < 1.5e-5 && pose[0].translation[0] != (float)a,
	          "key 40 + 3e-5 plays %.9g, interpolation gives %.9g (sample 40: %.9g)", pose[0].translation[0],
	          a + (b - a) * eps, a);
	CHECK(sinew_sample_pose(f.ctx, 40.0 / 24.0, pose, NULL, NULL) == SINEW_RESULT_OK);
	CHECK(memcmp(pose, &d->transforms[40 * 6], sizeof pose) == 0);
	teardown(&f);
	CHECK(setup(&f, SINEW_ROUNDING_FLOOR, false, 50, 0));
	d = f.dec->clips[0];
	CHECK(sinew_sample_pose(f.ctx, (41.0 - eps) / 24.0, pose, NULL, NULL) == SINEW_RESULT_OK);
	CHECK(memcmp(pose, &d->transforms[41 * 6], sizeof pose) == 0);
	CHECK(sinew_sample_pose(f.ctx, (41.0 - 1e-4) / 24.0, pose, NULL, NULL) == SINEW_RESULT_OK);
	CHECK(memcmp(pose, &d->transforms[40 * 6], sizeof pose) == 0);
	teardown(&f);
}

static void test_sample_rounding_modes(void) {
	const uint8_t modes[3] = {SINEW_ROUNDING_FLOOR, SINEW_ROUNDING_CEIL, SINEW_ROUNDING_NEAREST};
	for (int m = 0; m < 3; ++m) {
		fixture f;
		CHECK(setup(&f, modes[m], false, 50, 0));
		const sinew_clip *d = f.dec->clips[0];
		sinew_qvv pose[6];
		for (double key = 0; key <= 49; key += 0.23) {
			sinew_sample_pose(f.ctx, key / 24.0, pose, NULL, NULL);
			double snapped = fabs(key - floor(key + 0.5)) <= 1e-6 * fmax(1.0, floor(key + 0.5)) ? floor(key + 0.5) : key;
			double k = modes[m] == SINEW_ROUNDING_FLOOR ? floor(snapped)
			           : modes[m] == SINEW_ROUNDING_CEIL ? ceil(snapped)
			                                              : floor(snapped + 0.5);
			CHECK_MSG(memcmp(pose, &d->transforms[(size_t)k * 6], sizeof pose) == 0, "mode %d key %.2f", modes[m], key);
		}
		teardown(&f);
		if (test_failed()) return;
	}
}

static void test_sample_looping_wraps_to_first_sample(void) {
	fixture f;
	CHECK(setup(&f, SINEW_ROUNDING_NONE, true, 40, 0));
	sinew_clip_info info;
	sinew_error err = {0};
	CHECK_OK(sinew_blob_clip_info(f.blob, f.size, 0, &info, &err), &err);
	CHECK(info.looping);
	CHECK_NEAR(info.duration, 40.0 / 24.0, 1e-12); // the wrap interval is part of the clip
	// from the last sample (39) to the wrap point (40 = sample 0 again)
	double worst = worst_between(&f, 0.125, 40, 40);
	CHECK_MSG(worst <= 0.02, "worst %.5f", worst);
	sinew_qvv end[6], start[6];
	sinew_sample_pose(f.ctx, info.duration, end, NULL, NULL);
	sinew_sample_pose(f.ctx, 0.0, start, NULL, NULL);
	double errors[6];
	unsigned char scratch[4096];
	sinew_pose_error(f.set->clips[0]->joints, 6, start, end, NULL, 3.0, scratch, errors);
	for (int j = 0; j < 6; ++j) CHECK(errors[j] <= 0.02); // t = duration is sample 0 again
	teardown(&f);
}

static void test_sample_joint_and_scalar_match_pose(void) {
	fixture f;
	CHECK(setup(&f, SINEW_ROUNDING_NONE, false, 75, 0));
	sinew_qvv pose[6], one;
	float scalars[4], s0, s1[3];
	for (double t = 0; t < 3.2; t += 0.0421) {
		sinew_sample_pose(f.ctx, t, pose, NULL, scalars);
		for (uint32_t j = 0; j < 6; ++j) {
			sinew_sample_joint(f.ctx, t, j, &one);
			CHECK_MSG(memcmp(&one, &pose[j], sizeof one) == 0, "t %.3f joint %u", t, j);
		}
		sinew_sample_scalar(f.ctx, t, 0, &s0);
		sinew_sample_scalar(f.ctx, t, 1, s1);
		CHECK(s0 == scalars[0] && memcmp(s1, scalars + 1, sizeof s1) == 0);
		float only[4]; // scalars without a pose: the same values
		sinew_sample_pose(f.ctx, t, NULL, NULL, only);
		CHECK(memcmp(only, scalars, sizeof only) == 0);
	}
	teardown(&f);
}

static void test_sample_remap_and_skip_defaults(void) {
	fixture f;
	CHECK(setup(&f, SINEW_ROUNDING_NONE, false, 33, 0));
	sinew_qvv pose[6], mapped[6];
	uint32_t remap[6] = {5, 4, 3, 2, 1, 0xFFFFFFFFu};
	memset(mapped, 0xAB, sizeof mapped);
	sinew_sample_pose(f.ctx, 0.5, pose, NULL, NULL);
	sinew_sample_pose(f.ctx, 0.5, mapped, remap, NULL);
	for (int j = 0; j < 5; ++j) CHECK(memcmp(&mapped[remap[j]], &pose[j], sizeof pose[j]) == 0);
	unsigned char untouched[sizeof(sinew_qvv)];
	memset(untouched, 0xAB, sizeof untouched);
	CHECK(memcmp(&mapped[0], untouched, sizeof untouched) == 0); // joint 5 was skipped by the remap
	// skip_defaults leaves identity/default sub-tracks untouched for a caller-filled bind pose
	size_t need = sinew_context_size(f.blob, f.size, 0);
	void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
	sinew_context_options co = {.skip_defaults = 1};
	sinew_context *ctx = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_context_init(mem, need, f.blob, f.size, 0, &co, &ctx, &err), &err);
	memset(mapped, 0xAB, sizeof mapped);
	sinew_sample_pose(ctx, 0.5, mapped, NULL, NULL);
	CHECK(memcmp(mapped[5].scale, untouched, sizeof mapped[5].scale) == 0); // unit scale: identity, skipped
	CHECK(memcmp(mapped[0].rotation, pose[0].rotation, sizeof pose[0].rotation) == 0); // animated: written
	free(mem);
	teardown(&f);
}

static void test_context_rejects_bad_arguments(void) {
	fixture f;
	CHECK(setup(&f, SINEW_ROUNDING_NONE, false, 10, 0));
	size_t need = sinew_context_size(f.blob, f.size, 0);
	void *mem = aligned_alloc(16, (need + 31) & ~(size_t)15);
	sinew_context *ctx = NULL;
	sinew_error err = {0};
	CHECK_RESULT(sinew_context_init(mem, need - 1, f.blob, f.size, 0, NULL, &ctx, &err), SINEW_RESULT_BUFFER_TOO_SMALL, &err);
	CHECK_RESULT(sinew_context_init((char *)mem + 8, need, f.blob, f.size, 0, NULL, &ctx, &err),
	             SINEW_RESULT_INVALID_ARGUMENT, &err);
	CHECK_RESULT(sinew_context_init(mem, need, f.blob, f.size, 3, NULL, &ctx, &err), SINEW_RESULT_OUT_OF_RANGE, &err);
	CHECK_EQ(sinew_context_size(f.blob, f.size, 1), 0);
	free(mem);
	teardown(&f);
}

static void test_sample_pose_animated_matches_full_sample(void) {
	fixture f;
	CHECK(setup(&f, SINEW_ROUNDING_NONE, false, 75, 0));
	sinew_qvv full[6], partial[6];
	float sf[4], sp[4];
	sinew_sample_pose(f.ctx, 0.0, partial, NULL, sp); // constants in place once
	for (double t = 0.01; t < 3.2; t += 0.0833) {
		sinew_sample_pose(f.ctx, t, full, NULL, sf);
		sinew_sample_pose_animated(f.ctx, t, partial, NULL, sp);
		CHECK_MSG(memcmp(full, partial, sizeof full) == 0 && memcmp(sf, sp, sizeof sf) == 0, "t %.3f", t);
	}
	// it really leaves constants alone: a poisoned constant stays poisoned
	partial[5].translation[2] = 12345.0f;
	sinew_sample_pose_animated(f.ctx, 1.0, partial, NULL, sp);
	CHECK(partial[5].translation[2] == 12345.0f);
	teardown(&f);
}

// The whole-pose path unpacks knots of up to 57 bits with one load, wider ones component by
// component and raw float32 tracks on their own; each must agree bit for bit with the
// single-joint path (decode_track), with and without a remap, on every kernel.
static void test_pose_paths_agree_on_wide_and_raw_knots(void) {
	sinew_error err = {0};
	sinew_clip_set *set = NULL;
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	uint32_t comps[1] = {4};
	const uint32_t samples = 70, joints = 5;
	sinew_clip_desc desc = {"wide", 30, samples, joints, 1, comps};
	sinew_clip *c = NULL;
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &c), &err);
	c->unit_scale = 1; // metres
	for (uint32_t j = 0; j < joints; ++j) c->joints[j].parent = (int32_t)j - 1;
	for (uint32_t s = 0; s < samples; ++s)
		for (uint32_t j = 0; j < joints; ++j) {
			sinew_qvv *x = &c->transforms[s * joints + j];
			double a = 0.7 * sin(0.23 * s + j) + 0.01 * sin(2.1 * s);
			float q[4] = {(float)sin(a / 2), 0.0f, 0.0f, (float)cos(a / 2)};
			memcpy(x->rotation, q, sizeof q);
			x->translation[0] = (float)(j == 1 ? 20.0 * sin(0.5 * s) : 1.0); // wide knots
			x->translation[1] = (float)(j == 1 ? 20.0 * cos(0.6 * s) : 0.0);
			x->translation[2] = (float)(j == 3 ? 4.0e4 * sin(0.02 * s) + 0.7 * sin(1.3 * s) // raw
			                            : j == 1 ? 20.0 * sin(0.7 * s) : 0.0);
		}
	for (uint32_t s = 0; s < samples; ++s)
		for (uint32_t k = 0; k < 4; ++k) c->scalar_tracks[0].values[s * 4 + k] = (float)(3.0 * sin(0.05 * s + k) + 0.1 * sin(1.9 * s)); // quantized, 4 components
	sinew_compress_options o = {.error_cm = 0.001};
	void *blob = NULL;
	size_t size = 0;
	CHECK_OK(sinew_compress(set, &o, NULL, &blob, &size, &err), &err);
	for (int kernel = 0; kernel <= SINEW_KERNEL_SCALAR; ++kernel) {
		sinew_context_options co = {.kernel = kernel, .random_access = 1};
		size_t need = sinew_context_size_with(blob, size, 0, &co);
		void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
		sinew_context *ctx = NULL;
		CHECK_OK(sinew_context_init(mem, need, blob, size, 0, &co, &ctx, &err), &err);
		// the clip really exercises both slow paths
		uint32_t raw = 0, wide = 0;
		for (uint32_t seg = 0; seg < ctx->view.segment_count; ++seg) {
			const sinewi_segment_params *p = &ctx->params[seg];
			raw += p->raw_count;
			for (uint32_t b = 0; b < ctx->vector_count; ++b) {
				const sinewi_cached_track *t = &p->tracks[ctx->rotation_count + b];
				wide += !(t->flags & SINEWI_TRACK_RAW) && t->knot_bits > 57;
			}
		}
		CHECK_MSG(raw > 0 && wide > 0, "raw %u wide %u", raw, wide);
		sinew_qvv pose[5], mapped[5], one, partial[5];
		float sc[4], one_sc[4], partial_sc[4];
		uint32_t remap[5] = {4, 3, 2, 1, 0};
		sinew_sample_pose(ctx, 0.0, partial, NULL, partial_sc);
		for (double t = 0.0; t < 2.4; t += 0.0173) {
			sinew_sample_pose(ctx, t, pose, NULL, sc);
			sinew_sample_pose(ctx, t, mapped, remap, NULL);
			sinew_sample_pose_animated(ctx, t, partial, NULL, partial_sc);
			for (uint32_t j = 0; j < joints; ++j) {
				sinew_sample_joint(ctx, t, j, &one);
				CHECK_MSG(memcmp(&one, &pose[j], sizeof one) == 0, "kernel %d t %.4f joint %u", kernel, t, j);
				CHECK_MSG(memcmp(&one, &mapped[remap[j]], sizeof one) == 0, "remapped: kernel %d t %.4f joint %u", kernel, t, j);
			}
			CHECK(memcmp(pose, partial, sizeof pose) == 0);
			sinew_sample_scalar(ctx, t, 0, one_sc);
			CHECK(memcmp(one_sc, sc, sizeof sc) == 0 && memcmp(sc, partial_sc, sizeof sc) == 0);
		}
		free(mem);
	}
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

// Single-entry contexts prepare the next segment during the last calls before playback reaches
// it (context.c); at any speed and direction, looping or not, they must sample exactly like a
// random-access context, and forward/backward playback must really use the prepared segment.
static void test_prefilled_segments_match_random_access(void) {
	for (int looping = 0; looping <= 1; ++looping) {
		fixture f;
		CHECK(setup(&f, SINEW_ROUNDING_NONE, looping != 0, 300, 0)); // 24 Hz: 8 segments
		sinew_context_options ra = {.random_access = 1};
		size_t need = sinew_context_size_with(f.blob, f.size, 0, &ra);
		void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
		sinew_context *rctx = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_context_init(mem, need, f.blob, f.size, 0, &ra, &rctx, &err), &err);
		const double duration = (double)(f.dec->clips[0]->sample_count - (looping ? 0 : 1)) / 24.0;
		// steps per call in seconds: 60 fps, slow motion, 3x, backward at 60 fps
		const double steps[4] = {1.0 / 60, 1.0 / 240, 3.0 / 24, -1.0 / 60};
		for (int k = 0; k < 4; ++k) {
			sinew_qvv a[6], b[6];
			float sa[4], sb[4];
			uint32_t used = 0, crossings = 0;
			double t = steps[k] > 0 ? 0.0 : 0.75 * duration;
			for (int i = 0; i < 2400; ++i, t += steps[k]) {
				if (looping) t = fmod(t + duration, duration);
				else if (t < 0.0 || t > duration) break;
				uint32_t before = f.ctx->cached_segment, pending = f.ctx->prefill_segment;
				bool ready = f.ctx->prefill_track == f.ctx->view.track_count;
				sinew_sample_pose(f.ctx, t, a, NULL, sa);
				sinew_sample_pose(rctx, t, b, NULL, sb);
				CHECK_MSG(memcmp(a, b, sizeof a) == 0 && memcmp(sa, sb, sizeof sa) == 0, "looping %d step %g t %.4f", looping,
				          steps[k], t);
				if (i > 0 && f.ctx->cached_segment != before) { // the first call of a run may jump
					crossings++;
					used += f.ctx->cached_segment == pending && ready;
				}
			}
			// every move to a neighbouring segment found it prepared (a loop's wrap is one too)
			CHECK_MSG(crossings >= 5 && used == crossings, "looping %d step %g: %u of %u crossings prepared", looping, steps[k],
			          used, crossings);
		}
		free(mem);
		teardown(&f);
	}
}

void suite_decompress(void) {
	RUN(test_sample_at_samples_matches_decompressed_clip);
	RUN(test_sample_between_samples_interpolates);
	RUN(test_sample_clamps_time);
	RUN(test_sample_rounding_modes);
	RUN(test_sample_snaps_only_rounded_tracks_widely);
	RUN(test_sample_looping_wraps_to_first_sample);
	RUN(test_sample_joint_and_scalar_match_pose);
	RUN(test_sample_remap_and_skip_defaults);
	RUN(test_sample_pose_animated_matches_full_sample);
	RUN(test_pose_paths_agree_on_wide_and_raw_knots);
	RUN(test_prefilled_segments_match_random_access);
	RUN(test_context_rejects_bad_arguments);
}

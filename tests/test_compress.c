// sinew — see include/sinew.h for version and licence
// compress: the error guarantee on randomized clips (property tests), decoded by the real
// decoder and measured with the shared metric, across the shapes that break codecs.
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "compress/compress_internal.h"

typedef struct gen_params {
	uint32_t joints, samples, scalars;
	double translation_scale; // bone length scale in clip units
	double unit_scale;        // clip units per metre
	double root_travel;       // root translation amplitude
	double spin;              // root yaw turns over the clip
	bool negative_scale, animated_scale, chain, looping;
	double noise;             // per-sample rotation noise (radians), mocap-like jitter
} gen_params;

static void axis_angle(double ax, double ay, double az, double angle, float q[4]) {
	double n = sqrt(ax * ax + ay * ay + az * az);
	double s = sin(angle * 0.5) / (n > 0 ? n : 1);
	q[0] = (float)(ax * s), q[1] = (float)(ay * s), q[2] = (float)(az * s), q[3] = (float)cos(angle * 0.5);
}

// Straightforward interpolation of two poses (lerp, slerp on the shortest arc as a keyed source's LINEAR
// rotation plays), in double.
static void sinew_qvv_lerp_ref(const sinew_qvv *a, const sinew_qvv *b, double f, sinew_qvv *out) {
	double q[4], dot = 0, n = 0;
	for (int k = 0; k < 4; ++k) dot += (double)a->rotation[k] * b->rotation[k];
	const double sign = dot < 0 ? -1.0 : 1.0, w = acos(fmin(1.0, fabs(dot)));
	const double wa = w > 1e-9 ? sin((1 - f) * w) / sin(w) : 1 - f, wb = w > 1e-9 ? sin(f * w) / sin(w) : f;
	for (int k = 0; k < 4; ++k) q[k] = a->rotation[k] * wa + b->rotation[k] * sign * wb, n += q[k] * q[k];
	for (int k = 0; k < 4; ++k) out->rotation[k] = (float)(q[k] / sqrt(n));
	for (int k = 0; k < 3; ++k) {
		out->translation[k] = (float)(a->translation[k] + (b->translation[k] - (double)a->translation[k]) * f);
		out->scale[k] = (float)(a->scale[k] + (b->scale[k] - (double)a->scale[k]) * f);
	}
}

// Smooth motion: every joint rotates with a few sines of random frequency and phase.
static sinew_clip *generate(sinew_clip_set *set, test_rng *rng, const gen_params *p) {
	uint32_t comps[8] = {1, 2, 3, 4, 1, 1, 2, 1};
	sinew_clip_desc desc = {"gen", 30, p->samples, p->joints, p->scalars, comps};
	sinew_clip *clip = NULL;
	if (sinew_clip_set_add_clip(set, &desc, &clip) != SINEW_RESULT_OK) return NULL;
	clip->unit_scale = p->unit_scale;
	clip->looping = p->looping;
	for (uint32_t j = 0; j < p->joints; ++j) {
		sinew_joint *joint = &clip->joints[j];
		joint->parent = j == 0 ? -1 : (p->chain ? (int32_t)j - 1 : (int32_t)(test_rand_u32(rng) % j));
		double f[3], ph[3], amp[3];
		for (int k = 0; k < 3; ++k) {
			f[k] = test_rand_range(rng, 0.1, 2.0);
			ph[k] = test_rand_range(rng, 0, 6.28);
			amp[k] = test_rand_range(rng, 0.0, 1.2) * (test_rand_unit(rng) < 0.3 ? 0.0 : 1.0);
		}
		float bone[3];
		for (int k = 0; k < 3; ++k) bone[k] = (float)(test_rand_range(rng, -1, 1) * p->translation_scale);
		bool static_joint = test_rand_unit(rng) < 0.2;
		for (uint32_t s = 0; s < p->samples; ++s) {
			double t = s / 30.0;
			sinew_qvv *x = &clip->transforms[(size_t)s * p->joints + j];
			float qa[4], qb[4], qc[4], tmp[4];
			double ang[3];
			for (int k = 0; k < 3; ++k)
				ang[k] = static_joint ? 0.3 : amp[k] * sin(6.283 * f[k] * t + ph[k]) + p->noise * test_rand_range(rng, -1, 1);
			if (j == 0) ang[1] += 6.283185307 * p->spin * (double)s / (p->samples > 1 ? p->samples - 1 : 1);
			axis_angle(1, 0, 0, ang[0], qa);
			axis_angle(0, 1, 0, ang[1], qb);
			axis_angle(0, 0, 1, ang[2], qc);
			// q = qb * qa * qc
			float r[4];
			tmp[0] = qb[3] * qa[0] + qb[0] * qa[3] + qb[1] * qa[2] - qb[2] * qa[1];
			tmp[1] = qb[3] * qa[1] - qb[0] * qa[2] + qb[1] * qa[3] + qb[2] * qa[0];
			tmp[2] = qb[3] * qa[2] + qb[0] * qa[1] - qb[1] * qa[0] + qb[2] * qa[3];
			tmp[3] = qb[3] * qa[3] - qb[0] * qa[0] - qb[1] * qa[1] - qb[2] * qa[2];
			r[0] = tmp[3] * qc[0] + tmp[0] * qc[3] + tmp[1] * qc[2] - tmp[2] * qc[1];
			r[1] = tmp[3] * qc[1] - tmp[0] * qc[2] + tmp[1] * qc[3] + tmp[2] * qc[0];
			r[2] = tmp[3] * qc[2] + tmp[0] * qc[1] - tmp[1] * qc[0] + tmp[2] * qc[3];
			r[3] = tmp[3] * qc[3] - tmp[0] * qc[0] - tmp[1] * qc[1] - tmp[2] * qc[2];
			double n = sqrt((double)r[0] * r[0] + (double)r[1] * r[1] + (double)r[2] * r[2] + (double)r[3] * r[3]);
			for (int k = 0; k < 4; ++k) x->rotation[k] = (float)(r[k] / n);
			memcpy(x->translation, bone, sizeof bone);
			if (j == 0)
				for (int k = 0; k < 3; ++k) x->translation[k] += (float)(p->root_travel * sin(0.7 * t + k));
			if (p->animated_scale && j % 3 == 1)
				for (int k = 0; k < 3; ++k) x->scale[k] = (float)(1.0 + 0.5 * sin(1.3 * t + k + j));
			if (p->negative_scale && j % 4 == 2) x->scale[j % 3] = -x->scale[j % 3];
		}
	}
	for (uint32_t i = 0; i < p->scalars; ++i) {
		sinew_scalar_track *tr = &clip->scalar_tracks[i];
		tr->precision = i % 2 ? 1e-3f : 1e-4f;
		double f = test_rand_range(rng, 0.2, 3.0);
		for (uint32_t s = 0; s < p->samples; ++s)
			for (uint32_t c = 0; c < tr->components; ++c) {
				double v = sin(f * s / 30.0 + c);
				if (i % 3 == 0) v = v < 0 ? 0.0 : v; // morph-weight-like: exact zeros half the time
				tr->values[(size_t)s * tr->components + c] = (float)v;
			}
	}
	return clip;
}

static bool nonnegative(const sinew_scalar_track *t, uint32_t samples) {
	for (size_t k = 0; k < (size_t)samples * t->components; ++k)
		if (t->values[k] < 0.0f) return false;
	return true;
}

// Compresses, validates, decompresses and measures; returns false with a message on failure.
static bool roundtrip(sinew_clip_set *set, const sinew_compress_options *opt, double *max_err, size_t *size_out,
                      char *why, size_t why_size) {
	void *blob = NULL;
	size_t size = 0;
	sinew_error err = {0};
	if (sinew_compress(set, opt, NULL, &blob, &size, &err) != SINEW_RESULT_OK) {
		snprintf(why, why_size, "compress: %s", err.message);
		return false;
	}
	if (size_out) *size_out = size;
	bool ok = sinew_validate(blob, size, &err) == SINEW_RESULT_OK;
	sinew_clip_set *out = NULL;
	if (!ok) snprintf(why, why_size, "validate: %s", err.message);
	if (ok && sinew_decompress_clips(blob, size, NULL, &out, &err) != SINEW_RESULT_OK) {
		snprintf(why, why_size, "decompress: %.200s", err.message);
		ok = false;
	}
	*max_err = 0;
	for (uint32_t i = 0; ok && i < set->clip_count; ++i) {
		sinew_clip *ref = set->clips[i];
		double threshold = (opt && opt->error_cm > 0 ? opt->error_cm : 0.01) * 0.01 * ref->unit_scale;
		double shell = (opt && opt->shell_cm > 0 ? opt->shell_cm : 3.0) * 0.01 * ref->unit_scale;
		sinew_metric_options mo = {.shell_distance = shell, .threshold = threshold};
		sinew_error_stats st;
		if (sinew_measure_error(ref, out->clips[i], &mo, NULL, &st, &err) != SINEW_RESULT_OK) {
			snprintf(why, why_size, "measure: %.200s", err.message);
			ok = false;
			break;
		}
		if (st.max_error / threshold > *max_err) *max_err = st.max_error / threshold;
		// through the decoder at samples, sample midpoints (check_midpoints) and check points
		sinew_error_stats bst;
		if (sinew_measure_blob_error(ref, blob, size, i, &mo, NULL, &bst, &err) != SINEW_RESULT_OK) {
			snprintf(why, why_size, "measure_blob: %.200s", err.message);
			ok = false;
			break;
		}
		if (bst.max_error / threshold > *max_err) *max_err = bst.max_error / threshold;
		// the same figures in centimetres (the clip's units: metres for glTF, centimetres for BVH)
		if (bst.max_error_cm != bst.max_error * 100.0 / ref->unit_scale || st.p99_error_cm != st.p99_error * 100.0 / ref->unit_scale) {
			snprintf(why, why_size, "clip %u: max_error_cm %.9g for %.9g clip units (unit_scale %g)", i, bst.max_error_cm,
			         bst.max_error, ref->unit_scale);
			ok = false;
			break;
		}
		if (bst.samples_over_threshold) {
			snprintf(why, why_size, "clip %u: max error %.6g (threshold %.6g) at joint %u t = %.6g s, %llu of %llu over", i,
			         bst.max_error, threshold, bst.worst_joint, bst.worst_time,
			         (unsigned long long)bst.samples_over_threshold, (unsigned long long)bst.measured);
			ok = false;
			break;
		}
		if (st.samples_over_threshold || st.scalar_over_precision) {
			snprintf(why, why_size, "clip %u: max error %.6g (threshold %.6g) at joint %u sample %u, %llu over; scalar over %llu",
			         i, st.max_error, threshold, st.worst_joint, st.worst_sample,
			         (unsigned long long)st.samples_over_threshold, (unsigned long long)st.scalar_over_precision);
			ok = false;
		}
		// exact zeros of scalar tracks stay exactly zero
		for (uint32_t t = 0; ok && t < ref->scalar_track_count; ++t) {
			size_t n = (size_t)ref->sample_count * ref->scalar_tracks[t].components;
			for (size_t k = 0; k < n; ++k)
				if (ref->scalar_tracks[t].values[k] == 0.0f && out->clips[i]->scalar_tracks[t].values[k] != 0.0f &&
				    nonnegative(&ref->scalar_tracks[t], ref->sample_count)) {
					snprintf(why, why_size, "scalar track %u value %zu: zero decoded as %g", t, k,
					         (double)out->clips[i]->scalar_tracks[t].values[k]);
					ok = false;
					break;
				}
		}
	}
	sinew_clip_set_free(out);
	sinew_blob_free(blob, size, NULL);
	return ok;
}

static void run_property(const gen_params *p, int trials, unsigned long long seed, double error_cm) {
	test_rng rng = {seed};
	for (int trial = 0; trial < trials; ++trial) {
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
		sinew_clip *clip = generate(set, &rng, p);
		CHECK(clip);
		clip->check_midpoints = (uint8_t)(trial % 2); // the guarantee between samples too, on every other trial
		sinew_compress_options opt = {.error_cm = error_cm};
		char why[300] = "";
		double ratio;
		bool ok = roundtrip(set, &opt, &ratio, NULL, why, sizeof why);
		sinew_clip_set_free(set);
		CHECK_MSG(ok, "trial %d: %s", trial, why);
		CHECK(ratio <= 1.0);
	}
}

static void test_compress_guarantee_on_random_hierarchies(void) {
	gen_params p = {.joints = 30, .samples = 70, .scalars = 0, .translation_scale = 15, .unit_scale = 100, .noise = 0.002};
	run_property(&p, 6, 11, 0.01);
	run_property(&p, 3, 12, 0.1);
}

static void test_compress_guarantee_on_deep_chains(void) {
	gen_params p = {.joints = 60, .samples = 40, .translation_scale = 10, .unit_scale = 100, .chain = true};
	run_property(&p, 3, 21, 0.01);
}

static void test_compress_guarantee_on_world_space_translations(void) {
	gen_params p = {.joints = 8, .samples = 50, .translation_scale = 50, .unit_scale = 100, .root_travel = 1e5};
	run_property(&p, 3, 31, 0.01);
}

static void test_compress_guarantee_on_tiny_models(void) {
	// metres, bones of 2 mm: thresholds in clip units are 1e-4
	gen_params p = {.joints = 20, .samples = 50, .translation_scale = 0.002, .unit_scale = 1};
	run_property(&p, 3, 41, 0.01);
}

static void test_compress_guarantee_with_scale(void) {
	gen_params p = {.joints = 16, .samples = 45, .translation_scale = 20, .unit_scale = 100, .negative_scale = true,
	                .animated_scale = true};
	run_property(&p, 4, 51, 0.01);
}

static void test_compress_guarantee_on_spins(void) {
	gen_params p = {.joints = 10, .samples = 90, .translation_scale = 20, .unit_scale = 100, .spin = 3.0};
	run_property(&p, 3, 61, 0.01);
}

static void test_compress_short_clips(void) {
	for (uint32_t n = 1; n <= 3; ++n) {
		gen_params p = {.joints = 12, .samples = n, .scalars = 3, .translation_scale = 20, .unit_scale = 100};
		run_property(&p, 2, 70 + n, 0.01);
		if (test_failed()) return;
	}
}

// A clip that midpoint knots cannot shorten (at most two knots per track: nothing to predict) encodes
// as without them: the plain run reuses the midpoint run's lone-segment encodings (compress.c), and the
// blob must be byte for byte what compressing without midpoint knots writes.
static void test_compress_short_clips_as_plain(void) {
	test_rng rng = {90};
	for (uint32_t n = 1; n <= 2; ++n)
		for (int looping = 0; looping < 2; ++looping) {
			gen_params p = {.joints = 12, .samples = n, .scalars = 2, .translation_scale = 20, .unit_scale = 100,
			                .looping = looping != 0};
			sinew_clip_set *set = NULL;
			sinew_error err = {0};
			CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
			CHECK(generate(set, &rng, &p));
			void *blob[2] = {NULL, NULL};
			size_t size[2] = {0, 0};
			for (int k = 0; k < 2; ++k) {
				sinew_compress_options opt = {.error_cm = 0.01, .midpoint_knots = k ? -1 : 0};
				CHECK_OK(sinew_compress(set, &opt, NULL, &blob[k], &size[k], &err), &err);
			}
			CHECK_MSG(size[0] == size[1] && memcmp(blob[0], blob[1], size[0]) == 0, "%u samples%s: %zu bytes, plain %zu", n,
			          looping ? " (looping)" : "", size[0], size[1]);
			for (int k = 0; k < 2; ++k) sinew_blob_free(blob[k], size[k], NULL);
			sinew_clip_set_free(set);
			if (test_failed()) return;
		}
}

// The f32-constants encoding of a short clip is left out (loses_to) only where encoding it in full
// gives more bytes than the Short_constants one and keeps the constants that make the 1 % rule weigh
// Short_constants after it: so the choice is the one both encodings give. Clips of 1 to 4 samples, as
// midpoint and plain runs do; some must be left out, some not (the test would pass on neither).
static void test_compress_f32_left_out_only_when_larger(void) {
	test_rng rng = {2211};
	int left = 0, kept = 0;
	for (uint32_t n = 1; n <= 4; ++n)
		for (int rep = 0; rep < 6; ++rep) {
			gen_params p = {.joints = 10 + 3 * (uint32_t)rep, .samples = n, .scalars = (uint32_t)rep % 3, .translation_scale = 20,
			                .unit_scale = 100, .looping = rep % 2 != 0, .noise = rep >= 3 ? 0.02 : 0.0};
			sinew_clip_set *set = NULL;
			sinew_error err = {0};
			CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
			sinew_clip *clip = generate(set, &rng, &p);
			CHECK(clip);
			sinew_compress_options opt = {.error_cm = 0.01, .midpoint_knots = rep % 2 ? -1 : 0};
			sinewi_compress_settings st;
			sinewi_compress_settings_resolve(&opt, &st);
			st.level = SINEW_LEVEL_HIGH; // as encode_clip compresses a short clip
			sinewi_arena arena;
			sinewi_arena_init(&arena, NULL);
			sinewi_clip_prep prep;
			CHECK_OK(sinewi_prepare_clip(clip, &st, &arena, &prep, &err), &err);
			sinewi_enc_clip *enc[2] = {NULL, NULL}, *probe = NULL;
			size_t size[2];
			for (int v = 0; v < 2; ++v) {
				sinewi_compress_settings s = st;
				s.short_constants = v != 0;
				CHECK_OK(sinewi_compress_clip(clip, &prep, &s, &arena, &enc[v], &err), &err);
				if (test_failed()) break;
				size[v] = sinewi_serialized_clip_size(enc[v], true, NULL);
			}
			sinewi_compress_settings s = st;
			s.short_constants = false;
			s.loses_to = test_failed() ? 0 : size[1];
			if (!test_failed()) CHECK_OK(sinewi_compress_clip(clip, &prep, &s, &arena, &probe, &err), &err);
			if (!test_failed()) {
				if (probe->left_out) {
					left++;
					CHECK_MSG(size[0] > size[1] && (uint64_t)sinewi_enc_constant_count(enc[0]) * 100 >= size[0],
					          "%u samples: f32 left out, but %zu bytes against %zu", n, size[0], size[1]);
				} else {
					kept++;
					CHECK_MSG(sinewi_serialized_clip_size(probe, true, NULL) == size[0], "%u samples: the kept encoding changed", n);
				}
			}
			sinewi_arena_free(&arena);
			sinew_clip_set_free(set);
			if (test_failed()) return;
		}
	CHECK_MSG(left > 0 && kept > 0, "left out %d, kept %d", left, kept);
}

// A run without midpoint knots that takes its first choices from a lone-segment run with them (replay)
// writes the bytes it writes when it searches them itself: random clips of 3 to 33 samples, both
// constant encodings, some of whose midpoint runs chose otherwise (so replay is what stands in). The
// replayed run also takes trial outcomes from the midpoint run's refinement where its tracks start
// alike (refine_memo.c); some do here, one with a track that decodes otherwise.
static void test_compress_replay_is_the_plain_search(void) {
	test_rng rng = {4455};
	int differed = 0;
	uint32_t taken = 0;
	for (uint32_t rep = 0; rep < 12; ++rep) {
		gen_params p = {.joints = 8 + 2 * rep, .samples = 9 + rep * 5 / 2, .scalars = rep % 2, .translation_scale = 20,
		                .unit_scale = 100, .looping = rep % 3 == 0, .spin = rep % 4 == 1 ? 0.5 : 0.0, .root_travel = rep % 2 ? 50 : 0};
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
		sinew_clip *clip = generate(set, &rng, &p);
		CHECK(clip);
		sinew_compress_options opt = {.error_cm = 0.01};
		sinewi_compress_settings st;
		sinewi_compress_settings_resolve(&opt, &st);
		st.level = SINEW_LEVEL_HIGH;
		sinewi_arena arena;
		sinewi_arena_init(&arena, NULL);
		sinewi_clip_prep prep;
		CHECK_OK(sinewi_prepare_clip(clip, &st, &arena, &prep, &err), &err);
		for (int v = 0; v < 2 && !test_failed(); ++v) {
			sinewi_compress_settings mid = st, plain = st;
			mid.short_constants = plain.short_constants = v != 0;
			mid.segment_length = 40, plain.segment_length = 40; // a lone segment in both
			plain.midpoint = false;
			sinewi_enc_clip *m = NULL, *enc[2] = {NULL, NULL};
			CHECK_OK(sinewi_compress_clip(clip, &prep, &mid, &arena, &m, &err), &err);
			if (test_failed()) break;
			differed += m->plain_differs != 0;
			void *blob[2] = {NULL, NULL};
			size_t size[2] = {0, 0};
			for (int k = 0; k < 2 && !test_failed(); ++k) {
				plain.replay = k ? m : NULL;
				CHECK_OK(sinewi_compress_clip(clip, &prep, &plain, &arena, &enc[k], &err), &err);
				if (!test_failed()) CHECK_OK(sinewi_serialize(&enc[k], 1, true, 0, &arena, NULL, &blob[k], &size[k], &err), &err);
			}
			if (!test_failed()) {
				CHECK_MSG(size[0] == size[1] && memcmp(blob[0], blob[1], size[0]) == 0, "%u samples, constants %d: %zu bytes, replayed %zu",
				          p.samples, v, size[0], size[1]);
				taken += enc[1]->refine_taken;
			}
			for (int k = 0; k < 2; ++k) sinew_blob_free(blob[k], size[k], NULL);
		}
		sinewi_arena_free(&arena);
		sinew_clip_set_free(set);
		if (test_failed()) return;
	}
	CHECK_MSG(differed > 0, "no midpoint run chose otherwise: the replay was not tested");
	CHECK_MSG(taken > 0, "no refinement followed the midpoint run's: the refinement memo was not tested");
}

// A search that answers fit tests from what the clip's earlier searches learnt (prep->fits) chooses what
// it chooses testing them: random clips of 1 to 9 samples and two of several segments, both constant
// encodings in turn (the second
// learns from the first, each from its earlier attempts), at 0.1 cm after 0.01 cm and the other way
// round on preparations that share one memo (what a sample's error is does not depend on the bound, and
// budgets ten times apart put the memo's bounds to the test), against the same encodings on a
// preparation that keeps nothing.
static void test_compress_fit_memo_is_the_search(void) {
	test_rng rng = {9871};
	uint32_t learnt = 0;
	for (uint32_t rep = 0; rep < 12 && !test_failed(); ++rep) {
		gen_params p = {.joints = 6 + 3 * (rep % 6), .samples = rep % 6 == 5 ? 41 + rep : 1 + (rep % 6) * 2, .scalars = rep % 2, .translation_scale = 20,
		                .unit_scale = 100, .noise = rep % 6 == 5 ? 0.02 : rep % 3 ? 0.002 : 0.0, .animated_scale = rep % 4 == 3, .root_travel = rep % 2 ? 50 : 0};
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
		sinew_clip *clip = generate(set, &rng, &p);
		CHECK(clip);
		sinewi_arena arena;
		sinewi_arena_init(&arena, NULL);
		struct sinewi_fit_memo **shared = NULL;
		for (int b = 0; b < 2 && !test_failed(); ++b) {
			sinew_compress_options opt = {.error_cm = (b == 0) == (rep < 6) ? 0.01 : 0.1};
			sinewi_compress_settings st;
			sinewi_compress_settings_resolve(&opt, &st);
			st.level = SINEW_LEVEL_HIGH;
			sinewi_clip_prep prep[2];
			for (int k = 0; k < 2; ++k) CHECK_OK(sinewi_prepare_clip(clip, &st, &arena, &prep[k], &err), &err);
			if (test_failed()) break;
			CHECK_MSG(prep[0].fits != NULL, "a short clip's preparation keeps no fit memo");
			if (b == 0) shared = prep[0].fits;
			else prep[0].fits = shared;
			prep[1].fits = NULL;
			for (int v = 1; v >= 0 && !test_failed(); --v) {
				sinewi_compress_settings s = st;
				s.short_constants = v != 0;
				void *blob[2] = {NULL, NULL};
				size_t size[2] = {0, 0};
				for (int k = 0; k < 2 && !test_failed(); ++k) {
					sinewi_enc_clip *enc = NULL;
					CHECK_OK(sinewi_compress_clip(clip, &prep[k], &s, &arena, &enc, &err), &err);
					if (test_failed()) break;
					if (k == 0) learnt += enc->fits_learnt;
					else CHECK(enc->fits_learnt == 0);
					CHECK_OK(sinewi_serialize(&enc, 1, true, 0, &arena, NULL, &blob[k], &size[k], &err), &err);
				}
				if (!test_failed())
					CHECK_MSG(size[0] == size[1] && memcmp(blob[0], blob[1], size[0]) == 0,
					          "%u samples, %g cm, constants %d: %zu bytes learning, %zu not", p.samples, opt.error_cm, v, size[0], size[1]);
				for (int k = 0; k < 2; ++k) sinew_blob_free(blob[k], size[k], NULL);
			}
		}
		sinewi_arena_free(&arena);
		sinew_clip_set_free(set);
	}
	CHECK_MSG(learnt > 0, "no fit test was answered from the memo: it was not tested");
}

static void test_compress_looping_clips(void) {
	gen_params p = {.joints = 12, .samples = 33, .scalars = 2, .translation_scale = 20, .unit_scale = 100, .looping = true};
	run_property(&p, 3, 81, 0.01);
}

// A looping clip whose last sample repeats the first stores it once (the wrap sample), and
// decompression gives the source's sample count back (docs/format.md, Last_repeats_first).
static void test_compress_looping_clip_ending_on_first_pose(void) {
	test_rng rng = {123};
	gen_params p = {.joints = 10, .samples = 41, .scalars = 2, .translation_scale = 20, .unit_scale = 100, .looping = true};
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	sinew_clip *clip = generate(set, &rng, &p);
	CHECK(clip);
	memcpy(&clip->transforms[40 * 10], &clip->transforms[0], 10 * sizeof(sinew_qvv));
	for (uint32_t i = 0; i < 2; ++i) {
		uint32_t n = clip->scalar_tracks[i].components;
		memcpy(clip->scalar_tracks[i].values + 40 * n, clip->scalar_tracks[i].values, n * sizeof(float));
	}
	void *blob = NULL;
	size_t size = 0;
	CHECK_OK(sinew_compress(set, NULL, NULL, &blob, &size, &err), &err);
	sinew_clip_info info;
	CHECK_OK(sinew_blob_clip_info(blob, size, 0, &info, &err), &err);
	CHECK_EQ(info.sample_count, 41);
	CHECK_NEAR(info.duration, 40.0 / 30.0, 1e-12);
	char why[300] = "";
	double ratio;
	bool ok = roundtrip(set, NULL, &ratio, NULL, why, sizeof why); // counts must match for the metric
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
	CHECK_MSG(ok, "%s", why);
}

static void test_compress_scalar_tracks_keep_precision_and_zeros(void) {
	gen_params p = {.joints = 3, .samples = 80, .scalars = 8, .translation_scale = 20, .unit_scale = 100};
	run_property(&p, 3, 91, 0.01);
}

static void test_compress_constant_clip_is_small(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	sinew_clip_desc desc = {"still", 30, 300, 20, 0, NULL};
	sinew_clip *clip = NULL;
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &clip), &err);
	clip->unit_scale = 100;
	for (uint32_t j = 0; j < 20; ++j) {
		clip->joints[j].parent = (int32_t)j - 1;
		for (uint32_t s = 0; s < 300; ++s) clip->transforms[(size_t)s * 20 + j].translation[1] = 10.0f;
	}
	sinew_compress_options opt = {.strip_metadata = 1};
	char why[300];
	double ratio;
	size_t size = 0;
	bool ok = roundtrip(set, &opt, &ratio, &size, why, sizeof why);
	sinew_clip_set_free(set);
	CHECK_MSG(ok, "%s", why);
	CHECK(ratio == 0.0); // identity rotations and exact constants decode exactly
	// 20 constant translations (12 bytes each) + headers; no segment data beyond descriptors
	CHECK_MSG(size < 600, "constant clip took %zu bytes", size);
}

static void test_compress_rejects_invalid_clips(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	void *blob = NULL;
	size_t size = 0;
	CHECK_RESULT(sinew_compress(set, NULL, NULL, &blob, &size, &err), SINEW_RESULT_BAD_COUNT, &err);
	sinew_clip_desc desc = {"bad", 30, 5, 2, 0, NULL};
	sinew_clip *clip = NULL;
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &clip), &err);
	clip->transforms[3].rotation[0] = NAN;
	CHECK_RESULT(sinew_compress(set, NULL, NULL, &blob, &size, &err), SINEW_RESULT_NOT_FINITE, &err);
	CHECK(blob == NULL);
	sinew_clip_set_free(set);
}


// Compresses `set` and measures clip 0 through the decoder (samples, midpoints, check points).
static bool compress_and_measure(sinew_clip_set *set, const sinew_compress_options *opt, sinew_error_stats *st,
                                 size_t *size_out) {
	void *blob = NULL;
	size_t size = 0;
	sinew_error err = {0};
	if (sinew_compress(set, opt, NULL, &blob, &size, &err) != SINEW_RESULT_OK) {
		test_fail(__FILE__, __LINE__, "compress: %s", err.message);
		return false;
	}
	if (size_out) *size_out = size;
	bool ok = sinew_measure_blob_error(set->clips[0], blob, size, 0, NULL, NULL, st, &err) == SINEW_RESULT_OK;
	if (!ok) test_fail(__FILE__, __LINE__, "measure: %s", err.message);
	sinew_blob_free(blob, size, NULL);
	return ok;
}

// Check points carry the source's pose between samples (a curve the samples do not follow): the
// compressor meets the threshold there too, and sinew_measure_blob_error measures exactly there.
static void test_compress_guarantee_at_check_points(void) {
	test_rng rng = {0x5eed};
	gen_params p = {.joints = 12, .samples = 40, .translation_scale = 15, .unit_scale = 100, .chain = true};
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	sinew_clip *clip = generate(set, &rng, &p);
	CHECK(clip);
	const uint32_t nj = clip->joint_count, n = 39;
	clip->check_midpoints = 1;
	clip->check_count = n;
	clip->check_times = (double *)sinew_clip_set_alloc(set, n * sizeof(double));
	clip->check_transforms = (sinew_qvv *)sinew_clip_set_alloc(set, (size_t)n * nj * sizeof(sinew_qvv));
	CHECK(clip->check_times && clip->check_transforms);
	// at u = k + 0.3: the samples' interpolation plus a bend of the root and of joint 3 of 0.4 threshold
	// on the 3 cm shell (what a cubic segment does between samples)
	for (uint32_t k = 0; k < n; ++k) {
		clip->check_times[k] = (k + 0.3) / 30.0;
		for (uint32_t j = 0; j < nj; ++j) {
			const sinew_qvv *a = &clip->transforms[(size_t)k * nj + j], *b = a + nj;
			sinew_qvv *x = &clip->check_transforms[(size_t)k * nj + j];
			sinew_qvv_lerp_ref(a, b, 0.3, x);
			if (j == 0 || j == 3) x->translation[1] += 0.004f;
		}
	}
	sinew_error_stats st;
	CHECK(compress_and_measure(set, NULL, &st, NULL));
	CHECK_MSG(st.max_error <= 0.01, "max %.6g cm at joint %u t = %.6g", st.max_error, st.worst_joint, st.worst_time);
	CHECK_EQ(st.measured, (uint64_t)(40 + 39 + 39) * nj);
	// A check pose off by 0.2 cm (resampling that used more than the threshold, as the importer reports in
	// resample_error): at defaults compression fails, with one line naming the clip, the node, the time and the
	// error (it used to write the blob and report 0.2 cm); with allow_over_bound it writes the blob, marks the
	// clip Over_bound, and the measurement finds that time.
	clip->check_transforms[(size_t)17 * nj].translation[0] += 0.2f;
	void *blob = NULL;
	size_t size = 0;
	CHECK_RESULT(sinew_compress(set, NULL, NULL, &blob, &size, &err), SINEW_RESULT_OVER_BOUND, &err);
	CHECK(blob == NULL && size == 0);
	CHECK_MSG(strstr(err.message, "clip 'gen'") && strstr(err.message, "joint ") && strstr(err.message, "t = 0.576667 s") &&
	              strstr(err.message, "0.2 cm off") && strstr(err.message, "even at full precision"),
	          "%s", err.message);
	// An importer that reports it (resample_error, where) has the clip refused before any search, naming the same
	// joint and time
	clip->resample_error = 0.2, clip->resample_joint = 0, clip->resample_time = 17.3 / 30.0;
	CHECK_RESULT(sinew_compress(set, NULL, NULL, &blob, &size, &err), SINEW_RESULT_OVER_BOUND, &err);
	CHECK(blob == NULL && size == 0);
	CHECK_MSG(strstr(err.message, "clip 'gen': joint 0 is 0.2 cm off the source at t = 0.576667 s before any compression "
	                              "(threshold 0.01 cm): samples cannot follow its curves closer"),
	          "%s", err.message);
	sinew_compress_options allow = {.allow_over_bound = 1};
	CHECK(compress_and_measure(set, &allow, &st, NULL));
	CHECK_MSG(st.max_error > 0.19 && st.max_error < 0.2 + 0.01, "max %.6g", st.max_error);
	CHECK_NEAR(st.worst_time, 17.3 / 30.0, 1e-12);
	CHECK_OK(sinew_compress(set, &allow, NULL, &blob, &size, &err), &err);
	sinew_clip_info info;
	CHECK_OK(sinew_blob_clip_info(blob, size, 0, &info, &err), &err);
	CHECK_EQ(info.over_bound, 1);
	sinew_blob_free(blob, size, NULL);
	clip->check_transforms[(size_t)17 * nj].translation[0] -= 0.2f; // back within reach: not marked
	clip->resample_error = 0.0;
	CHECK_OK(sinew_compress(set, &allow, NULL, &blob, &size, &err), &err);
	CHECK_OK(sinew_blob_clip_info(blob, size, 0, &info, &err), &err);
	CHECK_EQ(info.over_bound, 0);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

// The shell is in scene units: the same motion under an armature scaled by 0.001, 1 or 100 at rest and
// in every sample (child translations divided to match, as exporters write them) meets the threshold in
// scene units and costs about the same. With the shell in local units the 0.001 armature would get 0.003 cm shells and
// 1000 times the precision, the 100 armature 3 m shells and errors over the threshold.
static void test_compress_shell_in_scene_units(void) {
	const float scales[] = {0.001f, 1.0f, 100.0f};
	size_t sizes[3] = {0, 0, 0};
	for (int i = 0; i < 3; ++i) {
		test_rng rng = {777};
		gen_params p = {.joints = 16, .samples = 60, .translation_scale = 12, .unit_scale = 100, .chain = true};
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
		sinew_clip *clip = generate(set, &rng, &p);
		CHECK(clip);
		for (int k = 0; k < 3; ++k) clip->joints[0].default_pose.scale[k] = scales[i];
		for (uint32_t s = 0; s < clip->sample_count; ++s)
			for (uint32_t j = 0; j < clip->joint_count; ++j) {
				sinew_qvv *x = &clip->transforms[(size_t)s * clip->joint_count + j];
				for (int k = 0; k < 3; ++k) {
					if (j == 0) x->scale[k] = scales[i];
					else x->translation[k] /= scales[i];
				}
			}
		sinew_compress_options opt = {.strip_metadata = 1};
		sinew_error_stats st;
		CHECK(compress_and_measure(set, &opt, &st, &sizes[i]));
		sinew_clip_set_free(set);
		CHECK_MSG(st.max_error <= 0.01, "armature scale %g: max %.6g cm", (double)scales[i], st.max_error);
	}
	for (int i = 0; i < 3; ++i)
		CHECK_MSG((double)sizes[i] < (double)sizes[1] * 1.15 && (double)sizes[i] > (double)sizes[1] * 0.85, "armature scale %g: %zu bytes, %zu at 1",
		          (double)scales[i], sizes[i], sizes[1]);
}

void suite_compress(void) {
	RUN(test_compress_guarantee_on_random_hierarchies);
	RUN(test_compress_guarantee_on_deep_chains);
	RUN(test_compress_guarantee_on_world_space_translations);
	RUN(test_compress_guarantee_on_tiny_models);
	RUN(test_compress_guarantee_with_scale);
	RUN(test_compress_guarantee_on_spins);
	RUN(test_compress_short_clips);
	RUN(test_compress_short_clips_as_plain);
	RUN(test_compress_f32_left_out_only_when_larger);
	RUN(test_compress_replay_is_the_plain_search);
	RUN(test_compress_fit_memo_is_the_search);
	RUN(test_compress_looping_clips);
	RUN(test_compress_looping_clip_ending_on_first_pose);
	RUN(test_compress_scalar_tracks_keep_precision_and_zeros);
	RUN(test_compress_constant_clip_is_small);
	RUN(test_compress_rejects_invalid_clips);
	RUN(test_compress_guarantee_at_check_points);
	RUN(test_compress_shell_in_scene_units);
}

// sinew — see include/sinew.h for version and licence
// core: quaternion math against double references; the error metric against an independent
// double-precision reference (point-by-point through the chain, no matrix composition).
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base.h"
#include "core/codec_math.h"
#include "core/quat.h"
#include "core/metric.h"

// Reference rotation of v by q in double: q * (0,v) * conj(q).
static void ref_rotate(const double q[4], const double v[3], double out[3]) {
	double p[4] = {v[0], v[1], v[2], 0.0}, t[4], c[4] = {-q[0], -q[1], -q[2], q[3]}, r[4];
	sinewi_quat_mul_d(q, p, t);
	sinewi_quat_mul_d(t, c, r);
	out[0] = r[0], out[1] = r[1], out[2] = r[2];
}

static void test_quat_mul_matches_double(void) {
	test_rng rng = {0x1234};
	for (int i = 0; i < 1000; ++i) {
		float a[4], b[4], r[4];
		test_random_quat(&rng, a);
		test_random_quat(&rng, b);
		sinewi_quat_mul(a, b, r);
		double ad[4] = {a[0], a[1], a[2], a[3]}, bd[4] = {b[0], b[1], b[2], b[3]}, rd[4];
		sinewi_quat_mul_d(ad, bd, rd);
		for (int k = 0; k < 4; ++k) CHECK_NEAR(r[k], rd[k], 1e-6);
	}
}

static void test_quat_rotate_matches_double(void) {
	test_rng rng = {0x777};
	for (int i = 0; i < 1000; ++i) {
		float q[4], v[3], r[3];
		test_random_quat(&rng, q);
		for (int k = 0; k < 3; ++k) v[k] = (float)test_rand_range(&rng, -100, 100);
		sinewi_quat_rotate(q, v, r);
		double qd[4] = {q[0], q[1], q[2], q[3]}, vd[3] = {v[0], v[1], v[2]}, rd[3];
		ref_rotate(qd, vd, rd);
		for (int k = 0; k < 3; ++k) CHECK_NEAR(r[k], rd[k], 1e-4);
	}
}

static void test_quat_nlerp_takes_shortest_arc(void) {
	float a[4] = {0, 0, 0, 1}, b[4] = {0, 0, -0.0998334f, -0.9950042f}; // -q of a 0.2 rad turn
	float r[4];
	sinewi_quat_nlerp(a, b, 0.5f, r);
	// halfway along the short arc: 0.1 rad about z, w stays positive
	CHECK(r[3] > 0.99f);
	CHECK_NEAR(r[2], 0.0499792, 1e-5);
	CHECK_NEAR(sinewi_quat_length(r), 1.0, 1e-6);
	sinewi_quat_nlerp(a, b, 0.0f, r);
	CHECK_NEAR(r[3], 1.0, 1e-7);
}

// Slerp_fit (docs/format.md §Slerp fit): nlerp at the fitted parameter against slerp in double, for random
// axes and turns, either sign of the second quaternion; the fitted parameter increases with t for any dot.
static void test_slerp_fit_follows_slerp(void) {
	test_rng rng = {0x5f17};
	const double limits[][2] = {{0.3, 5e-7}, {0.8, 5e-7}, {1.6, 8e-6}}; // turn (rad), allowed angle (rad)
	for (int l = 0; l < 3; ++l) {
		double worst = 0, worst_plain = 0;
		for (int i = 0; i < 2000; ++i) {
			float a[4], axis[4];
			test_random_quat(&rng, a);
			test_random_quat(&rng, axis);
			double n = sqrt((double)axis[0] * axis[0] + (double)axis[1] * axis[1] + (double)axis[2] * axis[2]);
			double turn = test_rand_range(&rng, 0.0, limits[l][0]), hs = sin(turn / 2) / n, hc = cos(turn / 2);
			double d[4] = {axis[0] * hs, axis[1] * hs, axis[2] * hs, hc}, ad[4] = {a[0], a[1], a[2], a[3]}, bd[4];
			sinewi_quat_mul_d(d, ad, bd);
			float b[4], sign = (i & 1) ? -1.0f : 1.0f;
			for (int k = 0; k < 4; ++k) b[k] = sign * (float)bd[k];
			for (int s = 1; s < 16; ++s) {
				float t = (float)s / 16.0f, r[4], p[4];
				sinewi_quat_nlerp_fit(a, b, t, sinewi_slerp_fit, r);
				sinewi_quat_nlerp(a, b, t, p);
				// the exact slerp: the turn by t * turn about the same axis, then a
				double e[4] = {axis[0] * sin(t * turn / 2) / n, axis[1] * sin(t * turn / 2) / n,
				               axis[2] * sin(t * turn / 2) / n, cos(t * turn / 2)}, want[4];
				sinewi_quat_mul_d(e, ad, want);
				// the angle between two unit quaternions from their chord (acos near 1 would lose it)
				double dr = 0, dp = 0, cr = 0, cp = 0;
				for (int k = 0; k < 4; ++k) dr += r[k] * want[k], dp += p[k] * want[k];
				for (int k = 0; k < 4; ++k) {
					double x = r[k] - (dr < 0 ? -want[k] : want[k]), y = p[k] - (dp < 0 ? -want[k] : want[k]);
					cr += x * x, cp += y * y;
				}
				double er = 4 * asin(fmin(1.0, sqrt(cr) / 2)), ep = 4 * asin(fmin(1.0, sqrt(cp) / 2));
				if (er > worst) worst = er;
				if (ep > worst_plain) worst_plain = ep;
			}
		}
		// the float32 quaternions alone are 1e-7 rad apart from the double ones
		CHECK_MSG(worst <= limits[l][1], "turns to %.1f rad: fitted %.3g rad (nlerp %.3g)", limits[l][0], worst, worst_plain);
		CHECK_MSG(limits[l][0] < 0.5 || worst_plain > 10 * worst, "nlerp %.3g fitted %.3g", worst_plain, worst);
	}
	// the fit itself, in double: the angle nlerp at alpha' reaches along the arc, against alpha times the arc
	const double fit_limits[][2] = {{0.3, 2.5e-8}, {0.8, 7e-8}, {1.6, 5e-6}};
	for (int l = 0; l < 3; ++l) {
		double worst = 0;
		for (int i = 1; i <= 100; ++i) {
			double w = limits[l][0] / 2 * i / 100; // half the turn: the arc between the quaternions
			for (int s = 1; s < 256; ++s) {
				double t = s / 256.0, u = sinewi_fit_alpha_d(t, cos(w));
				double e = 2 * fabs(atan2(u * sin(w), (1 - u) + u * cos(w)) - t * w);
				if (e > worst) worst = e;
			}
		}
		CHECK_MSG(worst <= fit_limits[l][1], "turns to %.1f rad: fit %.3g rad", limits[l][0], worst);
	}
	for (int i = 0; i <= 100; ++i) {
		float d = (float)i / 100.0f, prev = 0.0f;
		CHECK(sinewi_fit_alpha(0.0f, d, sinewi_slerp_fit) == 0.0f && sinewi_fit_alpha(1.0f, d, sinewi_slerp_fit) == 1.0f);
		CHECK(sinewi_fit_alpha(0.5f, d, sinewi_slerp_fit) == 0.5f);
		for (int s = 1; s <= 1024; ++s) {
			float u = sinewi_fit_alpha((float)s / 1024.0f, d, sinewi_slerp_fit);
			CHECK_MSG(u > prev, "d %g: alpha' not increasing at %d/1024", (double)d, s);
			prev = u;
		}
	}
}

static void test_quat_matrix_matches_rotate(void) {
	test_rng rng = {99};
	for (int i = 0; i < 200; ++i) {
		float qf[4];
		test_random_quat(&rng, qf);
		double q[4] = {qf[0], qf[1], qf[2], qf[3]}, m[3][3], v[3] = {1.5, -2, 0.25}, r[3];
		sinewi_quat_normalize_d(q);
		sinewi_quat_to_matrix_d(q, m);
		ref_rotate(q, v, r);
		for (int k = 0; k < 3; ++k) CHECK_NEAR(m[k][0] * v[0] + m[k][1] * v[1] + m[k][2] * v[2], r[k], 1e-12);
	}
}

// The division tables hold the correctly rounded quotients a decoder that divides (-DSINEW_DIVIDE,
// the wasm build) computes at run time: both give the same bits.
static void test_division_tables_match_runtime_division(void) {
	for (uint32_t q = 0; q < 256; ++q) {
		volatile float n = (float)q, d = 255.0f;
		float runtime = n / d, table = sinewi_fraction_255(q);
		CHECK_MSG(memcmp(&runtime, &table, 4) == 0, "q %u: %.9g vs %.9g", q, (double)runtime, (double)table);
	}
	for (uint32_t w = 1; w <= SINEWI_MAX_WIDTH; ++w) {
		volatile float one = 1.0f, d = (float)((1u << w) - 1u);
		float runtime = one / d, table = sinewi_inverse_steps(w);
		CHECK_MSG(memcmp(&runtime, &table, 4) == 0, "width %u", w);
	}
}

// The compressor's shortcut for rotation errors (sinewi_chord_surely_within) never passes what the
// exact error would not: random unit x in double, decoded y in float a small random rotation away (down
// to the float grid), gains over six decades and budgets within 1e-6 of the exact error, above and below.
// And it is a shortcut: with 1 % of room it passes nearly everything.
static void test_chord_shortcut_is_safe(void) {
	test_rng rng = {20261203};
	unsigned passed = 0, wrong = 0, roomy = 0, roomy_passed = 0;
	for (int n = 0; n < 200000; ++n) {
		double x[4], len = 0.0;
		for (int k = 0; k < 4; ++k) x[k] = test_rand_range(&rng, -1, 1), len += x[k] * x[k];
		if (len < 1e-6) continue;
		sinewi_quat_normalize_d(x);
		const double angle = pow(10.0, test_rand_range(&rng, -8, -0.5)), sign = test_rand_unit(&rng) < 0.5 ? -1.0 : 1.0;
		float y[4];
		double axis[4], dot = 0.0;
		for (int k = 0; k < 4; ++k) axis[k] = test_rand_range(&rng, -1, 1);
		for (int k = 0; k < 4; ++k) dot += axis[k] * x[k];
		for (int k = 0; k < 4; ++k) axis[k] -= dot * x[k]; // orthogonal to x: y = x cos + axis sin
		sinewi_quat_normalize_d(axis);
		for (int k = 0; k < 4; ++k) y[k] = (float)(sign * (x[k] * cos(angle) + axis[k] * sin(angle)));
		const double lever = pow(10.0, test_rand_range(&rng, -3, 3)), max_scale = test_rand_range(&rng, 0.5, 2), gain = test_rand_range(&rng, 0.5, 2);
		const double exact = sinewi_rotation_chord_n(x, y) * lever * max_scale * gain; // as the compressor's sample_error
		const double budget = exact * (1.0 + test_rand_range(&rng, -1e-6, 1e-6));
		const bool fast = sinewi_chord_surely_within(x, y, sinewi_chord_sure2(budget, lever * max_scale * gain));
		passed += fast;
		if (fast && !(exact <= budget)) wrong++;
		const bool fast_roomy = sinewi_chord_surely_within(x, y, sinewi_chord_sure2(exact * 1.01, lever * max_scale * gain));
		if (sinewi_rotation_chord_n(x, y) > 1e-5) roomy++, roomy_passed += fast_roomy; // chords well above the margins
	}
	CHECK_MSG(wrong == 0, "%u of %u passed near the boundary while the exact error was over", wrong, passed);
	CHECK_MSG(roomy_passed >= roomy * 0.99, "only %u of %u passed with 1 %% room", roomy_passed, roomy);
}

void suite_core_math(void) {
	RUN(test_chord_shortcut_is_safe);
	RUN(test_division_tables_match_runtime_division);
	RUN(test_quat_mul_matches_double);
	RUN(test_quat_rotate_matches_double);
	RUN(test_quat_nlerp_takes_shortest_arc);
	RUN(test_slerp_fit_follows_slerp);
	RUN(test_quat_matrix_matches_rotate);
}

/* ---- error metric ---- */

// Object-space image of point p given in joint j's frame, applying local transforms one by one.
static void ref_point(const sinew_joint *joints, const sinew_qvv *pose, int j, const double p[3], double out[3]) {
	double cur[3] = {p[0], p[1], p[2]};
	for (int k = j; k >= 0; k = joints[k].parent) {
		const sinew_qvv *x = &pose[k];
		double s[3] = {cur[0] * x->scale[0], cur[1] * x->scale[1], cur[2] * x->scale[2]};
		double q[4] = {x->rotation[0], x->rotation[1], x->rotation[2], x->rotation[3]}, r[3];
		sinewi_quat_normalize_d(q);
		ref_rotate(q, s, r);
		for (int i = 0; i < 3; ++i) cur[i] = r[i] + x->translation[i];
	}
	memcpy(out, cur, sizeof cur);
}

// Length of the image of joint j's unit axis in `pose` (the axis minus the origin).
static double ref_axis_length(const sinew_joint *joints, const sinew_qvv *pose, int j, int axis) {
	double zero[3] = {0, 0, 0}, unit[3] = {0, 0, 0}, o[3], e[3];
	unit[axis] = 1.0;
	ref_point(joints, pose, j, zero, o);
	ref_point(joints, pose, j, unit, e);
	return sqrt((e[0] - o[0]) * (e[0] - o[0]) + (e[1] - o[1]) * (e[1] - o[1]) + (e[2] - o[2]) * (e[2] - o[2]));
}

// Scene-space shell point (DESIGN §4): the local point sign * d / sigma along the joint's axis, sigma
// the axis length at rest (the joints' default poses), mapped through the pose. A rest axis shorter
// than 1e-3 of the reference pose's takes that one (sinew_pose_error sees one pose).
static void ref_shell_point(const sinew_joint *joints, const sinew_qvv *rest, const sinew_qvv *ref, const sinew_qvv *pose,
                            int j, int axis, double sign, double d, double out[3]) {
	double sigma = ref_axis_length(joints, rest, j, axis), m = ref_axis_length(joints, ref, j, axis);
	if (!(sigma >= 1e-3 * m)) sigma = m;
	double p[3] = {0, 0, 0};
	p[axis] = sigma > 1e-30 ? sign * d / sigma : 0.0;
	ref_point(joints, pose, j, p, out);
}

static double ref_joint_error(const sinew_joint *joints, const sinew_qvv *a, const sinew_qvv *b, int j, double d) {
	sinew_qvv rest[32];
	for (int k = 0; k <= j; ++k) rest[k] = joints[k].default_pose;
	double worst = 0;
	for (int k = 0; k < 7; ++k) { // the origin, then +-d along each axis
		double pa[3], pb[3];
		int axis = k == 0 ? 0 : (k - 1) / 2;
		double sign = k == 0 ? 0.0 : (k % 2 ? 1.0 : -1.0);
		ref_shell_point(joints, rest, a, a, j, axis, sign, d, pa);
		ref_shell_point(joints, rest, a, b, j, axis, sign, d, pb);
		double e = sqrt((pa[0] - pb[0]) * (pa[0] - pb[0]) + (pa[1] - pb[1]) * (pa[1] - pb[1]) +
		                (pa[2] - pb[2]) * (pa[2] - pb[2]));
		if (e > worst) worst = e;
	}
	return worst;
}

// The shell does not grow or shrink with the ancestors' scale: under a root scaled by s, a child's
// rotation error moves its shell points by d * chord, not s * d * chord.
static void test_metric_shell_is_in_scene_units(void) {
	sinew_joint joints[2];
	memset(joints, 0, sizeof joints);
	joints[0].parent = -1;
	joints[1].parent = 0;
	const double scales[] = {0.001, 0.3, 1.0, 100.0};
	for (int i = 0; i < 4; ++i) {
		sinew_qvv a[2], b[2];
		for (int j = 0; j < 2; ++j) {
			memset(&a[j], 0, sizeof a[j]);
			a[j].rotation[3] = 1.0f;
			for (int k = 0; k < 3; ++k) a[j].scale[k] = 1.0f;
		}
		for (int k = 0; k < 3; ++k) a[0].scale[k] = (float)scales[i];
		a[1].translation[1] = 10.0f;
		joints[0].default_pose = a[0], joints[1].default_pose = a[1]; // the armature is scaled at rest
		b[0] = a[0], b[1] = a[1];
		// the child turns by 0.01 rad about z: its x shell point moves by 2 d sin(0.005)
		b[1].rotation[2] = (float)sin(0.005), b[1].rotation[3] = (float)cos(0.005);
		double errors[2];
		_Alignas(16) unsigned char scratch[2 * (2 * 96 + 48) + 64];
		CHECK(sinew_pose_error_scratch_size(2) <= sizeof scratch);
		sinew_pose_error(joints, 2, a, b, NULL, 3.0, scratch, errors);
		CHECK_NEAR(errors[0], 0.0, 1e-12);
		CHECK_MSG(fabs(errors[1] - 6.0 * sin(0.005)) <= 1e-6, "root scale %g: %.9g", scales[i], errors[1]);
		// a root translation moves the child's origin (and every shell point) by the same amount
		b[1] = a[1];
		b[0].translation[0] = 0.25f;
		sinew_pose_error(joints, 2, a, b, NULL, 3.0, scratch, errors);
		CHECK_NEAR(errors[1], 0.25, 1e-7);
	}
}

static void random_qvv(test_rng *rng, sinew_qvv *x, double tscale, bool negative_scale) {
	test_random_quat(rng, x->rotation);
	for (int k = 0; k < 3; ++k) {
		x->translation[k] = (float)test_rand_range(rng, -tscale, tscale);
		double s = test_rand_range(rng, 0.3, 2.5);
		if (negative_scale && test_rand_unit(rng) < 0.3) s = -s;
		x->scale[k] = (float)s;
	}
}

static void test_metric_matches_reference_on_random_hierarchies(void) {
	test_rng rng = {0xabcdef};
	for (int trial = 0; trial < 50; ++trial) {
		uint32_t n = 1 + test_rand_u32(&rng) % 30;
		sinew_joint joints[30];
		sinew_qvv a[30], b[30];
		float shells[30];
		memset(joints, 0, sizeof joints);
		for (uint32_t j = 0; j < n; ++j) {
			joints[j].parent = j == 0 ? -1 : (int32_t)(test_rand_u32(&rng) % j);
			if (j > 0 && test_rand_unit(&rng) < 0.1) joints[j].parent = -1; // several roots
			shells[j] = (float)test_rand_range(&rng, 0.5, 10);
			random_qvv(&rng, &joints[j].default_pose, 20, trial % 2 == 1); // the rest pose places the shell
			random_qvv(&rng, &a[j], 20, trial % 2 == 1);
			b[j] = a[j];
			// perturb
			for (int k = 0; k < 4; ++k) b[j].rotation[k] += (float)test_rand_range(&rng, -0.01, 0.01);
			for (int k = 0; k < 3; ++k) b[j].translation[k] += (float)test_rand_range(&rng, -0.05, 0.05);
			for (int k = 0; k < 3; ++k) b[j].scale[k] += (float)test_rand_range(&rng, -0.01, 0.01);
		}
		double errors[30];
		_Alignas(16) unsigned char scratch[30 * (2 * 96 + 48) + 64];
		CHECK(sinew_pose_error_scratch_size(n) <= sizeof scratch);
		sinew_pose_error(joints, n, a, b, shells, 0, scratch, errors);
		for (uint32_t j = 0; j < n; ++j) {
			double ref = ref_joint_error(joints, a, b, (int)j, shells[j]);
			CHECK_MSG(fabs(errors[j] - ref) <= 1e-9 * (1 + ref), "trial %d joint %u: %.12g vs %.12g", trial, j,
			          errors[j], ref);
			CHECK(errors[j] > 0); // every joint was perturbed
		}
	}
}

static sinew_clip *make_random_clip(sinew_clip_set *set, test_rng *rng, uint32_t joints, uint32_t samples) {
	sinew_clip_desc desc = {.name = "random", .sample_rate = 30, .sample_count = samples, .joint_count = joints};
	sinew_clip *clip = NULL;
	if (sinew_clip_set_add_clip(set, &desc, &clip) != SINEW_RESULT_OK) return NULL;
	for (uint32_t j = 0; j < joints; ++j) clip->joints[j].parent = j == 0 ? -1 : (int32_t)(test_rand_u32(rng) % j);
	for (uint32_t i = 0; i < joints * samples; ++i) random_qvv(rng, &clip->transforms[i], 50, true);
	return clip;
}

static void test_metric_of_clip_against_itself_is_zero(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	test_rng rng = {42};
	sinew_clip *clip = make_random_clip(set, &rng, 25, 40);
	CHECK(clip);
	sinew_error_stats stats;
	CHECK_OK(sinew_measure_error(clip, clip, NULL, NULL, &stats, &err), &err);
	CHECK(stats.max_error == 0.0);
	CHECK(stats.p99_error == 0.0);
	CHECK_EQ(stats.samples_over_threshold, 0);
	CHECK_EQ(stats.measured, 25 * 40);
	sinew_clip_set_free(set);
}

static void test_metric_counts_samples_over_threshold(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	sinew_clip_desc desc = {.name = "chain", .sample_rate = 30, .sample_count = 10, .joint_count = 3};
	sinew_clip *a = NULL, *b = NULL;
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &a), &err);
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &b), &err);
	for (uint32_t j = 0; j < 3; ++j) a->joints[j].parent = b->joints[j].parent = (int32_t)j - 1;
	// move the root of sample 4 by 1 unit: all 3 joints of that sample are off by exactly 1
	b->transforms[4 * 3].translation[1] = 1.0f;
	sinew_metric_options opt = {.shell_distance = 3, .threshold = 0.5};
	sinew_error_stats stats;
	CHECK_OK(sinew_measure_error(a, b, &opt, NULL, &stats, &err), &err);
	CHECK_NEAR(stats.max_error, 1.0, 1e-12);
	CHECK_EQ(stats.samples_over_threshold, 3);
	CHECK_EQ(stats.worst_sample, 4);
	CHECK(stats.p99_error == 1.0); // 3 of 30 pairs are 1.0, so the 99th percentile is 1.0
	// a 90-degree turn of the root about z moves the x shell point of the root by d*sqrt(2)
	b->transforms[4 * 3].translation[1] = 0.0f;
	b->transforms[7 * 3].rotation[2] = 0.70710678f;
	b->transforms[7 * 3].rotation[3] = 0.70710678f;
	CHECK_OK(sinew_measure_error(a, b, &opt, NULL, &stats, &err), &err);
	CHECK_NEAR(stats.max_error, 3.0 * sqrt(2.0), 1e-6);
	CHECK_EQ(stats.worst_sample, 7);
	sinew_clip_set_free(set);
}

static void test_metric_rejects_mismatched_clips(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	sinew_clip_desc d1 = {.sample_rate = 30, .sample_count = 10, .joint_count = 3};
	sinew_clip_desc d2 = {.sample_rate = 30, .sample_count = 11, .joint_count = 3};
	sinew_clip *a = NULL, *b = NULL;
	CHECK_OK(sinew_clip_set_add_clip(set, &d1, &a), &err);
	CHECK_OK(sinew_clip_set_add_clip(set, &d2, &b), &err);
	sinew_error_stats stats;
	CHECK_RESULT(sinew_measure_error(a, b, NULL, NULL, &stats, &err), SINEW_RESULT_BAD_COUNT, &err);
	CHECK(strstr(err.message, "sample counts differ"));
	sinew_clip_set_free(set);
}

// The shell is fixed at rest and moves with the node's own scale (DESIGN §4): a leaf that the reference
// scales to 0.5 while the test keeps it at 1 is d/2 off; non-uniformly (1, 0.5, 2) against 1 it is
// max(0.5, 1) d; under an armature scaled 0.01 at rest the same scene distances; a zero rest scale takes
// the largest the clip reaches (sinew_measure_error over the whole clip, here 2).
static void test_metric_leaf_scale_moves_the_shell(void) {
	const double d = 3.0;
	const float root_scales[] = {1.0f, 0.01f};
	for (int r = 0; r < 2; ++r) {
		sinew_joint joints[2];
		memset(joints, 0, sizeof joints);
		joints[0].parent = -1, joints[1].parent = 0;
		sinew_qvv a[2], b[2];
		for (int j = 0; j < 2; ++j) {
			memset(&a[j], 0, sizeof a[j]);
			a[j].rotation[3] = 1.0f;
			for (int k = 0; k < 3; ++k) a[j].scale[k] = 1.0f;
		}
		for (int k = 0; k < 3; ++k) a[0].scale[k] = root_scales[r];
		a[1].translation[0] = 0.5f / root_scales[r];
		joints[0].default_pose = a[0], joints[1].default_pose = a[1];
		b[0] = a[0], b[1] = a[1];
		_Alignas(16) unsigned char scratch[2 * (2 * 96 + 48) + 64];
		double errors[2];
		for (int k = 0; k < 3; ++k) a[1].scale[k] = 0.5f; // the reference (source) shrinks the leaf
		sinew_pose_error(joints, 2, a, b, NULL, d, scratch, errors);
		CHECK_NEAR(errors[0], 0.0, 1e-12);
		CHECK_MSG(fabs(errors[1] - d / 2) <= 1e-9, "root scale %g: uniform leaf scale 0.5: %.12g", (double)root_scales[r], errors[1]);
		a[1].scale[0] = 1.0f, a[1].scale[1] = 0.5f, a[1].scale[2] = 2.0f;
		sinew_pose_error(joints, 2, a, b, NULL, d, scratch, errors);
		CHECK_MSG(fabs(errors[1] - d) <= 1e-9, "root scale %g: leaf scale (1, 0.5, 2): %.12g", (double)root_scales[r], errors[1]);
	}
	// a zero rest scale: the clip's largest (2) places the shell, so 2 against 1 is d/2
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	sinew_clip_desc desc = {.name = "pop-in", .sample_rate = 30, .sample_count = 3, .joint_count = 1};
	sinew_clip *ref = NULL, *test = NULL;
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &ref), &err);
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &test), &err);
	ref->joints[0].parent = test->joints[0].parent = -1;
	for (int k = 0; k < 3; ++k) ref->joints[0].default_pose.scale[k] = test->joints[0].default_pose.scale[k] = 0.0f;
	const float ref_scale[3] = {0.0f, 1.0f, 2.0f}, test_scale[3] = {0.0f, 1.0f, 1.0f};
	for (uint32_t s = 0; s < 3; ++s)
		for (int k = 0; k < 3; ++k) ref->transforms[s].scale[k] = ref_scale[s], test->transforms[s].scale[k] = test_scale[s];
	sinew_metric_options mo = {.shell_distance = d, .threshold = 0.01};
	sinew_error_stats st;
	CHECK_OK(sinew_measure_error(ref, test, &mo, NULL, &st, &err), &err);
	CHECK_NEAR(st.max_error, d / 2, 1e-9);
	CHECK_EQ(st.worst_sample, 2);
	sinew_clip_set_free(set);
}

void suite_error_metric(void) {
	RUN(test_metric_matches_reference_on_random_hierarchies);
	RUN(test_metric_shell_is_in_scene_units);
	RUN(test_metric_leaf_scale_moves_the_shell);
	RUN(test_metric_of_clip_against_itself_is_zero);
	RUN(test_metric_counts_samples_over_threshold);
	RUN(test_metric_rejects_mismatched_clips);
}

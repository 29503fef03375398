// sinew — see include/sinew.h for version and licence
// export_acl: clips written as ACL raw clips read back (through our ACL reader, which follows ACL's
// own) with the same joints, hierarchy, bind poses, shells and samples — exactly for centimetre clips,
// within one float rounding of the cm conversion otherwise; names made unique; failures leave no file.
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sinew_clip_set *import(const char *path) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	if (sinew_import_file(path, NULL, NULL, &set, &err) != SINEW_RESULT_OK) fprintf(stderr, "  %s: %s\n", path, err.message);
	return set;
}

// Exports clip 0 of `src`, re-imports it and compares (translations scaled to cm: exact when the
// source is in cm).
static void round_trip(const char *src_rel, const char *name, bool exact) {
	char src[1024], out[1024];
	sinew_clip_set *a = import(test_repo_path(src_rel, src, sizeof src));
	CHECK(a != NULL);
	if (!a) return;
	const sinew_clip *c = a->clips[0];
	sinew_error err = {0};
	CHECK_OK(sinew_export_acl(c, test_export_path(name, out, sizeof out), &err), &err);
	sinew_clip_set *b = import(out);
	CHECK(b != NULL);
	if (!b) {
		sinew_clip_set_free(a);
		return;
	}
	const sinew_clip *d = b->clips[0];
	const double to_cm = 100.0 / c->unit_scale;
	CHECK(d->unit_scale == 100.0 && d->joint_count == c->joint_count && d->sample_count == c->sample_count);
	CHECK(d->sample_rate == c->sample_rate && d->scalar_track_count == 0);
	double worst = 0.0;
	for (uint32_t j = 0; j < c->joint_count && j < d->joint_count; ++j) {
		CHECK_MSG(d->joints[j].parent == c->joints[j].parent, "%s joint %u parent", name, j);
		double shell = c->joints[j].shell_distance > 0.0f ? c->joints[j].shell_distance * to_cm : 3.0;
		CHECK_NEAR(d->joints[j].shell_distance, shell, 1e-6 * shell);
		for (int k = 0; k < 4; ++k)
			CHECK(fabsf(d->joints[j].default_pose.rotation[k] - c->joints[j].default_pose.rotation[k]) <= 2e-7f);
		for (uint32_t s = 0; s < c->sample_count; ++s) {
			const sinew_qvv *x = &c->transforms[(size_t)s * c->joint_count + j], *y = &d->transforms[(size_t)s * d->joint_count + j];
			// the file holds the source's exact bits; the reader renormalizes rotations (as ACL's does)
			for (int k = 0; k < 4; ++k) CHECK_MSG(fabsf(x->rotation[k] - y->rotation[k]) <= 2e-7f, "%s joint %u sample %u", name, j, s);
			CHECK(memcmp(x->scale, y->scale, 12) == 0);
			for (int k = 0; k < 3; ++k) {
				double want = (double)(float)(x->translation[k] * to_cm), diff = fabs(y->translation[k] - want);
				worst = diff > worst ? diff : worst;
			}
		}
	}
	if (exact) CHECK_MSG(worst == 0.0, "%s: translations differ by %g cm", name, worst);
	else CHECK_MSG(worst <= 1e-7 * 100.0 * 100.0, "%s: translations differ by %g cm", name, worst);
	// names: unique, and the source's own where it had unique ones
	for (uint32_t j = 0; j < d->joint_count; ++j)
		for (uint32_t k = 0; k < j; ++k) CHECK_MSG(strcmp(d->joints[j].name, d->joints[k].name) != 0, "%s: joints %u and %u", name, k, j);
	sinew_clip_set_free(b);
	sinew_clip_set_free(a);
}

static void test_acl_round_trip_is_exact(void) {
	round_trip("data/acl_09_02.acl.sjson", "acl_09_02_rt.acl.sjson", true); // cm in, cm out
	round_trip("data/cmu_01_01.bvh", "cmu_01_01_rt.acl.sjson", true);       // BVH units are cm by default
}

static void test_gltf_in_metres_becomes_centimetres(void) {
	round_trip("data/godot_platformer_player.glb", "platformer_rt.acl.sjson", false);
}

static void test_names_made_unique_and_failures_leave_nothing(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	sinew_clip_desc desc = {"names", 30, 2, 4, 0, NULL};
	sinew_clip *c = NULL;
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &c), &err);
	const char *names[4] = {"a", NULL, "a", "x\"y"};
	for (uint32_t j = 0; j < 4; ++j) c->joints[j].name = names[j], c->joints[j].parent = (int32_t)j - 1;
	char out[1024];
	CHECK_OK(sinew_export_acl(c, test_export_path("names.acl.sjson", out, sizeof out), &err), &err);
	sinew_clip_set *back = NULL;
	CHECK_OK(sinew_import_file(out, NULL, NULL, &back, &err), &err);
	if (back) {
		const sinew_clip *d = back->clips[0];
		CHECK(strcmp(d->joints[0].name, "a") == 0 && strcmp(d->joints[1].name, "joint#1") == 0);
		CHECK(strcmp(d->joints[2].name, "a#2") == 0 && strcmp(d->joints[3].name, "x_y") == 0);
		CHECK(d->joints[3].parent == 2);
		sinew_clip_set_free(back);
	}
	// a folder that does not exist: IO, and no file (nor temporary) appears
	CHECK_RESULT(sinew_export_acl(c, "/nonexistent-dir/x.acl.sjson", &err), SINEW_RESULT_IO, &err);
	CHECK(!test_file_exists("/nonexistent-dir/x.acl.sjson"));
	// an invalid clip is refused before anything is written
	c->joints[2].parent = 3;
	char bad[1024];
	CHECK_RESULT(sinew_export_acl(c, test_export_path("bad.acl.sjson", bad, sizeof bad), &err), SINEW_RESULT_BAD_PARENT, &err);
	CHECK(!test_file_exists(bad));
	sinew_clip_set_free(set);
}

void suite_export_acl(void) {
	RUN(test_acl_round_trip_is_exact);
	RUN(test_gltf_in_metres_becomes_centimetres);
	RUN(test_names_made_unique_and_failures_leave_nothing);
}

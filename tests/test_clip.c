// sinew — see include/sinew.h for version and licence
// clip: creation defaults and one test per validation error.
#include "test.h"

#include <string.h>

typedef struct fixture {
	sinew_clip_set *set;
	sinew_clip *clip;
} fixture;

static bool make(fixture *f, uint32_t joints, uint32_t samples, uint32_t scalars) {
	memset(f, 0, sizeof *f);
	if (sinew_clip_set_create(&f->set, NULL) != SINEW_RESULT_OK) return false;
	uint32_t comps[4] = {1, 2, 3, 4};
	sinew_clip_desc desc = {.name = "test", .sample_rate = 30, .sample_count = samples, .joint_count = joints,
	                        .scalar_track_count = scalars, .scalar_components = comps};
	if (sinew_clip_set_add_clip(f->set, &desc, &f->clip) != SINEW_RESULT_OK) return false;
	for (uint32_t j = 0; j < joints; ++j) {
		f->clip->joints[j].parent = (int32_t)j - 1;
		f->clip->joints[j].name = sinew_clip_set_strdup(f->set, j == 1 ? "spine" : "joint");
	}
	return true;
}

static void test_clip_defaults_are_valid(void) {
	fixture f;
	CHECK(make(&f, 4, 10, 2));
	sinew_error err = {0};
	CHECK_OK(sinew_clip_validate(f.clip, &err), &err);
	CHECK(f.clip->transforms[13].rotation[3] == 1.0f);
	CHECK(f.clip->transforms[13].scale[2] == 1.0f);
	CHECK_EQ(f.clip->scalar_tracks[1].components, 2);
	CHECK_EQ(sinew_clip_raw_size(f.clip), 4 * 10 * 40 + (1 + 2) * 10 * 4);
	CHECK_NEAR(sinew_clip_duration(f.clip), 9.0 / 30.0, 1e-12);
	CHECK(strcmp(f.clip->name, "test") == 0);
	sinew_clip_set_free(f.set);
}

static void test_clip_set_holds_many_clips(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	for (int i = 0; i < 40; ++i) {
		sinew_clip_desc desc = {.sample_rate = 24, .sample_count = 3, .joint_count = 2};
		sinew_clip *c = NULL;
		CHECK_OK(sinew_clip_set_add_clip(set, &desc, &c), &err);
		c->transforms[5].translation[0] = (float)i;
	}
	CHECK_EQ(set->clip_count, 40);
	for (int i = 0; i < 40; ++i) CHECK(set->clips[i]->transforms[5].translation[0] == (float)i);
	sinew_clip_set_free(set);
}

static void test_validate_rejects_zero_samples(void) {
	fixture f;
	CHECK(make(&f, 2, 0, 0));
	sinew_error err = {0};
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_NO_SAMPLES, &err);
	sinew_clip_set_free(f.set);
}

static void test_validate_rejects_bad_rate(void) {
	fixture f;
	CHECK(make(&f, 2, 5, 0));
	sinew_error err = {0};
	f.clip->sample_rate = 0;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_SAMPLE_RATE, &err);
	f.clip->sample_rate = NAN;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_SAMPLE_RATE, &err);
	f.clip->sample_rate = 29.97;
	CHECK_OK(sinew_clip_validate(f.clip, &err), &err);
	sinew_clip_set_free(f.set);
}

static void test_validate_rejects_bad_parent_order(void) {
	fixture f;
	CHECK(make(&f, 3, 5, 0));
	sinew_error err = {0};
	f.clip->joints[1].parent = 2;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_PARENT, &err);
	CHECK(strstr(err.message, "joint 1 'spine'"));
	f.clip->joints[1].parent = 1; // itself
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_PARENT, &err);
	f.clip->joints[1].parent = -2;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_PARENT, &err);
	sinew_clip_set_free(f.set);
}

static void test_validate_rejects_non_finite_values(void) {
	fixture f;
	CHECK(make(&f, 3, 5, 1));
	sinew_error err = {0};
	f.clip->transforms[3 * 3 + 1].translation[2] = INFINITY;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_NOT_FINITE, &err);
	CHECK(strstr(err.message, "sample 3"));
	CHECK(strstr(err.message, "'spine'"));
	f.clip->transforms[3 * 3 + 1].translation[2] = 0;
	f.clip->scalar_tracks[0].values[4] = NAN;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_NOT_FINITE, &err);
	CHECK(strstr(err.message, "scalar track 0"));
	sinew_clip_set_free(f.set);
}

static void test_validate_rejects_non_unit_quaternion(void) {
	fixture f;
	CHECK(make(&f, 3, 5, 0));
	sinew_error err = {0};
	f.clip->transforms[2 * 3 + 2].rotation[3] = 0.9f;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_NOT_UNIT_QUATERNION, &err);
	CHECK(strstr(err.message, "sample 2"));
	f.clip->transforms[2 * 3 + 2].rotation[3] = 1.0005f; // within tolerance
	CHECK_OK(sinew_clip_validate(f.clip, &err), &err);
	f.clip->joints[0].default_pose.rotation[3] = 0;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_NOT_UNIT_QUATERNION, &err);
	CHECK(strstr(err.message, "default pose"));
	sinew_clip_set_free(f.set);
}

static void test_validate_rejects_bad_precision(void) {
	fixture f;
	CHECK(make(&f, 2, 5, 1));
	sinew_error err = {0};
	f.clip->joints[1].shell_distance = -1;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_PRECISION, &err);
	f.clip->joints[1].shell_distance = 3;
	f.clip->scalar_tracks[0].precision = NAN;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_PRECISION, &err);
	sinew_clip_set_free(f.set);
}

static void test_validate_rejects_bad_tracks_and_counts(void) {
	fixture f;
	CHECK(make(&f, 2, 5, 2));
	sinew_error err = {0};
	f.clip->scalar_tracks[1].components = 5;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_TRACK, &err);
	f.clip->scalar_tracks[1].components = 2;
	f.clip->scalar_tracks[1].values = NULL;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_TRACK, &err);
	f.clip->scalar_track_count = 0;
	f.clip->transforms = NULL;
	CHECK_RESULT(sinew_clip_validate(f.clip, &err), SINEW_RESULT_BAD_COUNT, &err);
	sinew_clip_set_free(f.set);
}

static void test_allocator_hooks_are_used(void) {
	// counts live allocations through the caller allocator


	long live = 0;
	sinew_allocator al = {counting_alloc, counting_free, &live};
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, &al), &err);
	sinew_clip_desc desc = {.sample_rate = 30, .sample_count = 1000, .joint_count = 50};
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, NULL), &err);
	CHECK(live > 0);
	sinew_clip_set_free(set);
	CHECK_EQ(live, 0);
}

void suite_clip(void) {
	RUN(test_clip_defaults_are_valid);
	RUN(test_clip_set_holds_many_clips);
	RUN(test_validate_rejects_zero_samples);
	RUN(test_validate_rejects_bad_rate);
	RUN(test_validate_rejects_bad_parent_order);
	RUN(test_validate_rejects_non_finite_values);
	RUN(test_validate_rejects_non_unit_quaternion);
	RUN(test_validate_rejects_bad_precision);
	RUN(test_validate_rejects_bad_tracks_and_counts);
	RUN(test_allocator_hooks_are_used);
}

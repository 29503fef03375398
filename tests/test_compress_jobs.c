// sinew — see include/sinew.h for version and licence
// compress with a job system (sinew_compress_options.jobs): the same bytes whatever runs the tasks, in
// whatever order, on however many threads: a scene of several rigs (groups), a lone long clip
// (segments), a file of several clips (a clip per task), tiers, and the bundled real clips.
#include "test.h"

#include "cli_pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Runs the tasks on this thread, last first (order must not matter).
static void run_backwards(void *user, void (*task)(void *arg, uint32_t index), void *arg, uint32_t count) {
	uint32_t *calls = (uint32_t *)user;
	for (uint32_t i = count; i-- > 0;) task(arg, i);
	*calls += 1;
}

// `rigs` rigs of `per_rig` joints each (random trees, contiguous), 30 Hz, smooth motion.
static sinew_clip_set *make_scene(uint32_t rigs, uint32_t per_rig, uint32_t samples, uint32_t scalars, uint32_t seed) {
	test_rng rng = {seed};
	sinew_clip_set *set = NULL;
	if (sinew_clip_set_create(&set, NULL) != SINEW_RESULT_OK) return NULL;
	uint32_t comps[4] = {1, 2, 1, 3};
	const uint32_t nj = rigs * per_rig;
	sinew_clip_desc desc = {"scene", 30, samples, nj, scalars, comps};
	sinew_clip *clip = NULL;
	if (sinew_clip_set_add_clip(set, &desc, &clip) != SINEW_RESULT_OK) {
		sinew_clip_set_free(set);
		return NULL;
	}
	for (uint32_t j = 0; j < nj; ++j) {
		const uint32_t first = j / per_rig * per_rig;
		clip->joints[j].parent = j == first ? -1 : (int32_t)(first + test_rand_u32(&rng) % (j - first));
		const double f = test_rand_range(&rng, 0.2, 2.0), ph = test_rand_range(&rng, 0, 6.28), amp = test_rand_range(&rng, 0, 0.8);
		const float bone = (float)test_rand_range(&rng, 0.05, 0.3);
		for (uint32_t s = 0; s < samples; ++s) {
			sinew_qvv *x = &clip->transforms[(size_t)s * nj + j];
			const double a = amp * sin(6.283 * f * s / 30.0 + ph);
			x->rotation[0] = (float)sin(a / 2), x->rotation[1] = 0, x->rotation[2] = (float)(0.3 * sin(a / 3)), x->rotation[3] = (float)cos(a / 2);
			const double n = sqrt((double)x->rotation[0] * x->rotation[0] + (double)x->rotation[2] * x->rotation[2] +
			                      (double)x->rotation[3] * x->rotation[3]);
			for (int k = 0; k < 4; ++k) x->rotation[k] = (float)(x->rotation[k] / n);
			x->translation[0] = 0, x->translation[1] = bone, x->translation[2] = 0;
			if (j == first) x->translation[0] = (float)(0.5 * sin(0.4 * s / 30.0 + j));
		}
	}
	for (uint32_t i = 0; i < scalars; ++i) {
		sinew_scalar_track *t = &clip->scalar_tracks[i];
		for (uint32_t s = 0; s < samples; ++s)
			for (uint32_t c = 0; c < t->components; ++c) t->values[(size_t)s * t->components + c] = (float)sin(0.1 * s + i + c);
	}
	return set;
}

// Compresses `set` alone, with tasks run backwards on this thread and on pools of 2 and 3 threads;
// every blob must equal the first. The job system is used unless `used` is false (a lone short clip
// stays on the calling thread).
static void check_same_bytes(const char *what, const sinew_clip_set *set, sinew_compress_options options, bool used) {
	void *ref = NULL;
	size_t ref_size = 0;
	sinew_error err = {0};
	options.jobs = NULL;
	CHECK_OK(sinew_compress(set, &options, NULL, &ref, &ref_size, &err), &err);
	uint32_t calls = 0;
	sinew_jobs backwards = {run_backwards, &calls};
	for (unsigned threads = 1; threads <= 3 && ref; ++threads) {
		cli_pool *pool = threads > 1 ? cli_pool_create(threads) : NULL;
		sinew_jobs jobs = pool ? cli_pool_jobs(pool) : backwards;
		options.jobs = &jobs;
		void *blob = NULL;
		size_t size = 0;
		CHECK_OK(sinew_compress(set, &options, NULL, &blob, &size, &err), &err);
		CHECK_MSG(size == ref_size && blob && memcmp(blob, ref, size) == 0, "%s: %u thread(s): %zu bytes, alone %zu",
		          what, threads, size, ref_size);
		sinew_blob_free(blob, size, NULL);
		cli_pool_destroy(pool);
	}
	CHECK_MSG((calls > 0) == used, used ? "%s: the job system was not used" : "%s: a lone short clip went to the job system", what);
	sinew_blob_free(ref, ref_size, NULL);
}

static void test_jobs_scene_of_rigs(void) {
	// 5 rigs of 70 joints: groups of whole rigs, 4 segments each, and scalar tracks apart
	sinew_clip_set *set = make_scene(5, 70, 150, 4, 0x5eed);
	CHECK(set != NULL);
	if (!set) return;
	sinew_compress_options options = {0};
	check_same_bytes("scene", set, options, true);
	options.tier_count = 2, options.tier_error_cm[0] = 0.1, options.tier_error_cm[1] = 0.01;
	check_same_bytes("scene, tiers", set, options, true);
	sinew_clip_set_free(set);
}

static void test_jobs_bundled_clips(void) {
	const char *files[] = {"data/cmu_01_01.bvh", "data/godot_platformer_player.glb", "data/acl_09_02.acl.sjson"};
	for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) {
		char path[1024];
		test_repo_path(files[f], path, sizeof path);
		sinew_import_options io = {0};
		if (f == 0) io.unit_cm = 5.644;
		sinew_clip_set *set = NULL;
		sinew_error err = {0};
		CHECK_OK(sinew_import_file(path, &io, NULL, &set, &err), &err);
		if (!set) continue;
		sinew_compress_options options = {0};
		check_same_bytes(files[f], set, options, set->clip_count > 1 || set->clips[0]->sample_count > 65); // (09_02: 26 samples)
		sinew_clip_set_free(set);
	}
}

void suite_compress_jobs(void) {
	RUN(test_jobs_scene_of_rigs);
	RUN(test_jobs_bundled_clips);
}

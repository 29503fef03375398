// sinew — see include/sinew.h for version and licence
// kernels: every kernel this CPU can run gives bit-identical poses and scalars to the scalar
// reference kernel (docs/format.md, exactness across kernels), on real clips of the corpus and
// the bundled data at many times, and on synthetic clips that exercise raw tracks, scalar
// tracks, every rounding mode and looping.
#define _POSIX_C_SOURCE 200809L
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "decompress/context.h"

typedef struct agreement {
	unsigned clips, samples, kernels;
} agreement;

static bool compare_blob(const void *blob, size_t size, agreement *ag, char *why, size_t why_size) {
	const sinewi_kernel_table *kernels[8];
	uint32_t nk = sinewi_kernels_available(kernels, 8);
	ag->kernels = nk;
	uint32_t clips = sinew_blob_clip_count(blob, size);
	for (uint32_t c = 0; c < clips; ++c) {
		sinew_clip_info info;
		if (sinew_blob_clip_info(blob, size, c, &info, NULL) != SINEW_RESULT_OK) return false;
		// every kernel, then every kernel again in random-access mode: all must match kernel 0
		sinew_context_options ra = {.random_access = 1};
		size_t need = sinew_context_size_with(blob, size, c, &ra);
		void *mem[16];
		sinew_context *ctx[16];
		for (uint32_t k = 0; k < 2 * nk; ++k) {
			mem[k] = aligned_alloc(16, (need + 15) & ~(size_t)15);
			if (sinew_context_init(mem[k], need, blob, size, c, k < nk ? NULL : &ra, &ctx[k], NULL) != SINEW_RESULT_OK)
				return false;
			ctx[k]->kernel = kernels[k % nk];
		}
		size_t nj = info.joint_count ? info.joint_count : 1, ns = (size_t)info.scalar_track_count * 4 + 1;
		sinew_qvv *ref = (sinew_qvv *)calloc(nj, sizeof *ref), *got = (sinew_qvv *)calloc(nj, sizeof *got);
		float *sref = (float *)calloc(ns, sizeof(float)), *sgot = (float *)calloc(ns, sizeof(float));
		unsigned rng = 7 + c;
		bool ok = true;
		uint32_t count = info.sample_count < 400 ? 3 * info.sample_count + 40 : 600;
		for (uint32_t i = 0; i < count && ok; ++i) {
			rng = rng * 1103515245u + 12345u;
			double t = i % 3 == 0 ? (double)(i / 3) / info.sample_rate : (rng >> 8) % 100000 / 100000.0 * (info.duration + 0.1);
			sinew_sample_pose(ctx[0], t, ref, NULL, sref);
			for (uint32_t k = 1; k < 2 * nk && ok; ++k) {
				sinew_sample_pose(ctx[k], t, got, NULL, sgot);
				if (memcmp(ref, got, info.joint_count * sizeof *ref) != 0 || memcmp(sref, sgot, ns * sizeof(float)) != 0) {
					snprintf(why, why_size, "clip %u t=%.6f: kernel %s%s differs from scalar", c, t, kernels[k % nk]->name,
					         k < nk ? "" : " (random access)");
					ok = false;
				}
			}
			ag->samples++;
		}
		free(ref), free(got), free(sref), free(sgot);
		for (uint32_t k = 0; k < 2 * nk; ++k) free(mem[k]);
		if (!ok) return false;
		ag->clips++;
	}
	return true;
}

static bool compress_file(const char *path, double unit_cm, void **blob, size_t *size) {
	sinew_import_options io = {0};
	io.unit_cm = unit_cm;
	sinew_clip_set *set = NULL;
	if (sinew_import_file(path, &io, NULL, &set, NULL) != SINEW_RESULT_OK) return false;
	sinew_compress_options opt = {.strip_metadata = 1};
	bool ok = sinew_compress(set, &opt, NULL, blob, size, NULL) == SINEW_RESULT_OK;
	sinew_clip_set_free(set);
	return ok;
}

static void test_kernels_agree_on_corpus(void) {
	static const char *files[] = {"acl/104_30.acl.sjson", "acl/81_18_looping.acl.sjson", "acl/09_02_with_zero_scale.acl.sjson",
	                              "acl/track_list_float4f.acl.sjson", "acl/90_10.acl.sjson", "amc/cmu/02/02_01.amc",
	                              "bvh/cmu_iclone/002_01.bvh", "bvh/bandai/dataset-2/dataset-2_run_normal_001.bvh",
	                              "gltf/khronos/InterpolationTest/interpolation_test.gltf", "gltf/threejs/RobotExpressive.glb",
	                              "gltf/khronos/MorphStressTest/MorphStressTest.gltf", "gltf/playcanvas/lumberjack.glb"};
	agreement ag = {0};
	char path[1024], why[256];
	for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
		if (!test_corpus_path(files[i], path, sizeof path)) return;
		void *blob = NULL;
		size_t size = 0;
		CHECK_MSG(compress_file(path, 0, &blob, &size), "%s did not compress", files[i]);
		bool ok = compare_blob(blob, size, &ag, why, sizeof why);
		sinew_blob_free(blob, size, NULL);
		CHECK_MSG(ok, "%s: %s", files[i], why);
	}
	printf("    %u kernels agree bit for bit on %u clips, %u sample times\n", ag.kernels, ag.clips, ag.samples);
}

static void test_kernels_agree_on_bundled_clips(void) {
	static const char *files[] = {"data/cmu_01_01.bvh", "data/acl_09_02.acl.sjson", "data/godot_platformer_player.glb"};
	agreement ag = {0};
	char path[1024], why[256];
	for (size_t i = 0; i < 3; ++i) {
		void *blob = NULL;
		size_t size = 0;
		CHECK(compress_file(test_repo_path(files[i], path, sizeof path), i == 0 ? 5.644 : 0, &blob, &size));
		bool ok = compare_blob(blob, size, &ag, why, sizeof why);
		sinew_blob_free(blob, size, NULL);
		CHECK_MSG(ok, "%s: %s", files[i], why);
	}
	CHECK(ag.clips >= 10);
}

// Raw float32 tracks (kilometre-scale translations at sub-millimetre precision), scalar tracks
// of every width, mixed per-track rounding modes and a looping clip.
static void test_kernels_agree_on_synthetic_edge_cases(void) {
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_clip_set_create(&set, NULL), &err);
	uint32_t comps[4] = {1, 2, 3, 4};
	sinew_clip_desc desc = {"edge", 30, 70, 9, 4, comps};
	sinew_clip *c = NULL;
	CHECK_OK(sinew_clip_set_add_clip(set, &desc, &c), &err);
	c->unit_scale = 1.0; // metres
	c->looping = 1;
	test_rng rng = {99};
	for (uint32_t j = 0; j < 9; ++j) {
		c->joints[j].parent = (int32_t)j - 1;
		c->joints[j].rounding = (uint8_t)(j % 5 == 4 ? SINEW_ROUNDING_CLIP : j % 4);
	}
	for (uint32_t s = 0; s < 70; ++s)
		for (uint32_t j = 0; j < 9; ++j) {
			sinew_qvv *x = &c->transforms[s * 9 + j];
			double a = 0.7 * sin(0.13 * s + j) + test_rand_range(&rng, -0.01, 0.01);
			x->rotation[j % 3] = (float)sin(a / 2), x->rotation[3] = (float)cos(a / 2);
			x->translation[0] = j == 0 ? (float)(1000.0 * sin(0.05 * s)) : 0.3f;
			x->scale[1] = (float)(1.0 + 0.3 * sin(0.2 * s + j));
		}
	for (uint32_t i = 0; i < 4; ++i)
		for (uint32_t s = 0; s < 70 * comps[i]; ++s) c->scalar_tracks[i].values[s] = (float)fabs(sin(0.1 * s + i));
	sinew_compress_options opt = {.error_cm = 0.001};
	void *blob = NULL;
	size_t size = 0;
	CHECK_OK(sinew_compress(set, &opt, NULL, &blob, &size, &err), &err);
	agreement ag = {0};
	char why[256];
	bool ok = compare_blob(blob, size, &ag, why, sizeof why);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
	CHECK_MSG(ok, "%s", why);
}

static void test_kernel_selection(void) {
	const sinewi_kernel_table *k = sinewi_select_kernel(SINEW_KERNEL_SCALAR);
	CHECK(strcmp(k->name, "scalar") == 0);
	const sinewi_kernel_table *list[8];
	uint32_t n = sinewi_kernels_available(list, 8);
	CHECK(n >= 1 && list[0] == &sinewi_kernel_scalar);
	const sinewi_kernel_table *autok = sinewi_select_kernel(SINEW_KERNEL_AUTO);
	bool listed = false;
	for (uint32_t i = 0; i < n; ++i) listed |= list[i] == autok;
	CHECK(listed); // AUTO picks a kernel the CPU can run
	printf("    auto kernel: %s (%u available)\n", autok->name, n);
}

void suite_kernels(void) {
	RUN(test_kernel_selection);
	RUN(test_kernels_agree_on_bundled_clips);
	RUN(test_kernels_agree_on_synthetic_edge_cases);
	RUN(test_kernels_agree_on_corpus);
}

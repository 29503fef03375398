// sinew — see include/sinew.h for version and licence
// libFuzzer target: BVH reader (hierarchy, channels, motion section) on arbitrary bytes.
// clang -fsanitize=fuzzer,address,undefined -Iinclude fuzz/fuzz_import_bvh.c src/*/*.c -lm
// Seeds: fuzz/seeds/bvh/. Run: ./a.out -max_total_time=60 fuzz/seeds/bvh (a -dict with the BVH keywords helps).
#include "sinew.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void ignore_warning(void *user, const char *message) {
	(void)user;
	(void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	// An exact-size copy, so that reading one byte past the input is caught.
	uint8_t *copy = (uint8_t *)malloc(size ? size : 1);
	if (!copy) return 0;
	if (size) memcpy(copy, data, size);
	sinew_import_options options;
	memset(&options, 0, sizeof options);
	options.kind = SINEW_FILE_BVH;
	options.warning = ignore_warning;
	options.bvh_skip_end_sites = (int)(size & 1); // both layouts, without spending input bytes on options
	sinew_clip_set *set = NULL;
	sinew_error error;
	error.message[0] = 0;
	sinew_result r = sinew_import_memory(copy, size, &options, NULL, &set, &error);
	if (r == SINEW_RESULT_OK) {
		if (set->clip_count != 1) abort();
		const sinew_clip *clip = set->clips[0];
		if (sinew_clip_validate(clip, &error) != SINEW_RESULT_OK) abort();
		volatile float sink = 0.0f;
		size_t transforms = (size_t)clip->sample_count * clip->joint_count;
		for (size_t t = 0; t < transforms; ++t) sink += clip->transforms[t].translation[0];
		for (uint32_t j = 0; j < clip->joint_count; ++j) sink += (float)strlen(clip->joints[j].name);
		(void)sink;
		sinew_clip_set_free(set);
	} else if (set != NULL || error.message[0] == 0) {
		abort(); // a failure must leave no output and must say why
	}
	free(copy);
	return 0;
}

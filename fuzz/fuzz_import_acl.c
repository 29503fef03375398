// sinew — see include/sinew.h for version and licence
// libFuzzer target: ACL .acl.sjson reader (SJSON parser, clips, track lists) on arbitrary bytes.
// clang -fsanitize=fuzzer,address,undefined -Iinclude fuzz/fuzz_import_acl.c src/*/*.c -lm
// Seeds: fuzz/seeds/acl/.
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
	options.kind = SINEW_FILE_ACL;
	options.warning = ignore_warning;
	sinew_clip_set *set = NULL;
	sinew_error error;
	sinew_result r = sinew_import_memory(copy, size, &options, NULL, &set, &error);
	if (r == SINEW_RESULT_OK) {
		// Touch what was produced: every clip must validate and its values must be readable.
		for (uint32_t i = 0; i < set->clip_count; ++i) {
			const sinew_clip *clip = set->clips[i];
			if (sinew_clip_validate(clip, &error) != SINEW_RESULT_OK) abort();
			volatile float sink = 0.0f;
			size_t transforms = (size_t)clip->sample_count * clip->joint_count;
			for (size_t t = 0; t < transforms; ++t) sink += clip->transforms[t].rotation[3];
			for (uint32_t k = 0; k < clip->scalar_track_count; ++k)
				for (size_t v = 0; v < (size_t)clip->sample_count * clip->scalar_tracks[k].components; ++v)
					sink += clip->scalar_tracks[k].values[v];
			(void)sink;
		}
		sinew_clip_set_free(set);
	} else if (set != NULL || error.message[0] == 0) {
		abort(); // a failure must leave no output and must say why
	}
	free(copy);
	return 0;
}

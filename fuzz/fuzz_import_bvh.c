// sinew — see include/sinew.h for version and licence
// libFuzzer target: BVH reader (hierarchy, channels, motion section) on arbitrary bytes.
// clang -fsanitize=fuzzer,address,undefined -Iinclude fuzz/fuzz_import_bvh.c src/*/*.c -lm
// Seeds: fuzz/seeds/bvh/. Run: ./a.out -max_total_time=60 fuzz/seeds/bvh (a -dict with the BVH keywords helps).
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	uint8_t *copy = fuzz_copy(data, size);
	if (!copy) return 0;
	sinew_import_options options;
	memset(&options, 0, sizeof options);
	options.kind = SINEW_FILE_BVH;
	options.warning = fuzz_ignore_warning;
	options.bvh_skip_end_sites = (int)(size & 1); // both layouts, without spending input bytes on options
	sinew_clip_set *set = NULL;
	sinew_error error;
	error.message[0] = 0;
	sinew_result r = sinew_import_memory(copy, size, &options, NULL, &set, &error);
	if (r == SINEW_RESULT_OK) {
		if (set->clip_count != 1) abort();
		fuzz_check_clip(set->clips[0]);
		sinew_clip_set_free(set);
	} else {
		fuzz_check_refusal(r, set, &error);
	}
	free(copy);
	return 0;
}

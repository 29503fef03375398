// sinew — see include/sinew.h for version and licence
// libFuzzer target: ACL .acl.sjson reader (SJSON parser, clips, track lists) on arbitrary bytes.
// clang -fsanitize=fuzzer,address,undefined -Iinclude fuzz/fuzz_import_acl.c src/*/*.c -lm
// Seeds: fuzz/seeds/acl/.
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	uint8_t *copy = fuzz_copy(data, size);
	if (!copy) return 0;
	sinew_import_options options;
	memset(&options, 0, sizeof options);
	options.kind = SINEW_FILE_ACL;
	options.warning = fuzz_ignore_warning;
	sinew_clip_set *set = NULL;
	sinew_error error;
	error.message[0] = 0;
	sinew_result r = sinew_import_memory(copy, size, &options, NULL, &set, &error);
	if (r == SINEW_RESULT_OK) {
		for (uint32_t i = 0; i < set->clip_count; ++i) fuzz_check_clip(set->clips[i]);
		sinew_clip_set_free(set);
	} else {
		fuzz_check_refusal(r, set, &error);
	}
	free(copy);
	return 0;
}

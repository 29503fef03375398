// sinew — see include/sinew.h for version and licence
// libFuzzer target: the assimp importer (any format assimp recognizes by content) on arbitrary bytes. assimp
// is not hardened against hostile files, so this target is not part of `make fuzz` / CI: `make
// fuzz-assimp` runs it for a bounded time and its crashes are assimp's to fix (the importer is for
// trusted pipeline input). Crashes in sinew's own code (after assimp returned a scene) are ours.
// clang -fsanitize=fuzzer,address,undefined -DSINEW_HAVE_ASSIMP -Iinclude fuzz/fuzz_import_assimp.c src/*/*.c -lassimp -lm
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	uint8_t *copy = fuzz_copy(data, size);
	if (!copy) return 0;
	sinew_import_options options;
	memset(&options, 0, sizeof options);
	options.kind = SINEW_FILE_ASSIMP; // a memory import: assimp identifies the format by content
	options.warning = fuzz_ignore_warning;
	sinew_clip_set *set = NULL;
	sinew_error error;
	error.message[0] = 0;
	sinew_result r = sinew_import_memory(copy, size, &options, NULL, &set, &error);
	if (r == SINEW_RESULT_OK) {
		for (uint32_t c = 0; c < set->clip_count; ++c) fuzz_check_clip(set->clips[c]);
		sinew_clip_set_free(set);
	} else {
		fuzz_check_refusal(r, set, &error);
	}
	free(copy);
	return 0;
}

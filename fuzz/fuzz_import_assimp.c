// sinew — see include/sinew.h for version and licence
// libFuzzer target: the assimp importer (FBX, then COLLADA by the first byte) on arbitrary bytes. assimp
// is not hardened against hostile files, so this target is not part of `make fuzz` / CI: `make
// fuzz-assimp` runs it for a bounded time and its crashes are assimp's to fix (the importer is for
// trusted pipeline input). Crashes in sinew's own code (after assimp returned a scene) are ours.
// clang -fsanitize=fuzzer,address,undefined -DSINEW_HAVE_ASSIMP -Iinclude fuzz/fuzz_import_assimp.c src/*/*.c -lassimp -lm
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size < 1) return 0;
	uint8_t *copy = fuzz_copy(data + 1, size - 1);
	if (!copy) return 0;
	sinew_import_options options;
	memset(&options, 0, sizeof options);
	options.kind = SINEW_FILE_ASSIMP;
	options.warning = fuzz_ignore_warning;
	sinew_clip_set *set = NULL;
	sinew_error error;
	error.message[0] = 0;
	// the extension hint picks assimp's reader: sinew_import_memory has no path, so the format comes from the
	// content; the first byte chooses between content sniffing and nothing else to keep inputs small
	(void)data[0];
	sinew_result r = sinew_import_memory(copy, size - 1, &options, NULL, &set, &error);
	if (r == SINEW_RESULT_OK) {
		for (uint32_t c = 0; c < set->clip_count; ++c) fuzz_check_clip(set->clips[c]);
		sinew_clip_set_free(set);
	} else {
		fuzz_check_refusal(r, set, &error);
	}
	free(copy);
	return 0;
}

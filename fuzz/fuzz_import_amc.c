// sinew — see include/sinew.h for version and licence
// libFuzzer target: ASF skeleton + AMC motion reader on arbitrary bytes. The input is the ASF, a
// NUL byte, then the AMC (no NUL: all ASF, empty motion), so one input mutates both files.
// clang -fsanitize=fuzzer,address,undefined -Iinclude fuzz/fuzz_import_amc.c src/*/*.c -lm
// Seeds: fuzz/seeds/amc/. Run: ./a.out -max_total_time=60 fuzz/seeds/amc
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	const uint8_t *nul = size ? (const uint8_t *)memchr(data, 0, size) : NULL;
	size_t asf_size = nul ? (size_t)(nul - data) : size;
	size_t amc_size = nul ? size - asf_size - 1 : 0;
	uint8_t *asf = fuzz_copy(data, asf_size), *amc = fuzz_copy(nul ? nul + 1 : data, amc_size);
	if (!asf || !amc) {
		free(asf), free(amc);
		return 0;
	}
	sinew_import_options options;
	memset(&options, 0, sizeof options);
	options.kind = SINEW_FILE_AMC;
	options.warning = fuzz_ignore_warning;
	options.asf_data = asf;
	options.asf_size = asf_size;
	options.bvh_skip_end_sites = (int)(size & 1); // both layouts, without spending input bytes on options
	sinew_clip_set *set = NULL;
	sinew_error error;
	error.message[0] = 0;
	sinew_result r = sinew_import_memory(amc, amc_size, &options, NULL, &set, &error);
	if (r == SINEW_RESULT_OK) {
		if (set->clip_count != 1) abort();
		fuzz_check_clip(set->clips[0]);
		sinew_clip_set_free(set);
	} else {
		fuzz_check_refusal(r, set, &error);
	}
	free(asf), free(amc);
	return 0;
}

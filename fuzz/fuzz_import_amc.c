// sinew — see include/sinew.h for version and licence
// libFuzzer target: ASF skeleton + AMC motion reader on arbitrary bytes. The input is the ASF, a
// NUL byte, then the AMC (no NUL: all ASF, empty motion), so one input mutates both files.
// clang -fsanitize=fuzzer,address,undefined -Iinclude fuzz/fuzz_import_amc.c src/*/*.c -lm
// Seeds: fuzz/seeds/amc/. Run: ./a.out -max_total_time=60 fuzz/seeds/amc
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
	const uint8_t *nul = size ? (const uint8_t *)memchr(data, 0, size) : NULL;
	size_t asf_size = nul ? (size_t)(nul - data) : size;
	size_t amc_size = nul ? size - asf_size - 1 : 0;
	// exact-size copies, so that reading one byte past either part is caught
	uint8_t *asf = (uint8_t *)malloc(asf_size ? asf_size : 1), *amc = (uint8_t *)malloc(amc_size ? amc_size : 1);
	if (!asf || !amc) {
		free(asf), free(amc);
		return 0;
	}
	if (asf_size) memcpy(asf, data, asf_size);
	if (amc_size) memcpy(amc, nul + 1, amc_size);
	sinew_import_options options;
	memset(&options, 0, sizeof options);
	options.kind = SINEW_FILE_AMC;
	options.warning = ignore_warning;
	options.asf_data = asf;
	options.asf_size = asf_size;
	options.bvh_skip_end_sites = (int)(size & 1); // both layouts, without spending input bytes on options
	sinew_clip_set *set = NULL;
	sinew_error error;
	error.message[0] = 0;
	sinew_result r = sinew_import_memory(amc, amc_size, &options, NULL, &set, &error);
	if (r == SINEW_RESULT_OK) {
		if (set->clip_count != 1) abort();
		const sinew_clip *clip = set->clips[0];
		if (sinew_clip_validate(clip, &error) != SINEW_RESULT_OK) abort();
		volatile float sink = 0.0f;
		size_t transforms = (size_t)clip->sample_count * clip->joint_count;
		for (size_t t = 0; t < transforms; ++t) sink += clip->transforms[t].rotation[3];
		for (uint32_t j = 0; j < clip->joint_count; ++j) sink += (float)strlen(clip->joints[j].name);
		(void)sink;
		sinew_clip_set_free(set);
	} else if (set != NULL || error.message[0] == 0) {
		abort(); // a failure must leave no output and must say why
	}
	free(asf), free(amc);
	return 0;
}

// sinew — see include/sinew.h for version and licence
// What the import fuzz targets share: an exact-size copy of the input (reading one byte past it is
// caught), the checks on a clip that was accepted (it validates; every value and name can be read)
// and on a refusal (no output, a result code and a message).
#ifndef SINEW_FUZZ_IMPORT_H
#define SINEW_FUZZ_IMPORT_H

#include "sinew.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint8_t *fuzz_copy(const uint8_t *data, size_t size) {
	uint8_t *copy = (uint8_t *)malloc(size ? size : 1);
	if (copy && size) memcpy(copy, data, size);
	return copy;
}

static inline void fuzz_ignore_warning(void *user, const char *message) {
	(void)user;
	(void)message;
}

static inline void fuzz_check_clip(const sinew_clip *clip) {
	sinew_error error;
	if (sinew_clip_validate(clip, &error) != SINEW_RESULT_OK) abort();
	volatile float sink = 0.0f;
	size_t transforms = (size_t)clip->sample_count * clip->joint_count;
	for (size_t t = 0; t < transforms; ++t) sink += clip->transforms[t].rotation[3] + clip->transforms[t].scale[2];
	for (uint32_t j = 0; j < clip->joint_count; ++j)
		if (clip->joints[j].name) sink += (float)strlen(clip->joints[j].name);
	for (uint32_t k = 0; k < clip->scalar_track_count; ++k) {
		for (size_t v = 0; v < (size_t)clip->sample_count * clip->scalar_tracks[k].components; ++v)
			sink += clip->scalar_tracks[k].values[v];
		if (clip->scalar_tracks[k].name) sink += (float)strlen(clip->scalar_tracks[k].name);
	}
	(void)sink;
}

// A failed import must leave no output and must say why.
static inline void fuzz_check_refusal(sinew_result r, const sinew_clip_set *set, const sinew_error *error) {
	if (set != NULL || error->code != r || !error->message[0]) abort();
}

#endif

// sinew — see include/sinew.h for version and licence
// libFuzzer target: glTF 2.0 reader (JSON, GLB container, data: URIs, accessors, sparse, node hierarchy,
// resampling and its check points, skin shells from meshes) on arbitrary bytes. No base path is given, so external buffers are refused without touching
// the file system.
// clang -fsanitize=fuzzer,address,undefined -Iinclude fuzz/fuzz_import_gltf.c src/*/*.c -lm
// Run: ./a.out -dict=fuzz/gltf.dict -max_total_time=120 corpus_dir fuzz/seeds/gltf
#include "fuzz_import.h"

#include <math.h>

static void check_warning(void *user, const char *message) {
	(void)user;
	if (!message || !message[0]) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	uint8_t *copy = fuzz_copy(data, size);
	if (!copy) return 0;
	sinew_import_options options;
	memset(&options, 0, sizeof options);
	options.kind = SINEW_FILE_GLTF;
	options.warning = check_warning;
	// Option variants from the size, without spending input bytes on them.
	switch (size % 4) {
	case 1: options.sample_rate = 7.5; break;
	case 2: options.unit_cm = 1.0; break;
	case 3: options.error_cm = 1.0; break;
	default: break;
	}
	options.skin_shells = (size / 4) % 2; // meshes read for shells in half the runs
	sinew_clip_set *set = NULL;
	sinew_error error;
	error.message[0] = 0;
	sinew_result r = sinew_import_memory(copy, size, &options, NULL, &set, &error);
	if (r == SINEW_RESULT_OK) {
		if (!set || set->clip_count == 0) abort();
		const sinew_clip *first = set->clips[0];
		for (uint32_t c = 0; c < set->clip_count; ++c) {
			const sinew_clip *clip = set->clips[c];
			fuzz_check_clip(clip);
			// one skeleton and one morph track list per file; then the clip's own pointer tracks
			uint32_t morph = 0, first_morph = 0;
			while (morph < clip->scalar_track_count && clip->scalar_tracks[morph].source_node != SINEW_SOURCE_POINTER)
				++morph;
			while (first_morph < first->scalar_track_count &&
			       first->scalar_tracks[first_morph].source_node != SINEW_SOURCE_POINTER)
				++first_morph;
			if (clip->joint_count != first->joint_count || morph != first_morph) abort();
			for (uint32_t i = morph; i < clip->scalar_track_count; ++i) {
				const sinew_scalar_track *t = &clip->scalar_tracks[i];
				// (the precision may sit below 1e-4: resampling error comes off it)
				if (t->source_node != SINEW_SOURCE_POINTER || !t->name || t->name[0] != '/' || t->source_target % 4 ||
				    !(t->precision > 0.0f) || !isfinite(t->precision))
					abort();
			}
			if (!(clip->resample_error >= 0.0) || !isfinite(clip->resample_error)) abort();
			if (!clip->name) abort();
			// check points: increasing times within the clip, finite poses
			double duration = sinew_clip_duration(clip);
			for (uint32_t k = 0; k < clip->check_count; ++k) {
				double t = clip->check_times[k];
				if (!(t >= 0.0) || t > duration + 1e-6 * (1.0 + duration) || (k > 0 && !(t > clip->check_times[k - 1])))
					abort();
				const float *v = &clip->check_transforms[(size_t)k * clip->joint_count].rotation[0];
				for (size_t i = 0; i < (size_t)clip->joint_count * 10; ++i)
					if (!isfinite(v[i])) abort();
			}
			for (uint32_t j = 0; j < clip->joint_count; ++j)
				if (!(clip->joints[j].shell_distance >= 0.0f) || !isfinite(clip->joints[j].shell_distance)) abort();
			for (uint32_t j = 0; j < clip->joint_count; ++j)
				if (clip->joints[j].source_index != first->joints[j].source_index) abort();
			for (uint32_t t = 0; t < clip->scalar_track_count; ++t)
				if (!clip->scalar_tracks[t].name) abort();
		}
		sinew_clip_set_free(set);
	} else {
		fuzz_check_refusal(r, set, &error);
	}
	free(copy);
	return 0;
}

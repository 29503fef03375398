// sinew — see include/sinew.h for version and licence
// libFuzzer target: arbitrary bytes through sinew_blob_sizes and sinew_validate, then (when valid) every clip's
// context and sampler at many times, into output arrays that end exactly at their allocation
// so ASan catches any overrun. Inputs whose first byte is odd get their checksum repaired, so
// the fuzzer explores the structural checks and the sampler, not just the hash.
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/bits.h"
#include "../src/core/hash.h"
#include "sinew.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// Bit-identical, or both NaN (kernels may differ in a NaN's payload; a crafted raw knot can be NaN).
static bool same_floats(const float *a, const float *b, int n) {
	for (int i = 0; i < n; ++i)
		if (memcmp(&a[i], &b[i], sizeof(float)) != 0 && !(a[i] != a[i] && b[i] != b[i])) return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size < 1) return 0;
	bool repair = data[0] & 1;
	size -= 1;
	unsigned char *blob = (unsigned char *)malloc(size ? size : 1);
	if (!blob) return 0;
	memcpy(blob, data + 1, size);
	if (repair && size >= 16) sinewi_wr32(blob + 12, sinewi_xxh32(blob + 16, size - 16, 0));
	// the size breakdown reads any bytes; on a structurally valid blob its parts add up to the size
	sinew_size_breakdown parts;
	if (sinew_blob_sizes(blob, size, SINEW_ALL_CLIPS, &parts, NULL) == SINEW_RESULT_OK) {
		uint64_t bits = parts.bits_rotation + parts.bits_translation + parts.bits_scale + parts.bits_scalar + parts.bit_padding;
		uint64_t sum = parts.blob_header + parts.clip_headers + parts.descriptors + parts.constants + parts.clip_ranges + parts.time_map +
		               parts.segment_table + parts.segment_descriptors + parts.segment_ranges + parts.group_offsets +
		               bits / 8 + parts.metadata + parts.rig + parts.padding + parts.curve_times + parts.curve_tracks;
		if (sum != size || bits % 8 != 0) abort();
	}
	if (sinew_validate(blob, size, NULL) == SINEW_RESULT_OK) {
		uint32_t clips = sinew_blob_clip_count(blob, size);
		for (uint32_t c = 0; c < clips && c < 8; ++c) {
			sinew_clip_info info;
			if (sinew_blob_clip_info(blob, size, c, &info, NULL) != SINEW_RESULT_OK) abort(); // validated: must work
			// a packed glTF's blob plays its document's rest pose (Rest_defaults without the rig's): given here, as a
			// player gives it (the rig's own rest pose, when it has one, wins)
			sinew_qvv *rest = (sinew_qvv *)calloc(info.joint_count + 1, sizeof(sinew_qvv));
			float *rest_scalars = (float *)calloc(4 * (size_t)info.scalar_track_count + 1, sizeof(float));
			if (!rest || !rest_scalars) abort();
			for (uint32_t j = 0; j < info.joint_count; ++j) rest[j].rotation[3] = rest[j].scale[0] = rest[j].scale[1] = rest[j].scale[2] = 1.0f;
			sinew_context_options o = {0};
			o.rest_pose = rest, o.rest_scalars = rest_scalars;
			size_t need = sinew_context_size_with(blob, size, c, &o);
			if (!need) abort();
			void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
			sinew_context *ctx = NULL;
			if (sinew_context_init(mem, need, blob, size, c, &o, &ctx, NULL) != SINEW_RESULT_OK) abort();
			sinew_qvv *pose = (sinew_qvv *)malloc(sizeof(sinew_qvv) * (info.joint_count ? info.joint_count : 1));
			float *scalars = (float *)malloc(sizeof(float) * 4 * (info.scalar_track_count + 1));
			// forward at two speeds (the second lets a context prepare its next segments), checking the
			// whole-pose path against the single-joint path (decode_track) on the first joints
			for (int pass = 0; pass < 2; ++pass) {
				const int steps = pass ? 61 : 13; // counted steps: a float-accumulated loop ran for minutes on a hostile duration
				double step = info.duration > 0 ? info.duration / steps : 1.0;
				for (int k = -1; k <= steps + 1; ++k) {
					const double t = k * step;
					sinew_sample_pose(ctx, t, pose, NULL, scalars);
					for (uint32_t j = 0; j < info.joint_count && j < 4; ++j) {
						sinew_qvv one;
						sinew_sample_joint(ctx, t, j, &one);
						if (!same_floats(&one.rotation[0], &pose[j].rotation[0], 10)) abort();
					}
					for (uint32_t s = 0; s < info.scalar_track_count && s < 4; ++s) sinew_sample_scalar(ctx, t, s, scalars);
				}
			}
			free(pose);
			free(scalars);
			free(mem);
			free(rest);
			free(rest_scalars);
		}
		// Whole-clip decompression does work proportional to samples x joints, which a small valid
		// blob can make huge (1024-sample segments); only exercise it on bounded clips.
		uint64_t work = 0;
		for (uint32_t c = 0; c < clips; ++c) {
			sinew_clip_info info;
			if (sinew_blob_clip_info(blob, size, c, &info, NULL) == SINEW_RESULT_OK)
				work += (uint64_t)info.sample_count * (info.joint_count + info.scalar_track_count + 1);
		}
		sinew_clip_set *dec = NULL;
		if (work <= 200000 && sinew_decompress_clips(blob, size, NULL, &dec, NULL) == SINEW_RESULT_OK)
			sinew_clip_set_free(dec);
	}
	free(blob);
	return 0;
}

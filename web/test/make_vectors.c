// sinew — see include/sinew.h for version and licence
// Writes the expected poses of a blob for web/test (run by make_vectors.sh with the native
// library): for every clip, poses sampled with the reference (scalar) kernel at a few times.
// Output (little-endian): per clip u32 clip index, u32 time count, u32 floats per pose, then per
// time an f64 time followed by the pose floats (10 per joint, then the scalar floats).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew.h"

#include "../../src/decompress/context.h"

static unsigned char *read_all(const char *path, size_t *size) {
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *p = n > 0 ? (unsigned char *)malloc((size_t)n) : NULL;
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) free(p), p = NULL;
	fclose(f);
	*size = (size_t)n;
	return p;
}

static void put_u32(FILE *f, uint32_t v) {
	unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
	fwrite(b, 1, 4, f);
}

int main(int argc, char **argv) {
	if (argc != 4) return fprintf(stderr, "usage: make_vectors IN.sinew OUT.expect TIMES_PER_CLIP\n"), 2;
	size_t size;
	unsigned char *blob = read_all(argv[1], &size);
	sinew_error err = {0};
	if (!blob || sinew_validate(blob, size, &err) != SINEW_RESULT_OK) return fprintf(stderr, "%s: %s\n", argv[1], err.message), 1;
	FILE *out = fopen(argv[2], "wb");
	if (!out) return fprintf(stderr, "cannot write %s\n", argv[2]), 1;
	uint32_t per_clip = (uint32_t)atoi(argv[3]);
	if (per_clip < 6) per_clip = 6;
	uint32_t state = 12345; // LCG: deterministic "random" times
	for (uint32_t c = 0; c < sinew_blob_clip_count(blob, size); ++c) {
		sinew_clip_info info;
		sinew_blob_clip_info(blob, size, c, &info, NULL);
		size_t need = sinew_context_size(blob, size, c);
		void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
		sinew_context_options co = {.kernel = SINEW_KERNEL_SCALAR};
		sinew_context *ctx;
		if (!mem || sinew_context_init(mem, need, blob, size, c, &co, &ctx, &err) != SINEW_RESULT_OK)
			return fprintf(stderr, "%s: %s\n", argv[1], err.message), 1;
		uint32_t scalar_floats = ctx->view.scalar_components;
		uint32_t floats = info.joint_count * 10 + scalar_floats;
		float *pose = (float *)calloc(floats + 1, sizeof(float));
		put_u32(out, c);
		put_u32(out, per_clip);
		put_u32(out, floats);
		uint32_t last = info.sample_count - 1;
		for (uint32_t i = 0; i < per_clip; ++i) {
			double t;
			// both ends and outside them, integer sample times k / rate, then fractional times
			if (i == 0) t = -1.0;
			else if (i == 1) t = 0.0;
			else if (i == 2) t = (double)last / info.sample_rate;
			else if (i == 3) t = info.duration + 0.5;
			else if (i % 2 == 0) t = (double)((state = state * 1664525u + 1013904223u) % (last + 1)) / info.sample_rate;
			else t = (double)((state = state * 1664525u + 1013904223u) >> 8) / 16777216.0 * info.duration;
			sinew_sample_pose(ctx, t, (sinew_qvv *)(void *)pose, NULL, pose + info.joint_count * 10);
			fwrite(&t, sizeof t, 1, out);
			fwrite(pose, sizeof(float), floats, out);
		}
		free(pose);
		free(mem);
	}
	free(blob);
	return fclose(out) == 0 ? 0 : 1;
}

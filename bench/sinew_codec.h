// sinew — see include/sinew.h for version and licence
// sinew and the raw-copy baseline as codecs of decode_protocol.h (public API only, C and C++), for
// bench_decompress, bench_scene and local peer harnesses.
#ifndef SINEW_BENCH_SINEW_CODEC_H
#define SINEW_BENCH_SINEW_CODEC_H

#include <stdlib.h>
#include <string.h>

#include "decode_protocol.h"
#include "sinew.h"

// Which kernel a context gets: SINEW_KERNEL_SCALAR through the options, SSE2 through the
// environment variable the dispatcher reads (SINEW_KERNEL=sse2), else the best the CPU runs.
enum { SINEW_BENCH_AUTO, SINEW_BENCH_SCALAR, SINEW_BENCH_SSE2 };

typedef struct sinew_codec_data {
	const void *blob;
	size_t blob_size;
	uint32_t clip;
	int kernel;         // SINEW_BENCH_*
	int random_access;
	size_t context_bytes;
	sinew_qvv *pose;    // the codec's output
	float *scalars;
	char name[48];
} sinew_codec_data;

static inline size_t sinew_codec_round64(size_t n) {
	return (n + 63) / 64 * 64;
}

static inline int sinew_codec_context(const sinew_codec_data *d, void *memory, const void *blob, sinew_context **ctx) {
	sinew_context_options o;
	memset(&o, 0, sizeof o);
	o.random_access = d->random_access;
	o.kernel = d->kernel == SINEW_BENCH_SCALAR ? SINEW_KERNEL_SCALAR : SINEW_KERNEL_AUTO;
	const char *env = getenv("SINEW_KERNEL");
	char saved[32] = "";
	if (env) snprintf(saved, sizeof saved, "%s", env);
	if (d->kernel == SINEW_BENCH_SSE2) setenv("SINEW_KERNEL", "sse2", 1);
	else unsetenv("SINEW_KERNEL");
	sinew_result r = sinew_context_init(memory, d->context_bytes, blob, d->blob_size, d->clip, &o, ctx, NULL);
	if (env) setenv("SINEW_KERNEL", saved, 1);
	else unsetenv("SINEW_KERNEL");
	return r == SINEW_RESULT_OK;
}

// A copy: [context][blob], each 64-byte aligned.
static inline void *sinew_codec_copy_init(const bench_codec *c, unsigned char *region) {
	const sinew_codec_data *d = (const sinew_codec_data *)c->user;
	unsigned char *blob = region + sinew_codec_round64(d->context_bytes);
	memcpy(blob, d->blob, d->blob_size);
	sinew_context *ctx = NULL;
	return sinew_codec_context(d, region, blob, &ctx) ? ctx : NULL;
}

static inline void sinew_codec_sample(const bench_codec *c, void *copy, double t) {
	const sinew_codec_data *d = (const sinew_codec_data *)c->user;
	sinew_sample_pose((sinew_context *)copy, t, d->pose, NULL, d->scalars);
}

// A codec for clip `clip` of a validated blob (which must outlive it); the name says the kernel the
// context really got and "+ra" for a random-access context. 0 when the kernel is not this CPU's
// (SSE2 off x86) or a context cannot be made.
static inline int sinew_codec_make(bench_codec *c, const void *blob, size_t size, uint32_t clip, int kernel, int random_access) {
	sinew_clip_info info;
	if (sinew_blob_clip_info(blob, size, clip, &info, NULL) != SINEW_RESULT_OK) return 0;
	sinew_codec_data *d = (sinew_codec_data *)calloc(1, sizeof *d);
	if (!d) return 0;
	d->blob = blob, d->blob_size = size, d->clip = clip, d->kernel = kernel, d->random_access = random_access;
	sinew_context_options o;
	memset(&o, 0, sizeof o);
	o.random_access = random_access;
	d->context_bytes = sinew_context_size_with(blob, size, clip, &o);
	d->pose = (sinew_qvv *)calloc(info.joint_count + 1, sizeof(sinew_qvv));
	d->scalars = (float *)calloc((size_t)info.scalar_track_count * 4 + 1, sizeof(float));
	void *probe = aligned_alloc(64, sinew_codec_round64(d->context_bytes ? d->context_bytes : 64));
	sinew_context *ctx = NULL;
	int ok = d->context_bytes && d->pose && d->scalars && probe && sinew_codec_context(d, probe, blob, &ctx);
	const char *kname = ok ? sinew_context_kernel(ctx) : "";
	if (ok && kernel == SINEW_BENCH_SSE2 && strcmp(kname, "sse2") != 0) ok = 0;
	free(probe);
	if (!ok) {
		free(d->pose), free(d->scalars), free(d);
		return 0;
	}
	snprintf(d->name, sizeof d->name, "%s%s", kname, random_access ? "+ra" : "");
	memset(c, 0, sizeof *c);
	c->name = d->name;
	c->samples = info.sample_count;
	c->rate = info.sample_rate;
	c->copy_bytes = sinew_codec_round64(d->context_bytes) + sinew_codec_round64(size);
	c->copy_init = sinew_codec_copy_init;
	c->sample = sinew_codec_sample;
	c->user = d;
	return 1;
}

static inline void sinew_codec_free(bench_codec *c) {
	sinew_codec_data *d = (sinew_codec_data *)c->user;
	if (d) free(d->pose), free(d->scalars), free(d);
	c->user = NULL;
}

// The raw-copy baseline: every sample's pose as float32 QVVs (decoded once by sinew at the sample
// times), and a call copies the pose at floor(t * rate) to the output. Its copies share that array
// (one copy of it per copy would not fit in memory for long clips): calls in one round read
// different poses, so the cold protocol still finds them out of cache.
typedef struct raw_codec_data {
	sinew_qvv *poses, *out;
	uint32_t joints, samples;
	double rate;
} raw_codec_data;

static inline void *raw_codec_copy_init(const bench_codec *c, unsigned char *region) {
	(void)c;
	return region;
}

static inline void raw_codec_sample(const bench_codec *c, void *copy, double t) {
	(void)copy;
	const raw_codec_data *d = (const raw_codec_data *)c->user;
	uint32_t s = (uint32_t)(t * d->rate);
	if (s >= d->samples) s = d->samples - 1;
	memcpy(d->out, d->poses + (size_t)s * d->joints, d->joints * sizeof(sinew_qvv));
	__asm__ volatile("" : : "r"(d->out) : "memory"); // the copy is kept
}

static inline int raw_codec_make(bench_codec *c, const void *blob, size_t size, uint32_t clip) {
	sinew_clip_info info;
	if (sinew_blob_clip_info(blob, size, clip, &info, NULL) != SINEW_RESULT_OK || !info.sample_count) return 0;
	raw_codec_data *d = (raw_codec_data *)calloc(1, sizeof *d);
	bench_codec sc;
	if (!d || !sinew_codec_make(&sc, blob, size, clip, SINEW_BENCH_AUTO, 0)) return free(d), 0;
	d->joints = info.joint_count ? info.joint_count : 1, d->samples = info.sample_count, d->rate = info.sample_rate;
	d->poses = (sinew_qvv *)calloc((size_t)d->samples * d->joints, sizeof(sinew_qvv));
	d->out = (sinew_qvv *)calloc(d->joints, sizeof(sinew_qvv));
	sinew_codec_data *sd = (sinew_codec_data *)sc.user;
	void *mem = aligned_alloc(64, sinew_codec_round64(sd->context_bytes));
	sinew_context *ctx = NULL;
	int ok = d->poses && d->out && mem && sinew_codec_context(sd, mem, blob, &ctx);
	for (uint32_t s = 0; ok && s < d->samples; ++s)
		sinew_sample_pose(ctx, s / info.sample_rate, d->poses + (size_t)s * d->joints, NULL, sd->scalars);
	free(mem);
	sinew_codec_free(&sc);
	if (!ok) return free(d->poses), free(d->out), free(d), 0;
	memset(c, 0, sizeof *c);
	c->name = "raw copy";
	c->samples = info.sample_count;
	c->rate = info.sample_rate;
	c->copy_bytes = 64;
	c->copy_init = raw_codec_copy_init;
	c->sample = raw_codec_sample;
	c->user = d;
	return 1;
}

static inline void raw_codec_free(bench_codec *c) {
	raw_codec_data *d = (raw_codec_data *)c->user;
	if (d) free(d->poses), free(d->out), free(d);
	c->user = NULL;
}

#endif

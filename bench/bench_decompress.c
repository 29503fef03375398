// sinew — see include/sinew.h for version and licence
// Decompression benchmark. For every file given (compressed on the fly at the defaults):
// median ns per whole pose (forward, backward, random order; warm and cold cache) and per single
// joint, for every kernel this CPU runs, interleaved in the same run with a baseline that copies
// the same number of raw float32 QVVs. Warm: after ~200 ms of forward playback, whole passes over
// the clip's samples (as ACL's decompression timing does). Cold: measured after the warm passes,
// a 32 MiB buffer touched before each pose.
//   bench_decompress [--reps N] [--json] [--plain-knots] FILE[:unit_cm]...
//   bench_decompress --callgrind FILE   (a fixed workload: 1000 forward poses, scalar kernel)
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decompress/context.h"
#include "sinew.h"

static uint64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b) {
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n) {
	qsort(v, (size_t)n, sizeof *v, cmp_u64);
	return v[n / 2];
}

static volatile float sink;
static unsigned char *evict_buffer;
#define EVICT_BYTES (32u << 20)

static void evict(void) {
	for (size_t i = 0; i < EVICT_BYTES; i += 64) evict_buffer[i]++;
}

static int midpoint_knots; // --plain-knots: compress without midpoint knots (-1)

static bool compress_file(const char *arg, void **blob, size_t *size) {
	char path[4096];
	snprintf(path, sizeof path, "%s", arg);
	sinew_import_options io = {0};
	char *colon = strrchr(path, ':');
	if (colon && colon[1] && strchr("0123456789.", colon[1])) io.unit_cm = atof(colon + 1), *colon = 0;
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	if (sinew_import_file(path, &io, NULL, &set, &err) != SINEW_RESULT_OK) {
		fprintf(stderr, "bench: %s\n", err.message);
		return false;
	}
	sinew_compress_options opt = {0};
	opt.midpoint_knots = midpoint_knots;
	bool ok = sinew_compress(set, &opt, NULL, blob, size, &err) == SINEW_RESULT_OK;
	if (!ok) fprintf(stderr, "bench: %s\n", err.message);
	sinew_clip_set_free(set);
	return ok;
}

int main(int argc, char **argv) {
	int reps = 21, json = 0, callgrind = 0;
	const sinewi_kernel_table *kernels[8];
	uint32_t nk = sinewi_kernels_available(kernels, 8);
	evict_buffer = (unsigned char *)calloc(EVICT_BYTES, 1);
	bool first = true;
	for (int a = 1; a < argc; ++a) {
		if (!strcmp(argv[a], "--reps") && a + 1 < argc) { reps = atoi(argv[++a]); continue; }
		if (!strcmp(argv[a], "--json")) { json = 1; printf("{\"clips\":["); continue; }
		if (!strcmp(argv[a], "--callgrind")) { callgrind = 1; continue; }
		if (!strcmp(argv[a], "--midpoint")) { midpoint_knots = 1; continue; } // (the default)
		if (!strcmp(argv[a], "--plain-knots")) { midpoint_knots = -1; continue; }
		void *blob = NULL;
		size_t size = 0;
		if (!compress_file(argv[a], &blob, &size)) continue;
		const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
		uint32_t clips = sinew_blob_clip_count(blob, size);
		for (uint32_t c = 0; c < clips; ++c) {
			sinew_clip_info info;
			sinew_blob_clip_info(blob, size, c, &info, NULL);
			uint32_t n = info.sample_count, nj = info.joint_count ? info.joint_count : 1;
			sinew_context_options ra = {.random_access = 1};
			size_t need = sinew_context_size(blob, size, c), need_ra = sinew_context_size_with(blob, size, c, &ra);
			void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15), *mem_ra = aligned_alloc(16, (need_ra + 15) & ~(size_t)15);
			sinew_context *ctx = NULL, *ctx_single = NULL, *ctx_ra = NULL;
			sinew_context_init(mem, need, blob, size, c, NULL, &ctx_single, NULL);
			sinew_context_init(mem_ra, need_ra, blob, size, c, &ra, &ctx_ra, NULL);
			ctx = ctx_single;
			sinew_qvv *pose = (sinew_qvv *)calloc(nj, sizeof *pose), *raw = (sinew_qvv *)calloc((size_t)n * nj, sizeof *raw);
			float *scalars = (float *)calloc((size_t)info.scalar_track_count * 4 + 1, sizeof(float));
			if (callgrind) {
				ctx->kernel = &sinewi_kernel_scalar;
				for (int i = 0; i < 1000; ++i) sinew_sample_pose(ctx, (i % n + 0.5) / info.sample_rate, pose, NULL, scalars);
				printf("callgrind workload: %s, 1000 poses of %u joints\n", base, info.joint_count);
				free(pose), free(raw), free(scalars), free(mem);
				continue;
			}
			for (uint32_t s = 0; s < n; ++s) sinew_sample_pose(ctx, s / info.sample_rate, raw + (size_t)s * nj, NULL, scalars);
			double *order[3];
			for (int k = 0; k < 3; ++k) order[k] = (double *)malloc(n * sizeof(double));
			unsigned rng = 777;
			for (uint32_t s = 0; s < n; ++s) order[0][s] = order[1][n - 1 - s] = order[2][s] = (s + 0.37) / info.sample_rate;
			for (uint32_t s = n; s-- > 1;) {
				rng = rng * 1103515245u + 12345u;
				uint32_t r = (rng >> 8) % (s + 1);
				double t = order[2][s];
				order[2][s] = order[2][r], order[2][r] = t;
			}
			uint32_t cold_n = n < 64 ? n : 64; // poses measured cold per repetition
			for (uint32_t mk = 0; mk < 2 * nk; ++mk) {
				uint32_t k = mk % nk;
				ctx = mk < nk ? ctx_single : ctx_ra;
				const char *mode = mk < nk ? "" : "+ra";
				char kname[32];
				snprintf(kname, sizeof kname, "%s%s", kernels[k]->name, mode);
				ctx->kernel = kernels[k];
				uint64_t *v = (uint64_t *)malloc((size_t)reps * sizeof(uint64_t) * 10);
				uint64_t *pose_v[3] = {v, v + reps, v + 2 * reps}, *base_v[3] = {v + 3 * reps, v + 4 * reps, v + 5 * reps};
				uint64_t *joint_v = v + 6 * reps, *cold_v = v + 7 * reps, *cold_base = v + 8 * reps, *pmin = v + 9 * reps;
				// warm-up (~200 ms of forward playback: clock ramp, caches, predictors), then every timed
				// pass warm; the cold poses are measured after, so their evictions leave the passes alone
				for (uint64_t w0 = now_ns(); now_ns() - w0 < 200000000u;)
					for (uint32_t s = 0; s < n; ++s) sinew_sample_pose(ctx, order[0][s], pose, NULL, scalars);
				for (int r = 0; r < reps; ++r) {
					for (int o = 0; o < 3; ++o) {
						uint64_t t0 = now_ns();
						for (uint32_t s = 0; s < n; ++s) sinew_sample_pose(ctx, order[o][s], pose, NULL, scalars);
						uint64_t t1 = now_ns();
						for (uint32_t s = 0; s < n; ++s) {
							uint32_t idx = (uint32_t)(order[o][s] * info.sample_rate);
							memcpy(pose, raw + (size_t)(idx < n ? idx : n - 1) * nj, nj * sizeof *pose);
							sink += pose[0].rotation[0];
						}
						uint64_t t2 = now_ns();
						pose_v[o][r] = (t1 - t0) / n, base_v[o][r] = (t2 - t1) / n;
					}
					pmin[r] = pose_v[0][r];
					uint64_t t0 = now_ns();
					for (uint32_t s = 0; s < n; ++s) sinew_sample_joint(ctx, order[0][s], s % nj, pose);
					joint_v[r] = (now_ns() - t0) / n;
				}
				for (int r = 0; r < reps; ++r) {
					uint64_t cold = 0, coldb = 0;
					for (uint32_t s = 0; s < cold_n; ++s) {
						evict();
						uint64_t c0 = now_ns();
						sinew_sample_pose(ctx, order[2][s], pose, NULL, scalars);
						uint64_t c1 = now_ns();
						evict();
						uint64_t c2 = now_ns();
						uint32_t idx = (uint32_t)(order[2][s] * info.sample_rate);
						memcpy(pose, raw + (size_t)(idx < n ? idx : n - 1) * nj, nj * sizeof *pose);
						sink += pose[nj - 1].scale[0];
						uint64_t c3 = now_ns();
						cold += c1 - c0, coldb += c3 - c2;
					}
					cold_v[r] = cold / cold_n, cold_base[r] = coldb / cold_n;
				}
				uint64_t fwd = median(pose_v[0], reps), bwd = median(pose_v[1], reps), rnd = median(pose_v[2], reps);
				uint64_t bf = median(base_v[0], reps), bb = median(base_v[1], reps), br = median(base_v[2], reps);
				uint64_t jn = median(joint_v, reps), cd = median(cold_v, reps), cb = median(cold_base, reps);
				qsort(pmin, (size_t)reps, sizeof *pmin, cmp_u64);
				if (json) {
					printf("%s{\"file\":\"%s\",\"clip\":%u,\"joints\":%u,\"kernel\":\"%s\",\"pose_ns_median\":%llu,\"pose_ns_min\":%llu,"
					       "\"joint_ns_median\":%llu,\"forward_ns\":%llu,\"backward_ns\":%llu,\"random_ns\":%llu,\"cold_ns\":%llu,"
					       "\"raw_copy\":{\"forward_ns\":%llu,\"backward_ns\":%llu,\"random_ns\":%llu,\"cold_ns\":%llu}}",
					       first ? "" : ",", base, c, info.joint_count, kname, (unsigned long long)fwd,
					       (unsigned long long)pmin[0], (unsigned long long)jn, (unsigned long long)fwd, (unsigned long long)bwd,
					       (unsigned long long)rnd, (unsigned long long)cd, (unsigned long long)bf, (unsigned long long)bb,
					       (unsigned long long)br, (unsigned long long)cb);
					first = false;
				} else {
					printf("%-24.24s %3u j %-9s | pose fwd %5llu bwd %5llu rnd %5llu (min %5llu) cold %5llu | joint %4llu | raw copy "
					       "fwd %4llu rnd %4llu cold %5llu ns\n",
					       base, info.joint_count, kname, (unsigned long long)fwd, (unsigned long long)bwd,
					       (unsigned long long)rnd, (unsigned long long)pmin[0], (unsigned long long)cd, (unsigned long long)jn,
					       (unsigned long long)bf, (unsigned long long)br, (unsigned long long)cb);
				}
				free(v);
			}
			for (int k = 0; k < 3; ++k) free(order[k]);
			printf("%-24.24s context %zu bytes, %zu with random access (%u segments)\n", base, need, need_ra, info.segment_count);
			free(pose), free(raw), free(scalars), free(mem), free(mem_ra);
		}
		sinew_blob_free(blob, size, NULL);
	}
	if (json) printf("]}\n");
	free(evict_buffer);
	return 0;
}

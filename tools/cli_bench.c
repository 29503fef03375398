// sinew — see include/sinew.h for version and licence
// `sinew bench`: pose and single-joint sampling times, forward / backward / random order,
// measured interleaved with a baseline that copies the same number of raw float32 QVVs.
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_bench(const cli_options *o);
int cli_bench_stream(const cli_options *o, const void *blob, size_t size);

static int cmp_u64(const void *a, const void *b) {
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

typedef struct series {
	uint64_t *v;
	int n;
} series;

static uint64_t median(series *s) {
	qsort(s->v, (size_t)s->n, sizeof(uint64_t), cmp_u64);
	return s->v[s->n / 2];
}

static uint64_t minimum(series *s) {
	qsort(s->v, (size_t)s->n, sizeof(uint64_t), cmp_u64);
	return s->v[0];
}

static volatile float sink;

int cli_bench(const cli_options *o) {
	if (!o->positional[0]) return cli_error("bench needs IN.sinew"), 2;
	void *blob = NULL;
	size_t size = 0;
	if (!cli_read_file(o->positional[0], &blob, &size)) return 1;
	sinew_error err = {0};
	if (sinew_validate(blob, size, &err) != SINEW_RESULT_OK) return cli_error("%s", err.message), free(blob), 1;
	if (o->stream) {
		int status = cli_bench_stream(o, blob, size);
		free(blob);
		return status;
	}
	int reps = o->repeat > 0 ? o->repeat : 15;
	uint32_t clips = sinew_blob_clip_count(blob, size);
	cli_json j = {0, {true}};
	if (o->json) cli_json_begin(&j, '{'), cli_json_string(&j, "file", o->positional[0]), cli_json_key(&j, "clips"),
	    cli_json_begin(&j, '[');
	int legend = 0; // the line that says what the figures are, once
	for (uint32_t c = 0; c < clips; ++c) {
		if (o->clip && c != o->clip) continue;
		sinew_clip_info info;
		sinew_blob_clip_info(blob, size, c, &info, NULL);
		sinew_context_options sizing = {.random_access = o->random_access};
		size_t need = sinew_context_size_with(blob, size, c, &sizing);
		void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
		sinew_context_options co = {.kernel = o->scalar_kernel ? SINEW_KERNEL_SCALAR : SINEW_KERNEL_AUTO, .random_access = o->random_access};
		sinew_context *ctx = NULL;
		if (!mem || sinew_context_init(mem, need, blob, size, c, &co, &ctx, &err) != SINEW_RESULT_OK) {
			free(mem);
			free(blob);
			return cli_error("%s", err.message), 1;
		}
		uint32_t n = info.sample_count, nj = info.joint_count ? info.joint_count : 1;
		sinew_qvv *pose = (sinew_qvv *)calloc(nj, sizeof *pose);
		float *scalars = (float *)calloc((size_t)info.scalar_track_count * 4 + 1, sizeof(float));
		sinew_qvv *raw = (sinew_qvv *)calloc((size_t)n * nj, sizeof *raw); // the baseline's uncompressed clip
		for (uint32_t s = 0; s < n; ++s) sinew_sample_pose(ctx, s / info.sample_rate, raw + (size_t)s * nj, NULL, scalars);
		double *times[3];
		for (int k = 0; k < 3; ++k) times[k] = (double *)malloc(n * sizeof(double));
		unsigned rng = 12345;
		for (uint32_t s = 0; s < n; ++s) {
			double t = (s + 0.37) / info.sample_rate;
			times[0][s] = t;
			times[1][n - 1 - s] = t;
			times[2][s] = t;
		}
		for (uint32_t s = n; s-- > 1;) { // random order: Fisher-Yates
			rng = rng * 1103515245u + 12345u;
			uint32_t r = (rng >> 8) % (s + 1);
			double tmp = times[2][s];
			times[2][s] = times[2][r], times[2][r] = tmp;
		}
		series pose_s[3], base_s[3], joint_s;
		for (int k = 0; k < 3; ++k) {
			pose_s[k].v = (uint64_t *)malloc((size_t)reps * sizeof(uint64_t)), pose_s[k].n = reps;
			base_s[k].v = (uint64_t *)malloc((size_t)reps * sizeof(uint64_t)), base_s[k].n = reps;
		}
		joint_s.v = (uint64_t *)malloc((size_t)reps * sizeof(uint64_t)), joint_s.n = reps;
		for (int r = 0; r < reps; ++r) {
			for (int k = 0; k < 3; ++k) { // interleaved: sinew pass, then the baseline pass
				uint64_t t0 = cli_now_ns();
				for (uint32_t s = 0; s < n; ++s) sinew_sample_pose(ctx, times[k][s], pose, NULL, scalars);
				uint64_t t1 = cli_now_ns();
				for (uint32_t s = 0; s < n; ++s) {
					uint32_t idx = (uint32_t)(times[k][s] * info.sample_rate);
					memcpy(pose, raw + (size_t)(idx < n ? idx : n - 1) * nj, nj * sizeof *pose);
					sink += pose[0].rotation[0];
				}
				uint64_t t2 = cli_now_ns();
				pose_s[k].v[r] = (t1 - t0) / n;
				base_s[k].v[r] = (t2 - t1) / n;
				sink += pose[nj - 1].rotation[3];
			}
			uint64_t t0 = cli_now_ns();
			for (uint32_t s = 0; s < n; ++s) sinew_sample_joint(ctx, times[0][s], s % nj, pose);
			joint_s.v[r] = (cli_now_ns() - t0) / n;
		}
		uint64_t pose_min = minimum(&pose_s[0]);
		uint64_t fwd = median(&pose_s[0]), bwd = median(&pose_s[1]), rnd = median(&pose_s[2]);
		uint64_t bfwd = median(&base_s[0]), bbwd = median(&base_s[1]), brnd = median(&base_s[2]);
		uint64_t bmin = minimum(&base_s[0]);
		uint64_t joint = median(&joint_s);
		if (o->json) {
			cli_json_key(&j, NULL), cli_json_begin(&j, '{');
			cli_json_string(&j, "name", info.name);
			cli_json_uint(&j, "joints", info.joint_count);
			cli_json_string(&j, "kernel", sinew_context_kernel(ctx));
			cli_json_uint(&j, "pose_ns_median", fwd);
			cli_json_uint(&j, "pose_ns_min", pose_min);
			cli_json_uint(&j, "joint_ns_median", joint);
			cli_json_uint(&j, "forward_ns", fwd);
			cli_json_uint(&j, "backward_ns", bwd);
			cli_json_uint(&j, "random_ns", rnd);
			cli_json_key(&j, "raw_copy"), cli_json_begin(&j, '{');
			cli_json_uint(&j, "pose_ns_median", bfwd);
			cli_json_uint(&j, "pose_ns_min", bmin);
			cli_json_uint(&j, "forward_ns", bfwd);
			cli_json_uint(&j, "backward_ns", bbwd);
			cli_json_uint(&j, "random_ns", brnd);
			cli_json_end(&j, '}');
			cli_json_end(&j, '}');
		} else {
			if (!legend++)
				printf("time per sampling call, median of %d runs (the fastest run in brackets); raw copy: copying an "
				       "uncompressed pose instead, for scale\n",
				       reps);
			printf("%s: %u joints, %s kernel: whole pose %llu ns (%llu) forward, %llu backward, %llu in random order; one joint "
			       "%llu ns; raw copy %llu ns\n",
			       info.name ? info.name : "clip", info.joint_count, sinew_context_kernel(ctx), (unsigned long long)fwd,
			       (unsigned long long)pose_min, (unsigned long long)bwd, (unsigned long long)rnd, (unsigned long long)joint,
			       (unsigned long long)bfwd);
		}
		for (int k = 0; k < 3; ++k) free(pose_s[k].v), free(base_s[k].v), free(times[k]);
		free(joint_s.v);
		free(raw);
		free(pose);
		free(scalars);
		free(mem);
	}
	if (o->json) cli_json_end(&j, ']'), cli_json_end(&j, '}');
	free(blob);
	return 0;
}

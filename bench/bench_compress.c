// sinew — see include/sinew.h for version and licence
// Compression benchmark: for every file given (or listed in a file with @list), import, compress,
// decompress, measure with the shared metric; side by side, two baselines of ours measured in
// the same run: raw float32 (ACL's raw-size convention) and a fixed 16-bit quantization of every
// component over its clip range. One line per clip, totals, and --json for tooling.
//   bench_compress [--error-cm E] [--shell-cm D] [--level L] [--unit-cm U] [--no-end-sites] [--plain-knots] [--best-of N]
//                  [--json] FILE...   (--best-of: each clip's compression time is the best of N runs)
// A file argument may be followed by ":unit_cm" (CMU BVH: data/cmu_01_01.bvh:5.644).
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sinew.h"

static uint64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// Baseline: every transform component quantized to 16 bits over its own clip range (what a
// simple fixed-rate codec does); size counts 2 bytes per component plus 8 bytes of range each.
static uint64_t quantize16(const sinew_clip *src, sinew_clip *dst) {
	const uint32_t nj = src->joint_count, ns = src->sample_count;
	for (uint32_t j = 0; j < nj; ++j)
		for (int c = 0; c < 10; ++c) {
			float lo = INFINITY, hi = -INFINITY;
			for (uint32_t s = 0; s < ns; ++s) {
				float v = (&src->transforms[(size_t)s * nj + j].rotation[0])[c];
				lo = v < lo ? v : lo, hi = v > hi ? v : hi;
			}
			double ext = (double)hi - lo;
			for (uint32_t s = 0; s < ns; ++s) {
				float v = (&src->transforms[(size_t)s * nj + j].rotation[0])[c];
				double q = ext > 0 ? floor(((double)v - lo) / ext * 65535.0 + 0.5) : 0;
				(&dst->transforms[(size_t)s * nj + j].rotation[0])[c] = (float)(lo + q / 65535.0 * ext);
			}
		}
	for (uint32_t i = 0; i < src->scalar_track_count; ++i) {
		const sinew_scalar_track *t = &src->scalar_tracks[i];
		memcpy(dst->scalar_tracks[i].values, t->values, (size_t)ns * t->components * sizeof(float));
	}
	uint64_t scalar = 0;
	for (uint32_t i = 0; i < src->scalar_track_count; ++i) scalar += (uint64_t)src->scalar_tracks[i].components * ns * 4;
	return (uint64_t)nj * 10 * (2ull * ns + 8) + scalar;
}

typedef struct totals {
	uint64_t raw, sinew, q16, ns;
	double max_cm, q16_max_cm;
	uint64_t over, clips;
} totals;

int main(int argc, char **argv) {
	double error_cm = 0.01, shell_cm = 3.0, unit_cm = 0;
	int level = 0, json = 0, no_end = 0, midpoint = 0, best_of = 1;
	totals t = {0};
	int files = 0;
	if (json) printf("[");
	for (int i = 1; i < argc; ++i) {
		const char *a = argv[i];
		if (!strcmp(a, "--error-cm") && i + 1 < argc) { error_cm = atof(argv[++i]); continue; }
		if (!strcmp(a, "--shell-cm") && i + 1 < argc) { shell_cm = atof(argv[++i]); continue; }
		if (!strcmp(a, "--level") && i + 1 < argc) { level = atoi(argv[++i]); continue; }
		if (!strcmp(a, "--unit-cm") && i + 1 < argc) { unit_cm = atof(argv[++i]); continue; }
		if (!strcmp(a, "--no-end-sites")) { no_end = 1; continue; }
		if (!strcmp(a, "--best-of") && i + 1 < argc) { best_of = atoi(argv[++i]) > 1 ? atoi(argv[i]) : 1; continue; }
		if (!strcmp(a, "--midpoint")) { midpoint = 1; continue; }     // (the default)
		if (!strcmp(a, "--plain-knots")) { midpoint = -1; continue; }
		if (!strcmp(a, "--json")) { json = 1; printf("{\"clips\":["); continue; }
		char path[4096];
		snprintf(path, sizeof path, "%s", a);
		double file_unit = unit_cm;
		char *colon = strrchr(path, ':');
		if (colon && colon[1] && strchr("0123456789.", colon[1])) file_unit = atof(colon + 1), *colon = 0;
		sinew_import_options io = {0};
		io.unit_cm = file_unit;
		io.bvh_skip_end_sites = no_end;
		sinew_clip_set *set = NULL, *dec = NULL;
		sinew_error err = {0};
		if (sinew_import_file(path, &io, NULL, &set, &err) != SINEW_RESULT_OK) {
			fprintf(stderr, "bench: %s\n", err.message);
			continue;
		}
		sinew_compress_options co = {.error_cm = error_cm, .shell_cm = shell_cm, .level = level, .strip_metadata = 1,
		                               .midpoint_knots = midpoint};
		for (uint32_t c = 0; c < set->clip_count; ++c) {
			sinew_clip *clip = set->clips[c];
			sinew_clip_set one = {1, &set->clips[c], set->internal};
			void *blob = NULL;
			size_t size = 0;
			uint64_t ns = UINT64_MAX;
			bool failed = false;
			for (int r = 0; r < best_of && !failed; ++r) { // the best of N runs (the same bytes every time)
				if (blob) sinew_blob_free(blob, size, NULL), blob = NULL;
				uint64_t t0 = now_ns();
				failed = sinew_compress(&one, &co, NULL, &blob, &size, &err) != SINEW_RESULT_OK;
				uint64_t dt = now_ns() - t0;
				if (dt < ns) ns = dt;
			}
			if (failed) {
				fprintf(stderr, "bench: %s: %s\n", path, err.message);
				continue;
			}
			if (sinew_decompress_clips(blob, size, NULL, &dec, &err) != SINEW_RESULT_OK) abort();
			sinew_metric_options mo = {.shell_distance = shell_cm * 0.01 * clip->unit_scale, .threshold = error_cm * 0.01 * clip->unit_scale};
			sinew_error_stats st, q16;
			sinew_measure_error(clip, dec->clips[0], &mo, NULL, &st, NULL);
			uint64_t q16_size = quantize16(clip, dec->clips[0]); // reuse dec's arrays for the baseline
			sinew_measure_error(clip, dec->clips[0], &mo, NULL, &q16, NULL);
			uint64_t raw = sinew_clip_raw_size(clip);
			double to_cm = 100.0 / clip->unit_scale;
			const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
			if (json) {
				printf("%s{\"file\":\"%s\",\"clip\":\"%s\",\"joints\":%u,\"samples\":%u,\"sample_rate\":%.6g,\"raw_bytes\":%llu,"
				       "\"compressed_bytes\":%zu,\"ratio\":%.4f,\"max_error_cm\":%.6g,\"p99_error_cm\":%.6g,"
				       "\"samples_over_threshold\":%llu,\"compress_ns\":%llu,\"q16_bytes\":%llu,\"q16_max_error_cm\":%.6g}",
				       t.clips ? "," : "", base, clip->name ? clip->name : "", clip->joint_count, clip->sample_count,
				       clip->sample_rate, (unsigned long long)raw, size, (double)raw / (double)size, st.max_error * to_cm,
				       st.p99_error * to_cm, (unsigned long long)st.samples_over_threshold, (unsigned long long)ns,
				       (unsigned long long)q16_size, q16.max_error * to_cm);
			} else {
				printf("%-28.28s %-14.14s %4u j %5u s | raw %9llu | sinew %8zu (%6.2f:1) max %.5f p99 %.5f cm %7.2f ms | "
				       "q16 %8llu (%5.2f:1) max %.4f cm\n",
				       base, clip->name ? clip->name : "", clip->joint_count, clip->sample_count, (unsigned long long)raw,
				       size, (double)raw / (double)size, st.max_error * to_cm, st.p99_error * to_cm, (double)ns / 1e6,
				       (unsigned long long)q16_size, (double)raw / (double)q16_size, q16.max_error * to_cm);
			}
			t.raw += raw, t.sinew += size, t.q16 += q16_size, t.ns += ns, t.over += st.samples_over_threshold, t.clips++;
			if (st.max_error * to_cm > t.max_cm) t.max_cm = st.max_error * to_cm;
			if (q16.max_error * to_cm > t.q16_max_cm) t.q16_max_cm = q16.max_error * to_cm;
			sinew_clip_set_free(dec);
			dec = NULL;
			sinew_blob_free(blob, size, NULL);
		}
		sinew_clip_set_free(set);
		files++;
	}
	if (json)
		printf("],\"total\":{\"clips\":%llu,\"raw_bytes\":%llu,\"compressed_bytes\":%llu,\"ratio\":%.4f,\"max_error_cm\":%.6g,"
		       "\"samples_over_threshold\":%llu,\"compress_ns\":%llu,\"q16_bytes\":%llu,\"q16_max_error_cm\":%.6g}}\n",
		       (unsigned long long)t.clips, (unsigned long long)t.raw, (unsigned long long)t.sinew,
		       t.sinew ? (double)t.raw / (double)t.sinew : 0, t.max_cm, (unsigned long long)t.over, (unsigned long long)t.ns,
		       (unsigned long long)t.q16, t.q16_max_cm);
	else
		printf("TOTAL %llu clips from %d files: raw %llu | sinew %llu (%.2f:1) max %.5f cm, %llu over, %.1f ms | q16 %llu "
		       "(%.2f:1) max %.4f cm\n",
		       (unsigned long long)t.clips, files, (unsigned long long)t.raw, (unsigned long long)t.sinew,
		       t.sinew ? (double)t.raw / (double)t.sinew : 0, t.max_cm, (unsigned long long)t.over, (double)t.ns / 1e6,
		       (unsigned long long)t.q16, t.q16 ? (double)t.raw / (double)t.q16 : 0, t.q16_max_cm);
	return t.over ? 1 : 0;
}

// sinew — see include/sinew.h for version and licence
// Decompression benchmark. For every file given (a .sinew blob as it is; anything else compressed on
// the fly at the defaults), every clip: ns per whole pose, forward, backward and random order, warm
// and cold, median and p90, for every kernel this CPU runs with a default and a random-access
// context, the raw-copy baseline (copying the same number of float32 QVVs) and the protocol's floors (1 and 2
// dependent loads, nothing decoded), all in one run (decode_protocol.h: the protocols, stated at the top of that
// file and printed with the results).
// Then ns per single joint (warm, the best kernel).
//   bench_decompress [--passes N] [--copies N] [--rounds N] [--flush-mib N] [--no-cold] [--no-warm]
//                    [--json] [--plain-knots] FILE[:unit_cm]...
//   bench_decompress --callgrind [--best] FILE   (a fixed workload: 1000 forward poses, the scalar kernel or with
//                                              --best the best one this CPU (or valgrind) runs)
// A figure that cannot be measured (no memory for the copies) ends the run with exit status 1.
#define _DEFAULT_SOURCE // mmap flags (MAP_ANONYMOUS, MAP_NORESERVE), clock_gettime, setenv
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode_protocol.h"
#include "sinew.h"
#include "sinew_codec.h"

static int midpoint_knots; // --plain-knots: compress without midpoint knots (-1)

static bool read_file(const char *path, void **data, size_t *size) {
	FILE *f = fopen(path, "rb");
	if (!f) return false;
	bool ok = fseek(f, 0, SEEK_END) == 0;
	long n = ok ? ftell(f) : -1;
	ok = n > 0 && fseek(f, 0, SEEK_SET) == 0;
	*data = ok ? malloc((size_t)n) : NULL;
	ok = ok && *data && fread(*data, 1, (size_t)n, f) == (size_t)n;
	fclose(f);
	if (!ok) free(*data), *data = NULL;
	*size = ok ? (size_t)n : 0;
	return ok;
}

// A .sinew blob as it is (validated), else the file imported and compressed at the defaults.
static bool load_blob(const char *arg, void **blob, size_t *size, bool *owned_by_sinew) {
	char path[4096];
	snprintf(path, sizeof path, "%s", arg);
	sinew_error err = {0};
	size_t len = strlen(path);
	if (len > 6 && !strcmp(path + len - 6, ".sinew")) {
		*owned_by_sinew = false;
		if (!read_file(path, blob, size)) return fprintf(stderr, "bench: cannot read %s\n", path), false;
		if (sinew_validate(*blob, *size, &err) != SINEW_RESULT_OK) return fprintf(stderr, "bench: %s\n", err.message), false;
		return true;
	}
	*owned_by_sinew = true;
	sinew_import_options io = {0};
	char *colon = strrchr(path, ':');
	if (colon && colon[1] && strchr("0123456789.", colon[1])) io.unit_cm = atof(colon + 1), *colon = 0;
	sinew_clip_set *set = NULL;
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

static void print_stats(const bench_stats *s) {
	printf(" %6.0f %6.0f", s->median, s->p90);
}

static void json_stats(const char *key, const bench_stats *s) {
	printf("\"%s\":{\"median_ns\":%.1f,\"p90_ns\":%.1f,\"mean_ns\":%.1f,\"count\":%u}", key, s->median, s->p90, s->mean, s->count);
}

int main(int argc, char **argv) {
	int json = 0, callgrind = 0, callgrind_kernel = SINEW_BENCH_SCALAR, cold = 1, warm = 1;
	bench_cold_options co = {64, 16, 2, 0};
	bench_warm_options wo = {21, 200};
	bool first = true;
	int status = 0;
	for (int a = 1; a < argc; ++a) {
		if (!strcmp(argv[a], "--passes") && a + 1 < argc) { wo.passes = (uint32_t)atoi(argv[++a]); continue; }
		if (!strcmp(argv[a], "--reps") && a + 1 < argc) { wo.passes = (uint32_t)atoi(argv[++a]); continue; } // (older name)
		if (!strcmp(argv[a], "--copies") && a + 1 < argc) { co.copies = (uint32_t)atoi(argv[++a]); continue; }
		if (!strcmp(argv[a], "--rounds") && a + 1 < argc) { co.rounds = (uint32_t)atoi(argv[++a]); continue; }
		if (!strcmp(argv[a], "--flush-mib") && a + 1 < argc) { co.flush_bytes = (size_t)atof(argv[++a]) << 20; continue; }
		if (!strcmp(argv[a], "--no-cold")) { cold = 0; continue; }
		if (!strcmp(argv[a], "--no-warm")) { warm = 0; continue; }
		if (!strcmp(argv[a], "--json")) { json = 1; printf("{\"clips\":["); continue; }
		if (!strcmp(argv[a], "--callgrind")) { callgrind = 1; continue; }
		if (!strcmp(argv[a], "--best")) { callgrind_kernel = SINEW_BENCH_AUTO; continue; }
		if (!strcmp(argv[a], "--midpoint")) { midpoint_knots = 1; continue; } // (the default)
		if (!strcmp(argv[a], "--plain-knots")) { midpoint_knots = -1; continue; }
		void *blob = NULL;
		size_t size = 0;
		bool by_sinew = true;
		if (!load_blob(argv[a], &blob, &size, &by_sinew)) {
			status = 1;
			continue;
		}
		const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
		uint32_t clips = sinew_blob_clip_count(blob, size);
		for (uint32_t c = 0; c < clips; ++c) {
			sinew_clip_info info;
			sinew_blob_clip_info(blob, size, c, &info, NULL);
			if (callgrind) {
				bench_codec sc;
				if (!sinew_codec_make(&sc, blob, size, c, callgrind_kernel, 0)) return 1;
				void *mem = aligned_alloc(64, sc.copy_bytes);
				sinew_context *ctx = (sinew_context *)sc.copy_init(&sc, (unsigned char *)mem);
				sinew_codec_data *d = (sinew_codec_data *)sc.user;
				for (int i = 0; i < 1000; ++i)
					sinew_sample_pose(ctx, (i % info.sample_count + 0.5) / info.sample_rate, d->pose, NULL, d->scalars);
				printf("callgrind workload: %s, 1000 poses of %u joints, kernel %s\n", base, info.joint_count, sc.name);
				free(mem), sinew_codec_free(&sc);
				continue;
			}
			// every kernel this CPU runs (scalar, SSE2, the best), default then random-access contexts, then raw copy and
			// the two floors
			bench_codec codecs[10];
			uint32_t nc = 0;
			for (int ra = 0; ra < 2; ++ra)
				for (int k = SINEW_BENCH_SCALAR; k <= SINEW_BENCH_SSE2 + 1; ++k) {
					int kernel = k == SINEW_BENCH_SSE2 + 1 ? SINEW_BENCH_AUTO : k;
					bench_codec b;
					if (!sinew_codec_make(&b, blob, size, c, kernel, ra)) continue;
					bool seen = false;
					for (uint32_t i = 0; i < nc; ++i) seen |= !strcmp(codecs[i].name, b.name);
					if (seen) sinew_codec_free(&b);
					else codecs[nc++] = b;
				}
			if (!raw_codec_make(&codecs[nc], blob, size, c)) {
				fprintf(stderr, "bench: %s clip %u: no baseline\n", base, c);
				return 1;
			}
			const uint32_t raw = nc++;
			bench_floor floors[2]; // what the cold protocol charges before any work (decode_protocol.h)
			for (uint32_t l = 0; l < 2; ++l) bench_floor_make(&codecs[nc++], &floors[l], l + 1, info.sample_count, info.sample_rate);
			bench_stats warm_s[10 * BENCH_ORDERS], cold_s[10 * BENCH_ORDERS];
			if (warm && !warm_run(codecs, nc, &wo, warm_s)) {
				fprintf(stderr, "bench: %s: no memory for the warm protocol\n", base);
				return 1;
			}
			const size_t flush = co.flush_bytes ? co.flush_bytes : bench_default_flush_bytes();
			if (cold && !cold_run(codecs, nc, &co, cold_s)) {
				fprintf(stderr, "bench: %s: no memory for %u copies of %u codecs and a %zu MiB flush\n", base, co.copies, nc, flush >> 20);
				return 1;
			}
			// single joint, warm, the best kernel's default context
			bench_codec *best = &codecs[raw / 2 - 1];
			void *mem = aligned_alloc(64, best->copy_bytes);
			sinew_context *ctx = (sinew_context *)best->copy_init(best, (unsigned char *)mem);
			double *fwd = bench_order_times(info.sample_count, info.sample_rate, BENCH_FORWARD);
			uint64_t *jv = (uint64_t *)malloc(wo.passes * sizeof(uint64_t));
			const uint32_t nj = info.joint_count ? info.joint_count : 1, n = info.sample_count;
			sinew_qvv one;
			for (uint32_t p = 0; p < wo.passes && info.joint_count; ++p) {
				uint64_t t0 = bench_now_ns();
				for (uint32_t s = 0; s < n; ++s) sinew_sample_joint(ctx, fwd[s], s % nj, &one);
				jv[p] = bench_now_ns() - t0;
			}
			bench_stats joint = bench_stats_of(jv, info.joint_count ? wo.passes : 0, n);
			free(jv), free(fwd), free(mem);
			sinew_codec_data *bd = (sinew_codec_data *)best->user;
			if (json) {
				printf("%s{\"file\":\"%s\",\"clip\":%u,\"joints\":%u,\"samples\":%u,\"segments\":%u,\"blob_bytes\":%zu,"
				       "\"context_bytes\":%zu,\"protocol\":{\"warm_passes\":%u,\"cold_copies\":%u,\"cold_rounds\":%u,"
				       "\"flush_bytes\":%zu,\"region_spacing\":%zu,\"clock_read_ns\":%.1f},\"joint_ns\":%.1f,\"codecs\":[",
				       first ? "" : ",", base, c, info.joint_count, info.sample_count, info.segment_count, size, bd->context_bytes,
				       wo.passes, co.copies, co.rounds, flush, (size_t)BENCH_REGION_SPACING, bench_timer_ns(), joint.median);
				for (uint32_t k = 0; k < nc; ++k) {
					printf("%s{\"codec\":\"%s\"", k ? "," : "", codecs[k].name);
					for (int o = 0; o < BENCH_ORDERS; ++o) {
						char key[32];
						if (warm) snprintf(key, sizeof key, "warm_%s", bench_order_name[o]), printf(","), json_stats(key, &warm_s[k * BENCH_ORDERS + o]);
						if (cold) snprintf(key, sizeof key, "cold_%s", bench_order_name[o]), printf(","), json_stats(key, &cold_s[k * BENCH_ORDERS + o]);
					}
					printf("}");
				}
				printf("]}");
				first = false;
			} else {
				printf("%s clip %u: %u joints, %u samples at %g Hz, %u segments; blob %zu bytes, context %zu bytes (%zu random access)\n",
				       base, c, info.joint_count, info.sample_count, info.sample_rate, info.segment_count, size,
				       ((sinew_codec_data *)codecs[0].user)->context_bytes, ((sinew_codec_data *)codecs[raw - 1].user)->context_bytes);
				if (warm) printf("  warm: one copy per codec, 200 ms of forward playback, then %u passes over every sample time + 0.37 in each order, codecs in turn, timed %u calls at a time\n", wo.passes, BENCH_WARM_WINDOW);
				if (cold)
					printf("  cold: %u copies per codec and order, in regions %zu MiB apart; before each round one byte written in every line of a %zu MiB buffer;\n"
					       "        %u timed rounds (%u poses per codec and order) after %u untimed; each copy one step further in its order per round\n",
					       co.copies, (size_t)BENCH_REGION_SPACING >> 20, flush >> 20, co.rounds, co.rounds * (co.copies - 1), co.warm_rounds);
				printf("  ns per pose, median p90 | %-27s | %s\n", warm ? "warm: fwd      bwd      rnd" : "", cold ? "cold: fwd      bwd      rnd" : "");
				for (uint32_t k = 0; k < nc; ++k) {
					printf("  %-22s |", codecs[k].name);
					for (int o = 0; warm && o < BENCH_ORDERS; ++o) print_stats(&warm_s[k * BENCH_ORDERS + o]);
					printf(" |");
					for (int o = 0; cold && o < BENCH_ORDERS; ++o) print_stats(&cold_s[k * BENCH_ORDERS + o]);
					printf("\n");
				}
				printf("  single joint (%s, warm, forward): %.0f ns; every timed call includes a clock read: %.0f ns\n", best->name,
				       joint.median, bench_timer_ns());
			}
			for (uint32_t k = 0; k < raw; ++k) sinew_codec_free(&codecs[k]);
			raw_codec_free(&codecs[raw]);
		}
		if (by_sinew) sinew_blob_free(blob, size, NULL);
		else free(blob);
	}
	if (json) printf("]}\n");
	return status;
}

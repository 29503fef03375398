// sinew — see include/sinew.h for version and licence
// Many characters (decode_protocol.h, scene_run): N characters, each a copy (context + blob) of one
// of the clips given, sampled once each per frame at its own time; ns per character-frame, median
// and p90 over the frames, for SSE2 and the best kernel (default contexts), the kernels taking turns
// over three rounds in one run. Frames follow each other, and (--flush) again with a flush before
// every frame (a game's other work has evicted everything). Every clip of every file is used
// (a .sinew blob as it is; anything else compressed at the defaults, --strip).
//   bench_scene [--characters N]... [--frames N] [--fps F] [--flush] [--json] FILE[:unit_cm]...
// Exit status 1 when a figure cannot be measured (a file that does not load, no memory).
#define _DEFAULT_SOURCE // mmap flags, clock_gettime, setenv
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode_protocol.h"
#include "sinew.h"
#include "sinew_codec.h"

static bool load(const char *arg, void **blob, size_t *size) {
	char path[4096];
	snprintf(path, sizeof path, "%s", arg);
	sinew_error err = {0};
	size_t len = strlen(path);
	if (len > 6 && !strcmp(path + len - 6, ".sinew")) {
		FILE *f = fopen(path, "rb");
		long n = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
		bool ok = n > 0 && fseek(f, 0, SEEK_SET) == 0 && (*blob = malloc((size_t)n)) && fread(*blob, 1, (size_t)n, f) == (size_t)n;
		if (f) fclose(f);
		*size = ok ? (size_t)n : 0;
		if (!ok || sinew_validate(*blob, *size, &err) != SINEW_RESULT_OK) return fprintf(stderr, "bench_scene: %s: not a valid blob\n", path), false;
		return true;
	}
	sinew_import_options io = {0};
	char *colon = strrchr(path, ':');
	if (colon && colon[1] && strchr("0123456789.", colon[1])) io.unit_cm = atof(colon + 1), *colon = 0;
	sinew_clip_set *set = NULL;
	if (sinew_import_file(path, &io, NULL, &set, &err) != SINEW_RESULT_OK) return fprintf(stderr, "bench_scene: %s\n", err.message), false;
	sinew_compress_options opt = {0};
	opt.strip_metadata = 1;
	void *b = NULL;
	bool ok = sinew_compress(set, &opt, NULL, &b, size, &err) == SINEW_RESULT_OK;
	sinew_clip_set_free(set);
	if (!ok) return fprintf(stderr, "bench_scene: %s: %s\n", path, err.message), false;
	*blob = malloc(*size); // (one allocator for every blob)
	if (*blob) memcpy(*blob, b, *size);
	sinew_blob_free(b, *size, NULL);
	return *blob != NULL;
}

int main(int argc, char **argv) {
	uint32_t counts[8], ncounts = 0;
	bench_scene_options so = {0, 200, 20, 60.0, 0};
	int json = 0, flush = 0;
	bench_codec *families[2] = {NULL, NULL};
	uint32_t nclips = 0, cap = 0;
	size_t bytes = 0;
	for (int a = 1; a < argc; ++a) {
		if (!strcmp(argv[a], "--characters") && a + 1 < argc && ncounts < 8) { counts[ncounts++] = (uint32_t)atoi(argv[++a]); continue; }
		if (!strcmp(argv[a], "--frames") && a + 1 < argc) { so.frames = (uint32_t)atoi(argv[++a]); continue; }
		if (!strcmp(argv[a], "--fps") && a + 1 < argc) { so.fps = atof(argv[++a]); continue; }
		if (!strcmp(argv[a], "--flush")) { flush = 1; continue; }
		if (!strcmp(argv[a], "--json")) { json = 1; continue; }
		void *blob = NULL;
		size_t size = 0;
		if (!load(argv[a], &blob, &size)) return 1;
		bytes += size;
		for (uint32_t c = 0; c < sinew_blob_clip_count(blob, size); ++c) {
			sinew_clip_info info;
			if (sinew_blob_clip_info(blob, size, c, &info, NULL) != SINEW_RESULT_OK || info.sample_count < 2) continue;
			if (nclips == cap) {
				cap = cap ? 2 * cap : 64;
				for (int k = 0; k < 2; ++k) families[k] = (bench_codec *)realloc(families[k], cap * sizeof(bench_codec));
				if (!families[0] || !families[1]) return 1;
			}
			if (!sinew_codec_make(&families[0][nclips], blob, size, c, SINEW_BENCH_SSE2, 0) &&
			    !sinew_codec_make(&families[0][nclips], blob, size, c, SINEW_BENCH_AUTO, 0))
				return 1;
			if (!sinew_codec_make(&families[1][nclips], blob, size, c, SINEW_BENCH_AUTO, 0)) return 1;
			nclips++;
		}
	}
	if (!nclips) return fprintf(stderr, "bench_scene: no clip of two samples or more\n"), 1;
	if (!ncounts) counts[ncounts++] = 100, counts[ncounts++] = 1000;
	size_t copy_bytes = 0;
	for (uint32_t i = 0; i < nclips; ++i) copy_bytes += families[1][i].copy_bytes;
	if (!json)
		printf("%u clips, %zu blob bytes, %zu bytes of contexts and blobs for one character per clip; %u frames at %g fps after %u untimed\n",
		       nclips, bytes, copy_bytes, so.frames, so.fps, so.warm_frames);
	else
		printf("{\"clips\":%u,\"blob_bytes\":%zu,\"frames\":%u,\"fps\":%g,\"runs\":[", nclips, bytes, so.frames, so.fps);
	bool first = true;
	for (int f = 0; f <= flush; ++f) {
		so.flush_bytes = f ? bench_default_flush_bytes() : 0;
		for (uint32_t k = 0; k < ncounts; ++k) {
			so.characters = counts[k];
			bench_stats s[3][2];
			for (int round = 0; round < 3; ++round)
				for (int fam = 0; fam < 2; ++fam)
					if (!scene_run(families[fam], nclips, &so, &s[round][fam]))
						return fprintf(stderr, "bench_scene: no memory for %u characters\n", counts[k]), 1;
			for (int fam = 0; fam < 2; ++fam) {
				const char *name = families[fam][0].name;
				if (json) {
					printf("%s{\"characters\":%u,\"flush_bytes\":%zu,\"kernel\":\"%s\",\"rounds\":[", first ? "" : ",", counts[k],
					       so.flush_bytes, name);
					for (int round = 0; round < 3; ++round)
						printf("%s{\"median_ns\":%.1f,\"p90_ns\":%.1f}", round ? "," : "", s[round][fam].median, s[round][fam].p90);
					printf("]}");
					first = false;
				} else {
					printf("%5u characters, %-28s %-6s ns per character-frame, median (p90) of three rounds:", counts[k],
					       f ? "flush before each frame," : "frames back to back,", name);
					for (int round = 0; round < 3; ++round) printf(" %6.0f (%6.0f)", s[round][fam].median, s[round][fam].p90);
					printf("\n");
				}
			}
			fflush(stdout);
		}
	}
	if (json) printf("]}\n");
	return 0;
}

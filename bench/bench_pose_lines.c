// sinew — see include/sinew.h for version and licence
// Which cache lines and pages one pose touches: a map of the blob's and the context's parts, and one
// traced sampling call between two marker loads, for valgrind's lackey to record every data access
// (bench/pose_lines.sh runs both steps).
//   bench_pose_lines trace BLOB.sinew [--random-access] [--sample K] [--warm N] > MAP   (under lackey)
//   bench_pose_lines count MAP < TRACE   (lackey's --trace-mem output): distinct 64-byte lines per part
// The traced call samples clip 0 at sample K + 0.37 (default: the middle) after N (default 4)
// forward calls on the same context, so a default context holds that segment already, as in
// forward playback. A map line is "REGION name hex-address bytes"; "MARKERS a b" names the loads
// that open and close the traced call (a peer's harness can print the same map for its own data).
#define _DEFAULT_SOURCE
#include <inttypes.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bits.h"
#include "core/format_layout.h"
#include "decompress/context.h"
#include "sinew.h"

volatile int bench_marker_open, bench_marker_close;
__attribute__((noinline)) static void marker(volatile int *m) {
	(void)*m;
}

static void region(const char *name, const void *p, size_t n) {
	if (n) printf("REGION %s %" PRIxPTR " %zu\n", name, (uintptr_t)p, n);
}

static int trace(int argc, char **argv) {
	const char *path = NULL;
	int random_access = 0;
	long sample = -1, warm = 4;
	for (int a = 2; a < argc; ++a) {
		if (!strcmp(argv[a], "--random-access")) random_access = 1;
		else if (!strcmp(argv[a], "--sample") && a + 1 < argc) sample = atol(argv[++a]);
		else if (!strcmp(argv[a], "--warm") && a + 1 < argc) warm = atol(argv[++a]);
		else path = argv[a];
	}
	FILE *f = path ? fopen(path, "rb") : NULL;
	if (!f) return fprintf(stderr, "bench_pose_lines: cannot open %s\n", path ? path : "(no file)"), 1;
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *blob = size > 0 ? (unsigned char *)aligned_alloc(64, ((size_t)size + 63) / 64 * 64) : NULL;
	bool ok = blob && fread(blob, 1, (size_t)size, f) == (size_t)size;
	fclose(f);
	sinew_error err = {0};
	if (!ok || sinew_validate(blob, (size_t)size, &err) != SINEW_RESULT_OK)
		return fprintf(stderr, "bench_pose_lines: %s: not a valid blob %s\n", path, err.message), 1;
	sinew_context_options o = {0};
	o.random_access = random_access;
	size_t need = sinew_context_size_with(blob, (size_t)size, 0, &o);
	void *mem = aligned_alloc(64, (need + 63) / 64 * 64);
	sinew_context *ctx = NULL;
	if (sinew_context_init(mem, need, blob, (size_t)size, 0, &o, &ctx, &err) != SINEW_RESULT_OK)
		return fprintf(stderr, "bench_pose_lines: %s\n", err.message), 1;
	sinew_clip_info info;
	sinew_blob_clip_info(blob, (size_t)size, 0, &info, NULL);
	const uint32_t nj = info.joint_count ? info.joint_count : 1;
	sinew_qvv *pose = (sinew_qvv *)aligned_alloc(64, (nj * sizeof(sinew_qvv) + 63) / 64 * 64);
	float *scalars = (float *)aligned_alloc(64, ((size_t)info.scalar_track_count * 16 + 64) / 64 * 64);
	const uint32_t at = sample >= 0 && (uint32_t)sample < info.sample_count ? (uint32_t)sample : info.sample_count / 2;
	for (long s = (long)at - warm; s < (long)at; ++s)
		if (s >= 0) sinew_sample_pose(ctx, ((double)s + 0.37) / info.sample_rate, pose, NULL, scalars);

	const sinewi_clip_view *v = &ctx->view;
	printf("# %s clip 0: %u joints, %u animated tracks (%u rotations, %u vectors), %u segments, %s context of %zu bytes, sample %u\n",
	       path, v->joint_count, v->track_count, ctx->rotation_count, ctx->vector_count, v->segment_count,
	       random_access ? "random-access" : "default", need, at);
	region("blob.header", v->blob, (size_t)(v->clip - v->blob));
	region("clip.header+descriptors", v->clip, (size_t)(v->constants - v->clip));
	region("clip.constants", v->constants, (size_t)(v->ranges - v->constants));
	const unsigned char *after_ranges = v->time_map ? v->time_map : v->segment_table ? v->segment_table : v->page_table;
	region("clip.ranges", v->ranges, after_ranges ? (size_t)(after_ranges - v->ranges) : 0);
	if (v->segment_table && !v->page_count) {
		region("clip.segment_table", v->segment_table, 4 * ((size_t)v->segment_count + 1));
		const uint32_t groups = (v->track_count + SINEW_FMT_GROUP_TRACKS - 1) / SINEW_FMT_GROUP_TRACKS;
		for (uint32_t s = 0; s < v->segment_count; ++s) {
			const unsigned char *seg = v->clip + sinewi_rd32(v->segment_table + 4 * s);
			const unsigned char *end = v->clip + sinewi_rd32(v->segment_table + 4 * (s + 1));
			const size_t parts[3] = {(size_t)v->track_count * v->track_descriptor_size, v->segment_range_bytes, (size_t)groups * 4};
			const char *names[3] = {"descriptors", "ranges", "group_offsets"};
			char n[64];
			for (int k = 0; k < 3; ++k) {
				snprintf(n, sizeof n, "segment.%s", names[k]);
				region(n, seg, parts[k]);
				seg += parts[k];
			}
			region("segment.bits", seg, (size_t)(end - seg));
		}
	}
	region("ctx.struct.hot", ctx, offsetof(sinew_context, view));
	region("ctx.struct.rest", &ctx->view, sizeof *ctx - offsetof(sinew_context, view));
	region("ctx.out_offsets", ctx->out_offsets, ((size_t)ctx->rotation_count + ctx->vector_count) * sizeof(uint32_t));
	region("ctx.base_pose", ctx->base_pose, v->joint_count * sizeof(sinew_qvv));
	region("ctx.base_scalars", ctx->base_scalars, v->scalar_components * sizeof(float));
	region("ctx.joints", ctx->joints, v->joint_count * sizeof(sinewi_joint_entry));
	region("ctx.tracks", ctx->tracks, v->track_count * sizeof(sinewi_track_entry));
	region("ctx.scalars", ctx->scalars, v->scalar_count * sizeof(sinewi_scalar_entry));
	region("ctx.batch_track", ctx->batch_track, ((size_t)ctx->rotation_count + ctx->vector_count) * sizeof(uint32_t));
	// segment parameters: the current segment's (default contexts: in the struct) and the entries'
	const uint32_t entries = random_access ? v->segment_count : v->segment_count < 2 ? 0 : 1;
	region("ctx.segment_params", ctx->params, entries * sizeof(sinewi_segment_params));
	for (uint32_t e = 0; e <= entries; ++e) {
		const sinewi_segment_params *p = e < entries ? &ctx->params[e] : &ctx->cur;
		if (!p->tracks) continue;
		region("ctx.segment.tracks", p->tracks, ((size_t)ctx->rotation_count + ctx->vector_count) * sizeof(sinewi_cached_track));
		region("ctx.segment.rot_constants", p->rot, (size_t)ctx->rotation_stride * SINEWI_ROT_ARRAYS * sizeof(float));
		region("ctx.segment.vec_constants", p->vec, (size_t)ctx->vector_stride * 2 * sizeof(float));
	}
	region("output.pose", pose, nj * sizeof(sinew_qvv));
	region("output.scalars", scalars, (size_t)info.scalar_track_count * 16);
	printf("MARKERS %" PRIxPTR " %" PRIxPTR "\n", (uintptr_t)&bench_marker_open, (uintptr_t)&bench_marker_close);
	fflush(stdout);
	marker(&bench_marker_open);
	sinew_sample_pose(ctx, (at + 0.37) / info.sample_rate, pose, NULL, scalars);
	marker(&bench_marker_close);
	return 0;
}

typedef struct part {
	char name[64];
	uintptr_t base;
	size_t size;
	uint32_t read_lines, written_lines; // first touch by a load / by a store
} part;

#define MAX_PARTS 256
#define MAX_LINES (1u << 16)

static int count(int argc, char **argv) {
	FILE *m = argc > 2 ? fopen(argv[2], "r") : NULL;
	if (!m) return fprintf(stderr, "bench_pose_lines: count needs the map file\n"), 1;
	static part parts[MAX_PARTS];
	uint32_t np = 0;
	uintptr_t open_at = 0, close_at = 0;
	char line[512];
	while (fgets(line, sizeof line, m)) {
		char name[64];
		uintptr_t a, b;
		size_t n;
		if (sscanf(line, "REGION %63s %" SCNxPTR " %zu", name, &a, &n) == 3) {
			uint32_t i = 0;
			while (i < np && !(strcmp(parts[i].name, name) == 0)) ++i; // parts with one name (every segment) are counted together
			if (i == np && np < MAX_PARTS) snprintf(parts[np++].name, sizeof parts[0].name, "%s", name);
			(void)a, (void)n;
		} else if (sscanf(line, "MARKERS %" SCNxPTR " %" SCNxPTR, &a, &b) == 2) {
			open_at = a, close_at = b;
		}
	}
	if (!open_at) return fprintf(stderr, "bench_pose_lines: no MARKERS line in the map\n"), 1;
	// regions again, each with its own address range (one name may have many)
	static struct { uint32_t part; uintptr_t base; size_t size; } ranges[4096];
	uint32_t nr = 0;
	rewind(m);
	while (fgets(line, sizeof line, m)) {
		char name[64];
		uintptr_t a;
		size_t n;
		if (sscanf(line, "REGION %63s %" SCNxPTR " %zu", name, &a, &n) == 3 && nr < 4096) {
			uint32_t i = 0;
			while (i < np && strcmp(parts[i].name, name)) ++i;
			ranges[nr].part = i, ranges[nr].base = a, ranges[nr].size = n, nr++;
		}
	}
	fclose(m);
	static uintptr_t seen[MAX_LINES], code[MAX_LINES], pages[MAX_LINES];
	static uint32_t seen_part[MAX_LINES];
	uint32_t ns = 0, nc = 0, npg = 0;
	int inside = 0;
	while (fgets(line, sizeof line, stdin)) {
		char kind;
		uintptr_t a;
		unsigned size;
		if (line[0] == 'I' && sscanf(line + 1, " %" SCNxPTR ",%u", &a, &size) == 2) {
			if (!inside) continue;
			for (uintptr_t l = a / 64; l <= (a + size - 1) / 64; ++l) {
				uint32_t i = 0;
				while (i < nc && code[i] != l) ++i;
				if (i == nc && nc < MAX_LINES) code[nc++] = l;
			}
			continue;
		}
		if (line[0] != ' ' || sscanf(line + 1, "%c %" SCNxPTR ",%u", &kind, &a, &size) != 3) continue;
		if (kind == 'L' && a == open_at) { inside = 1; continue; }
		if (kind == 'L' && a == close_at) break;
		if (!inside) continue;
		for (uintptr_t l = a / 64; l <= (a + size - 1) / 64; ++l) {
			uint32_t i = 0;
			while (i < ns && seen[i] != l) ++i;
			if (i < ns || ns == MAX_LINES) continue;
			seen[ns] = l;
			uint32_t p = np; // the part holding the line (the first whose range meets it)
			for (uint32_t r = 0; r < nr && p == np; ++r)
				if (l * 64 < ranges[r].base + ranges[r].size && l * 64 + 63 >= ranges[r].base) p = ranges[r].part;
			seen_part[ns++] = p;
			if (p < np && kind == 'S') parts[p].written_lines++;
			else if (p < np) parts[p].read_lines++;
		}
	}
	uint32_t other = 0, total_pages = 0, blob_lines = 0, ctx_lines = 0, out_lines = 0;
	for (uint32_t i = 0; i < ns; ++i) {
		if (seen_part[i] == np) { other++; continue; }
		const char *n = parts[seen_part[i]].name;
		if (!strncmp(n, "output", 6)) {
			out_lines++;
			continue;
		}
		if (!strncmp(n, "ctx", 3)) ctx_lines++;
		else blob_lines++;
		uintptr_t pg = seen[i] * 64 / 4096;
		uint32_t k = 0;
		while (k < npg && pages[k] != pg) ++k;
		if (k == npg && npg < MAX_LINES) pages[npg++] = pg, total_pages++;
	}
	printf("%-42s %6s %6s %6s\n", "part", "lines", "read", "write");
	for (uint32_t p = 0; p < np; ++p)
		if (parts[p].read_lines + parts[p].written_lines)
			printf("%-42s %6u %6u %6u\n", parts[p].name, parts[p].read_lines + parts[p].written_lines, parts[p].read_lines,
			       parts[p].written_lines);
	printf("blob %u + context %u = %u lines the clip owns, in %u pages; output %u; stack and globals %u; code %u\n",
	       blob_lines, ctx_lines, blob_lines + ctx_lines, total_pages, out_lines, other, nc);
	return 0;
}

int main(int argc, char **argv) {
	if (argc > 1 && !strcmp(argv[1], "trace")) return trace(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "count")) return count(argc, argv);
	fprintf(stderr, "usage: bench_pose_lines trace BLOB [--random-access] [--sample K] [--warm N] > MAP\n"
	                "       bench_pose_lines count MAP < LACKEY_TRACE\n");
	return 2;
}

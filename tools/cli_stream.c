// sinew — see include/sinew.h for version and licence
// `sinew bench --stream`: plays each paged clip at 1x from start to end and back at 60 frames per
// second with at most --budget-bytes of pages resident, loading pages on demand with --prefetch
// seconds of look-ahead (least recently needed pages evicted first), and times the sampling calls
// against the same clip with every page present (the whole blob: the same segments, no paging):
// medians of single calls, two per frame each, in alternating order. The first prefetch window
// is loaded before playback starts; a miss is a frame whose base-tier pages were not resident
// when it began (a streaming player would stall there).
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_bench_stream(const cli_options *o, const void *blob, size_t size);

typedef struct pager {
	sinew_context *ctx;
	const unsigned char *file; // the whole blob, where pages are "fetched" from
	uint32_t count;
	unsigned char **bytes;     // [count] loaded copies, NULL when absent
	uint32_t *size;            // [count]
	uint64_t *used;            // [count] frame the page was last needed
	uint32_t *tier;            // [count] quality tier of the page
	uint64_t resident, peak, budget, loaded;
	sinew_error err;
} pager;

static void evict(pager *p, uint32_t page) {
	sinew_context_drop_page(p->ctx, page);
	free(p->bytes[page]);
	p->bytes[page] = NULL;
	p->resident -= p->size[page];
}

// Loads `page` (evicting pages not needed since before `frame` while over budget); false when the
// budget cannot hold it next to the pages needed now.
static bool load(pager *p, uint32_t page, uint64_t frame) {
	if (p->bytes[page]) {
		p->used[page] = frame;
		return true;
	}
	while (p->resident + p->size[page] > p->budget) {
		// finer tiers go first (a base page may push out a finer one needed now), then the least
		// recently needed; pages needed this frame at the same or a coarser tier stay
		uint32_t victim = UINT32_MAX;
		for (uint32_t q = 0; q < p->count; ++q) {
			if (!p->bytes[q] || (p->used[q] >= frame && p->tier[q] <= p->tier[page])) continue;
			if (victim == UINT32_MAX || p->tier[q] > p->tier[victim] ||
			    (p->tier[q] == p->tier[victim] && p->used[q] < p->used[victim]))
				victim = q;
		}
		if (victim == UINT32_MAX) return false;
		evict(p, victim);
	}
	sinew_page_info info;
	sinew_context_page_info(p->ctx, page, &info);
	unsigned char *copy = (unsigned char *)malloc(info.size);
	if (!copy) return false;
	memcpy(copy, p->file + info.offset, info.size);
	if (sinew_context_add_page(p->ctx, page, copy, info.size, &p->err) != SINEW_RESULT_OK) {
		free(copy);
		return false;
	}
	p->bytes[page] = copy;
	p->used[page] = frame;
	p->resident += info.size;
	p->loaded++;
	if (p->resident > p->peak) p->peak = p->resident;
	return true;
}

static int cmp_u64(const void *a, const void *b) {
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t median_ns(uint64_t *v, uint64_t n) {
	if (!n) return 0;
	qsort(v, (size_t)n, sizeof *v, cmp_u64);
	return v[n / 2];
}

static sinew_context *context_over(const void *blob, size_t size, uint32_t clip, void **mem, sinew_error *err) {
	size_t need = sinew_context_size(blob, size, clip);
	*mem = need ? aligned_alloc(16, (need + 15) & ~(size_t)15) : NULL;
	sinew_context *ctx = NULL;
	if (!*mem || sinew_context_init(*mem, need, blob, size, clip, NULL, &ctx, err) != SINEW_RESULT_OK) return NULL;
	return ctx;
}

int cli_bench_stream(const cli_options *o, const void *blob, size_t size) {
	const uint32_t resident = sinew_blob_resident_size(blob, size);
	if (resident >= size) return cli_error("bench --stream needs a paged blob (sinew compress --page-bytes N)"), 2;
	const uint64_t budget = o->budget_bytes > 0 ? (uint64_t)o->budget_bytes : 65536u;
	const double prefetch = o->prefetch_s > 0 ? o->prefetch_s : 0.5, frame_dt = 1.0 / 60.0;
	// the resident part alone, as a player would fetch it first
	void *head = malloc(resident);
	if (!head) return cli_error("out of memory"), 1;
	memcpy(head, blob, resident);
	uint32_t clips = sinew_blob_clip_count(blob, size);
	cli_json j = {0, {true}};
	if (o->json)
		cli_json_begin(&j, '{'), cli_json_string(&j, "file", o->positional[0]), cli_json_uint(&j, "budget_bytes", budget),
		    cli_json_number(&j, "prefetch_seconds", prefetch), cli_json_uint(&j, "resident_part_bytes", resident),
		    cli_json_key(&j, "clips"), cli_json_begin(&j, '[');
	else
		printf("%s: %u resident bytes, page budget %llu bytes, prefetch %.2f s, 60 frames/s forward then back\n",
		       o->positional[0], resident, (unsigned long long)budget, prefetch);
	int status = 0;
	for (uint32_t c = 0; c < clips && status == 0; ++c) {
		if (o->clip && c != o->clip) continue;
		sinew_clip_info info;
		sinew_error err = {0};
		sinew_blob_clip_info(blob, size, c, &info, NULL);
		void *m0 = NULL, *m1 = NULL;
		sinew_context *stream = context_over(head, resident, c, &m0, &err);
		sinew_context *whole = stream ? context_over(blob, size, c, &m1, &err) : NULL;
		if (!whole) {
			free(m0), free(m1);
			status = 1;
			cli_error("%s", err.message);
			break;
		}
		pager p = {.ctx = stream, .file = (const unsigned char *)blob, .count = sinew_context_page_count(stream), .budget = budget};
		p.bytes = (unsigned char **)calloc(p.count, sizeof *p.bytes);
		p.size = (uint32_t *)calloc(p.count, sizeof *p.size);
		p.used = (uint64_t *)calloc(p.count, sizeof *p.used);
		p.tier = (uint32_t *)calloc(p.count, sizeof *p.tier);
		uint32_t *need = (uint32_t *)malloc(p.count * sizeof *need);
		for (uint32_t q = 0; q < p.count; ++q) {
			sinew_page_info pi;
			sinew_context_page_info(stream, q, &pi);
			p.size[q] = pi.size;
			p.tier[q] = pi.tier;
		}
		uint32_t nj = info.joint_count ? info.joint_count : 1;
		sinew_qvv *pose = (sinew_qvv *)calloc(nj, sizeof *pose);
		float *scalars = (float *)calloc((size_t)info.scalar_track_count * 4 + 1, sizeof(float));
		uint64_t frames = 0, misses = 0, ns_load = 0, over_budget = 0, timed = 0;
		const uint64_t half = (uint64_t)(info.duration / frame_dt) + 1;
		// start-up, as a player loads before it starts playing: the pages of the first prefetch window
		uint32_t n0 = sinew_context_pages_needed(stream, 0.0, prefetch, need, p.count);
		for (uint32_t i = 0; i < n0 && i < p.count && load(&p, need[i], 0); ++i) continue;
		uint64_t *t_stream = (uint64_t *)malloc(8 * half * sizeof(uint64_t)), *t_whole = t_stream + 4 * half; // 2 per frame
		for (uint64_t f = 0; f < 2 * half; ++f, ++frames) {
			const bool forward = f < half;
			double t = forward ? (double)f * frame_dt : info.duration - (double)(f - half) * frame_dt;
			if (t > info.duration) t = info.duration;
			if (t < 0) t = 0;
			// a miss: this time's base-tier pages were not resident when the frame began (a real
			// loader would stall here; the bench loads them at once and counts it)
			{
				uint32_t now[4], k = sinew_context_pages_needed(stream, t, 0.0, now, 4);
				for (uint32_t i = 0; i < k && i < 4; ++i) {
					sinew_page_info pi;
					sinew_context_page_info(stream, now[i], &pi);
					if (pi.tier == 0 && !pi.present) {
						misses++;
						break;
					}
				}
			}
			// prefetch: the pages of the next `prefetch` seconds in the playback direction
			uint64_t l0 = cli_now_ns();
			uint32_t n = sinew_context_pages_needed(stream, t, forward ? prefetch : -prefetch, need, p.count);
			for (uint32_t i = 0; i < n; ++i) p.used[need[i]] = p.bytes[need[i]] ? frames : p.used[need[i]];
			for (uint32_t i = 0; i < n && i < p.count; ++i)
				if (!load(&p, need[i], frames)) break; // the budget holds no more: the rest later
			uint64_t l1 = cli_now_ns();
			sinew_result r = sinew_sample_pose(stream, t, pose, NULL, scalars);
			uint64_t s1 = cli_now_ns();
			if (r == SINEW_RESULT_PAGE_MISSING) { // prefetch could not make room: load it now (counted above)
				uint32_t miss = sinew_context_missing_page(stream), now[4];
				// keep the base-tier pages this time needs; prefetched and finer-tier pages may go
				uint32_t k = sinew_context_pages_needed(stream, t, 0.0, now, 4);
				for (uint32_t i = 0; i < k && i < 4; ++i) {
					sinew_page_info pi;
					sinew_context_page_info(stream, now[i], &pi);
					if (pi.tier == 0) p.used[now[i]] = frames + 1;
				}
				if (!load(&p, miss, frames + 1)) over_budget++;
				r = sinew_sample_pose(stream, t, pose, NULL, scalars);
				if (r != SINEW_RESULT_OK) {
					status = 1;
					cli_error("clip %u: t %.3f: %s even after loading page %u (budget too small?)", c, t,
					          sinew_result_name(r), miss);
					break;
				}
			}
			uint64_t s2 = cli_now_ns();
			sinew_sample_pose(whole, t, pose, NULL, scalars);
			uint64_t s3 = cli_now_ns();
			ns_load += l1 - l0;
			t_stream[timed] = s1 - l1, t_whole[timed++] = s3 - s2;
			// and once more each, the other way round, so neither gains from going second
			uint64_t w0 = cli_now_ns();
			sinew_sample_pose(whole, t + 0.25 * frame_dt, pose, NULL, scalars);
			uint64_t w1 = cli_now_ns();
			if (sinew_sample_pose(stream, t + 0.25 * frame_dt, pose, NULL, scalars) != SINEW_RESULT_OK) continue;
			uint64_t w2 = cli_now_ns();
			t_whole[timed] = w1 - w0, t_stream[timed++] = w2 - w1;
		}
		if (status == 0) {
			double per_stream = (double)median_ns(t_stream, timed), per_whole = (double)median_ns(t_whole, timed);
			if (o->json) {
				cli_json_key(&j, NULL), cli_json_begin(&j, '{');
				cli_json_string(&j, "name", info.name);
				cli_json_uint(&j, "pages", p.count);
				cli_json_uint(&j, "page_bytes_max", info.page_bytes_max);
				cli_json_uint(&j, "frames", frames);
				cli_json_uint(&j, "peak_resident_bytes", p.peak);
				cli_json_uint(&j, "resident_part_bytes", info.size);
				cli_json_uint(&j, "pages_loaded", p.loaded);
				cli_json_uint(&j, "misses", misses);
				cli_json_number(&j, "ns_per_pose", per_stream);
				cli_json_number(&j, "ns_per_pose_unpaged", per_whole);
				cli_json_number(&j, "ns_per_frame_loading", (double)ns_load / (double)frames);
				cli_json_end(&j, '}');
			} else {
				printf("  clip %u '%s': %u pages (largest %u B): peak %llu B of pages resident, %llu loaded, %llu misses in "
				       "%llu frames; sampling %.0f ns/pose streamed vs %.0f ns/pose with every page (%.2fx), loading %.0f "
				       "ns/frame\n",
				       c, info.name ? info.name : "", p.count, info.page_bytes_max, (unsigned long long)p.peak,
				       (unsigned long long)p.loaded, (unsigned long long)misses, (unsigned long long)frames, per_stream,
				       per_whole, per_stream / (per_whole > 0 ? per_whole : 1), (double)ns_load / (double)frames);
			}
			if (over_budget) cli_error("clip %u: %llu times the budget could not hold the page a sample needed", c,
			                           (unsigned long long)over_budget);
		}
		for (uint32_t q = 0; q < p.count; ++q) free(p.bytes[q]);
		free(p.bytes), free(p.size), free(p.used), free(p.tier), free(need), free(pose), free(scalars), free(t_stream);
		free(m0), free(m1);
	}
	if (o->json && status == 0) cli_json_end(&j, ']'), cli_json_end(&j, '}');
	free(head);
	return status;
}

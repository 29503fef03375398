// sinew — see include/sinew.h for version and licence
// libFuzzer target: paged blobs (docs/format.md §Pages) streamed as a player would. The input is
// one flag byte then a blob. A context is made over its resident part alone (an exact-size copy,
// so ASan sees any read past it), every page is handed in from the input's bytes (each an
// exact-size copy) and must be refused or accepted cleanly, then sampling at many times either
// returns PAGE_MISSING or a pose; pages are dropped (and freed) and added again in between.
// Flag bit 0 repairs the header checksum, bit 1 the page checksums first (so the structural page
// checks are explored, not just the hash).
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/bits.h"
#include "../src/core/hash.h"
#include "sinew.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// Rewrites each page's checksum in the page tables of a plausible paged blob (bounds checked).
static void repair_pages(unsigned char *b, size_t size, uint32_t resident) {
	if (size < 32) return;
	uint32_t clips = sinewi_rd32(b + 16);
	for (uint32_t c = 0; c < clips && c < 8 && 36 + 4 * (size_t)c <= resident; ++c) {
		void *mem = NULL;
		sinew_context *ctx = NULL;
		size_t need = sinew_context_size(b, resident, c);
		if (!need || !(mem = aligned_alloc(16, (need + 15) & ~(size_t)15))) continue;
		if (sinew_context_init(mem, need, b, resident, c, NULL, &ctx, NULL) == SINEW_RESULT_OK) {
			uint32_t pages = sinew_context_page_count(ctx);
			// the page table is where the context's page info comes from: patch through its offsets
			for (uint32_t p = 0; p < pages; ++p) {
				sinew_page_info pi;
				if (sinew_context_page_info(ctx, p, &pi) != SINEW_RESULT_OK) continue;
				if ((uint64_t)pi.offset + pi.size > size) continue;
				uint32_t sum = sinewi_xxh32(b + pi.offset, pi.size, p);
				// find the entry: 20-byte entries whose offset field equals pi.offset
				for (uint32_t at = 36; at + 20 <= resident; at += 4)
					if (sinewi_rd32(b + at) == pi.first_segment && sinewi_rd32(b + at + 4) == pi.segment_count &&
					    sinewi_rd32(b + at + 8) == pi.offset && sinewi_rd32(b + at + 12) == pi.size) {
						sinewi_wr32(b + at + 16, sum);
						break;
					}
			}
		}
		free(mem);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size < 1) return 0;
	const uint8_t flags = data[0];
	size -= 1;
	unsigned char *blob = (unsigned char *)malloc(size ? size : 1);
	if (!blob) return 0;
	memcpy(blob, data + 1, size);
	uint32_t resident = sinew_blob_resident_size(blob, size);
	if (resident < 40 || resident >= size) {
		free(blob);
		return 0;
	}
	if (flags & 2) repair_pages(blob, size, resident);
	if (flags & 1) sinewi_wr32(blob + 12, sinewi_xxh32(blob + 16, resident - 16, 0));
	unsigned char *head = (unsigned char *)malloc(resident);
	memcpy(head, blob, resident);
	if (sinew_validate(head, resident, NULL) == SINEW_RESULT_OK) {
		uint32_t clips = sinew_blob_clip_count(head, resident);
		for (uint32_t c = 0; c < clips && c < 4; ++c) {
			sinew_clip_info info;
			if (sinew_blob_clip_info(head, resident, c, &info, NULL) != SINEW_RESULT_OK) abort();
			for (int random_access = 0; random_access < 2; ++random_access) {
				sinew_context_options o = {0};
				o.random_access = random_access;
				size_t need = sinew_context_size_with(head, resident, c, &o);
				if (!need) abort();
				void *mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
				sinew_context *ctx = NULL;
				if (sinew_context_init(mem, need, head, resident, c, &o, &ctx, NULL) != SINEW_RESULT_OK) abort();
				uint32_t pages = sinew_context_page_count(ctx);
				unsigned char **copies = (unsigned char **)calloc(pages ? pages : 1, sizeof *copies);
				sinew_qvv *pose = (sinew_qvv *)malloc(sizeof(sinew_qvv) * (info.joint_count ? info.joint_count : 1));
				float *scalars = (float *)malloc(sizeof(float) * 4 * (info.scalar_track_count + 1));
				for (uint32_t p = 0; p < pages && p < 64; ++p) {
					sinew_page_info pi;
					if (sinew_context_page_info(ctx, p, &pi) != SINEW_RESULT_OK) abort();
					size_t avail = pi.offset < size ? size - pi.offset : 0, n = pi.size < avail ? pi.size : avail;
					copies[p] = (unsigned char *)malloc(n ? n : 1);
					memcpy(copies[p], blob + (pi.offset < size ? pi.offset : 0), n);
					sinew_result r = sinew_context_add_page(ctx, p, copies[p], n, NULL);
					if (r == SINEW_RESULT_OK && (n != pi.size || sinew_page_check(head, resident, c, p, copies[p], n, NULL) != SINEW_RESULT_OK))
						abort(); // accepted bytes must pass the standalone check too
					if (r != SINEW_RESULT_OK) free(copies[p]), copies[p] = NULL;
				}
				for (int pass = 0; pass < 3; ++pass) {
					const int steps = pass ? 47 : 11; // counted steps: a float-accumulated loop ran for minutes on a hostile duration
					double step = info.duration > 0 ? info.duration / steps : 1.0;
					for (int k = -1; k <= steps + 1; ++k) {
						const double t = k * step;
						sinew_result r = sinew_sample_pose(ctx, t, pose, NULL, scalars);
						if (r != SINEW_RESULT_OK && r != SINEW_RESULT_PAGE_MISSING) abort();
						uint32_t want[8];
						uint32_t k = sinew_context_pages_needed(ctx, t, pass == 1 ? -0.5 : 0.5, want, 8);
						for (uint32_t i = 0; i < k && i < 8; ++i)
							if (want[i] >= pages) abort();
						if (r == SINEW_RESULT_PAGE_MISSING && sinew_context_missing_page(ctx) >= pages) abort();
					}
					// drop every other page and free its bytes: the context must never read them again
					for (uint32_t p = (uint32_t)pass & 1u; p < pages && p < 64; p += 2) {
						sinew_context_drop_page(ctx, p);
						free(copies[p]);
						copies[p] = NULL;
					}
				}
				for (uint32_t p = 0; p < pages && p < 64; ++p) free(copies[p]);
				free(copies);
				free(pose);
				free(scalars);
				free(mem);
			}
		}
	}
	free(head);
	free(blob);
	return 0;
}

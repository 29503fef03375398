// sinew — see include/sinew.h for version and licence
// pages: paged blobs (docs/format.md §pages). The paged layout decodes bit for bit like the
// unpaged one; a context over the resident part samples only what its pages hold and names the
// page it lacks; hostile pages are refused with the context unchanged; dropped pages are never
// read again (ASan sees it: their memory is freed); pages_needed covers every time it is asked for.
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "format/format_read.h"

typedef struct paged_pair {
	void *plain, *paged;
	size_t plain_size, paged_size;
	uint32_t resident;
} paged_pair;

static sinew_clip_set *long_clip(uint32_t samples, int looping) {
	sinew_clip_set *set = NULL;
	if (sinew_clip_set_create(&set, NULL) != SINEW_RESULT_OK) return NULL;
	uint32_t comps[1] = {2};
	sinew_clip_desc desc = {"long", 30, samples, 6, 1, comps};
	sinew_clip *c = NULL;
	if (sinew_clip_set_add_clip(set, &desc, &c) != SINEW_RESULT_OK) return NULL;
	c->unit_scale = 100;
	c->looping = (uint8_t)looping;
	for (uint32_t j = 0; j < 6; ++j) c->joints[j].parent = (int32_t)j - 1;
	for (uint32_t s = 0; s < samples; ++s)
		for (uint32_t j = 0; j < 6; ++j) {
			sinew_qvv *x = &c->transforms[s * 6 + j];
			double a = 0.6 * sin(0.07 * s + j) + 0.2 * sin(0.31 * s);
			x->rotation[j % 3] = (float)sin(a / 2), x->rotation[3] = (float)cos(a / 2);
			x->translation[1] = 10.0f;
			if (j == 0) x->translation[0] = (float)(40.0 * sin(0.01 * s));
		}
	for (uint32_t s = 0; s < samples * 2; ++s) c->scalar_tracks[0].values[s] = (float)(0.5 + 0.5 * sin(0.05 * s));
	return set;
}

static bool make_pair(const sinew_clip_set *set, uint32_t page_bytes, paged_pair *p) {
	sinew_compress_options o = {.segment_length = 16};
	sinew_error err = {0};
	if (sinew_compress(set, &o, NULL, &p->plain, &p->plain_size, &err) != SINEW_RESULT_OK) return false;
	o.page_bytes = page_bytes;
	if (sinew_compress(set, &o, NULL, &p->paged, &p->paged_size, &err) != SINEW_RESULT_OK) return false;
	p->resident = sinew_blob_resident_size(p->paged, p->paged_size);
	return true;
}

static void free_pair(paged_pair *p) {
	sinew_blob_free(p->plain, p->plain_size, NULL);
	sinew_blob_free(p->paged, p->paged_size, NULL);
}

static sinew_context *make_context(const void *blob, size_t size, int random_access, void **mem) {
	sinew_context_options o = {0};
	o.random_access = random_access;
	size_t need = sinew_context_size_with(blob, size, 0, &o);
	if (!need) return NULL;
	*mem = aligned_alloc(16, (need + 15) & ~(size_t)15);
	sinew_context *ctx = NULL;
	if (sinew_context_init(*mem, need, blob, size, 0, &o, &ctx, NULL) != SINEW_RESULT_OK) return NULL;
	return ctx;
}

static size_t page_size_of(const sinew_context *ctx, uint32_t page) {
	sinew_page_info pi;
	return sinew_context_page_info(ctx, page, &pi) == SINEW_RESULT_OK ? pi.size : 0u;
}

static bool same_pose(const sinew_qvv *a, const sinew_qvv *b, uint32_t n, const float *sa, const float *sb, uint32_t ns) {
	return memcmp(a, b, n * sizeof *a) == 0 && memcmp(sa, sb, ns * sizeof *sa) == 0;
}

// The paged and plain blobs of a clip sample to identical bits, whole, at every quarter sample.
static void test_pages_decode_like_unpaged(void) {
	for (int looping = 0; looping < 2; ++looping) {
		sinew_clip_set *set = long_clip(500, looping);
		paged_pair p;
		CHECK(set && make_pair(set, 512, &p));
		sinew_error err = {0};
		CHECK_OK(sinew_validate(p.paged, p.paged_size, &err), &err);
		sinew_clip_info info;
		CHECK_OK(sinew_blob_clip_info(p.paged, p.paged_size, 0, &info, &err), &err);
		CHECK(info.format_version == 3 && info.page_count > 4 && info.page_count < info.segment_count);
		CHECK(p.resident < p.paged_size && info.page_bytes_max <= 512);
		for (int ra = 0; ra < 2; ++ra) {
			void *m0 = NULL, *m1 = NULL;
			sinew_context *a = make_context(p.plain, p.plain_size, ra, &m0), *b = make_context(p.paged, p.paged_size, ra, &m1);
			CHECK(a && b);
			CHECK_EQ(sinew_context_page_count(b), info.page_count);
			sinew_qvv pa[6], pb[6];
			float sa[2], sb[2];
			for (uint32_t k = 0; k <= 4 * 501; ++k) {
				double t = k / 120.0;
				CHECK_EQ(sinew_sample_pose(a, t, pa, NULL, sa), SINEW_RESULT_OK);
				CHECK_EQ(sinew_sample_pose(b, t, pb, NULL, sb), SINEW_RESULT_OK);
				CHECK_MSG(same_pose(pa, pb, 6, sa, sb, 2), "looping %d random access %d: t %g differs", looping, ra, t);
			}
			free(m0), free(m1);
		}
		free_pair(&p);
		sinew_clip_set_free(set);
	}
}

// Copies of each page's bytes, as a streaming loader would hold them.
static unsigned char **page_copies(const paged_pair *p, sinew_context *ctx, uint32_t *count) {
	*count = sinew_context_page_count(ctx);
	unsigned char **pages = (unsigned char **)calloc(*count, sizeof *pages);
	for (uint32_t i = 0; i < *count; ++i) {
		sinew_page_info pi;
		if (sinew_context_page_info(ctx, i, &pi) != SINEW_RESULT_OK) return pages;
		pages[i] = (unsigned char *)malloc(pi.size); // exact size: ASan sees any read past the page
		memcpy(pages[i], (const unsigned char *)p->paged + pi.offset, pi.size);
	}
	return pages;
}

// From the resident part alone: missing pages are named, pages_needed lists them, added pages
// sample like the whole blob, dropped pages (then freed) are missing again.
static void test_pages_stream_from_resident_part(void) {
	sinew_clip_set *set = long_clip(600, 0);
	paged_pair p;
	CHECK(set && make_pair(set, 700, &p));
	sinew_error err = {0};
	unsigned char *resident = (unsigned char *)malloc(p.resident);
	memcpy(resident, p.paged, p.resident);
	CHECK_OK(sinew_validate(resident, p.resident, &err), &err);
	CHECK_RESULT(sinew_validate(resident, p.resident - 4, &err), SINEW_RESULT_TRUNCATED, &err);
	CHECK_RESULT(sinew_validate(p.paged, p.paged_size - 4, &err), SINEW_RESULT_TRUNCATED, &err);
	for (int ra = 0; ra < 2; ++ra) {
		void *m0 = NULL, *m1 = NULL;
		sinew_context *whole = make_context(p.paged, p.paged_size, ra, &m0);
		sinew_context *ctx = make_context(resident, p.resident, ra, &m1);
		CHECK(whole && ctx);
		uint32_t count;
		unsigned char **pages = page_copies(&p, whole, &count);
		sinew_qvv a[6], b[6];
		float sa[2], sb[2];
		memset(b, 0x7F, sizeof b);
		CHECK_EQ(sinew_context_missing_page(ctx), 0xFFFFFFFFu);
		for (uint32_t k = 0; k < 600; k += 7) {
			double t = k / 30.0;
			sinew_qvv before[6];
			memcpy(before, b, sizeof b);
			sinew_result r = sinew_sample_pose(ctx, t, b, NULL, sb);
			uint32_t need[4];
			uint32_t n = sinew_context_pages_needed(ctx, t, 0.0, need, 4);
			CHECK(n >= 1 && n <= 2);
			sinew_page_info pi;
			bool present = true;
			for (uint32_t i = 0; i < n; ++i) {
				CHECK_EQ(sinew_context_page_info(ctx, need[i], &pi), SINEW_RESULT_OK);
				present &= pi.present != 0;
			}
			if (r == SINEW_RESULT_PAGE_MISSING) {
				uint32_t missing = sinew_context_missing_page(ctx);
				CHECK(memcmp(before, b, sizeof b) == 0); // nothing written
				CHECK(!present);
				CHECK_EQ(sinew_context_page_info(ctx, missing, &pi), SINEW_RESULT_OK);
				CHECK(!pi.present && pi.start_time <= t + 1e-9 && t <= pi.end_time + 1e-9);
				for (uint32_t i = 0; i < n; ++i)
					CHECK_OK(sinew_context_add_page(ctx, need[i], pages[need[i]], page_size_of(ctx, need[i]), &err), &err);
				r = sinew_sample_pose(ctx, t, b, NULL, sb);
			}
			CHECK_EQ(r, SINEW_RESULT_OK);
			CHECK_EQ(sinew_sample_pose(whole, t, a, NULL, sa), SINEW_RESULT_OK);
			CHECK_MSG(same_pose(a, b, 6, sa, sb, 2), "t %g: streamed pose differs from the whole blob", t);
			// one joint and one scalar alone agree too
			sinew_qvv one;
			float s1[2];
			CHECK_EQ(sinew_sample_joint(ctx, t, 3, &one), SINEW_RESULT_OK);
			CHECK(memcmp(&one, &a[3], sizeof one) == 0);
			CHECK_EQ(sinew_sample_scalar(ctx, t, 0, s1), SINEW_RESULT_OK);
			CHECK(memcmp(s1, sa, sizeof s1) == 0);
			// keep at most the pages this time needs: drop the rest and free their bytes
			for (uint32_t q = 0; q < count; ++q) {
				bool needed = false;
				for (uint32_t i = 0; i < n; ++i) needed |= need[i] == q;
				CHECK_EQ(sinew_context_page_info(ctx, q, &pi), SINEW_RESULT_OK);
				if (!needed && pi.present) {
					sinew_context_drop_page(ctx, q);
					free(pages[q]);
					pages[q] = (unsigned char *)malloc(pi.size);
					memcpy(pages[q], (const unsigned char *)p.paged + pi.offset, pi.size);
				}
			}
		}
		// seeking back to the start needs page 0 again
		sinew_context_drop_page(ctx, 0);
		CHECK_EQ(sinew_sample_pose(ctx, 0.0, b, NULL, sb), SINEW_RESULT_PAGE_MISSING);
		CHECK_EQ(sinew_context_missing_page(ctx), 0);
		CHECK_EQ(sinew_sample_joint(ctx, 0.0, 0, b), SINEW_RESULT_PAGE_MISSING);
		for (uint32_t q = 0; q < count; ++q) free(pages[q]);
		free(pages);
		free(m0), free(m1);
	}
	free(resident);
	free_pair(&p);
	sinew_clip_set_free(set);
}

// Every changed byte of a page, a page given at another index, a short or long page: refused
// with a named error, and the context samples exactly as before.
static void test_pages_reject_hostile_pages(void) {
	sinew_clip_set *set = long_clip(300, 0);
	paged_pair p;
	CHECK(set && make_pair(set, 400, &p));
	void *m0 = NULL, *m1 = NULL;
	sinew_context *whole = make_context(p.paged, p.paged_size, 0, &m0);
	sinew_context *ctx = make_context(p.paged, p.resident, 0, &m1);
	CHECK(whole && ctx);
	uint32_t count;
	unsigned char **pages = page_copies(&p, whole, &count);
	CHECK(count >= 3);
	sinew_page_info pi;
	CHECK_EQ(sinew_context_page_info(ctx, 1, &pi), SINEW_RESULT_OK);
	sinew_error err = {0};
	CHECK_OK(sinew_context_add_page(ctx, 0, pages[0], page_size_of(ctx, 0), &err), &err);
	CHECK_EQ(sinew_context_page_info(ctx, 1, &pi), SINEW_RESULT_OK);
	unsigned char *bad = (unsigned char *)malloc(pi.size + 4);
	for (uint32_t i = 0; i < pi.size; ++i) {
		memcpy(bad, pages[1], pi.size);
		bad[i] ^= 0x21;
		CHECK_RESULT(sinew_context_add_page(ctx, 1, bad, pi.size, &err), SINEW_RESULT_CHECKSUM, &err);
		CHECK_RESULT(sinew_page_check(p.paged, p.resident, 0, 1, bad, pi.size, &err), SINEW_RESULT_CHECKSUM, &err);
	}
	CHECK_RESULT(sinew_context_add_page(ctx, 1, pages[1], pi.size - 4, &err), SINEW_RESULT_TRUNCATED, &err);
	memcpy(bad, pages[1], pi.size);
	memset(bad + pi.size, 0, 4);
	CHECK_RESULT(sinew_context_add_page(ctx, 1, bad, pi.size + 4, &err), SINEW_RESULT_CORRUPT, &err);
	// every other page's bytes, as they are, at every index but its own: refused for their size, or (the
	// same size, other bytes) for the checksum; both must happen (this clip's pages are 208 to 256 bytes)
	uint32_t by_size = 0, by_checksum = 0;
	for (uint32_t i = 1; i < count; ++i)
		for (uint32_t q = 0; q < count; ++q) {
			sinew_page_info at, from;
			CHECK_EQ(sinew_context_page_info(ctx, i, &at), SINEW_RESULT_OK);
			CHECK_EQ(sinew_context_page_info(ctx, q, &from), SINEW_RESULT_OK);
			if (q == i || (at.size == from.size && memcmp(pages[q], pages[i], at.size) == 0)) continue;
			sinew_result want = from.size < at.size ? SINEW_RESULT_TRUNCATED : from.size > at.size ? SINEW_RESULT_CORRUPT : SINEW_RESULT_CHECKSUM;
			CHECK_RESULT(sinew_context_add_page(ctx, i, pages[q], from.size, &err), want, &err);
			CHECK_RESULT(sinew_page_check(p.paged, p.resident, 0, i, pages[q], from.size, &err), want, &err);
			if (want == SINEW_RESULT_CHECKSUM) ++by_checksum;
			else ++by_size;
		}
	CHECK_MSG(by_size > 0 && by_checksum > 0, "other pages at an index: %u refused by size, %u by checksum (both must be reached)",
	          by_size, by_checksum);
	CHECK_RESULT(sinew_context_add_page(ctx, count, pages[1], pi.size, &err), SINEW_RESULT_OUT_OF_RANGE, &err);
	CHECK_RESULT(sinew_context_add_page(ctx, 1, NULL, pi.size, &err), SINEW_RESULT_INVALID_ARGUMENT, &err);
	CHECK_OK(sinew_page_check(p.paged, p.resident, 0, 1, pages[1], pi.size, &err), &err);
	// the context is as it was: page 0 present and sampling like the whole blob, page 1 absent
	CHECK_EQ(sinew_context_page_info(ctx, 1, &pi), SINEW_RESULT_OK);
	CHECK(!pi.present);
	sinew_qvv a[6], b[6];
	float sa[2], sb[2];
	CHECK_EQ(sinew_sample_pose(ctx, 0.1, b, NULL, sb), SINEW_RESULT_OK);
	CHECK_EQ(sinew_sample_pose(whole, 0.1, a, NULL, sa), SINEW_RESULT_OK);
	CHECK(same_pose(a, b, 6, sa, sb, 2));
	CHECK_EQ(sinew_sample_pose(ctx, pi.start_time + 0.5 * (pi.end_time - pi.start_time), b, NULL, sb),
	         SINEW_RESULT_PAGE_MISSING);
	CHECK_EQ(sinew_context_missing_page(ctx), 1);
	// an unpaged clip has no pages
	void *m2 = NULL;
	sinew_context *plain = make_context(p.plain, p.plain_size, 0, &m2);
	CHECK(plain && sinew_context_page_count(plain) == 0);
	CHECK_RESULT(sinew_context_add_page(plain, 0, pages[0], 16, &err), SINEW_RESULT_OUT_OF_RANGE, &err);
	CHECK_EQ(sinew_context_pages_needed(plain, 0.0, 1.0, NULL, 0), 0);
	free(bad);
	for (uint32_t q = 0; q < count; ++q) free(pages[q]);
	free(pages);
	free(m0), free(m1), free(m2);
	free_pair(&p);
	sinew_clip_set_free(set);
}

// A clip that repeats every segment for six segments, then repeats a motion 2 % smaller: pages of the
// first part are byte for byte the same, the later ones differ with the same size. A page is checked by its
// bytes against the page table entry of the index it is handed in at (size, XXH32 seeded with that index,
// structure): the entries of two identical pages differ (the seed), yet either page's bytes pass under the
// other's index, since they are exactly that page, and sample like the whole blob; a page of the same size
// with other bytes is refused under that index by its checksum, and the context stays as it was.
static void test_pages_identical_bytes_at_another_index_are_that_page(void) {
	const uint32_t period = 16, segments = 10;
	sinew_clip_set *set = NULL;
	CHECK(sinew_clip_set_create(&set, NULL) == SINEW_RESULT_OK);
	sinew_clip_desc desc = {"periodic", 30, period * segments + 1, 4, 0, NULL};
	sinew_clip *c = NULL;
	CHECK(sinew_clip_set_add_clip(set, &desc, &c) == SINEW_RESULT_OK);
	c->unit_scale = 100;
	for (uint32_t j = 0; j < 4; ++j) c->joints[j].parent = (int32_t)j - 1;
	for (uint32_t s = 0; s < c->sample_count; ++s)
		for (uint32_t j = 0; j < 4; ++j) {
			sinew_qvv *x = &c->transforms[s * 4 + j];
			const double amplitude = s < period * 6 ? 0.7 : 0.686;
			double a = amplitude * sin(6.283185307179586 * (double)(s % period) / period + j);
			x->rotation[j % 3] = (float)sin(a / 2), x->rotation[3] = (float)cos(a / 2);
			x->translation[1] = 10.0f;
			x->translation[0] = (float)(5.0 * cos(6.283185307179586 * (double)(s % period) / period));
		}
	sinew_compress_options o = {.segment_length = period, .page_bytes = 64}; // one segment per page
	void *blob = NULL;
	size_t size = 0;
	sinew_error err = {0};
	CHECK_OK(sinew_compress(set, &o, NULL, &blob, &size, &err), &err);
	void *m0 = NULL, *m1 = NULL;
	const uint32_t resident = sinew_blob_resident_size(blob, size);
	sinew_context *whole = make_context(blob, size, 0, &m0);
	sinew_context *ctx = make_context(blob, resident, 0, &m1);
	CHECK(whole && ctx);
	const unsigned char *bytes = (const unsigned char *)blob;
	uint32_t count = sinew_context_page_count(ctx), a = count, b = count, other = count;
	CHECK(count >= 4);
	sinew_page_info pa, pb, po;
	for (uint32_t i = 0; i < count && a == count; ++i)
		for (uint32_t k = i + 1; k < count && a == count; ++k) {
			CHECK_EQ(sinew_context_page_info(ctx, i, &pa), SINEW_RESULT_OK);
			CHECK_EQ(sinew_context_page_info(ctx, k, &pb), SINEW_RESULT_OK);
			if (pa.size == pb.size && memcmp(bytes + pa.offset, bytes + pb.offset, pa.size) == 0) a = i, b = k;
		}
	CHECK_MSG(a < count, "no two pages of the periodic clip are byte for byte the same (%u pages)", count);
	CHECK_EQ(sinew_context_page_info(ctx, a, &pa), SINEW_RESULT_OK);
	CHECK_EQ(sinew_context_page_info(ctx, b, &pb), SINEW_RESULT_OK);
	for (uint32_t i = 0; i < count && other == count; ++i) {
		CHECK_EQ(sinew_context_page_info(ctx, i, &po), SINEW_RESULT_OK);
		if (po.size == pa.size && memcmp(bytes + po.offset, bytes + pa.offset, pa.size) != 0) other = i;
	}
	CHECK_MSG(other < count, "no page of the clip has page %u's size and other bytes (%u pages)", a, count);
	// the page table: each entry's checksum is XXH32 of the bytes seeded with its own index, so the
	// entries of the two identical pages differ
	sinewi_clip_view view;
	CHECK_OK(sinewi_read_clip(bytes, resident, 0, &view, &err), &err);
	sinewi_page_entry ea, eb;
	sinewi_page_entry_of(&view, a, &ea);
	sinewi_page_entry_of(&view, b, &eb);
	CHECK(ea.checksum == sinewi_xxh32(bytes + pa.offset, pa.size, a) && eb.checksum == sinewi_xxh32(bytes + pb.offset, pb.size, b));
	CHECK(ea.checksum != eb.checksum);
	unsigned char *page = (unsigned char *)malloc(pa.size);
	sinew_qvv q[4], w[4];
	const double mid = 0.5 * (pa.start_time + pa.end_time);
	// the same-size page with other bytes, under index a: refused by its checksum, nothing changes
	memcpy(page, bytes + po.offset, pa.size);
	CHECK_RESULT(sinew_page_check(blob, resident, 0, a, page, pa.size, &err), SINEW_RESULT_CHECKSUM, &err);
	CHECK_RESULT(sinew_context_add_page(ctx, a, page, pa.size, &err), SINEW_RESULT_CHECKSUM, &err);
	CHECK_EQ(sinew_sample_pose(ctx, mid, q, NULL, NULL), SINEW_RESULT_PAGE_MISSING);
	// page b's bytes under index a: they are page a's, so accepted, and they sample like the whole blob
	memcpy(page, bytes + pb.offset, pa.size);
	CHECK_OK(sinew_page_check(blob, resident, 0, a, page, pa.size, &err), &err);
	CHECK_OK(sinew_context_add_page(ctx, a, page, pa.size, &err), &err);
	for (double t = pa.start_time; t <= pa.end_time; t += 0.25 / c->sample_rate) {
		CHECK_EQ(sinew_sample_pose(ctx, t, q, NULL, NULL), SINEW_RESULT_OK);
		CHECK_EQ(sinew_sample_pose(whole, t, w, NULL, NULL), SINEW_RESULT_OK);
		CHECK_MSG(memcmp(q, w, sizeof q) == 0, "page %u's bytes under index %u: t %g samples differently", b, a, t);
	}
	// one byte different from page a: refused at a, the context as it was
	sinew_context_drop_page(ctx, a);
	page[pa.size / 2] ^= 0x10;
	CHECK_RESULT(sinew_context_add_page(ctx, a, page, pa.size, &err), SINEW_RESULT_CHECKSUM, &err);
	CHECK_EQ(sinew_sample_pose(ctx, mid, q, NULL, NULL), SINEW_RESULT_PAGE_MISSING);
	free(page);
	free(m0), free(m1);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

// pages_needed(t, h) holds the page of every time in [t, t + h] (backward for h < 0, wrapping
// for looping clips), lists no page twice, and starts with a page t itself needs.
static void test_pages_needed_covers_the_horizon(void) {
	for (int looping = 0; looping < 2; ++looping) {
		sinew_clip_set *set = long_clip(400, looping);
		paged_pair p;
		CHECK(set && make_pair(set, 300, &p));
		void *m0 = NULL, *m1 = NULL;
		sinew_context *whole = make_context(p.paged, p.paged_size, 0, &m0);
		sinew_context *ctx = make_context(p.paged, p.resident, 0, &m1);
		CHECK(whole && ctx);
		uint32_t count;
		unsigned char **pages = page_copies(&p, whole, &count);
		sinew_clip_info info;
		CHECK_EQ(sinew_blob_clip_info(p.paged, p.paged_size, 0, &info, NULL), SINEW_RESULT_OK);
		uint32_t rng = 12345;
		for (int trial = 0; trial < 300; ++trial) {
			rng = rng * 1103515245u + 12345u;
			double t = (rng >> 8) % 100000 / 100000.0 * info.duration * (looping ? 2.0 : 1.0);
			rng = rng * 1103515245u + 12345u;
			double h = ((rng >> 8) % 2000 / 1000.0 - 1.0) * 3.0;
			uint32_t need[256];
			uint32_t n = sinew_context_pages_needed(ctx, t, h, need, 256);
			CHECK(n >= 1 && n <= count);
			for (uint32_t i = 0; i < n; ++i)
				for (uint32_t k = i + 1; k < n; ++k) CHECK_MSG(need[i] != need[k], "page %u listed twice", need[i]);
			for (uint32_t q = 0; q < count; ++q) sinew_context_drop_page(ctx, q);
			sinew_page_info pi;
			for (uint32_t i = 0; i < n; ++i) {
				CHECK_EQ(sinew_context_page_info(ctx, need[i], &pi), SINEW_RESULT_OK);
				CHECK_EQ(sinew_context_add_page(ctx, need[i], pages[need[i]], pi.size, NULL), SINEW_RESULT_OK);
			}
			sinew_qvv b[6];
			float sb[2];
			for (int k = 0; k <= 64; ++k) {
				double u = t + h * k / 64.0;
				if (!looping && (u < 0 || u > info.duration)) continue;
				if (looping) u = fmod(u, info.duration) + (u < 0 ? info.duration : 0);
				CHECK_MSG(sinew_sample_pose(ctx, u, b, NULL, sb) == SINEW_RESULT_OK,
				          "looping %d: t %g h %g: time %g needs page %u, not listed", looping, t, h, u,
				          sinew_context_missing_page(ctx));
			}
			uint32_t here[4]; // the list starts with a page the time itself needs
			uint32_t nh = sinew_context_pages_needed(ctx, t, 0.0, here, 4);
			CHECK(nh >= 1 && nh <= 2 && (need[0] == here[0] || (nh == 2 && need[0] == here[1])));
		}
		for (uint32_t q = 0; q < count; ++q) free(pages[q]);
		free(pages);
		free(m0), free(m1);
		free_pair(&p);
		sinew_clip_set_free(set);
	}
}

// A real clip (data/cmu_01_01.bvh, 23 s at 120 Hz) at 4 KB and 64 KB pages: pages stay under
// the target when a segment allows, the paged blob costs little more than the plain one, and the
// whole blob samples like the plain one.
static void test_pages_real_mocap(void) {
	char path[1024];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(test_repo_path("data/cmu_01_01.bvh", path, sizeof path), NULL, NULL, &set, &err), &err);
	for (uint32_t target = 4096; target <= 65536; target *= 16) {
		paged_pair p;
		sinew_compress_options o = {0};
		CHECK_OK(sinew_compress(set, &o, NULL, &p.plain, &p.plain_size, &err), &err);
		o.page_bytes = target;
		CHECK_OK(sinew_compress(set, &o, NULL, &p.paged, &p.paged_size, &err), &err);
		p.resident = sinew_blob_resident_size(p.paged, p.paged_size);
		CHECK_OK(sinew_validate(p.paged, p.paged_size, &err), &err);
		sinew_clip_info info;
		CHECK_OK(sinew_blob_clip_info(p.paged, p.paged_size, 0, &info, &err), &err);
		printf("    %u-byte pages: %u pages (largest %u), resident %u, %zu bytes vs %zu unpaged\n", target, info.page_count,
		       info.page_bytes_max, p.resident, p.paged_size, p.plain_size);
		CHECK(info.page_bytes_max <= target);
		CHECK(p.paged_size < p.plain_size + p.plain_size / 50); // under 2 % more
		CHECK(p.resident < p.paged_size / 10);
		void *m0 = NULL, *m1 = NULL;
		sinew_context *a = make_context(p.plain, p.plain_size, 0, &m0), *b = make_context(p.paged, p.paged_size, 0, &m1);
		CHECK(a && b);
		sinew_qvv pa[64], pb[64];
		CHECK(info.joint_count <= 64);
		for (double t = 0; t <= info.duration; t += 0.0173) {
			sinew_sample_pose(a, t, pa, NULL, NULL);
			sinew_sample_pose(b, t, pb, NULL, NULL);
			CHECK_MSG(memcmp(pa, pb, info.joint_count * sizeof *pa) == 0, "t %g differs", t);
		}
		free(m0), free(m1);
		free_pair(&p);
	}
	sinew_clip_set_free(set);
}

// Every byte of the resident part changed (checksum refreshed): the validator refuses it, or a
// context over it takes the real pages or refuses them, and samples within its memory (ASan).
static void test_pages_resident_byte_changes_are_safe(void) {
	sinew_clip_set *set = long_clip(120, 1);
	paged_pair p;
	CHECK(set && make_pair(set, 300, &p));
	void *m0 = NULL;
	sinew_context *whole = make_context(p.paged, p.paged_size, 0, &m0);
	CHECK(whole);
	uint32_t count;
	unsigned char **pages = page_copies(&p, whole, &count);
	size_t accepted = 0;
	unsigned char *copy = (unsigned char *)malloc(p.resident);
	for (uint32_t i = 16; i < p.resident; ++i) {
		memcpy(copy, p.paged, p.resident);
		copy[i] ^= (unsigned char)(1u << (i % 8));
		uint32_t sum = sinewi_xxh32(copy + 16, p.resident - 16, 0); // refreshed over the resident part
		memcpy(copy + 12, &sum, 4);
		if (sinew_validate(copy, p.resident, NULL) != SINEW_RESULT_OK) continue;
		accepted++;
		void *m1 = NULL;
		sinew_context *ctx = make_context(copy, p.resident, (int)(i & 1), &m1);
		CHECK(ctx);
		uint32_t n = sinew_context_page_count(ctx);
		for (uint32_t q = 0; q < n && q < count; ++q) {
			sinew_page_info pi, real;
			CHECK_EQ(sinew_context_page_info(ctx, q, &pi), SINEW_RESULT_OK);
			CHECK_EQ(sinew_context_page_info(whole, q, &real), SINEW_RESULT_OK);
			sinew_context_add_page(ctx, q, pages[q], real.size, NULL); // may be refused
		}
		sinew_qvv pose[6];
		float sc[2];
		for (double t = -0.1; t < 4.5; t += 0.037) {
			sinew_result r = sinew_sample_pose(ctx, t, pose, NULL, sc);
			CHECK(r == SINEW_RESULT_OK || r == SINEW_RESULT_PAGE_MISSING);
		}
		free(m1);
	}
	printf("    %zu of %u changed resident parts pass validation and stream safely\n", accepted, p.resident - 16);
	free(copy);
	for (uint32_t q = 0; q < count; ++q) free(pages[q]);
	free(pages);
	free(m0);
	free_pair(&p);
	sinew_clip_set_free(set);
}

// Quality tiers on a real clip (data/cmu_01_01.bvh, --tiers 0.1,0.03,0.01): each tier's pages
// cost less than the next finer one's; with tiers 0..k the clip plays within bound k, measured
// against the source through the decoder; a context over the resident part plays the base tier
// alone, a finer page lifts its segments to the finer tier (the same bits as a context limited to
// those tiers) and dropping it falls back to the base tier's bits exactly.
static void test_pages_quality_tiers(void) {
	char path[1024];
	sinew_clip_set *set = NULL;
	sinew_error err = {0};
	CHECK_OK(sinew_import_file(test_repo_path("data/cmu_01_01.bvh", path, sizeof path), NULL, NULL, &set, &err), &err);
	const sinew_clip *src = set->clips[0];
	const uint32_t seg = 40; // (the default; the finer page's samples are counted below)
	sinew_compress_options o = {.tier_count = 3, .tier_error_cm = {0.1, 0.03, 0.01}, .page_bytes = 16384, .segment_length = seg};
	void *blob = NULL;
	size_t size = 0;
	CHECK_OK(sinew_compress(set, &o, NULL, &blob, &size, &err), &err);
	CHECK_OK(sinew_validate(blob, size, &err), &err);
	sinew_clip_info info;
	CHECK_OK(sinew_blob_clip_info(blob, size, 0, &info, &err), &err);
	CHECK_EQ(info.tier_count, 3);
	printf("    tiers 0.1/0.03/0.01 cm: %u / %u / %u bytes of pages, resident %u\n", info.tier_bytes[0], info.tier_bytes[1],
	       info.tier_bytes[2], info.size);
	CHECK(info.tier_bytes[0] < info.tier_bytes[1] && info.tier_bytes[1] < info.tier_bytes[2]);
	for (uint32_t k = 0; k < 3; ++k) {
		sinew_metric_options mo = {.shell_distance = 0.03 * src->unit_scale, .threshold = 0.0001 * src->unit_scale, .tiers = k + 1};
		sinew_error_stats st;
		CHECK_OK(sinew_measure_blob_error(src, blob, size, 0, &mo, NULL, &st, &err), &err);
		double cm = st.max_error / src->unit_scale * 100.0;
		printf("    tiers 0..%u: max error %.5f cm (bound %g)\n", k, cm, o.tier_error_cm[k]);
		CHECK(cm <= o.tier_error_cm[k] * 1.0001);
		CHECK(cm <= info.tier_bound_cm[k] * 1.0001 && info.tier_error_cm[k] <= info.tier_bound_cm[k] * 1.0001);
		if (k > 0) CHECK(cm < o.tier_error_cm[k - 1]);
	}
	// streaming: base tier only, then one finer page
	const uint32_t resident = sinew_blob_resident_size(blob, size);
	sinew_context_options base = {.tiers = 1}, two = {.tiers = 2};
	void *mb = NULL, *m2 = NULL, *ms = NULL;
	sinew_context *ref0 = NULL, *ref1 = NULL, *ctx = NULL;
	size_t nb = sinew_context_size_with(blob, size, 0, &base), n2 = sinew_context_size_with(blob, size, 0, &two);
	size_t ns = sinew_context_size(blob, resident, 0);
	mb = aligned_alloc(16, (nb + 15) & ~(size_t)15), m2 = aligned_alloc(16, (n2 + 15) & ~(size_t)15);
	ms = aligned_alloc(16, (ns + 15) & ~(size_t)15);
	CHECK_OK(sinew_context_init(mb, nb, blob, size, 0, &base, &ref0, &err), &err);
	CHECK_OK(sinew_context_init(m2, n2, blob, size, 0, &two, &ref1, &err), &err);
	CHECK_OK(sinew_context_init(ms, ns, blob, resident, 0, NULL, &ctx, &err), &err);
	uint32_t pages = sinew_context_page_count(ctx), first_fine = UINT32_MAX;
	sinew_page_info pi;
	for (uint32_t p = 0; p < pages; ++p) {
		CHECK_EQ(sinew_context_page_info(ctx, p, &pi), SINEW_RESULT_OK);
		if (pi.tier == 0) CHECK_OK(sinew_context_add_page(ctx, p, (const unsigned char *)blob + pi.offset, pi.size, &err), &err);
		if (pi.tier == 1 && first_fine == UINT32_MAX) first_fine = p;
	}
	CHECK(first_fine != UINT32_MAX);
	sinew_page_info fine;
	CHECK_EQ(sinew_context_page_info(ctx, first_fine, &fine), SINEW_RESULT_OK);
	sinew_qvv a[64], b[64];
	CHECK(info.joint_count <= 64);
	for (int step = 0; step < 3; ++step) {
		if (step == 1) CHECK_OK(sinew_context_add_page(ctx, first_fine, (const unsigned char *)blob + fine.offset, fine.size, &err), &err);
		if (step == 2) sinew_context_drop_page(ctx, first_fine);
		for (double t = 0; t < info.duration; t += 0.0437) {
			CHECK_EQ(sinew_sample_pose(ctx, t, b, NULL, NULL), SINEW_RESULT_OK); // the base tier plays everywhere
			bool lifted = step == 1 && t * info.sample_rate >= fine.first_segment * (double)seg &&
			              t * info.sample_rate < (fine.first_segment + fine.segment_count) * (double)seg;
			sinew_sample_pose(lifted ? ref1 : ref0, t, a, NULL, NULL);
			CHECK_MSG(memcmp(a, b, info.joint_count * sizeof *a) == 0, "step %d t %g: not the bits of tier %d", step, t,
			          lifted ? 1 : 0);
		}
	}
	// the prefetch list has every base page of a range before any finer one
	uint32_t need[64];
	uint32_t n = sinew_context_pages_needed(ctx, 0.0, 2.0, need, 64);
	bool finer_seen = false;
	for (uint32_t i = 0; i < n && i < 64; ++i) {
		CHECK_EQ(sinew_context_page_info(ctx, need[i], &pi), SINEW_RESULT_OK);
		if (pi.tier > 0) finer_seen = true;
		else CHECK_MSG(!finer_seen, "a base page after a finer one");
	}
	CHECK(finer_seen);
	free(mb), free(m2), free(ms);
	sinew_blob_free(blob, size, NULL);
	sinew_clip_set_free(set);
}

void suite_pages(void) {
	RUN(test_pages_decode_like_unpaged);
	RUN(test_pages_stream_from_resident_part);
	RUN(test_pages_reject_hostile_pages);
	RUN(test_pages_identical_bytes_at_another_index_are_that_page);
	RUN(test_pages_needed_covers_the_horizon);
	RUN(test_pages_resident_byte_changes_are_safe);
	RUN(test_pages_real_mocap);
	RUN(test_pages_quality_tiers);
}
